// aclnnAbs (ops-math math/abs/docs/aclnnAbs.md): out = |self|.
#include <cmath>

#include "aclnnop/aclnn_abs.h"
#include "runtime/aclnn/ops/unary_op.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnAbs", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL}, "out = |self|"};
const OpRegistrar kRegistrar(kInfo);

template <typename T>
void apply(T* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = std::abs(v[i]);
}

void applyInt(int64_t* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = v[i] < 0 ? static_cast<int64_t>(0ull - static_cast<uint64_t>(v[i])) : v[i];
}

const UnaryDef kDef{&kInfo, apply<float>, apply<double>, applyInt, 1};

}  // namespace
}  // namespace npusim::aclnn

NPUSIM_ACLNN_UNARY(Abs, npusim::aclnn::kDef)

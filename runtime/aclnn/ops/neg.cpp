// aclnnNeg (ops-math math/neg/docs/aclnnNeg&aclnnInplaceNeg.md): out = -self.
#include <cmath>

#include "aclnnop/aclnn_neg.h"
#include "runtime/aclnn/ops/unary_op.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnNeg", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_INT32, ACL_INT64}, "out = -self"};
const OpRegistrar kRegistrar(kInfo);

template <typename T>
void apply(T* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = -v[i];
}

void applyInt(int64_t* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<int64_t>(0ull - static_cast<uint64_t>(v[i]));
}

const UnaryDef kDef{&kInfo, apply<float>, apply<double>, applyInt, 1};

}  // namespace
}  // namespace npusim::aclnn

NPUSIM_ACLNN_UNARY(Neg, npusim::aclnn::kDef)
NPUSIM_ACLNN_UNARY_INPLACE(Neg, npusim::aclnn::kDef)

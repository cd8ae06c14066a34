// aclnnSqrt (ops-math math/sqrt/docs/aclnnSqrt&aclnnInplaceSqrt.md): out = sqrt(self).
#include <cmath>

#include "aclnnop/aclnn_sqrt.h"
#include "runtime/aclnn/ops/unary_op.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnSqrt", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL}, "out = sqrt(self)"};
const OpRegistrar kRegistrar(kInfo);

template <typename T>
void apply(T* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = std::sqrt(v[i]);
}

const UnaryDef kDef{&kInfo, apply<float>, apply<double>, nullptr, 1};

}  // namespace
}  // namespace npusim::aclnn

NPUSIM_ACLNN_UNARY(Sqrt, npusim::aclnn::kDef)
NPUSIM_ACLNN_UNARY_INPLACE(Sqrt, npusim::aclnn::kDef)

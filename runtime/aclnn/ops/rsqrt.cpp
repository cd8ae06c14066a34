// aclnnRsqrt (ops-math math/rsqrt/docs/aclnnRsqrt&aclnnInplaceRsqrt.md): out = 1 / sqrt(self).
#include <cmath>

#include "aclnnop/aclnn_rsqrt.h"
#include "runtime/aclnn/ops/unary_op.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnRsqrt", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL}, "out = 1 / sqrt(self)"};
const OpRegistrar kRegistrar(kInfo);

template <typename T>
void apply(T* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = T(1) / std::sqrt(v[i]);
}

const UnaryDef kDef{&kInfo, apply<float>, apply<double>, nullptr, 2};

}  // namespace
}  // namespace npusim::aclnn

NPUSIM_ACLNN_UNARY(Rsqrt, npusim::aclnn::kDef)
NPUSIM_ACLNN_UNARY_INPLACE(Rsqrt, npusim::aclnn::kDef)

// aclnnGelu (ops-nn activation/gelu/docs/aclnnGelu.md): out = self * (1 + erf(self / sqrt(2))) / 2.
#include <cmath>

#include "aclnnop/aclnn_gelu.h"
#include "runtime/aclnn/ops/unary_op.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnGelu", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, "out = self * (1 + erf(self / sqrt(2))) / 2"};
const OpRegistrar kRegistrar(kInfo);

template <typename T>
void apply(T* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = T(0.5) * v[i] * (T(1) + std::erf(v[i] * T(0.70710678118654752)));
}

const UnaryDef kDef{&kInfo, apply<float>, apply<double>, nullptr, 6};

}  // namespace
}  // namespace npusim::aclnn

NPUSIM_ACLNN_UNARY(Gelu, npusim::aclnn::kDef)

// aclnnGelu (ops-nn activation/gelu/README.md): the tanh approximation of GELU,
// out = 0.5 * self * (1 + tanh(sqrt(2 / pi) * (self + 0.044715 * self^3))), not the erf form.
#include <cmath>

#include "aclnnop/aclnn_gelu.h"
#include "runtime/aclnn/ops/unary_op.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnGelu",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                   "out = 0.5 * self * (1 + tanh(sqrt(2 / pi) * (self + 0.044715 * self^3)))"};
const OpRegistrar kRegistrar(kInfo);

template <typename T>
void apply(T* v, int64_t n) {
  const T k = T(0.79788456080286535588);  // sqrt(2 / pi)
  for (int64_t i = 0; i < n; ++i) {
    const T x = v[i];
    v[i] = T(0.5) * x * (T(1) + std::tanh(k * (x + T(0.044715) * x * x * x)));
  }
}

const UnaryDef kDef{&kInfo, apply<float>, apply<double>, nullptr, 6};

}  // namespace
}  // namespace npusim::aclnn

NPUSIM_ACLNN_UNARY(Gelu, npusim::aclnn::kDef)

// aclnnSigmoid (ops-nn activation/sigmoid/docs/aclnnSigmoid&aclnnInplaceSigmoid.md): out = 1 / (1 + exp(-self)).
#include <cmath>

#include "aclnnop/aclnn_sigmoid.h"
#include "runtime/aclnn/ops/unary_op.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnSigmoid", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}, "out = 1 / (1 + exp(-self))"};
const OpRegistrar kRegistrar(kInfo);

template <typename T>
void apply(T* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = T(1) / (T(1) + std::exp(-v[i]));
}

const UnaryDef kDef{&kInfo, apply<float>, apply<double>, nullptr, 4};

}  // namespace
}  // namespace npusim::aclnn

NPUSIM_ACLNN_UNARY(Sigmoid, npusim::aclnn::kDef)
NPUSIM_ACLNN_UNARY_INPLACE(Sigmoid, npusim::aclnn::kDef)

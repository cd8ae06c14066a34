// aclnnTanh (ops-math math/tanh/docs/aclnnTanh&aclnnInplaceTanh.md): out = tanh(self).
#include <cmath>

#include "aclnnop/aclnn_tanh.h"
#include "runtime/aclnn/ops/unary_op.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnTanh", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}, "out = tanh(self)"};
const OpRegistrar kRegistrar(kInfo);

template <typename T>
void apply(T* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = std::tanh(v[i]);
}

const UnaryDef kDef{&kInfo, apply<float>, apply<double>, nullptr, 4};

}  // namespace
}  // namespace npusim::aclnn

NPUSIM_ACLNN_UNARY(Tanh, npusim::aclnn::kDef)
NPUSIM_ACLNN_UNARY_INPLACE(Tanh, npusim::aclnn::kDef)

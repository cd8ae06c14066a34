// Gradients of the inverse trigonometric and hyperbolic functions (ops-math experimental/math
// acos_grad, acos_grad_v2, acosh_grad, asin_grad, asinh_grad; issue 28): out = dy * f'(y) on the
// activation-gradient engine, which owns broadcasting, types and the cost model. The public
// definitions name the forward input (acos, asin) or the forward output (acosh, asinh) y:
//   acos:  -dy / sqrt(1 - y^2)     asin:  dy / sqrt(1 - y^2)     (y = x, the forward input)
//   acosh:  dy / sinh(y)           asinh: dy / cosh(y)           (y = the forward result)
// Types: fp32, fp16, bf16 (each op_host/<op>_def.cpp); computed in fp32 and rounded once.
#include <cmath>

#include "aclnnop/aclnn_acos_grad.h"
#include "aclnnop/aclnn_acos_grad_v2.h"
#include "aclnnop/aclnn_acosh_grad.h"
#include "aclnnop/aclnn_asin_grad.h"
#include "aclnnop/aclnn_asinh_grad.h"
#include "runtime/aclnn/ops/activation_grad_op.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kNnFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

double dAcos(double x, const GradParams&) { return -1 / std::sqrt(1 - x * x); }
double dAsin(double x, const GradParams&) { return 1 / std::sqrt(1 - x * x); }
double dAcoshOfResult(double y, const GradParams&) { return 1 / std::sinh(y); }
double dAsinhOfResult(double y, const GradParams&) { return 1 / std::cosh(y); }

const OpInfo kAcosGrad{"aclnnAcosGrad", ExecUnit::kVector, kNnFloats, "x_grad = -y_grad / sqrt(1 - x^2)"};
const OpInfo kAcosGradV2{"aclnnAcosGradV2", ExecUnit::kVector, kNnFloats, "z = -dy / sqrt(1 - y^2)"};
const OpInfo kAcoshGrad{"aclnnAcoshGrad", ExecUnit::kVector, kNnFloats, "dx = dy / sinh(y)"};
const OpInfo kAsinGrad{"aclnnAsinGrad", ExecUnit::kVector, kNnFloats, "z = dy / sqrt(1 - y^2)"};
const OpInfo kAsinhGrad{"aclnnAsinhGrad", ExecUnit::kVector, kNnFloats, "z = dy / cosh(y)"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kAcosGrad), OpRegistrar(kAcosGradV2), OpRegistrar(kAcoshGrad),
                                   OpRegistrar(kAsinGrad), OpRegistrar(kAsinhGrad)};

// Vector passes: square, subtract, sqrt, divide (and negate) / exp-based sinh or cosh, divide.
const GradDef kAcosGradDef{&kAcosGrad, dAcos, 5};
const GradDef kAcosGradV2Def{&kAcosGradV2, dAcos, 5};
const GradDef kAcoshGradDef{&kAcoshGrad, dAcoshOfResult, 5};
const GradDef kAsinGradDef{&kAsinGrad, dAsin, 4};
const GradDef kAsinhGradDef{&kAsinhGrad, dAsinhOfResult, 5};

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::buildActivationGrad;

extern "C" aclnnStatus aclnnAcosGradGetWorkspaceSize(const aclTensor* y_grad, const aclTensor* x,
                                                     const aclTensor* x_grad, uint64_t* ws,
                                                     aclOpExecutor** ex) {
  return buildActivationGrad(npusim::aclnn::kAcosGradDef,
                             {"aclnnAcosGradGetWorkspaceSize", "y_grad", "x", "x_grad"}, y_grad, x, x_grad,
                             ws, ex);
}
NPUSIM_ACLNN_PHASE2(AcosGrad)

extern "C" aclnnStatus aclnnAcosGradV2GetWorkspaceSize(const aclTensor* y, const aclTensor* dy,
                                                       const aclTensor* z, uint64_t* ws, aclOpExecutor** ex) {
  return buildActivationGrad(npusim::aclnn::kAcosGradV2Def,
                             {"aclnnAcosGradV2GetWorkspaceSize", "dy", "y", "z"}, dy, y, z, ws, ex);
}
NPUSIM_ACLNN_PHASE2(AcosGradV2)

extern "C" aclnnStatus aclnnAcoshGradGetWorkspaceSize(const aclTensor* y, const aclTensor* dy,
                                                      const aclTensor* dx, uint64_t* ws, aclOpExecutor** ex) {
  return buildActivationGrad(npusim::aclnn::kAcoshGradDef,
                             {"aclnnAcoshGradGetWorkspaceSize", "dy", "y", "dx"}, dy, y, dx, ws, ex);
}
NPUSIM_ACLNN_PHASE2(AcoshGrad)

extern "C" aclnnStatus aclnnAsinGradGetWorkspaceSize(const aclTensor* y, const aclTensor* dy,
                                                     const aclTensor* z, uint64_t* ws, aclOpExecutor** ex) {
  return buildActivationGrad(npusim::aclnn::kAsinGradDef, {"aclnnAsinGradGetWorkspaceSize", "dy", "y", "z"},
                             dy, y, z, ws, ex);
}
NPUSIM_ACLNN_PHASE2(AsinGrad)

extern "C" aclnnStatus aclnnAsinhGradGetWorkspaceSize(const aclTensor* y, const aclTensor* dy, aclTensor* z,
                                                      uint64_t* ws, aclOpExecutor** ex) {
  return buildActivationGrad(npusim::aclnn::kAsinhGradDef, {"aclnnAsinhGradGetWorkspaceSize", "dy", "y", "z"},
                             dy, y, z, ws, ex);
}
NPUSIM_ACLNN_PHASE2(AsinhGrad)

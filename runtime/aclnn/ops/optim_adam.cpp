// The Adam variants of ops-nn optim/ (issue 28) on the optim engine (optim_op.h): ApplyAdamWV2
// (AdamW with the step count as a tensor and host hyper-parameters) and ApplyFusedEmaAdam (Adam
// with an exponential moving average of the weights). Formulas from their docs
// (optim/<op>/docs/aclnn<Op>.md).
#include <cmath>
#include <string>

#include "aclnnop/aclnn_apply_adam_w_v2.h"
#include "aclnnop/aclnn_apply_fused_ema_adam.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/optim_op.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// in: var, m, v, maxGradNorm, grad, step; attrs: lr, beta1, beta2, weightDecay, eps, amsgrad,
// maximize. out: var, m, v, and max(maxGradNorm, v) with amsgrad.
void adamWV2(const double* in, const double* a, double* out) {
  const double lr = a[0], b1 = a[1], b2 = a[2], t = in[5];
  const double g = a[6] != 0 ? -in[4] : in[4];
  const double m = b1 * in[1] + (1 - b1) * g, v = b2 * in[2] + (1 - b2) * g * g;
  const double vMax = a[5] != 0 ? std::max(in[3], v) : v;
  const double bc1 = 1 - std::pow(b1, t), bc2 = 1 - std::pow(b2, t);
  out[0] = in[0] * (1 - lr * a[3]) - lr / bc1 * m / (std::sqrt(vMax / bc2) + a[4]);
  out[1] = m;
  out[2] = v;
  out[3] = vMax;
}

// in: grad, var, m, v, s, step; attrs: lr, emaDecay, beta1, beta2, eps, mode, biasCorrection,
// weightDecay. Mode 0 adds the decay to the gradient (L2), mode 1 to the update (decoupled).
// out: var, m, v, s.
void fusedEmaAdam(const double* in, const double* a, double* out) {
  const double lr = a[0], ema = a[1], b1 = a[2], b2 = a[3], eps = a[4], wd = a[7], var = in[1], step = in[5];
  const bool l2 = a[5] == 0;
  const double g = l2 ? in[0] + wd * var : in[0];
  const double m = b1 * in[2] + (1 - b1) * g, v = b2 * in[3] + (1 - b2) * g * g;
  const double c1 = a[6] != 0 ? 1 - std::pow(b1, step) : 1, c2 = a[6] != 0 ? 1 - std::pow(b2, step) : 1;
  const double update = (m / c1) / (std::sqrt(v / c2) + eps) + (l2 ? 0 : wd * var);
  out[0] = var - lr * update;
  out[1] = m;
  out[2] = v;
  out[3] = ema * in[4] + (1 - ema) * out[0];
}

const OpInfo kAdamWV2{"aclnnApplyAdamWV2", ExecUnit::kVector, kFloats,
                      "AdamW step, step count a tensor, hyper-parameters host floats"};
const OpInfo kFusedEmaAdam{"aclnnApplyFusedEmaAdam", ExecUnit::kVector, kFloats,
                           "Adam step and s = emaDecay * s + (1 - emaDecay) * var"};
const OpRegistrar kRegs[] = {OpRegistrar(kAdamWV2), OpRegistrar(kFusedEmaAdam)};
const OptimDef kAdamWV2Def{&kAdamWV2, adamWV2, 14};
const OptimDef kFusedEmaAdamDef{&kFusedEmaAdam, fusedEmaAdam, 16};

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::buildOptim;
using npusim::aclnn::OptimArgs;

extern "C" aclnnStatus aclnnApplyAdamWV2GetWorkspaceSize(
    aclTensor* varRef, aclTensor* mRef, aclTensor* vRef, aclTensor* maxGradNormOptionalRef,
    const aclTensor* grad, const aclTensor* step, float lr, float beta1, float beta2, float weightDecay,
    float eps, bool amsgrad, bool maximize, uint64_t* workspaceSize, aclOpExecutor** executor) {
  OptimArgs a;
  a.inputs = {{"varRef", varRef},
              {"mRef", mRef},
              {"vRef", vRef},
              // required with amsgrad (the doc), unread without
              {"maxGradNormOptionalRef", amsgrad ? maxGradNormOptionalRef : nullptr, !amsgrad},
              {"grad", grad},
              {"step", step, false, {ACL_INT64, ACL_FLOAT}}};
  a.attrs = {lr, beta1, beta2, weightDecay, eps, amsgrad ? 1.0 : 0.0, maximize ? 1.0 : 0.0};
  a.outputs = {{"varRef", varRef}, {"mRef", mRef}, {"vRef", vRef}};
  if (amsgrad) a.outputs.push_back({"maxGradNormOptionalRef", maxGradNormOptionalRef});
  return buildOptim(npusim::aclnn::kAdamWV2Def, "aclnnApplyAdamWV2GetWorkspaceSize", "aclnnApplyAdamWV2", a,
                    workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ApplyAdamWV2)

extern "C" aclnnStatus aclnnApplyFusedEmaAdamGetWorkspaceSize(
    const aclTensor* grad, aclTensor* varRef, aclTensor* mRef, aclTensor* vRef, aclTensor* sRef,
    const aclTensor* step, double lr, double emaDecay, double beta1, double beta2, double eps, int64_t mode,
    bool biasCorrection, double weightDecay, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnApplyFusedEmaAdamGetWorkspaceSize";
  if (mode != 0 && mode != 1) {
    return npusim::aclnn::fail(
        api, npusim::aclnn::kErrParamInvalid,
        "mode must be 0 (L2 decay) or 1 (decoupled decay), not " + std::to_string(mode));
  }
  OptimArgs a;
  a.inputs = {{"grad", grad}, {"varRef", varRef}, {"mRef", mRef},
              {"vRef", vRef}, {"sRef", sRef},     {"step", step, false, {ACL_INT64}}};
  a.attrs = {lr,         emaDecay, beta1, beta2, eps, static_cast<double>(mode), biasCorrection ? 1.0 : 0.0,
             weightDecay};
  a.outputs = {{"varRef", varRef}, {"mRef", mRef}, {"vRef", vRef}, {"sRef", sRef}};
  return buildOptim(npusim::aclnn::kFusedEmaAdamDef, api, "aclnnApplyFusedEmaAdam", a, workspaceSize,
                    executor);
}
NPUSIM_ACLNN_PHASE2(ApplyFusedEmaAdam)

// Pointwise losses and their gradients (ops-nn loss/*, experimental/loss/*): each is its term
// from the operator's doc and its entry point; loss_op.h owns broadcasting, reduction, checks
// and cost. Gradients take gradOutput first; under mean the engine scales them by 1/N.
// Vector passes: 2-3 for differences and products, 4-6 for terms with exp/log.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_binary_cross_entropy.h"
#include "aclnnop/aclnn_binary_cross_entropy_backward.h"
#include "aclnnop/aclnn_binary_cross_entropy_grad_v2.h"
#include "aclnnop/aclnn_binary_cross_entropy_v2.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "aclnnop/aclnn_gaussian_nll_loss.h"
#include "aclnnop/aclnn_gaussian_nll_loss_grad.h"
#include "aclnnop/aclnn_hinge_embedding_loss.h"
#include "aclnnop/aclnn_hinge_loss.h"
#include "aclnnop/aclnn_hinge_loss_grad.h"
#include "aclnnop/aclnn_huber_loss.h"
#include "aclnnop/aclnn_huber_loss_grad.h"
#include "aclnnop/aclnn_kl_div_backward.h"
#include "aclnnop/aclnn_kl_div_target_backward.h"
#include "aclnnop/aclnn_l1_loss.h"
#include "aclnnop/aclnn_l1_loss_backward.h"
#include "aclnnop/aclnn_l2_loss.h"
#include "aclnnop/aclnn_logit.h"
#include "aclnnop/aclnn_logit_grad.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "aclnnop/aclnn_mse_loss_grad.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "aclnnop/aclnn_soft_margin_loss.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/loss_op.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

double sign(double d) { return d > 0 ? 1 : d < 0 ? -1 : 0; }
double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }
double clampedLog(double x) { return std::max(std::log(x), -100.0); }  // PyTorch's BCE clamp
double softplus(double x) { return std::max(x, 0.0) + std::log1p(std::exp(-std::fabs(x))); }
const double kHalfLog2Pi = 0.5 * std::log(2 * std::acos(-1.0));

// --- terms; v: operands in the order of the entry point's tensors, p: its scalars ---
void mse(const double* v, const LossParams&, double* o) { o[0] = (v[0] - v[1]) * (v[0] - v[1]); }
void l1(const double* v, const LossParams&, double* o) { o[0] = std::fabs(v[0] - v[1]); }
void smoothL1(const double* v, const LossParams& p, double* o) {  // p: beta
  const double d = std::fabs(v[0] - v[1]);
  o[0] = d < p[0] ? 0.5 * d * d / p[0] : d - 0.5 * p[0];
}
void huber(const double* v, const LossParams& p, double* o) {  // p: delta
  const double d = std::fabs(v[0] - v[1]);
  o[0] = d <= p[0] ? 0.5 * d * d : p[0] * (d - 0.5 * p[0]);
}
void softMargin(const double* v, const LossParams&, double* o) { o[0] = softplus(-v[0] * v[1]); }
void bce(const double* v, const LossParams&, double* o) {  // self, target, weight
  o[0] = -v[2] * (v[1] * clampedLog(v[0]) + (1 - v[1]) * clampedLog(1 - v[0]));
}
void bceWithLogits(const double* v, const LossParams&, double* o) {  // self, target, weight, posWeight
  // -w [pw y log s(x) + (1 - y) log(1 - s(x))], log s(x) = -softplus(-x), log(1 - s(x)) = -softplus(x)
  o[0] = v[2] * (v[3] * v[1] * softplus(-v[0]) + (1 - v[1]) * softplus(v[0]));
}
void hingeEmbedding(const double* v, const LossParams& p, double* o) {  // p: margin
  o[0] = v[1] == 1 ? v[0] : std::max(0.0, p[0] - v[0]);
}
void hinge(const double* v, const LossParams&, double* o) { o[0] = std::max(0.0, 1 - v[1] * v[0]); }
void gaussianNll(const double* v, const LossParams& p, double* o) {  // input, target, var; p: full, eps
  const double var = std::max(v[2], p[1]), d = v[0] - v[1];
  o[0] = 0.5 * (std::log(var) + d * d / var) + (p[0] != 0 ? kHalfLog2Pi : 0);
}
void halfSquare(const double* v, const LossParams&, double* o) { o[0] = 0.5 * v[0] * v[0]; }
void logit(const double* v, const LossParams& p, double* o) {  // p: eps (< 0: no clamp)
  const double z = p[0] < 0 ? v[0] : std::clamp(v[0], p[0], 1 - p[0]);
  o[0] = std::log(z / (1 - z));
}

void dMse(const double* v, const LossParams&, double* o) { o[0] = 2 * (v[1] - v[2]) * v[0]; }
void dMseGrad(const double* v, const LossParams&, double* o) { o[0] = 2 * (v[0] - v[1]) * v[2]; }
void dL1(const double* v, const LossParams&, double* o) { o[0] = sign(v[1] - v[2]) * v[0]; }
void dSmoothL1(const double* v, const LossParams& p, double* o) {
  const double d = v[1] - v[2];
  o[0] = (std::fabs(d) < p[0] ? d / p[0] : sign(d)) * v[0];
}
void dSoftMargin(const double* v, const LossParams&, double* o) {
  o[0] = -v[2] * sigmoid(-v[2] * v[1]) * v[0];
}
void dBce(const double* v, const LossParams&, double* o) {  // grad, self, target, weight
  o[0] = v[3] * (v[1] - v[2]) / std::max((1 - v[1]) * v[1], 1e-12) * v[0];
}
void dBceWithLogits(const double* v, const LossParams&, double* o) {  // grad, self, target, w, pw
  const double s = sigmoid(v[1]);
  o[0] = v[3] * ((v[4] * v[2] + 1 - v[2]) * s - v[4] * v[2]) * v[0];
}
void dBceV2(const double* v, const LossParams&, double* o) { o[0] = v[3] * v[0] * (v[1] - v[2]); }
void dKlDiv(const double* v, const LossParams& p, double* o) {  // grad, self, target; p: logTarget
  o[0] = -(p[0] != 0 ? std::exp(v[2]) : v[2]) * v[0];
}
void dKlDivTarget(const double* v, const LossParams& p, double* o) {
  if (p[0] != 0) {
    o[0] = v[0] * std::exp(v[2]) * (v[2] - v[1] + 1);
  } else {  // 0 where target is 0, as PyTorch's xlogy makes it
    o[0] = v[2] > 0 ? v[0] * (std::log(v[2]) - v[1] + 1) : 0;
  }
}
void dHinge(const double* v, const LossParams&, double* o) {  // predict, target, gradOutput
  o[0] = 1 - v[1] * v[0] > 0 ? -v[1] * v[2] : 0;
}
void dHuber(const double* v, const LossParams& p, double* o) { o[0] = std::clamp(v[0] - v[1], -p[0], p[0]); }
void dGaussianNll(const double* v, const LossParams& p, double* o) {  // grad, input, target, var
  const double var = std::max(v[3], p[1]), d = v[1] - v[2];
  o[0] = v[0] * d / var;
  o[1] = v[0] * 0.5 * (1 / var - d * d / (var * var));  // the doc: the clamp passes the gradient
}
void dLogit(const double* v, const LossParams& p, double* o) {  // x, dy; p: eps
  const double x = v[0];
  if (p[0] < 0) {
    o[0] = x < 0 || x > 1 ? std::nan("") : v[1] / (x * (1 - x));
  } else {
    o[0] = x < p[0] || x > 1 - p[0] ? 0 : v[1] / (x * (1 - x));
  }
}

#define NPUSIM_LOSS(var, name, types, formula) const OpInfo var{name, ExecUnit::kVector, types, formula};
NPUSIM_LOSS(kMseLoss, "aclnnMseLoss", kFloats, "out = reduce((self - target)^2)")
NPUSIM_LOSS(kL1Loss, "aclnnL1Loss", kFloats, "out = reduce(|self - target|)")
NPUSIM_LOSS(kSmoothL1Loss, "aclnnSmoothL1Loss", kFloats,
            "out = reduce(|d| < beta ? d^2 / (2 beta) : |d| - beta / 2), d = self - target")
NPUSIM_LOSS(kHuberLoss, "aclnnHuberLoss", kFloats, "loss = |e| <= delta ? e^2 / 2 : delta (|e| - delta / 2)")
NPUSIM_LOSS(kSoftMarginLoss, "aclnnSoftMarginLoss", kFloats, "out = reduce(log(1 + exp(-target * self)))")
NPUSIM_LOSS(kBce, "aclnnBinaryCrossEntropy", kFloats,
            "out = reduce(-w (y log x + (1 - y) log(1 - x))), logs clamped at -100")
NPUSIM_LOSS(kBceV2, "aclnnBinaryCrossEntropyV2", kFloats, "z = -(y log x + (1 - y) log(1 - x))")
NPUSIM_LOSS(kBceWithLogits, "aclnnBinaryCrossEntropyWithLogits", kFloats,
            "out = reduce(-w (pw y log s(x) + (1 - y) log(1 - s(x)))), s the sigmoid")
NPUSIM_LOSS(kHingeEmbedding, "aclnnHingeEmbeddingLoss", kFloats,
            "loss = reduce(target == 1 ? input : max(0, margin - input))")
NPUSIM_LOSS(kHingeLoss, "aclnnHingeLoss", kFloats, "loss = max(0, 1 - target * predict)")
NPUSIM_LOSS(kGaussianNll, "aclnnGaussianNllLoss", kFloats,
            "loss = reduce((log v + (input - target)^2 / v) / 2 [+ log(2 pi) / 2]), v = max(var, eps)")
NPUSIM_LOSS(kL2Loss, "aclnnL2Loss", kFloats, "y = sum(x^2) / 2")
NPUSIM_LOSS(kLogit, "aclnnLogit", kFloats, "out = log(z / (1 - z)), z = clamp(input, eps, 1 - eps)")
NPUSIM_LOSS(kMseLossBackward, "aclnnMseLossBackward", kFloats, "out = 2 (self - target) gradOutput [/ N]")
NPUSIM_LOSS(kMseLossGrad, "aclnnMseLossGrad", kFloats, "y = 2 (predict - label) dout [/ N]")
NPUSIM_LOSS(kL1LossBackward, "aclnnL1LossBackward", kFloats,
            "gradInput = sign(self - target) gradOutput [/ N]")
NPUSIM_LOSS(kSmoothL1LossBackward, "aclnnSmoothL1LossBackward", kFloats,
            "gradInput = (|d| < beta ? d / beta : sign(d)) gradOut [/ N]")
NPUSIM_LOSS(kSoftMarginLossBackward, "aclnnSoftMarginLossBackward", kFloats,
            "out = -target sigmoid(-target self) gradOutput [/ N]")
NPUSIM_LOSS(kBceBackward, "aclnnBinaryCrossEntropyBackward", kFloats,
            "out = w (x - y) / max(x (1 - x), 1e-12) gradOutput [/ N]")
NPUSIM_LOSS(kBceGradV2, "aclnnBinaryCrossEntropyGradV2", kFloats, "z = weight grad (logits - labels)")
NPUSIM_LOSS(kBceWithLogitsBackward, "aclnnBinaryCrossEntropyWithLogitsBackward", kFloats,
            "out = w ((pw y + 1 - y) s(x) - pw y) gradOutput [/ N]")
NPUSIM_LOSS(kKlDivBackward, "aclnnKlDivBackward", kFloats,
            "out = -(logTarget ? exp(target) : target) gradOutput [/ N]")
NPUSIM_LOSS(kKlDivTargetBackward, "aclnnKlDivTargetBackward", kFloats,
            "gradTarget = gradOutput (log(target) - self + 1), or exp(target) (target - self + 1) [/ N]")
NPUSIM_LOSS(kHingeLossGrad, "aclnnHingeLossGrad", kFloats,
            "grad_input = 1 - target predict > 0 ? -target grad_output : 0")
NPUSIM_LOSS(kHuberLossGrad, "aclnnHuberLossGrad", kFloats,
            "grad_output = clamp(predictions - targets, -delta, delta)")
NPUSIM_LOSS(kGaussianNllGrad, "aclnnGaussianNllLossGrad", kFloats,
            "gradInput = g (input - target) / v, gradVar = g (1/v - (input - target)^2 / v^2) / 2 [/ N]")
NPUSIM_LOSS(kLogitGrad, "aclnnLogitGrad", kFloats, "dx = dy / (x (1 - x)) for eps <= x <= 1 - eps, else 0")
#undef NPUSIM_LOSS

const OpRegistrar kRegistrars[] = {OpRegistrar(kMseLoss),
                                   OpRegistrar(kL1Loss),
                                   OpRegistrar(kSmoothL1Loss),
                                   OpRegistrar(kHuberLoss),
                                   OpRegistrar(kSoftMarginLoss),
                                   OpRegistrar(kBce),
                                   OpRegistrar(kBceV2),
                                   OpRegistrar(kBceWithLogits),
                                   OpRegistrar(kHingeEmbedding),
                                   OpRegistrar(kHingeLoss),
                                   OpRegistrar(kGaussianNll),
                                   OpRegistrar(kL2Loss),
                                   OpRegistrar(kLogit),
                                   OpRegistrar(kMseLossBackward),
                                   OpRegistrar(kMseLossGrad),
                                   OpRegistrar(kL1LossBackward),
                                   OpRegistrar(kSmoothL1LossBackward),
                                   OpRegistrar(kSoftMarginLossBackward),
                                   OpRegistrar(kBceBackward),
                                   OpRegistrar(kBceGradV2),
                                   OpRegistrar(kBceWithLogitsBackward),
                                   OpRegistrar(kKlDivBackward),
                                   OpRegistrar(kKlDivTargetBackward),
                                   OpRegistrar(kHingeLossGrad),
                                   OpRegistrar(kHuberLossGrad),
                                   OpRegistrar(kGaussianNllGrad),
                                   OpRegistrar(kLogitGrad)};

const LossDef kMseDef{&kMseLoss, mse, 3};
const LossDef kL1Def{&kL1Loss, l1, 3};
const LossDef kSmoothL1Def{&kSmoothL1Loss, smoothL1, 6};
const LossDef kHuberDef{&kHuberLoss, huber, 6};
const LossDef kSoftMarginDef{&kSoftMarginLoss, softMargin, 5};
const LossDef kBceDef{&kBce, bce, 8};
const LossDef kBceV2Def{&kBceV2, bce, 8};
const LossDef kBceWithLogitsDef{&kBceWithLogits, bceWithLogits, 10};
const LossDef kHingeEmbeddingDef{&kHingeEmbedding, hingeEmbedding, 4};
const LossDef kHingeDef{&kHingeLoss, hinge, 3};
const LossDef kGaussianNllDef{&kGaussianNll, gaussianNll, 7};
const LossDef kL2Def{&kL2Loss, halfSquare, 2};
const LossDef kLogitDef{&kLogit, logit, 5};
const LossDef kMseBackwardDef{&kMseLossBackward, dMse, 3};
const LossDef kMseGradDef{&kMseLossGrad, dMseGrad, 3};
const LossDef kL1BackwardDef{&kL1LossBackward, dL1, 3};
const LossDef kSmoothL1BackwardDef{&kSmoothL1LossBackward, dSmoothL1, 6};
const LossDef kSoftMarginBackwardDef{&kSoftMarginLossBackward, dSoftMargin, 6};
const LossDef kBceBackwardDef{&kBceBackward, dBce, 6};
const LossDef kBceGradV2Def{&kBceGradV2, dBceV2, 3};
const LossDef kBceWithLogitsBackwardDef{&kBceWithLogitsBackward, dBceWithLogits, 8};
const LossDef kKlDivBackwardDef{&kKlDivBackward, dKlDiv, 3};
const LossDef kKlDivTargetBackwardDef{&kKlDivTargetBackward, dKlDivTarget, 6};
const LossDef kHingeGradDef{&kHingeLossGrad, dHinge, 4};
const LossDef kHuberGradDef{&kHuberLossGrad, dHuber, 3};
const LossDef kGaussianNllGradDef{&kGaussianNllGrad, dGaussianNll, 8};
const LossDef kLogitGradDef{&kLogitGrad, dLogit, 6};

std::string phase1(const LossDef& d) { return d.info->name + "GetWorkspaceSize"; }

// A loss or gradient with an int64 reduction (0 none, 1 mean, 2 sum; 3 batchmean where allowed).
int32_t withReduction(const LossDef& d, LossArgs a, int64_t reduction, uint64_t* ws, aclOpExecutor** ex,
                      bool batchMean = false) {
  const std::string api = phase1(d);
  a.api = api.c_str();
  if (batchMean && reduction == 3) {
    a.reduction = Reduction::kBatchMean;
  } else if (lossReduction(a.api, reduction, &a.reduction) != kSuccess) {
    rt::chargeOpPrepare(a.api);
    return kErrParamInvalid;
  }
  a.attrs = fmt::format("reduction={}{}{}", reduction, a.attrs.empty() ? "" : ", ", a.attrs);
  return buildLoss(d, a, ws, ex);
}

// The same with the string form ("none", "mean", "sum").
int32_t withReductionName(const LossDef& d, LossArgs a, const char* reduction, uint64_t* ws,
                          aclOpExecutor** ex) {
  const std::string api = phase1(d);
  a.api = api.c_str();
  const int32_t st = lossReduction(a.api, reduction, &a.reduction);
  if (st != kSuccess) {
    rt::chargeOpPrepare(a.api);
    return st;
  }
  a.attrs = fmt::format("reduction={}{}{}", reduction, a.attrs.empty() ? "" : ", ", a.attrs);
  return buildLoss(d, a, ws, ex);
}

// Operators without a reduction argument.
int32_t elementwise(const LossDef& d, LossArgs a, uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = phase1(d);
  a.api = api.c_str();
  return buildLoss(d, a, ws, ex);
}

// 161002 unless `value` is above `low` (or equal to it when `orEqual`) and finite.
int32_t checkParam(const char* api, const char* name, double value, double low, bool orEqual) {
  if (std::isfinite(value) && (value > low || (orEqual && value == low))) return kSuccess;
  rt::chargeOpPrepare(api);
  return fail(
      api, kErrParamInvalid,
      fmt::format("{} must be a finite number {} {}, but is {}", name, orEqual ? ">=" : ">", low, value));
}

LossArgs pair(const char* x, const aclTensor* xt, const char* y, const aclTensor* yt, const char* out,
              const aclTensor* ot) {
  LossArgs a;
  a.operands = {{x, xt}, {y, yt}};
  a.outs = {{out, ot}};
  return a;
}

LossArgs gradTriple(const aclTensor* g, const aclTensor* self, const aclTensor* target, const char* outName,
                    const aclTensor* out, const char* gName = "gradOutput") {
  LossArgs a;
  a.operands = {{gName, g}, {"self", self}, {"target", target}};
  a.outs = {{outName, out}};
  a.gradient = true;
  return a;
}

// KlDivBackward and KlDivTargetBackward: the same arguments, a different derivative.
int32_t klDivBackward(const LossDef& d, const aclTensor* gradOutput, const aclTensor* self,
                      const aclTensor* target, int64_t reduction, bool logTarget, const char* outName,
                      const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  LossArgs a = gradTriple(gradOutput, self, target, outName, out);
  a.params[0] = logTarget ? 1 : 0;
  a.attrs = fmt::format("logTarget={}", logTarget);
  return withReduction(d, a, reduction, ws, ex, true);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

// Entry points that differ only in their LossDef (and the name of the gradient's out):
// aclnn<Name>(self, target, reduction, out) and aclnn<Name>(gradOutput, self, target, reduction, out).
#define NPUSIM_REDUCED_LOSS(Name, def)                                                                  \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* self, const aclTensor* target,  \
                                                       int64_t reduction, aclTensor* out, uint64_t* ws, \
                                                       aclOpExecutor** ex) {                            \
    return withReduction(def, pair("self", self, "target", target, "out", out), reduction, ws, ex);     \
  }                                                                                                     \
  NPUSIM_ACLNN_PHASE2(Name)
#define NPUSIM_REDUCED_LOSS_BACKWARD(Name, def, outName)                                                   \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(                                                    \
      const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target, int64_t reduction,      \
      aclTensor* outName, uint64_t* ws, aclOpExecutor** ex) {                                              \
    return withReduction(def, gradTriple(gradOutput, self, target, #outName, outName), reduction, ws, ex); \
  }                                                                                                        \
  NPUSIM_ACLNN_PHASE2(Name)

// --- forward losses ---
NPUSIM_REDUCED_LOSS(MseLoss, kMseDef)
NPUSIM_REDUCED_LOSS(L1Loss, kL1Def)

extern "C" aclnnStatus aclnnSmoothL1LossGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                         int64_t reduction, float beta, aclTensor* result,
                                                         uint64_t* ws, aclOpExecutor** ex) {
  if (checkParam("aclnnSmoothL1LossGetWorkspaceSize", "beta", beta, 0, true) != kSuccess)
    return kErrParamInvalid;
  LossArgs a = pair("self", self, "target", target, "result", result);
  a.params[0] = beta;
  a.attrs = fmt::format("beta={}", beta);
  return withReduction(beta == 0 ? kL1Def : kSmoothL1Def, a, reduction, ws, ex);
}
NPUSIM_ACLNN_PHASE2(SmoothL1Loss)

extern "C" aclnnStatus aclnnHuberLossGetWorkspaceSize(const aclTensor* predictions, const aclTensor* targets,
                                                      double delta, aclTensor* loss, uint64_t* ws,
                                                      aclOpExecutor** ex) {
  if (checkParam("aclnnHuberLossGetWorkspaceSize", "delta", delta, 0, false) != kSuccess)
    return kErrParamInvalid;
  LossArgs a = pair("predictions", predictions, "targets", targets, "loss", loss);
  a.sameShape = true;
  a.params[0] = delta;
  a.attrs = fmt::format("delta={}", delta);
  return elementwise(kHuberDef, a, ws, ex);
}
NPUSIM_ACLNN_PHASE2(HuberLoss)

NPUSIM_REDUCED_LOSS(SoftMarginLoss, kSoftMarginDef)

extern "C" aclnnStatus aclnnBinaryCrossEntropyGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                               const aclTensor* weight, int64_t reduction,
                                                               aclTensor* out, uint64_t* ws,
                                                               aclOpExecutor** ex) {
  LossArgs a = pair("self", self, "target", target, "out", out);
  a.operands.push_back({"weight", weight, true, 1});
  return withReduction(kBceDef, a, reduction, ws, ex);
}
NPUSIM_ACLNN_PHASE2(BinaryCrossEntropy)

extern "C" aclnnStatus aclnnBinaryCrossEntropyV2GetWorkspaceSize(const aclTensor* x, const aclTensor* y,
                                                                 const aclTensor* z, uint64_t* ws,
                                                                 aclOpExecutor** ex) {
  LossArgs a = pair("x", x, "y", y, "z", z);
  a.operands.push_back({"weight", nullptr, true, 1});
  a.sameShape = true;
  return elementwise(kBceV2Def, a, ws, ex);
}
NPUSIM_ACLNN_PHASE2(BinaryCrossEntropyV2)

extern "C" aclnnStatus aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(
    const aclTensor* self, const aclTensor* target, const aclTensor* weightOptional,
    const aclTensor* posWeightOptional, int64_t reduction, aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  LossArgs a = pair("self", self, "target", target, "out", out);
  a.operands.push_back({"weightOptional", weightOptional, true, 1});
  a.operands.push_back({"posWeightOptional", posWeightOptional, true, 1});
  return withReduction(kBceWithLogitsDef, a, reduction, ws, ex);
}
NPUSIM_ACLNN_PHASE2(BinaryCrossEntropyWithLogits)

extern "C" aclnnStatus aclnnHingeEmbeddingLossGetWorkspaceSize(const aclTensor* input,
                                                               const aclTensor* target, double margin,
                                                               char* reduction, const aclTensor* loss,
                                                               uint64_t* ws, aclOpExecutor** ex) {
  LossArgs a = pair("input", input, "target", target, "loss", loss);
  a.sameShape = true;
  a.params[0] = margin;
  a.attrs = fmt::format("margin={}", margin);
  return withReductionName(kHingeEmbeddingDef, a, reduction, ws, ex);
}
NPUSIM_ACLNN_PHASE2(HingeEmbeddingLoss)

extern "C" aclnnStatus aclnnHingeLossGetWorkspaceSize(const aclTensor* predict, const aclTensor* target,
                                                      const aclTensor* loss, uint64_t* ws,
                                                      aclOpExecutor** ex) {
  LossArgs a = pair("predict", predict, "target", target, "loss", loss);
  a.sameShape = true;
  return elementwise(kHingeDef, a, ws, ex);
}
NPUSIM_ACLNN_PHASE2(HingeLoss)

extern "C" aclnnStatus aclnnGaussianNllLossGetWorkspaceSize(const aclTensor* input, const aclTensor* target,
                                                            const aclTensor* var, bool full, double eps,
                                                            char* reduction, const aclTensor* loss,
                                                            uint64_t* ws, aclOpExecutor** ex) {
  if (checkParam("aclnnGaussianNllLossGetWorkspaceSize", "eps", eps, 0, false) != kSuccess)
    return kErrParamInvalid;
  LossArgs a = pair("input", input, "target", target, "loss", loss);
  a.operands.push_back({"var", var});
  a.unsqueezeLast = 2;
  a.params = {full ? 1.0 : 0.0, eps};
  a.attrs = fmt::format("full={}, eps={}", full, eps);
  return withReductionName(kGaussianNllDef, a, reduction, ws, ex);
}
NPUSIM_ACLNN_PHASE2(GaussianNllLoss)

extern "C" aclnnStatus aclnnL2LossGetWorkspaceSize(const aclTensor* x, const aclTensor* y, uint64_t* ws,
                                                   aclOpExecutor** ex) {
  LossArgs a;
  a.operands = {{"x", x}};
  a.outs = {{"y", y}};
  a.reduction = Reduction::kSum;
  return elementwise(kL2Def, a, ws, ex);
}
NPUSIM_ACLNN_PHASE2(L2Loss)

extern "C" aclnnStatus aclnnLogitGetWorkspaceSize(const aclTensor* input, double eps, const aclTensor* out,
                                                  uint64_t* ws, aclOpExecutor** ex) {
  LossArgs a;
  a.operands = {{"input", input}};
  a.outs = {{"out", out}};
  a.params[0] = eps;
  a.attrs = fmt::format("eps={}", eps);
  return elementwise(kLogitDef, a, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Logit)

// --- gradients ---
NPUSIM_REDUCED_LOSS_BACKWARD(MseLossBackward, kMseBackwardDef, out)

extern "C" aclnnStatus aclnnMseLossGradGetWorkspaceSize(const aclTensor* predict, const aclTensor* label,
                                                        const aclTensor* dout, char* reduction,
                                                        const aclTensor* y, uint64_t* ws,
                                                        aclOpExecutor** ex) {
  LossArgs a;
  a.operands = {{"predict", predict}, {"label", label}, {"dout", dout}};
  a.outs = {{"y", y}};
  a.gradient = true;
  return withReductionName(kMseGradDef, a, reduction, ws, ex);
}
NPUSIM_ACLNN_PHASE2(MseLossGrad)

NPUSIM_REDUCED_LOSS_BACKWARD(L1LossBackward, kL1BackwardDef, gradInput)

extern "C" aclnnStatus aclnnSmoothL1LossBackwardGetWorkspaceSize(const aclTensor* gradOut,
                                                                 const aclTensor* self,
                                                                 const aclTensor* target, int64_t reduction,
                                                                 float beta, aclTensor* gradInput,
                                                                 uint64_t* ws, aclOpExecutor** ex) {
  if (checkParam("aclnnSmoothL1LossBackwardGetWorkspaceSize", "beta", beta, 0, true) != kSuccess)
    return kErrParamInvalid;
  LossArgs a = gradTriple(gradOut, self, target, "gradInput", gradInput, "gradOut");
  a.params[0] = beta;
  a.attrs = fmt::format("beta={}", beta);
  return withReduction(beta == 0 ? kL1BackwardDef : kSmoothL1BackwardDef, a, reduction, ws, ex);
}
NPUSIM_ACLNN_PHASE2(SmoothL1LossBackward)

NPUSIM_REDUCED_LOSS_BACKWARD(SoftMarginLossBackward, kSoftMarginBackwardDef, out)

extern "C" aclnnStatus aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
    const aclTensor* weightOptional, int64_t reduction, aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  LossArgs a = gradTriple(gradOutput, self, target, "out", out);
  a.operands.push_back({"weightOptional", weightOptional, true, 1});
  return withReduction(kBceBackwardDef, a, reduction, ws, ex);
}
NPUSIM_ACLNN_PHASE2(BinaryCrossEntropyBackward)

// The public kernel (experimental/loss/binary_cross_entropy_grad_v2) divides by N when
// reduction is 2; the doc's formula has no reduction term. The kernel's behaviour is followed.
extern "C" aclnnStatus aclnnBinaryCrossEntropyGradV2GetWorkspaceSize(
    const aclTensor* grad, const aclTensor* logits, const aclTensor* labels, const aclTensor* weight,
    int64_t reduction, aclTensor* z, uint64_t* ws, aclOpExecutor** ex) {
  LossArgs a;
  a.operands = {{"grad", grad}, {"logits", logits}, {"labels", labels}, {"weight", weight, true, 1}};
  a.outs = {{"z", z}};
  a.gradient = true;
  return withReduction(kBceGradV2Def, a, reduction == 2 ? 1 : reduction == 1 ? 2 : reduction, ws, ex);
}
NPUSIM_ACLNN_PHASE2(BinaryCrossEntropyGradV2)

extern "C" aclnnStatus aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
    const aclTensor* weightOptional, const aclTensor* posWeightOptional, int64_t reduction, aclTensor* out,
    uint64_t* ws, aclOpExecutor** ex) {
  LossArgs a = gradTriple(gradOutput, self, target, "out", out);
  a.operands.push_back({"weightOptional", weightOptional, true, 1});
  a.operands.push_back({"posWeightOptional", posWeightOptional, true, 1});
  return withReduction(kBceWithLogitsBackwardDef, a, reduction, ws, ex);
}
NPUSIM_ACLNN_PHASE2(BinaryCrossEntropyWithLogitsBackward)

extern "C" aclnnStatus aclnnKlDivBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                          const aclTensor* target, int64_t reduction,
                                                          bool logTarget, aclTensor* out, uint64_t* ws,
                                                          aclOpExecutor** ex) {
  return klDivBackward(kKlDivBackwardDef, gradOutput, self, target, reduction, logTarget, "out", out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(KlDivBackward)

extern "C" aclnnStatus aclnnKlDivTargetBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                const aclTensor* self,
                                                                const aclTensor* target, int64_t reduction,
                                                                bool logTarget, aclTensor* gradTarget,
                                                                uint64_t* ws, aclOpExecutor** ex) {
  return klDivBackward(kKlDivTargetBackwardDef, gradOutput, self, target, reduction, logTarget, "gradTarget",
                       gradTarget, ws, ex);
}
NPUSIM_ACLNN_PHASE2(KlDivTargetBackward)

extern "C" aclnnStatus aclnnHingeLossGradGetWorkspaceSize(const aclTensor* predict, const aclTensor* target,
                                                          const aclTensor* gradOutput,
                                                          const aclTensor* gradInput, uint64_t* ws,
                                                          aclOpExecutor** ex) {
  LossArgs a;
  a.operands = {{"predict", predict}, {"target", target}, {"gradOutput", gradOutput}};
  a.outs = {{"gradInput", gradInput}};
  a.gradient = true;
  a.sameShape = true;
  return elementwise(kHingeGradDef, a, ws, ex);
}
NPUSIM_ACLNN_PHASE2(HingeLossGrad)

extern "C" aclnnStatus aclnnHuberLossGradGetWorkspaceSize(const aclTensor* predictions,
                                                          const aclTensor* targets, double delta,
                                                          const aclTensor* gradOutput, uint64_t* ws,
                                                          aclOpExecutor** ex) {
  if (checkParam("aclnnHuberLossGradGetWorkspaceSize", "delta", delta, 0, false) != kSuccess)
    return kErrParamInvalid;
  LossArgs a = pair("predictions", predictions, "targets", targets, "gradOutput", gradOutput);
  a.gradient = true;
  a.sameShape = true;
  a.params[0] = delta;
  a.attrs = fmt::format("delta={}", delta);
  return elementwise(kHuberGradDef, a, ws, ex);
}
NPUSIM_ACLNN_PHASE2(HuberLossGrad)

extern "C" aclnnStatus aclnnGaussianNllLossGradGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* input, const aclTensor* target, const aclTensor* var,
    bool full, double eps, char* reduction, const aclTensor* gradInput, const aclTensor* gradVar,
    uint64_t* ws, aclOpExecutor** ex) {
  if (checkParam("aclnnGaussianNllLossGradGetWorkspaceSize", "eps", eps, 0, false) != kSuccess)
    return kErrParamInvalid;
  LossArgs a;
  a.operands = {{"gradOutput", gradOutput}, {"input", input}, {"target", target}, {"var", var}};
  a.outs = {{"gradInput", gradInput}, {"gradVar", gradVar}};
  a.gradient = true;
  a.unsqueezeLast = 3;
  a.sumOut = 1;
  a.params = {full ? 1.0 : 0.0, eps};
  a.attrs = fmt::format("full={}, eps={}", full, eps);
  return withReductionName(kGaussianNllGradDef, a, reduction, ws, ex);
}
NPUSIM_ACLNN_PHASE2(GaussianNllLossGrad)

extern "C" aclnnStatus aclnnLogitGradGetWorkspaceSize(const aclTensor* x, const aclTensor* dy, double eps,
                                                      const aclTensor* out, uint64_t* ws,
                                                      aclOpExecutor** ex) {
  LossArgs a = pair("x", x, "dy", dy, "out", out);
  a.gradient = true;
  a.params[0] = eps;
  a.attrs = fmt::format("eps={}", eps);
  return elementwise(kLogitGradDef, a, ws, ex);
}
NPUSIM_ACLNN_PHASE2(LogitGrad)

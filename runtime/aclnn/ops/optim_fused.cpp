// The tensor-list optimisers of ops-nn optim/ (issue 28) on the optim engine (optim_op.h,
// buildOptimList): FusedSgd and FusedAdamw update every parameter of their lists in one launch,
// as PyTorch's fused SGD/AdamW (formulas from optim/fused_sgd/docs/aclnnFusedSgd.md and
// optim/fused_adamw/docs/aclnnFusedAdamw.md).
#include <fmt/format.h>

#include <cmath>
#include <string>

#include "aclnnop/aclnn_fused_adamw.h"
#include "aclnnop/aclnn_fused_sgd.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/optim_op.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// in: param, grad, momentum buffer, gradScale; attrs: weightDecay, momentum, lr, dampening,
// nesterov, maximize, isFirstStep, has buffers, has scale. out: param, grad (unscaled), buffer.
void sgd(const double* in, const double* a, double* out) {
  const double wd = a[0], mu = a[1], lr = a[2], damp = a[3];
  const double g = a[8] != 0 ? in[1] / in[3] : in[1];
  const double gBar = (a[5] != 0 ? -g : g) + wd * in[0];
  double step = gBar, buf = in[2];
  if (a[7] != 0) {
    buf = a[6] != 0 ? gBar : mu * in[2] + (1 - damp) * gBar;
    step = a[4] != 0 ? gBar + mu * buf : buf;
  }
  out[0] = in[0] - lr * step;
  out[1] = g;
  out[2] = buf;
}

// in: param, grad, expAvg, expAvgSq, maxExpAvgSq, step, gradScale, foundInf; attrs: lr, beta1,
// beta2, weightDecay, eps, amsgrad, maximize, has scale, has foundInf. A found inf (foundInf = 1)
// leaves every state as it is. out: param, expAvg, expAvgSq, maxExpAvgSq.
void adamw(const double* in, const double* a, double* out) {
  if (a[8] != 0 && in[7] != 0) {
    for (int k = 0; k < 4; ++k) out[k] = in[k == 0 ? 0 : k + 1];
    return;
  }
  const double lr = a[0], b1 = a[1], b2 = a[2], t = in[5];
  double g = a[7] != 0 ? in[1] / in[6] : in[1];
  if (a[6] != 0) g = -g;
  const double m = b1 * in[2] + (1 - b1) * g, v = b2 * in[3] + (1 - b2) * g * g;
  const double vMax = a[5] != 0 ? std::max(in[4], v) : v;
  const double bc1 = 1 - std::pow(b1, t), bc2 = 1 - std::pow(b2, t);
  out[0] = in[0] * (1 - lr * a[3]) - lr / bc1 * m / (std::sqrt(vMax / bc2) + a[4]);
  out[1] = m;
  out[2] = v;
  out[3] = vMax;
}

const OpInfo kFusedSgd{"aclnnFusedSgd", ExecUnit::kVector, kFloats, "SGD with momentum over tensor lists"};
const OpInfo kFusedAdamw{"aclnnFusedAdamw", ExecUnit::kVector, kFloats, "AdamW over tensor lists"};
const OpRegistrar kRegs[] = {OpRegistrar(kFusedSgd), OpRegistrar(kFusedAdamw)};
const OptimDef kFusedSgdDef{&kFusedSgd, sgd, 8};
const OptimDef kFusedAdamwDef{&kFusedAdamw, adamw, 16};

// The i-th tensor of an optional list (nullptr if the list is absent).
const aclTensor* item(const aclTensorList* l, size_t i) { return l == nullptr ? nullptr : l->items[i]; }

// 161001 for a required null list, 161002 for a list of another length than the first.
int32_t checkLists(const char* api,
                   std::initializer_list<std::pair<const char*, const aclTensorList*>> required,
                   std::initializer_list<std::pair<const char*, const aclTensorList*>> optional, size_t* n) {
  for (const auto& l : required) {
    if (l.second == nullptr)
      return fail(api, kErrParamNullptr, fmt::format("{} must not be nullptr", l.first));
  }
  *n = required.begin()->second->items.size();
  if (*n == 0)
    return fail(api, kErrParamInvalid, fmt::format("{} is an empty list", required.begin()->first));
  for (const auto* group : {&required, &optional}) {
    for (const auto& l : *group) {
      if (l.second != nullptr && l.second->items.size() != *n) {
        return fail(api, kErrParamInvalid,
                    fmt::format("{} has {} tensors where {} has {}", l.first, l.second->items.size(),
                                required.begin()->first, *n));
      }
    }
  }
  return kSuccess;
}

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::OptimArgs;

extern "C" aclnnStatus aclnnFusedSgdGetWorkspaceSize(const aclTensorList* paramsRef,
                                                     const aclTensorList* gradsRef,
                                                     const aclTensorList* momentumBufferListOptionalRef,
                                                     const aclTensor* gradScaleOptional, float weightDecay,
                                                     float momentum, float lr, float dampening, bool nesterov,
                                                     bool maximize, bool isFirstStep, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnFusedSgdGetWorkspaceSize";
  size_t n = 0;
  const aclTensorList* buffers = momentumBufferListOptionalRef;
  if (int32_t st = checkLists(api, {{"paramsRef", paramsRef}, {"gradsRef", gradsRef}},
                              {{"momentumBufferListOptionalRef", buffers}}, &n);
      st != kSuccess)
    return st;
  std::vector<OptimArgs> entries(n);
  for (size_t i = 0; i < n; ++i) {
    entries[i].inputs = {{"paramsRef", item(paramsRef, i)},
                         {"gradsRef", item(gradsRef, i)},
                         {"momentumBufferListOptionalRef", item(buffers, i), buffers == nullptr},
                         {"gradScaleOptional", gradScaleOptional, true, {ACL_FLOAT}}};
    entries[i].outputs = {{"paramsRef", item(paramsRef, i)}, {"gradsRef", item(gradsRef, i)}};
    if (buffers != nullptr) entries[i].outputs.push_back({"momentumBufferListOptionalRef", item(buffers, i)});
  }
  const std::vector<double> attrs = {weightDecay,
                                     momentum,
                                     lr,
                                     dampening,
                                     nesterov ? 1.0 : 0,
                                     maximize ? 1.0 : 0,
                                     isFirstStep ? 1.0 : 0,
                                     buffers != nullptr ? 1.0 : 0,
                                     gradScaleOptional != nullptr ? 1.0 : 0};
  return buildOptimList(kFusedSgdDef, api, "aclnnFusedSgd", entries, attrs, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(FusedSgd)

extern "C" aclnnStatus aclnnFusedAdamwGetWorkspaceSize(
    const aclTensorList* paramsRef, const aclTensorList* grads, const aclTensorList* expAvgsRef,
    const aclTensorList* expAvgSqsRef, const aclTensorList* maxExpAvgSqsRef, const aclTensorList* stateSteps,
    const aclTensor* gradScaleOptional, const aclTensor* foundInfOptional, double lr, double beta1,
    double beta2, double weightDecay, double eps, bool amsgrad, bool maximize, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnFusedAdamwGetWorkspaceSize";
  size_t n = 0;
  // maxExpAvgSqsRef is required with amsgrad (the doc), unread without
  const aclTensorList* maxSqs = amsgrad ? maxExpAvgSqsRef : nullptr;
  if (amsgrad && maxSqs == nullptr)
    return fail(api, kErrParamNullptr, "maxExpAvgSqsRef must not be nullptr with amsgrad");
  if (int32_t st = checkLists(api,
                              {{"paramsRef", paramsRef},
                               {"grads", grads},
                               {"expAvgsRef", expAvgsRef},
                               {"expAvgSqsRef", expAvgSqsRef},
                               {"stateSteps", stateSteps}},
                              {{"maxExpAvgSqsRef", maxSqs}}, &n);
      st != kSuccess)
    return st;
  std::vector<OptimArgs> entries(n);
  for (size_t i = 0; i < n; ++i) {
    entries[i].inputs = {{"paramsRef", item(paramsRef, i)},
                         {"grads", item(grads, i)},
                         {"expAvgsRef", item(expAvgsRef, i)},
                         {"expAvgSqsRef", item(expAvgSqsRef, i)},
                         {"maxExpAvgSqsRef", item(maxSqs, i), !amsgrad},
                         {"stateSteps", item(stateSteps, i), false, {ACL_INT64, ACL_FLOAT}},
                         {"gradScaleOptional", gradScaleOptional, true, {ACL_FLOAT}},
                         {"foundInfOptional", foundInfOptional, true, {ACL_FLOAT}}};
    entries[i].outputs = {{"paramsRef", item(paramsRef, i)},
                          {"expAvgsRef", item(expAvgsRef, i)},
                          {"expAvgSqsRef", item(expAvgSqsRef, i)}};
    if (amsgrad) entries[i].outputs.push_back({"maxExpAvgSqsRef", item(maxSqs, i)});
  }
  const std::vector<double> attrs = {lr,
                                     beta1,
                                     beta2,
                                     weightDecay,
                                     eps,
                                     amsgrad ? 1.0 : 0,
                                     maximize ? 1.0 : 0,
                                     gradScaleOptional != nullptr ? 1.0 : 0,
                                     foundInfOptional != nullptr ? 1.0 : 0};
  return buildOptimList(kFusedAdamwDef, api, "aclnnFusedAdamw", entries, attrs, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(FusedAdamw)

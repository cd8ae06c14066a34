// Optimiser steps of ops-nn experimental/optim (issue 28) on the optim engine (optim_op.h): the
// TensorFlow-style Apply* operators whose hyper-parameters are one-element tensors, and the
// BERT-era fused AdamApplyOne kernels. Each entry is the formula of the operator's README or
// doc (experimental/optim/<op>/README.md, docs/aclnn<Op>.md) and the public signature; the
// vector passes count the step's instructions per element (cost model).
#include <cmath>

#include "aclnnop/aclnn_adam_apply_one.h"
#include "aclnnop/aclnn_adam_apply_one_with_decay.h"
#include "aclnnop/aclnn_adam_apply_one_with_decay_assign.h"
#include "aclnnop/aclnn_apply_adagrad_d.h"
#include "aclnnop/aclnn_apply_adam_d.h"
#include "aclnnop/aclnn_apply_adam_w.h"
#include "aclnnop/aclnn_apply_gradient_descent.h"
#include "aclnnop/aclnn_apply_proximal_gradient_descent.h"
#include "runtime/aclnn/ops/optim_op.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// var - alpha * delta
void gradientDescent(const double* in, const double*, double* out) { out[0] = in[0] - in[1] * in[2]; }

// prox = var - alpha * delta; var = sign(prox) / (1 + alpha * l2) * max(|prox| - alpha * l1, 0)
void proximalGradientDescent(const double* in, const double*, double* out) {
  const double var = in[0], alpha = in[1], l1 = in[2], l2 = in[3], delta = in[4];
  const double prox = var - alpha * delta;
  const double sign = prox > 0 ? 1 : prox < 0 ? -1 : 0;
  out[0] = sign / (1 + alpha * l2) * std::max(std::fabs(prox) - alpha * l1, 0.0);
}

// accum += grad^2 (unless updateSlots is false); var -= lr * grad / sqrt(accum)
void adagrad(const double* in, const double* attrs, double* out) {
  const double var = in[0], accum = in[1], lr = in[2], grad = in[3];
  const double acc = attrs[0] != 0 ? accum + grad * grad : accum;
  out[0] = var - lr * grad / std::sqrt(acc);
  out[1] = acc;
}

// output0 = input0^2 * mul3_x + input1 * mul2_x; output1 = input2 * mul0_x + input0 * mul1_x;
// output2 = input3 - (output1 / (sqrt(output0) + add2_y) [+ input3 * mul4_x]) * input4
void adamApplyOne(const double* in, const double*, double* out) {
  const double v = in[0] * in[0] * in[8] + in[1] * in[7], m = in[2] * in[5] + in[0] * in[6];
  out[0] = v;
  out[1] = m;
  out[2] = in[3] - m / (std::sqrt(v) + in[9]) * in[4];
}
void adamApplyOneWithDecay(const double* in, const double*, double* out) {
  const double v = in[0] * in[0] * in[8] + in[1] * in[7], m = in[2] * in[5] + in[0] * in[6];
  out[0] = v;
  out[1] = m;
  out[2] = in[3] - (m / (std::sqrt(v) + in[10]) + in[3] * in[9]) * in[4];
}

// ApplyAdamD: lr' = lr * sqrt(1 - beta2Power) / (1 - beta1Power); m, v the moving moments;
// var -= lr' * m / (eps + sqrt(v)), with Nesterov's m * beta1 + (1 - beta1) * grad.
// in: var, m, v, beta1Power, beta2Power, lr, beta1, beta2, epsilon, grad; attrs: useNesterov.
void adamD(const double* in, const double* attrs, double* out) {
  const double b1 = in[6], b2 = in[7], grad = in[9];
  const double lr = in[5] * std::sqrt(1 - in[4]) / (1 - in[3]);
  const double m = b1 * in[1] + (1 - b1) * grad, v = b2 * in[2] + (1 - b2) * grad * grad;
  const double num = attrs[0] != 0 ? m * b1 + (1 - b1) * grad : m;
  out[0] = in[0] - lr * num / (in[8] + std::sqrt(v));
  out[1] = m;
  out[2] = v;
}

// ApplyAdamW as its kernel: beta^t = betaPower * beta; var = var * (1 - lr * wd)
// - lr / (1 - beta1^t) * m / (sqrt(max(maxGradNorm, v) / (1 - beta2^t)) + eps), the max only
// with amsgrad; a maximising step negates grad. in: var, m, v, beta1Power, beta2Power, lr,
// weightDecay, beta1, beta2, eps, grad, maxGradNorm; attrs: amsgrad, maximize.
void adamW(const double* in, const double* attrs, double* out) {
  const double b1 = in[7], b2 = in[8], lr = in[5];
  const double grad = attrs[1] != 0 ? -in[10] : in[10];
  const double m = b1 * in[1] + (1 - b1) * grad, v = b2 * in[2] + (1 - b2) * grad * grad;
  const double b1t = in[3] * b1, b2t = in[4] * b2;
  const double vMax = attrs[0] != 0 ? std::max(in[11], v) : v;
  const double denom = std::sqrt(vMax / (1 - b2t)) + in[9];
  out[0] = in[0] * (1 - lr * in[6]) - lr / (1 - b1t) * m / denom;
  out[1] = m;
  out[2] = v;
}

const OpInfo kGradientDescent{"aclnnApplyGradientDescent", ExecUnit::kVector, kFloats,
                              "var -= alpha * delta"};
const OpInfo kProximal{"aclnnApplyProximalGradientDescent", ExecUnit::kVector, kFloats,
                       "varOut = sign(p) / (1 + alpha*l2) * max(|p| - alpha*l1, 0), p = var - alpha*delta"};
const OpInfo kAdagrad{"aclnnApplyAdagradD", ExecUnit::kVector, kFloats,
                      "accum += grad^2; var -= lr * grad / sqrt(accum)"};
const OpInfo kAdamApplyOne{"aclnnAdamApplyOne", ExecUnit::kVector, kFloats,
                           "output2 = input3 - output1 / (sqrt(output0) + add2_y) * input4"};
const OpInfo kAdamApplyOneWithDecay{
    "aclnnAdamApplyOneWithDecay", ExecUnit::kVector, kFloats,
    "output2 = input3 - (output1 / (sqrt(output0) + add2_y) + input3*mul4_x) * input4"};
const OpInfo kAdamApplyOneWithDecayAssign{"aclnnAdamApplyOneWithDecayAssign", ExecUnit::kVector, kFloats,
                                          "as aclnnAdamApplyOneWithDecay"};
const OpInfo kAdamD{"aclnnApplyAdamD", ExecUnit::kVector, kFloats, "Adam step with beta powers as tensors"};
const OpInfo kAdamW{"aclnnApplyAdamW", ExecUnit::kVector, kFloats,
                    "AdamW step with hyper-parameters as tensors"};
const OpRegistrar kRegs[] = {OpRegistrar(kGradientDescent),
                             OpRegistrar(kProximal),
                             OpRegistrar(kAdagrad),
                             OpRegistrar(kAdamApplyOne),
                             OpRegistrar(kAdamApplyOneWithDecay),
                             OpRegistrar(kAdamApplyOneWithDecayAssign),
                             OpRegistrar(kAdamD),
                             OpRegistrar(kAdamW)};

// passes: multiply-add 2; proximal 6; adagrad: square, add, sqrt, divide, multiply, subtract;
// the Adam steps about a dozen instructions.
const OptimDef kGradientDescentDef{&kGradientDescent, gradientDescent, 2};
const OptimDef kProximalDef{&kProximal, proximalGradientDescent, 6};
const OptimDef kAdagradDef{&kAdagrad, adagrad, 6};
const OptimDef kAdamApplyOneDef{&kAdamApplyOne, adamApplyOne, 10};
const OptimDef kAdamApplyOneWithDecayDef{&kAdamApplyOneWithDecay, adamApplyOneWithDecay, 12};
const OptimDef kAdamApplyOneWithDecayAssignDef{&kAdamApplyOneWithDecayAssign, adamApplyOneWithDecay, 12};
const OptimDef kAdamDDef{&kAdamD, adamD, 12};
const OptimDef kAdamWDef{&kAdamW, adamW, 14};

int32_t adamApplyOneCall(const OptimDef& d, const char* api, const char* op, std::vector<OptimTensor> in,
                         const aclTensor* o0, const aclTensor* o1, const aclTensor* o2, uint64_t* ws,
                         aclOpExecutor** ex) {
  OptimArgs a;
  a.inputs = std::move(in);
  a.outputs = {{"output0", o0}, {"output1", o1}, {"output2", o2}};
  return buildOptim(d, api, op, a, ws, ex);
}

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::buildOptim;
using npusim::aclnn::OptimArgs;

extern "C" aclnnStatus aclnnApplyGradientDescentGetWorkspaceSize(aclTensor* var, const aclTensor* alpha,
                                                                 const aclTensor* delta,
                                                                 uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor) {
  OptimArgs a;
  a.inputs = {{"var", var}, {"alpha", alpha}, {"delta", delta}};
  a.outputs = {{"var", var}};
  return buildOptim(npusim::aclnn::kGradientDescentDef, "aclnnApplyGradientDescentGetWorkspaceSize",
                    "aclnnApplyGradientDescent", a, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ApplyGradientDescent)

extern "C" aclnnStatus aclnnApplyProximalGradientDescentGetWorkspaceSize(
    const aclTensor* var, const aclTensor* alpha, const aclTensor* l1, const aclTensor* l2,
    const aclTensor* delta, aclTensor* varOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  OptimArgs a;
  a.inputs = {{"var", var}, {"alpha", alpha}, {"l1", l1}, {"l2", l2}, {"delta", delta}};
  a.outputs = {{"varOut", varOut}};
  return buildOptim(npusim::aclnn::kProximalDef, "aclnnApplyProximalGradientDescentGetWorkspaceSize",
                    "aclnnApplyProximalGradientDescent", a, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ApplyProximalGradientDescent)

extern "C" aclnnStatus aclnnApplyAdagradDGetWorkspaceSize(const aclTensor* var, const aclTensor* accum,
                                                          const aclTensor* lr, const aclTensor* grad,
                                                          bool updateSlots, bool useLocking,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)useLocking;  // a locking hint for concurrent graph updates; one stream has nothing to lock
  OptimArgs a;
  a.inputs = {{"var", var}, {"accum", accum}, {"lr", lr}, {"grad", grad}};
  a.attrs = {updateSlots ? 1.0 : 0.0};
  a.outputs = {{"var", var}, {"accum", accum}};
  return buildOptim(npusim::aclnn::kAdagradDef, "aclnnApplyAdagradDGetWorkspaceSize", "aclnnApplyAdagradD", a,
                    workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ApplyAdagradD)

extern "C" aclnnStatus aclnnAdamApplyOneGetWorkspaceSize(
    const aclTensor* input0, const aclTensor* input1, const aclTensor* input2, const aclTensor* input3,
    const aclTensor* input4, const aclTensor* mul0_x, const aclTensor* mul1_x, const aclTensor* mul2_x,
    const aclTensor* mul3_x, const aclTensor* add2_y, const aclTensor* output0, const aclTensor* output1,
    const aclTensor* output2, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::adamApplyOneCall(npusim::aclnn::kAdamApplyOneDef, "aclnnAdamApplyOneGetWorkspaceSize",
                                         "aclnnAdamApplyOne",
                                         {{"input0", input0},
                                          {"input1", input1},
                                          {"input2", input2},
                                          {"input3", input3},
                                          {"input4", input4},
                                          {"mul0_x", mul0_x},
                                          {"mul1_x", mul1_x},
                                          {"mul2_x", mul2_x},
                                          {"mul3_x", mul3_x},
                                          {"add2_y", add2_y}},
                                         output0, output1, output2, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(AdamApplyOne)

#define NPUSIM_ADAM_APPLY_ONE_WITH_DECAY(Name, Def)                                                        \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(                                                    \
      const aclTensor* input0, const aclTensor* input1, const aclTensor* input2, const aclTensor* input3,  \
      const aclTensor* input4, const aclTensor* mul0_x, const aclTensor* mul1_x, const aclTensor* mul2_x,  \
      const aclTensor* mul3_x, const aclTensor* mul4_x, const aclTensor* add2_y, const aclTensor* output0, \
      const aclTensor* output1, const aclTensor* output2, uint64_t* workspaceSize,                         \
      aclOpExecutor** executor) {                                                                          \
    return npusim::aclnn::adamApplyOneCall(npusim::aclnn::Def, "aclnn" #Name "GetWorkspaceSize",           \
                                           "aclnn" #Name,                                                  \
                                           {{"input0", input0},                                            \
                                            {"input1", input1},                                            \
                                            {"input2", input2},                                            \
                                            {"input3", input3},                                            \
                                            {"input4", input4},                                            \
                                            {"mul0_x", mul0_x},                                            \
                                            {"mul1_x", mul1_x},                                            \
                                            {"mul2_x", mul2_x},                                            \
                                            {"mul3_x", mul3_x},                                            \
                                            {"mul4_x", mul4_x},                                            \
                                            {"add2_y", add2_y}},                                           \
                                           output0, output1, output2, workspaceSize, executor);            \
  }                                                                                                        \
  NPUSIM_ACLNN_PHASE2(Name)
NPUSIM_ADAM_APPLY_ONE_WITH_DECAY(AdamApplyOneWithDecay, kAdamApplyOneWithDecayDef)
NPUSIM_ADAM_APPLY_ONE_WITH_DECAY(AdamApplyOneWithDecayAssign, kAdamApplyOneWithDecayAssignDef)

extern "C" aclnnStatus aclnnApplyAdamDGetWorkspaceSize(
    const aclTensor* var, const aclTensor* m, const aclTensor* v, const aclTensor* beta1Power,
    const aclTensor* beta2Power, const aclTensor* lr, const aclTensor* beta1, const aclTensor* beta2,
    const aclTensor* epsilon, const aclTensor* grad, bool useLocking, bool useNesterov, aclTensor* varOut,
    aclTensor* mOut, aclTensor* vOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)useLocking;  // as ApplyAdagradD
  OptimArgs a;
  a.inputs = {{"var", var},
              {"m", m},
              {"v", v},
              {"beta1Power", beta1Power},
              {"beta2Power", beta2Power},
              {"lr", lr},
              {"beta1", beta1},
              {"beta2", beta2},
              {"epsilon", epsilon},
              {"grad", grad}};
  a.attrs = {useNesterov ? 1.0 : 0.0};
  a.outputs = {{"varOut", varOut}, {"mOut", mOut}, {"vOut", vOut}};
  return buildOptim(npusim::aclnn::kAdamDDef, "aclnnApplyAdamDGetWorkspaceSize", "aclnnApplyAdamD", a,
                    workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ApplyAdamD)

extern "C" aclnnStatus aclnnApplyAdamWGetWorkspaceSize(
    aclTensor* varRef, aclTensor* mRef, aclTensor* vRef, const aclTensor* beta1Power,
    const aclTensor* beta2Power, const aclTensor* lr, const aclTensor* weightDecay, const aclTensor* beta1,
    const aclTensor* beta2, const aclTensor* eps, const aclTensor* grad, const aclTensor* maxGradNormOptional,
    bool amsgrad, bool maximize, uint64_t* workspaceSize, aclOpExecutor** executor) {
  OptimArgs a;
  a.inputs = {{"varRef", varRef},
              {"mRef", mRef},
              {"vRef", vRef},
              {"beta1Power", beta1Power},
              {"beta2Power", beta2Power},
              {"lr", lr},
              {"weightDecay", weightDecay},
              {"beta1", beta1},
              {"beta2", beta2},
              {"eps", eps},
              {"grad", grad},
              // required with amsgrad (the doc), unread without
              {"maxGradNormOptional", maxGradNormOptional, !amsgrad}};
  a.attrs = {amsgrad ? 1.0 : 0.0, maximize ? 1.0 : 0.0};
  a.outputs = {{"varRef", varRef}, {"mRef", mRef}, {"vRef", vRef}};
  return buildOptim(npusim::aclnn::kAdamWDef, "aclnnApplyAdamWGetWorkspaceSize", "aclnnApplyAdamW", a,
                    workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ApplyAdamW)

// aclnnThnnFusedLstmCell and its backward (ops-nn rnn/thnn_fused_lstm_cell{,_grad} docs and
// kernels): the element-wise part of one LSTM step once the two matmuls are done. The gate
// blocks of every [*, 4H] tensor are in the order i, f, g, o (the kernels' offsets 0, H, 2H, 3H,
// as PyTorch's _thnn_fused_lstm_cell). Forward, per batch row:
//   a = inputGates + hiddenGates (+ inputBias + hiddenBias)
//   i, f, o = gateSigmoid(a_i, a_f, a_o), g = tanh(a_g), cy = f*cx + i*g, hy = o*tanh(cy)
//   storage = [i, f, g, o] (the activations the backward reads).
// Backward, from gradHy, gradC, cx, cy and storage:
//   t = tanh(cy), dc = gradHy*o*(1-t^2) + gradC, gradCx = dc*f
//   da_i = dc*g*i(1-i), da_f = dc*cx*f(1-f), da_g = dc*i*(1-g^2), da_o = gradHy*t*o(1-o)
//   gradBias = sum over the batch of da (only with hasBias).
// fp32 and fp16, all tensors of one type, computed in fp32.
#include <fmt/format.h>

#include <cmath>
#include <string>

#include "aclnnop/aclnn_thnn_fused_lstm_cell.h"
#include "aclnnop/aclnn_thnn_fused_lstm_cell_backward.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/rnn_common.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpRegistrar kCell({"aclnnThnnFusedLstmCell",
                         ExecUnit::kVector,
                         {ACL_FLOAT, ACL_FLOAT16},
                         "i,f,o = sigmoid, g = tanh of gates; cy = f*cx + i*g; hy = o*tanh(cy)"});
const OpRegistrar kCellBackward({"aclnnThnnFusedLstmCellBackward",
                                 ExecUnit::kVector,
                                 {ACL_FLOAT, ACL_FLOAT16},
                                 "gradients of the fused LSTM cell through its gates"});

// The (batch, 4 * hidden) tensor that fixes the type and sizes of the others.
int32_t checkGates(const char* api, const char* name, const aclTensor* t, int64_t* B, int64_t* H) {
  int32_t st = checkArg(api, name, t, {ACL_FLOAT, ACL_FLOAT16}, 2);
  if (st != kSuccess) return st;
  *B = t->desc.shape[0];
  *H = t->desc.shape[1] / 4;
  return require(api, t->desc.shape[1] % 4 == 0,
                 fmt::format("{} {} must be (batch, 4 * hidden)", name, shapeString(t->desc.shape)));
}

void cellKernel(bool hasBias, int64_t B, int64_t H, const std::vector<HostTensor>& in,
                const std::vector<HostTensor>& out) {
  const std::vector<float> xg = loadDense<float>(in[0]), hg = loadDense<float>(in[1]),
                           cx = loadDense<float>(in[2]);
  const std::vector<float> bi = hasBias ? loadDense<float>(in[3]) : std::vector<float>(4 * H, 0.0f);
  const std::vector<float> bh = hasBias ? loadDense<float>(in[4]) : std::vector<float>(4 * H, 0.0f);
  std::vector<float> hy(B * H), cy(B * H), storage(B * 4 * H);
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t j = 0; j < H; ++j) {
      float a[4];
      for (int64_t k = 0; k < 4; ++k) {
        const int64_t c = k * H + j;
        a[k] = xg[b * 4 * H + c] + hg[b * 4 * H + c] + bi[c] + bh[c];
      }
      const float i = gateSigmoid(a[0]), f = gateSigmoid(a[1]), g = std::tanh(a[2]), o = gateSigmoid(a[3]);
      const float c = f * cx[b * H + j] + i * g;
      cy[b * H + j] = c;
      hy[b * H + j] = o * std::tanh(c);
      const float act[4] = {i, f, g, o};
      for (int64_t k = 0; k < 4; ++k) storage[b * 4 * H + k * H + j] = act[k];
    }
  }
  storeDense(out[0], hy.data());
  storeDense(out[1], cy.data());
  storeDense(out[2], storage.data());
}

void cellBackwardKernel(bool hasBias, int64_t B, int64_t H, const std::vector<HostTensor>& in,
                        const std::vector<HostTensor>& out) {
  const std::vector<float> dhy = loadDense<float>(in[0]), dcy = loadDense<float>(in[1]);
  const std::vector<float> cx = loadDense<float>(in[2]), cy = loadDense<float>(in[3]);
  const std::vector<float> s = loadDense<float>(in[4]);
  std::vector<float> dgates(B * 4 * H), dcx(B * H), dbias(4 * H, 0.0f);
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t j = 0; j < H; ++j) {
      const float* row = &s[b * 4 * H];
      const float i = row[j], f = row[H + j], g = row[2 * H + j], o = row[3 * H + j];
      const int64_t e = b * H + j;
      const float t = std::tanh(cy[e]);
      const float dc = dhy[e] * o * (1 - t * t) + dcy[e];
      dcx[e] = dc * f;
      const float da[4] = {dc * g * i * (1 - i), dc * cx[e] * f * (1 - f), dc * i * (1 - g * g),
                           dhy[e] * t * o * (1 - o)};
      for (int64_t k = 0; k < 4; ++k) {
        dgates[b * 4 * H + k * H + j] = da[k];
        dbias[k * H + j] += da[k];
      }
    }
  }
  storeDense(out[0], dgates.data());
  storeDense(out[1], dcx.data());
  if (hasBias) storeDense(out[2], dbias.data());
}

int32_t buildCell(const aclTensor* inputGates, const aclTensor* hiddenGates, const aclTensor* cx,
                  const aclTensor* inputBias, const aclTensor* hiddenBias, const aclTensor* hy,
                  const aclTensor* cy, const aclTensor* storage, uint64_t* workspaceSize,
                  aclOpExecutor** executor) {
  const char* api = "aclnnThnnFusedLstmCellGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  int64_t B = 0, H = 0;
  if ((st = checkGates(api, "inputGates", inputGates, &B, &H)) != kSuccess) return st;
  const aclDataType dt = inputGates->desc.dtype;
  const int64_t H4 = 4 * H;
  if ((st = checkRnnArg(api, "hiddenGates", hiddenGates, dt, {B, H4})) != kSuccess) return st;
  if ((st = checkRnnArg(api, "cx", cx, dt, {B, H})) != kSuccess) return st;
  if ((st = require(api, (inputBias == nullptr) == (hiddenBias == nullptr),
                    "inputBiasOptional and hiddenBiasOptional must be both given or both null")) !=
      kSuccess) {
    return st;
  }
  const bool hasBias = inputBias != nullptr;
  if (hasBias) {
    if ((st = checkRnnArg(api, "inputBiasOptional", inputBias, dt, {H4})) != kSuccess) return st;
    if ((st = checkRnnArg(api, "hiddenBiasOptional", hiddenBias, dt, {H4})) != kSuccess) return st;
  }
  if ((st = checkRnnArg(api, "hyOut", hy, dt, {B, H})) != kSuccess) return st;
  if ((st = checkRnnArg(api, "cyOut", cy, dt, {B, H})) != kSuccess) return st;
  if ((st = checkRnnArg(api, "storageOut", storage, dt, {B, H4})) != kSuccess) return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnThnnFusedLstmCell";
  addInput(*inst, "inputGates", inputGates);
  addInput(*inst, "hiddenGates", hiddenGates);
  addInput(*inst, "cx", cx);
  if (hasBias) {
    addInput(*inst, "inputBiasOptional", inputBias);
    addInput(*inst, "hiddenBiasOptional", hiddenBias);
  }
  addOutput(*inst, "storageOut", storage);
  addOutput(*inst, "hyOut", hy);
  addOutput(*inst, "cyOut", cy);
  // Over the [B, 4H] gates: two adds (three with biases), exp, add, reciprocal (tanh as the
  // same three), then over [B, H] the cell update and tanh(cy) * o, about a pass more.
  inst->vectorPasses = hasBias ? 8 : 7;
  inst->kernel = [hasBias, B, H](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    // The instance's outputs are storage, hy, cy (storage, the largest, carries the tiling).
    cellKernel(hasBias, B, H, in, {out[1], out[2], out[0]});
  };
  inst->attrs = fmt::format("batch={} hidden={} bias={}", B, H, hasBias);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

int32_t buildCellBackward(const aclTensor* gradHy, const aclTensor* gradC, const aclTensor* cx,
                          const aclTensor* cy, const aclTensor* storage, bool hasBias,
                          const aclTensor* gradGates, const aclTensor* gradCx, const aclTensor* gradBias,
                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnThnnFusedLstmCellBackwardGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  // The public op_api checks every tensor for null, the "Optional" gradients and gradBiasOut too.
  if ((st = checkNotNull(api, {{"gradHyOptional", gradHy},
                               {"gradCOptional", gradC},
                               {"cx", cx},
                               {"cy", cy},
                               {"storage", storage},
                               {"gradGatesOut", gradGates},
                               {"gradCxOut", gradCx},
                               {"gradBiasOut", gradBias}})) != kSuccess) {
    return st;
  }
  int64_t B = 0, H = 0;
  if ((st = checkGates(api, "storage", storage, &B, &H)) != kSuccess) return st;
  const aclDataType dt = storage->desc.dtype;
  const int64_t H4 = 4 * H;
  if ((st = checkRnnArg(api, "gradHyOptional", gradHy, dt, {B, H})) != kSuccess) return st;
  if ((st = checkRnnArg(api, "gradCOptional", gradC, dt, {B, H})) != kSuccess) return st;
  if ((st = checkRnnArg(api, "cx", cx, dt, {B, H})) != kSuccess) return st;
  if ((st = checkRnnArg(api, "cy", cy, dt, {B, H})) != kSuccess) return st;
  if ((st = checkRnnArg(api, "gradGatesOut", gradGates, dt, {B, H4})) != kSuccess) return st;
  if ((st = checkRnnArg(api, "gradCxOut", gradCx, dt, {B, H})) != kSuccess) return st;
  if (hasBias && (st = checkRnnArg(api, "gradBiasOut", gradBias, dt, {H4})) != kSuccess) return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnThnnFusedLstmCellBackward";
  addInput(*inst, "storage", storage);
  addInput(*inst, "gradHyOptional", gradHy);
  addInput(*inst, "gradCOptional", gradC);
  addInput(*inst, "cx", cx);
  addInput(*inst, "cy", cy);
  addOutput(*inst, "gradGatesOut", gradGates);
  addOutput(*inst, "gradCxOut", gradCx);
  if (hasBias) addOutput(*inst, "gradBiasOut", gradBias);
  // Over [B, 4H]: the four gate derivatives (multiply, subtract, multiply, multiply) and the
  // batch sum for the bias; tanh(cy) and the cell gradient over [B, H] are about one more.
  inst->vectorPasses = hasBias ? 6 : 5;
  inst->kernel = [hasBias, B, H](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    std::vector<HostTensor> outs = out;
    if (!hasBias) outs.push_back(HostTensor{});
    cellBackwardKernel(hasBias, B, H, {in[1], in[2], in[3], in[4], in[0]}, outs);
  };
  inst->attrs = fmt::format("batch={} hidden={} hasBias={}", B, H, hasBias);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnThnnFusedLstmCellGetWorkspaceSize(
    const aclTensor* inputGates, const aclTensor* hiddenGates, const aclTensor* cx,
    const aclTensor* inputBiasOptional, const aclTensor* hiddenBiasOptional, aclTensor* hyOut,
    aclTensor* cyOut, aclTensor* storageOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::buildCell(inputGates, hiddenGates, cx, inputBiasOptional, hiddenBiasOptional, hyOut,
                                  cyOut, storageOut, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnThnnFusedLstmCellBackwardGetWorkspaceSize(
    const aclTensor* gradHyOptional, const aclTensor* gradCOptional, const aclTensor* cx, const aclTensor* cy,
    const aclTensor* storage, bool hasBias, aclTensor* gradGatesOut, aclTensor* gradCxOut,
    aclTensor* gradBiasOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::buildCellBackward(gradHyOptional, gradCOptional, cx, cy, storage, hasBias,
                                          gradGatesOut, gradCxOut, gradBiasOut, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(ThnnFusedLstmCell)
NPUSIM_ACLNN_PHASE2(ThnnFusedLstmCellBackward)

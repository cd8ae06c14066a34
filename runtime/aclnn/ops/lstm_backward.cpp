// aclnnLstmBackward (ops-nn rnn/single_layer_lstm_grad docs/aclnnLstmBackward.md): the
// gradients of aclnnLSTM from its kept values (lists i, g, f, o, h, c, tanh(c) of D*L tensors
// (T, B, H), row l*D + d), back through time and from the top layer down. Per layer, direction
// and step, walking the steps in the reverse of the order the forward ran them:
//   dh = dy_t + dh_next; dc = dh*o*(1 - tanhc^2) + dc_next
//   da_i = dc*g*i(1-i), da_f = dc*c_prev*f(1-f), da_g = dc*i*(1-g^2), da_o = dh*tanhc*o(1-o)
//   dW_ih += da^T x_t, dW_hh += da^T h_prev, db_ih = db_hh += da
//   dx_t += da W_ih, dh_next = da W_hh, dc_next = dc*f
// with h_prev, c_prev the forward's previous step (hx at the first). dh, dc are the gradients
// of the final states; dhPrev, dcPrev those of hx. The layer below gets dx as its dy (both
// directions' parts summed). fp32/fp16, all tensors one type, computed in fp32. outputMask is
// ignored (the doc: not supported yet, every gradient is computed); dropout must be 0 as for the
// forward; packed sequences (batchSizesOptional) are refused with 161002.
#include <fmt/format.h>

#include <algorithm>

#include "aclnnop/aclnn_lstm_backward.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/rnn_common.h"
#include "runtime/aclnn/ops/rnn_op.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpRegistrar kLstmBackward({"aclnnLstmBackward",
                                 ExecUnit::kCube,
                                 {ACL_FLOAT, ACL_FLOAT16},
                                 "LSTM gradients back through time from the kept gate values"});

constexpr int kKept = 7;  // i, g, f, o, h, c, tanhc

// (T, B, W) <-> (B, T, W), row-major.
std::vector<float> swapLeading(const std::vector<float>& v, int64_t A, int64_t Bn, int64_t W) {
  std::vector<float> r(v.size());
  for (int64_t a = 0; a < A; ++a)
    for (int64_t b = 0; b < Bn; ++b) std::copy_n(&v[(a * Bn + b) * W], W, &r[(b * A + a) * W]);
  return r;
}

// Inputs: input, h0, c0, dy, dh, dc, params (P), the kept lists (7 x L*D). Outputs: dx, dhPrev,
// dcPrev, dparams (P).
void lstmBackwardKernel(const RnnShape& s, const std::vector<HostTensor>& in,
                        const std::vector<HostTensor>& out) {
  const int64_t T = s.T, B = s.B, H = s.H, LD = s.L * s.D, G = 4 * H;
  const size_t P = static_cast<size_t>(LD * (s.bias ? 4 : 2));
  std::vector<float> x0 = loadDense<float>(in[0]), dy = loadDense<float>(in[3]);
  if (s.batchFirst) {
    x0 = swapLeading(x0, B, T, s.I);
    dy = swapLeading(dy, B, T, s.D * H);
  }
  const std::vector<float> h0 = loadDense<float>(in[1]), c0 = loadDense<float>(in[2]);
  const std::vector<float> dhT = loadDense<float>(in[4]), dcT = loadDense<float>(in[5]);
  std::vector<std::vector<float>> kept(kKept * LD);
  for (size_t k = 0; k < kept.size(); ++k) kept[k] = loadDense<float>(in[6 + P + k]);
  auto at = [&](int k, int64_t row, int64_t t, int64_t b) { return &kept[k * LD + row][(t * B + b) * H]; };
  std::vector<std::vector<float>> dparams(P);
  for (size_t p = 0; p < P; ++p) dparams[p].assign(static_cast<size_t>(out[3 + p].numel()), 0.0f);
  std::vector<float> dhPrev(LD * B * H), dcPrev(LD * B * H), da(G);
  for (int64_t l = s.L - 1; l >= 0; --l) {
    const int64_t K = s.layerInput(l);
    std::vector<float> X = x0;  // the layer's input (T, B, K): below it, both directions' h
    if (l > 0) {
      X.assign(T * B * K, 0.0f);
      for (int64_t d = 0; d < s.D; ++d)
        for (int64_t t = 0; t < T; ++t)
          for (int64_t b = 0; b < B; ++b)
            std::copy_n(at(4, (l - 1) * s.D + d, t, b), H, &X[(t * B + b) * K + d * H]);
    }
    std::vector<float> dIn(T * B * K, 0.0f);
    for (int64_t d = 0; d < s.D; ++d) {
      const int64_t row = l * s.D + d;
      const size_t p = static_cast<size_t>(s.paramIndex(l, d));
      const std::vector<float> wi = loadDense<float>(in[6 + p]), wh = loadDense<float>(in[6 + p + 1]);
      std::vector<float> dhn(&dhT[row * B * H], &dhT[(row + 1) * B * H]),
          dcn(&dcT[row * B * H], &dcT[(row + 1) * B * H]);
      std::vector<float> dhNext(B * H), dcNext(B * H);
      for (int64_t step = 0; step < T; ++step) {
        const int64_t t = d == 0 ? T - 1 - step : step, tp = d == 0 ? t - 1 : t + 1;
        const bool first = tp < 0 || tp >= T;  // the forward's first step: previous state is hx
        for (int64_t b = 0; b < B; ++b) {
          const float* hp = first ? &h0[(row * B + b) * H] : at(4, row, tp, b);
          const float* cp = first ? &c0[(row * B + b) * H] : at(5, row, tp, b);
          const float *ig = at(0, row, t, b), *gg = at(1, row, t, b), *fg = at(2, row, t, b),
                      *og = at(3, row, t, b), *tc = at(6, row, t, b);
          for (int64_t j = 0; j < H; ++j) {
            const float dh = dy[(t * B + b) * s.D * H + d * H + j] + dhn[b * H + j];
            const float dc = dh * og[j] * (1 - tc[j] * tc[j]) + dcn[b * H + j];
            da[j] = dc * gg[j] * ig[j] * (1 - ig[j]);
            da[H + j] = dc * cp[j] * fg[j] * (1 - fg[j]);
            da[2 * H + j] = dc * ig[j] * (1 - gg[j] * gg[j]);
            da[3 * H + j] = dh * tc[j] * og[j] * (1 - og[j]);
            dcNext[b * H + j] = dc * fg[j];
          }
          const float* xt = &X[(t * B + b) * K];
          for (int64_t g = 0; g < G; ++g) {
            for (int64_t k = 0; k < K; ++k) dparams[p][g * K + k] += da[g] * xt[k];
            for (int64_t k = 0; k < H; ++k) dparams[p + 1][g * H + k] += da[g] * hp[k];
            if (s.bias) {
              dparams[p + 2][g] += da[g];
              dparams[p + 3][g] += da[g];
            }
          }
          for (int64_t k = 0; k < K; ++k) {
            float acc = 0;
            for (int64_t g = 0; g < G; ++g) acc += da[g] * wi[g * K + k];
            dIn[(t * B + b) * K + k] += acc;
          }
          for (int64_t k = 0; k < H; ++k) {
            float acc = 0;
            for (int64_t g = 0; g < G; ++g) acc += da[g] * wh[g * H + k];
            dhNext[b * H + k] = acc;
          }
        }
        dhn.swap(dhNext);
        dcn.swap(dcNext);
      }
      std::copy(dhn.begin(), dhn.end(), &dhPrev[row * B * H]);
      std::copy(dcn.begin(), dcn.end(), &dcPrev[row * B * H]);
    }
    if (l > 0) {
      dy.swap(dIn);
    } else {
      x0.swap(dIn);
    }
  }
  if (s.batchFirst) x0 = swapLeading(x0, T, B, s.I);
  storeDense(out[0], x0.data());
  storeDense(out[1], dhPrev.data());
  storeDense(out[2], dcPrev.data());
  for (size_t p = 0; p < P; ++p) storeDense(out[3 + p], dparams[p].data());
}

class LstmBackwardInstance : public OpInstanceBase<LstmBackwardInstance> {
 public:
  RnnShape s;

  // Each step costs its forward matmul twice (dx/dh and the weight gradients) plus the gate
  // derivatives on the vector cores, steps chained as in the forward.
  rt::OpWork work() const override {
    std::vector<uint64_t> weights;
    for (int64_t r = 0; r < s.L * s.D; ++r)
      weights.push_back(inputs[static_cast<size_t>(6 + s.paramIndex(r / s.D, r % s.D))].data);
    return rnnStepWork(s, weights, outputs[0].data, inputs[0].elementSize(), inputs[0].dtype == ACL_FLOAT, 2,
                       2);
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    lstmBackwardKernel(s, in, out);
  }
};

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnLstmBackwardGetWorkspaceSize(
    const aclTensor* input, const aclTensorList* hx, const aclTensorList* params, const aclTensor* dy,
    const aclTensor* dh, const aclTensor* dc, const aclTensorList* i, const aclTensorList* g,
    const aclTensorList* f, const aclTensorList* o, const aclTensorList* h, const aclTensorList* c,
    const aclTensorList* tanhc, const aclTensor* batchSizesOptional, bool hasBias, int64_t numLayers,
    double dropout, bool /*train*/, bool bidirectional, bool batchFirst, const aclBoolArray* /*outputMask*/,
    aclTensor* dxOut, aclTensor* dhPrevOut, aclTensor* dcPrevOut, aclTensorList* dparamsOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnLstmBackwardGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkNotNull(api, {{"input", input},
                               {"hx", hx},
                               {"params", params},
                               {"dy", dy},
                               {"dh", dh},
                               {"dc", dc},
                               {"dxOut", dxOut},
                               {"dhPrevOut", dhPrevOut},
                               {"dcPrevOut", dcPrevOut},
                               {"dparamsOut", dparamsOut}})) != kSuccess) {
    return st;
  }
  if ((st = require(
           api, batchSizesOptional == nullptr,
           "batchSizesOptional (packed sequences) is not supported by the simulator's LstmBackward")) !=
      kSuccess) {
    return st;
  }
  if ((st = require(api, dropout == 0.0,
                    fmt::format("dropout {} is not supported (as the forward)", dropout))) != kSuccess) {
    return st;
  }
  if ((st = require(api, numLayers >= 1, fmt::format("numLayers {} must be > 0", numLayers))) != kSuccess)
    return st;
  RnnShape s;
  s.L = numLayers, s.D = bidirectional ? 2 : 1, s.bias = hasBias, s.batchFirst = batchFirst;
  s.gates = 4, s.states = 2, s.passes = 5;
  if ((st = checkArg(api, "input", input, {ACL_FLOAT, ACL_FLOAT16}, 3)) != kSuccess) return st;
  const aclDataType dt = input->desc.dtype;
  const size_t P = static_cast<size_t>(s.L * s.D * (hasBias ? 4 : 2));
  if ((st = checkRnnList(api, "params", params, P)) != kSuccess) return st;
  if ((st = checkRnnList(api, "dparamsOut", dparamsOut, P)) != kSuccess) return st;
  if ((st = checkArg(api, "params[0]", params->items[0], {ACL_FLOAT, ACL_FLOAT16}, 2)) != kSuccess) return st;
  s.H = params->items[0]->desc.shape[0] / 4;
  if ((st = require(api, params->items[0]->desc.shape[0] % 4 == 0 && s.H > 0,
                    "params[0] must have 4 * hidden_size rows")) != kSuccess) {
    return st;
  }
  const std::vector<int64_t>& is = input->desc.shape;
  s.T = batchFirst ? is[1] : is[0];
  s.B = batchFirst ? is[0] : is[1];
  s.I = is[2];
  for (int64_t l = 0; l < s.L; ++l) {
    for (int64_t d = 0; d < s.D; ++d) {
      const size_t p = static_cast<size_t>(s.paramIndex(l, d));
      const std::vector<std::vector<int64_t>> shapes{
          {4 * s.H, s.layerInput(l)}, {4 * s.H, s.H}, {4 * s.H}, {4 * s.H}};
      for (size_t k = 0; k < (hasBias ? 4u : 2u); ++k) {
        if ((st = checkRnnArg(api, fmt::format("params[{}]", p + k), params->items[p + k], dt, shapes[k])) !=
                kSuccess ||
            (st = checkRnnArg(api, fmt::format("dparamsOut[{}]", p + k), dparamsOut->items[p + k], dt,
                              shapes[k])) != kSuccess) {
          return st;
        }
      }
    }
  }
  const std::vector<int64_t> stateShape{s.L * s.D, s.B, s.H}, stepShape{s.T, s.B, s.H};
  const std::vector<int64_t> dyShape =
      batchFirst ? std::vector<int64_t>{s.B, s.T, s.D * s.H} : std::vector<int64_t>{s.T, s.B, s.D * s.H};
  if ((st = checkRnnList(api, "hx", hx, 2)) != kSuccess) return st;
  if ((st = checkRnnArg(api, "hx[0]", hx->items[0], dt, stateShape)) != kSuccess) return st;
  if ((st = checkRnnArg(api, "hx[1]", hx->items[1], dt, stateShape)) != kSuccess) return st;
  if ((st = checkRnnArg(api, "dy", dy, dt, dyShape)) != kSuccess) return st;
  if ((st = checkRnnArg(api, "dh", dh, dt, stateShape)) != kSuccess) return st;
  if ((st = checkRnnArg(api, "dc", dc, dt, stateShape)) != kSuccess) return st;
  if ((st = checkRnnArg(api, "dxOut", dxOut, dt, is)) != kSuccess) return st;
  if ((st = checkRnnArg(api, "dhPrevOut", dhPrevOut, dt, stateShape)) != kSuccess) return st;
  if ((st = checkRnnArg(api, "dcPrevOut", dcPrevOut, dt, stateShape)) != kSuccess) return st;
  const aclTensorList* lists[kKept] = {i, g, f, o, h, c, tanhc};
  const char* const names[kKept] = {"i", "g", "f", "o", "h", "c", "tanhc"};
  for (int k = 0; k < kKept; ++k) {
    if ((st = checkRnnList(api, names[k], lists[k], static_cast<size_t>(s.L * s.D))) != kSuccess) return st;
    for (size_t r = 0; r < lists[k]->items.size(); ++r)
      if ((st = checkRnnArg(api, fmt::format("{}[{}]", names[k], r), lists[k]->items[r], dt, stepShape)) !=
          kSuccess)
        return st;
  }
  auto inst = std::make_unique<LstmBackwardInstance>();
  inst->name = "aclnnLstmBackward";
  inst->s = s;
  addInput(*inst, "input", input);
  addInput(*inst, "hx", hx->items[0]);
  addInput(*inst, "hx", hx->items[1]);
  addInput(*inst, "dy", dy);
  addInput(*inst, "dh", dh);
  addInput(*inst, "dc", dc);
  for (const aclTensor* p : params->items) addInput(*inst, "params", p);
  for (int k = 0; k < kKept; ++k)
    for (const aclTensor* t : lists[k]->items) addInput(*inst, names[k], t);
  addOutput(*inst, "dxOut", dxOut);
  addOutput(*inst, "dhPrevOut", dhPrevOut);
  addOutput(*inst, "dcPrevOut", dcPrevOut);
  for (const aclTensor* p : dparamsOut->items) addOutput(*inst, "dparamsOut", p);
  inst->attrs = fmt::format("T={} B={} I={} H={} layers={} bidirectional={} bias={}", s.T, s.B, s.I, s.H, s.L,
                            bidirectional, hasBias);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(LstmBackward)

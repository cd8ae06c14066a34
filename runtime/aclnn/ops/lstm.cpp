// aclnnLSTM (ops-nn rnn/dynamic_rnn docs/aclnnLSTM.md and op_api): numLayers LSTM layers over a
// sequence of T steps, each layer one direction or two (the reverse one reading the sequence
// backwards; the next layer reads both directions' outputs concatenated, forward first).
// Per step, with the gate blocks in the order i, f, g, o (the op_api runs DynamicRNN with
// gate_order "ifjo" on [weight_ih, weight_hh] concatenated, as PyTorch lays them out):
//   a = x_t W_ih^T + h W_hh^T (+ b_ih + b_hh); i, f, o = sigmoid; j = tanh(a_g)
//   c = f*c + i*j; h = o*tanh(c)
// params per layer and direction: weight_ih (4H, in), weight_hh (4H, H), then with hasBias
// bias_ih, bias_hh (4H); the reverse direction's set follows the forward one's. hx: none
// (zero states) or {h0, c0}, each (D*numLayers, B, H), row layer*D + direction, as hy and cy.
// With train, the lists i/j/f/o/h/c/tanhc (D*numLayers tensors of (T, B, H)) keep every step.
// batchSizes (packed sequences): input (T*B, I) laid out as (T, B, I), batchSizes[t] the rows
// still running at step t; a finished row keeps its state (its hy/cy are those of its last
// step), its later outputs are 0, and the reverse direction starts at its last step.
// fp32/fp16, all tensors one type, computed in fp32. dropout must be 0 (the doc: not supported).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "aclnnop/aclnn_lstm.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/rnn_common.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {
namespace {

const OpRegistrar kLstm({"aclnnLSTM",
                         ExecUnit::kCube,
                         {ACL_FLOAT, ACL_FLOAT16},
                         "per step: gates = [x, h] W^T + b; c = f*c + i*g; h = o*tanh(c)"});

struct LstmShape {
  int64_t T = 0, B = 0, I = 0, H = 0, L = 1, D = 1;
  bool bias = false, train = false, batchFirst = false, packed = false, hasHx = false;
  int64_t layerInput(int64_t l) const { return l == 0 ? I : D * H; }
  int64_t paramIndex(int64_t l, int64_t d) const { return (l * D + d) * (bias ? 4 : 2); }
};

// Training lists, in the order of the signature; each holds D*L tensors of (T, B, H).
constexpr int kTrainLists = 7;  // i, j, f, o, h, c, tanhc

// Inputs: input, params (L*D*(2|4)), [h0, c0], [batchSizes]. Outputs: output, hy, cy, then
// with train the seven lists, list k's tensor (l*D + d) at 3 + k*L*D + l*D + d.
void lstmKernel(const LstmShape& s, const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
  const int64_t T = s.T, B = s.B, H = s.H, LD = s.L * s.D;
  std::vector<float> x = loadDense<float>(in[0]);
  if (s.batchFirst) {  // (B, T, I) -> (T, B, I)
    std::vector<float> tb(x.size());
    for (int64_t b = 0; b < B; ++b)
      for (int64_t t = 0; t < T; ++t) std::copy_n(&x[(b * T + t) * s.I], s.I, &tb[(t * B + b) * s.I]);
    x.swap(tb);
  }
  const size_t nParams = static_cast<size_t>(LD * (s.bias ? 4 : 2));
  std::vector<float> h0(LD * B * H, 0.0f), c0(LD * B * H, 0.0f);
  if (s.hasHx) {
    h0 = loadDense<float>(in[1 + nParams]);
    c0 = loadDense<float>(in[2 + nParams]);
  }
  std::vector<int64_t> length(B, T);  // steps each batch row runs
  if (s.packed) {
    const std::vector<int64_t> sizes = loadDense<int64_t>(in.back());
    for (int64_t b = 0; b < B; ++b)
      length[b] = std::count_if(sizes.begin(), sizes.end(), [b](int64_t n) { return n > b; });
  }
  std::vector<float> hy(LD * B * H), cy(LD * B * H);
  std::vector<std::vector<float>> keep(kTrainLists * LD);
  for (int64_t l = 0; l < s.L; ++l) {
    const int64_t K = s.layerInput(l);
    std::vector<float> next(T * B * s.D * H, 0.0f);
    for (int64_t d = 0; d < s.D; ++d) {
      const size_t p = static_cast<size_t>(1 + s.paramIndex(l, d));
      const std::vector<float> wi = loadDense<float>(in[p]), wh = loadDense<float>(in[p + 1]);
      std::vector<float> bsum(4 * H, 0.0f);
      if (s.bias) {
        const std::vector<float> bi = loadDense<float>(in[p + 2]), bh = loadDense<float>(in[p + 3]);
        for (int64_t k = 0; k < 4 * H; ++k) bsum[k] = bi[k] + bh[k];
      }
      const int64_t row = l * s.D + d;
      std::vector<float> h(&h0[row * B * H], &h0[(row + 1) * B * H]),
          c(&c0[row * B * H], &c0[(row + 1) * B * H]);
      if (s.train)
        for (int k = 0; k < kTrainLists; ++k) keep[k * LD + row].assign(T * B * H, 0.0f);
      std::vector<float> a(4 * H);
      for (int64_t step = 0; step < T; ++step) {
        const int64_t t = d == 0 ? step : T - 1 - step;
        for (int64_t b = 0; b < B; ++b) {
          if (t >= length[b]) continue;  // a finished packed row: state held, output 0
          const float* xt = &x[(t * B + b) * K];
          for (int64_t g = 0; g < 4 * H; ++g) {
            float acc = bsum[g];
            for (int64_t k = 0; k < K; ++k) acc += xt[k] * wi[g * K + k];
            for (int64_t k = 0; k < H; ++k) acc += h[b * H + k] * wh[g * H + k];
            a[g] = acc;
          }
          for (int64_t j = 0; j < H; ++j) {
            const float ig = gateSigmoid(a[j]), fg = gateSigmoid(a[H + j]), jg = std::tanh(a[2 * H + j]),
                        og = gateSigmoid(a[3 * H + j]);
            const float cn = fg * c[b * H + j] + ig * jg, tc = std::tanh(cn), hn = og * tc;
            c[b * H + j] = cn;
            h[b * H + j] = hn;
            next[(t * B + b) * s.D * H + d * H + j] = hn;
            if (s.train) {
              const float vals[kTrainLists] = {ig, jg, fg, og, hn, cn, tc};
              for (int k = 0; k < kTrainLists; ++k) keep[k * LD + row][(t * B + b) * H + j] = vals[k];
            }
          }
        }
      }
      std::copy(h.begin(), h.end(), &hy[row * B * H]);
      std::copy(c.begin(), c.end(), &cy[row * B * H]);
    }
    x.swap(next);
  }
  if (s.batchFirst) {  // (T, B, D*H) -> (B, T, D*H)
    const int64_t W = s.D * H;
    std::vector<float> bt(x.size());
    for (int64_t t = 0; t < T; ++t)
      for (int64_t b = 0; b < B; ++b) std::copy_n(&x[(t * B + b) * W], W, &bt[(b * T + t) * W]);
    x.swap(bt);
  }
  storeDense(out[0], x.data());
  storeDense(out[1], hy.data());
  storeDense(out[2], cy.data());
  if (s.train)
    for (size_t k = 0; k < keep.size(); ++k) storeDense(out[3 + k], keep[k].data());
}

// The recurrence on the cores: per layer, direction and step, the step's matmul [x_t, h] (B x K+H)
// by the concatenated weights (K+H x 4H) split by columns over the cube cores, then one vector
// tile for the gates and state update. Each step's matmul tiles wait for the previous step's
// vector tile and the vector tile for the step's last matmul tile (TileWork::after): the steps
// run one after another as the recurrence requires.
class LstmInstance : public OpInstanceBase<LstmInstance> {
 public:
  LstmShape s;

  rt::OpWork work() const override {
    const rt::CoreRates rates = rt::coreRates();
    const uint64_t es = inputs[0].elementSize(), macFactor = inputs[0].dtype == ACL_FLOAT ? 2 : 1;
    const int64_t B = s.B, H = s.H, N = 4 * H;
    // Columns per cube tile: 16-wide fractal blocks shared over the cube cores.
    const int64_t blocks = std::max<int64_t>(1, (N + 15) / 16),
                  parts = std::min<int64_t>(rates.cubeCores, blocks);
    std::vector<aicore::TileWork> cube, vec;
    for (int64_t l = 0; l < s.L; ++l) {
      const int64_t K = s.layerInput(l) + H;
      for (int64_t d = 0; d < s.D; ++d) {
        const TensorDesc& w = inputs[static_cast<size_t>(1 + s.paramIndex(l, d))];
        for (int64_t step = 0; step < s.T; ++step) {
          for (int64_t p = 0; p < parts; ++p) {
            const int64_t cols =
                std::min(N, (p + 1) * blocks / parts * 16) - std::min(N, p * blocks / parts * 16);
            aicore::TileWork t;
            t.cubeMacs = static_cast<uint64_t>(B * K * cols) * macFactor;
            t.readAddr = w.data;
            t.readBytes = static_cast<uint64_t>((K * cols + B * K)) * es;  // weight panel + [x_t, h]
            t.writeAddr = outputs[0].data;
            t.writeBytes = static_cast<uint64_t>(B * cols) * 4;                 // fp32 gate sums
            t.after = vec.empty() ? -1 : static_cast<int64_t>(vec.size() - 1);  // fixed below
            cube.push_back(t);
          }
          aicore::TileWork v;
          v.readAddr = outputs[0].data;
          v.readBytes = static_cast<uint64_t>(B * N) * 4 + static_cast<uint64_t>(B * H) * es;  // gates, c
          v.writeAddr = outputs[0].data;
          // h and c (plus the five other kept tensors when training).
          v.writeBytes = static_cast<uint64_t>(B * H) * es * (s.train ? kTrainLists : 2);
          // sigmoid/tanh as exp, add, reciprocal over the gates and the bias add, then about a
          // pass for the cell update: 5 passes over the fp32 gates.
          v.vectorBytes = static_cast<uint64_t>(B * N) * 4 * 5;
          v.after = static_cast<int64_t>(cube.size() - 1);  // the step's last matmul tile
          vec.push_back(v);
        }
      }
    }
    rt::OpWork work;
    work.cube = true;
    work.mixedCubeTiles = cube.size();
    // Cube tiles wait for the previous step's vector tile, which sits after all cube tiles.
    for (aicore::TileWork& t : cube)
      if (t.after >= 0) t.after += static_cast<int64_t>(cube.size());
    work.tiles = std::move(cube);
    work.tiles.insert(work.tiles.end(), vec.begin(), vec.end());
    return work;
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    lstmKernel(s, in, out);
  }
};

int32_t checkList(const char* api, const char* name, const aclTensorList* list, size_t count) {
  if (list == nullptr) return fail(api, kErrParamNullptr, fmt::format("{} is null", name));
  return require(api, list->items.size() == count,
                 fmt::format("{} holds {} tensors; {} expected", name, list->items.size(), count));
}

int32_t buildLstm(const aclTensor* input, const aclTensorList* params, const aclTensorList* hx,
                  const aclTensor* batchSizes, bool hasBias, int64_t numLayers, double dropout, bool train,
                  bool bidirectional, bool batchFirst, const aclTensor* output, const aclTensor* hy,
                  const aclTensor* cy, const aclTensorList* const lists[kTrainLists], uint64_t* workspaceSize,
                  aclOpExecutor** executor) {
  const char* api = "aclnnLSTMGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkNotNull(
           api, {{"input", input}, {"params", params}, {"output", output}, {"hy", hy}, {"cy", cy}})) !=
      kSuccess) {
    return st;
  }
  LstmShape s;
  s.L = numLayers, s.D = bidirectional ? 2 : 1, s.bias = hasBias, s.train = train, s.batchFirst = batchFirst;
  s.packed = batchSizes != nullptr;
  if ((st = require(api, numLayers >= 1, fmt::format("numLayers {} must be >= 1", numLayers))) != kSuccess)
    return st;
  if ((st = require(api, dropout == 0.0,
                    fmt::format("dropout {} is not supported (the doc: only 0)", dropout))) != kSuccess) {
    return st;
  }
  if ((st = checkArg(api, "input", input, {ACL_FLOAT, ACL_FLOAT16}, s.packed ? 2 : 3)) != kSuccess) return st;
  const aclDataType dt = input->desc.dtype;
  if ((st = checkList(api, "params", params, static_cast<size_t>(s.L * s.D * (hasBias ? 4 : 2)))) != kSuccess)
    return st;
  if ((st = checkArg(api, "params[0]", params->items[0], {ACL_FLOAT, ACL_FLOAT16}, 2)) != kSuccess) return st;
  s.H = params->items[0]->desc.shape[0] / 4;
  if ((st = require(api, params->items[0]->desc.shape[0] % 4 == 0 && s.H > 0,
                    "weight_ih_0 must have 4 * hidden_size rows")) != kSuccess) {
    return st;
  }
  const std::vector<int64_t>& is = input->desc.shape;
  s.I = is.back();
  if (s.packed) {
    if ((st = checkArg(api, "batchSizes", batchSizes, {ACL_INT64}, 1)) != kSuccess) return st;
    s.T = batchSizes->desc.shape[0];
    s.B = s.T > 0 ? is[0] / s.T : 0;
    if ((st = require(api, s.T > 0 && s.B * s.T == is[0] && !batchFirst,
                      fmt::format("packed input {} must be (time_step * batch, input) for {} batchSizes, "
                                  "not batchFirst",
                                  shapeString(is), s.T))) != kSuccess) {
      return st;
    }
  } else {
    s.T = batchFirst ? is[1] : is[0];
    s.B = batchFirst ? is[0] : is[1];
  }
  for (int64_t l = 0; l < s.L; ++l) {
    for (int64_t d = 0; d < s.D; ++d) {
      const size_t p = static_cast<size_t>(s.paramIndex(l, d));
      const std::string tag = fmt::format("params[{}]", p);
      if ((st = checkRnnArg(api, tag, params->items[p], dt, {4 * s.H, s.layerInput(l)})) != kSuccess)
        return st;
      if ((st = checkRnnArg(api, fmt::format("params[{}]", p + 1), params->items[p + 1], dt,
                            {4 * s.H, s.H})) != kSuccess) {
        return st;
      }
      for (size_t k = 2; hasBias && k < 4; ++k) {
        if ((st = checkRnnArg(api, fmt::format("params[{}]", p + k), params->items[p + k], dt, {4 * s.H})) !=
            kSuccess) {
          return st;
        }
      }
    }
  }
  const std::vector<int64_t> stateShape{s.L * s.D, s.B, s.H}, stepShape{s.T, s.B, s.H};
  s.hasHx = hx != nullptr && !hx->items.empty();
  if (s.hasHx) {
    if ((st = require(api, hx->items.size() == 2,
                      fmt::format("hx holds {} tensors; 2 (h0, c0) or none expected", hx->items.size()))) !=
        kSuccess)
      return st;
    if ((st = checkRnnArg(api, "hx[0]", hx->items[0], dt, stateShape)) != kSuccess) return st;
    if ((st = checkRnnArg(api, "hx[1]", hx->items[1], dt, stateShape)) != kSuccess) return st;
  }
  const std::vector<int64_t> outShape =
      batchFirst ? std::vector<int64_t>{s.B, s.T, s.D * s.H} : std::vector<int64_t>{s.T, s.B, s.D * s.H};
  if ((st = checkRnnArg(api, "output", output, dt, outShape)) != kSuccess) return st;
  if ((st = checkRnnArg(api, "hy", hy, dt, stateShape)) != kSuccess) return st;
  if ((st = checkRnnArg(api, "cy", cy, dt, stateShape)) != kSuccess) return st;
  static const char* const kListNames[kTrainLists] = {"iOut", "jOut", "fOut",    "oOut",
                                                      "hOut", "cOut", "tanhCOut"};
  if (train) {
    for (int k = 0; k < kTrainLists; ++k) {
      if ((st = checkList(api, kListNames[k], lists[k], static_cast<size_t>(s.L * s.D))) != kSuccess)
        return st;
      for (size_t r = 0; r < lists[k]->items.size(); ++r) {
        if ((st = checkRnnArg(api, fmt::format("{}[{}]", kListNames[k], r), lists[k]->items[r], dt,
                              stepShape)) != kSuccess) {
          return st;
        }
      }
    }
  }
  auto inst = std::make_unique<LstmInstance>();
  inst->name = "aclnnLSTM";
  inst->s = s;
  addInput(*inst, "input", input);
  for (const aclTensor* p : params->items) addInput(*inst, "params", p);
  if (s.hasHx) {
    addInput(*inst, "hx", hx->items[0]);
    addInput(*inst, "hx", hx->items[1]);
  }
  if (s.packed) addInput(*inst, "batchSizes", batchSizes);
  addOutput(*inst, "output", output);
  addOutput(*inst, "hy", hy);
  addOutput(*inst, "cy", cy);
  if (train)
    for (int k = 0; k < kTrainLists; ++k)
      for (const aclTensor* t : lists[k]->items) addOutput(*inst, kListNames[k], t);
  inst->attrs = fmt::format("T={} B={} I={} H={} layers={} bidirectional={} bias={} train={}", s.T, s.B, s.I,
                            s.H, s.L, bidirectional, hasBias, train);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnLSTMGetWorkspaceSize(
    const aclTensor* input, const aclTensorList* params, const aclTensorList* hx, const aclTensor* batchSizes,
    bool hasBias, int64_t numLayers, double dropout, bool train, bool bidirectional, bool batchFirst,
    aclTensor* output, aclTensor* hy, aclTensor* cy, aclTensorList* iOut, aclTensorList* jOut,
    aclTensorList* fOut, aclTensorList* oOut, aclTensorList* hOut, aclTensorList* cOut,
    aclTensorList* tanhCOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const aclTensorList* const lists[] = {iOut, jOut, fOut, oOut, hOut, cOut, tanhCOut};
  return npusim::aclnn::buildLstm(input, params, hx, batchSizes, hasBias, numLayers, dropout, train,
                                  bidirectional, batchFirst, output, hy, cy, lists, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(LSTM)

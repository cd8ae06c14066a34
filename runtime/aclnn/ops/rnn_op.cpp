// The recurrent-network engine (see rnn_op.h): checks, the step-by-step kernel and the cost.
#include "runtime/aclnn/ops/rnn_op.h"

#include <fmt/format.h>

#include <algorithm>

#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/rnn_common.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {
namespace {

// Inputs: input, params, the initial states (if any), batchSizes (if packed). Outputs: output,
// the final states, then with train the kept lists, list k's tensor r at 1 + states + k*L*D + r.
void rnnKernel(const RnnShape& s, RnnCell cell, const std::vector<HostTensor>& in,
               const std::vector<HostTensor>& out) {
  const int64_t T = s.T, B = s.B, H = s.H, LD = s.L * s.D, GH = s.gates * H;
  std::vector<float> x = loadDense<float>(in[0]);
  if (s.batchFirst) {  // (B, T, I) -> (T, B, I)
    std::vector<float> tb(x.size());
    for (int64_t b = 0; b < B; ++b)
      for (int64_t t = 0; t < T; ++t) std::copy_n(&x[(b * T + t) * s.I], s.I, &tb[(t * B + b) * s.I]);
    x.swap(tb);
  }
  const size_t firstState = 1 + static_cast<size_t>(LD * (s.bias ? 4 : 2));
  std::vector<std::vector<float>> init(2, std::vector<float>(LD * B * H, 0.0f));
  for (int k = 0; k < s.states && s.hasHx; ++k) init[k] = loadDense<float>(in[firstState + k]);
  std::vector<int64_t> length(B, T);  // steps each batch row runs
  if (s.packed) {
    const std::vector<int64_t> sizes = loadDense<int64_t>(in.back());
    for (int64_t b = 0; b < B; ++b)
      length[b] = std::count_if(sizes.begin(), sizes.end(), [b](int64_t n) { return n > b; });
  }
  std::vector<std::vector<float>> finals(2, std::vector<float>(LD * B * H));
  std::vector<std::vector<float>> keep(s.kept * LD);
  std::vector<float> gi(GH), gh(GH), kept(s.kept);
  for (int64_t l = 0; l < s.L; ++l) {
    const int64_t K = s.layerInput(l);
    std::vector<float> next(T * B * s.D * H, 0.0f);
    for (int64_t d = 0; d < s.D; ++d) {
      const size_t p = static_cast<size_t>(1 + s.paramIndex(l, d));
      const std::vector<float> wi = loadDense<float>(in[p]), wh = loadDense<float>(in[p + 1]);
      const std::vector<float> bi = s.bias ? loadDense<float>(in[p + 2]) : std::vector<float>(GH, 0.0f);
      const std::vector<float> bh = s.bias ? loadDense<float>(in[p + 3]) : std::vector<float>(GH, 0.0f);
      const int64_t row = l * s.D + d;
      std::vector<float> h(&init[0][row * B * H], &init[0][(row + 1) * B * H]);
      std::vector<float> c(&init[1][row * B * H], &init[1][(row + 1) * B * H]);
      if (s.train)
        for (int k = 0; k < s.kept; ++k) keep[k * LD + row].assign(T * B * H, 0.0f);
      for (int64_t step = 0; step < T; ++step) {
        const int64_t t = d == 0 ? step : T - 1 - step;
        for (int64_t b = 0; b < B; ++b) {
          if (t >= length[b]) continue;  // a finished packed row: state held, output 0
          const float* xt = &x[(t * B + b) * K];
          for (int64_t g = 0; g < GH; ++g) {
            float ai = bi[g], ah = bh[g];
            for (int64_t k = 0; k < K; ++k) ai += xt[k] * wi[g * K + k];
            for (int64_t k = 0; k < H; ++k) ah += h[b * H + k] * wh[g * H + k];
            gi[g] = ai;
            gh[g] = ah;
          }
          for (int64_t j = 0; j < H; ++j) {
            cell(H, j, gi.data(), gh.data(), &h[b * H], &c[b * H], kept.data());
            next[(t * B + b) * s.D * H + d * H + j] = h[b * H + j];
            for (int k = 0; k < s.kept && s.train; ++k) keep[k * LD + row][(t * B + b) * H + j] = kept[k];
          }
        }
      }
      std::copy(h.begin(), h.end(), &finals[0][row * B * H]);
      std::copy(c.begin(), c.end(), &finals[1][row * B * H]);
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
  for (int k = 0; k < s.states; ++k) storeDense(out[1 + k], finals[k].data());
  if (s.train)
    for (size_t k = 0; k < keep.size(); ++k) storeDense(out[1 + s.states + k], keep[k].data());
}

class RnnInstance : public OpInstanceBase<RnnInstance> {
 public:
  RnnShape s;
  RnnCell cell = nullptr;

  rt::OpWork work() const override {
    std::vector<uint64_t> weights;
    for (int64_t r = 0; r < s.L * s.D; ++r)
      weights.push_back(inputs[static_cast<size_t>(1 + s.paramIndex(r / s.D, r % s.D))].data);
    return rnnStepWork(s, weights, outputs[0].data, inputs[0].elementSize(), inputs[0].dtype == ACL_FLOAT, 1,
                       s.train ? s.kept : s.states);
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    rnnKernel(s, cell, in, out);
  }
};

}  // namespace

rt::OpWork rnnStepWork(const RnnShape& s, const std::vector<uint64_t>& weightAddr, uint64_t outAddr,
                       uint64_t es, bool fp32, int macScale, int written) {
  const rt::CoreRates rates = rt::coreRates();
  const uint64_t macFactor = (fp32 ? 2 : 1) * static_cast<uint64_t>(macScale);
  const int64_t B = s.B, H = s.H, N = s.gates * H;
  const int64_t blocks = std::max<int64_t>(1, (N + 15) / 16),
                parts = std::min<int64_t>(rates.cubeCores, blocks);
  std::vector<aicore::TileWork> cube, vec;
  for (int64_t l = 0; l < s.L; ++l) {
    const int64_t K = s.layerInput(l) + H;
    for (int64_t d = 0; d < s.D; ++d) {
      for (int64_t step = 0; step < s.T; ++step) {
        for (int64_t p = 0; p < parts; ++p) {
          const int64_t cols =
              std::min(N, (p + 1) * blocks / parts * 16) - std::min(N, p * blocks / parts * 16);
          aicore::TileWork t;
          t.cubeMacs = static_cast<uint64_t>(B * K * cols) * macFactor;
          t.readAddr = weightAddr[static_cast<size_t>(l * s.D + d)];
          t.readBytes = static_cast<uint64_t>(K * cols + B * K) * es;  // weight panel + [x_t, h]
          t.writeAddr = outAddr;
          t.writeBytes = static_cast<uint64_t>(B * cols) * 4;  // fp32 gate sums
          // The previous step's vector tile (an index into `vec`, moved past the cube tiles below).
          t.after = vec.empty() ? -1 : static_cast<int64_t>(vec.size() - 1);
          cube.push_back(t);
        }
        aicore::TileWork v;
        v.readAddr = outAddr;
        v.readBytes = static_cast<uint64_t>(B * N) * 4 + static_cast<uint64_t>(B * H) * es * (s.states - 1);
        v.writeAddr = outAddr;
        v.writeBytes = static_cast<uint64_t>(B * H) * es * static_cast<uint64_t>(written);
        v.vectorBytes = static_cast<uint64_t>(B * N) * 4 * static_cast<uint64_t>(s.passes);
        v.after = static_cast<int64_t>(cube.size() - 1);  // the step's last matmul tile
        vec.push_back(v);
      }
    }
  }
  rt::OpWork work;
  work.cube = true;
  work.mixedCubeTiles = cube.size();
  for (aicore::TileWork& t : cube)
    if (t.after >= 0) t.after += static_cast<int64_t>(cube.size());
  work.tiles = std::move(cube);
  work.tiles.insert(work.tiles.end(), vec.begin(), vec.end());
  return work;
}

int32_t buildRnn(RnnShape s, RnnCell cell, const RnnArgs& a, uint64_t* workspaceSize,
                 aclOpExecutor** executor) {
  const char* api = a.api;
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkNotNull(api, {{"input", a.input}, {"params", a.params}, {"output", a.output}})) != kSuccess)
    return st;
  for (size_t k = 0; k < a.finals.size(); ++k)
    if ((st = checkNotNull(api, {{a.finalNames[k], a.finals[k]}})) != kSuccess) return st;
  if ((st = require(api, s.L >= 1, fmt::format("numLayers {} must be >= 1", s.L))) != kSuccess) return st;
  s.packed = a.batchSizes != nullptr;
  if ((st = checkArg(api, "input", a.input, {ACL_FLOAT, ACL_FLOAT16}, s.packed ? 2 : 3)) != kSuccess)
    return st;
  const aclDataType dt = a.input->desc.dtype;
  const int64_t G = s.gates;
  if ((st = checkRnnList(api, "params", a.params, static_cast<size_t>(s.L * s.D * (s.bias ? 4 : 2)))) !=
      kSuccess)
    return st;
  if ((st = checkArg(api, "params[0]", a.params->items[0], {ACL_FLOAT, ACL_FLOAT16}, 2)) != kSuccess)
    return st;
  s.H = a.params->items[0]->desc.shape[0] / G;
  if ((st = require(api, a.params->items[0]->desc.shape[0] % G == 0 && s.H > 0,
                    fmt::format("params[0] must have {} * hidden_size rows", G))) != kSuccess) {
    return st;
  }
  const std::vector<int64_t>& is = a.input->desc.shape;
  s.I = is.back();
  if (s.packed) {
    if ((st = checkArg(api, "batchSizes", a.batchSizes, {ACL_INT64}, 1)) != kSuccess) return st;
    s.T = a.batchSizes->desc.shape[0];
    s.B = s.T > 0 ? is[0] / s.T : 0;
    if ((st = require(api, s.T > 0 && s.B * s.T == is[0] && !s.batchFirst,
                      fmt::format("packed input {} must be (time_step * batch, input) for {} batchSizes, "
                                  "not batchFirst",
                                  shapeString(is), s.T))) != kSuccess) {
      return st;
    }
  } else {
    s.T = s.batchFirst ? is[1] : is[0];
    s.B = s.batchFirst ? is[0] : is[1];
  }
  for (int64_t l = 0; l < s.L; ++l) {
    for (int64_t d = 0; d < s.D; ++d) {
      const size_t p = static_cast<size_t>(s.paramIndex(l, d));
      const std::vector<std::vector<int64_t>> shapes{
          {G * s.H, s.layerInput(l)}, {G * s.H, s.H}, {G * s.H}, {G * s.H}};
      for (size_t k = 0; k < (s.bias ? 4u : 2u); ++k) {
        if ((st = checkRnnArg(api, fmt::format("params[{}]", p + k), a.params->items[p + k], dt,
                              shapes[k])) != kSuccess) {
          return st;
        }
      }
    }
  }
  const std::vector<int64_t> stateShape{s.L * s.D, s.B, s.H}, stepShape{s.T, s.B, s.H};
  s.hasHx = !a.hx.empty();
  for (size_t k = 0; k < a.hx.size(); ++k)
    if ((st = checkRnnArg(api, fmt::format("hx[{}]", k), a.hx[k], dt, stateShape)) != kSuccess) return st;
  const std::vector<int64_t> outShape =
      s.batchFirst ? std::vector<int64_t>{s.B, s.T, s.D * s.H} : std::vector<int64_t>{s.T, s.B, s.D * s.H};
  if ((st = checkRnnArg(api, "output", a.output, dt, outShape)) != kSuccess) return st;
  for (size_t k = 0; k < a.finals.size(); ++k)
    if ((st = checkRnnArg(api, a.finalNames[k], a.finals[k], dt, stateShape)) != kSuccess) return st;
  for (size_t k = 0; k < a.lists.size() && s.train; ++k) {
    if ((st = checkRnnList(api, a.listNames[k], a.lists[k], static_cast<size_t>(s.L * s.D))) != kSuccess)
      return st;
    for (size_t r = 0; r < a.lists[k]->items.size(); ++r) {
      if ((st = checkRnnArg(api, fmt::format("{}[{}]", a.listNames[k], r), a.lists[k]->items[r], dt,
                            stepShape)) != kSuccess) {
        return st;
      }
    }
  }
  auto inst = std::make_unique<RnnInstance>();
  inst->name = a.name;
  inst->s = s;
  inst->cell = cell;
  addInput(*inst, "input", a.input);
  for (const aclTensor* p : a.params->items) addInput(*inst, "params", p);
  for (const aclTensor* h : a.hx) addInput(*inst, "hx", h);
  if (s.packed) addInput(*inst, "batchSizes", a.batchSizes);
  addOutput(*inst, "output", a.output);
  for (size_t k = 0; k < a.finals.size(); ++k) addOutput(*inst, a.finalNames[k], a.finals[k]);
  for (size_t k = 0; k < a.lists.size() && s.train; ++k)
    for (const aclTensor* t : a.lists[k]->items) addOutput(*inst, a.listNames[k], t);
  inst->attrs = fmt::format("T={} B={} I={} H={} layers={} directions={} bias={} train={}", s.T, s.B, s.I,
                            s.H, s.L, s.D, s.bias, s.train);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace npusim::aclnn

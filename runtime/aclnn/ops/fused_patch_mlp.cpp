// aclnnFusedPatchMlp (ops-nn experimental/matmul/fused_patch_mlp/docs/aclnnFusedPatchMlp.md):
// h0 = x flattened to [rows, patch]; z_l = h_l @ W_l + b_l for l < numLayers, with GELU (tanh
// form) between layers and none after the last; out = z_last [..., hidden]. `weights` holds
// each layer's transposed weight W_l ([in, hidden] row-major: patch x hidden first, then
// hidden x hidden) back to back, as the kernel reads it (B row stride = hidden); `biases` the
// numLayers biases of hidden values. fp16/fp32/bf16 with weights and out of x's type; biases of
// x's type, fp32 for bf16 x.
//
// Numerics: fp32 products and accumulation, bias and GELU in fp32; each layer's activations are
// rounded to x's type (the next layer's cube input). Cost: each layer is a matmul on the
// engine's tiling; the activations between layers are charged at the output buffer's address
// (same size as out), GELU as one vector pass over them.
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_fused_patch_mlp.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/gemm.h"
#include "runtime/aclnn/ops/matmul_tiling.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnFusedPatchMlp",
                   ExecUnit::kCube,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                   "h = gelu_tanh(h @ W_l + b_l) per layer, none after the last"};
const OpRegistrar kRegistrar(kInfo);

uint64_t baseAddress(const TensorDesc& d) {
  return d.data + static_cast<uint64_t>(d.offset) * d.elementSize();
}

class FusedPatchMlpInstance : public OpInstanceBase<FusedPatchMlpInstance> {
 public:
  int64_t layers = 0, rows = 0, patch = 0, hidden = 0;

  int64_t inDim(int64_t l) const { return l == 0 ? patch : hidden; }
  int64_t weightOffset(int64_t l) const { return l == 0 ? 0 : patch * hidden + (l - 1) * hidden * hidden; }

  rt::OpWork work() const override {
    const TensorDesc &x = inputs[0], &w = inputs[1], &b = inputs[2], &out = outputs[0];
    const auto es = static_cast<int64_t>(x.elementSize());
    const uint64_t factor = x.dtype == ACL_FLOAT ? 2 : 1;  // fp32 takes two fp16 MAC slots
    rt::OpWork all;
    all.cube = true;
    for (int64_t l = 0; l < layers; ++l) {
      const int64_t K = inDim(l);
      MatmulGeometry g;
      g.M = rows, g.N = hidden, g.K = K, g.batch = 1, g.outShape = {rows, hidden};
      g.aSm = K, g.aSk = 1, g.bSk = hidden, g.bSn = 1, g.cSm = hidden, g.cSn = 1;
      g.aOff = g.bOff = g.cOff = {0};
      const MatmulTiling t = planMatmul(1, rows, hidden, K, es, rt::coreRates().cubeCores);
      const uint64_t aBase = l == 0 ? baseAddress(x) : baseAddress(out);
      const uint64_t wBase = baseAddress(w) + static_cast<uint64_t>(weightOffset(l) * es);
      rt::OpWork lw = matmulWork(t, g, MatmulAddressing{aBase, wBase, baseAddress(out), es, es, es, factor});
      const uint64_t biasBytes = static_cast<uint64_t>(hidden) * b.elementSize();
      for (size_t i = 0; i < lw.tiles.size(); ++i) {
        lw.tiles[i].readBytes += shareOf(biasBytes, i, lw.tiles.size());
        if (l + 1 < layers) lw.tiles[i].vectorBytes += lw.tiles[i].writeBytes;  // GELU
      }
      all.tiles.insert(all.tiles.end(), lw.tiles.begin(), lw.tiles.end());
    }
    return all;
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (rows == 0) return;
    std::vector<float> h = loadDense<float>(in[0]);
    const std::vector<float> w = loadDense<float>(in[1]);
    const std::vector<float> b = loadDense<float>(in[2]);
    std::vector<float> z(static_cast<size_t>(rows * hidden));
    const float k = 0.7978845608028654f;  // sqrt(2 / pi)
    for (int64_t l = 0; l < layers; ++l) {
      const int64_t K = inDim(l);
      gemmF32(rows, hidden, K, h.data(), K, w.data() + weightOffset(l), hidden, z.data(), hidden);
      for (int64_t r = 0; r < rows; ++r) {
        float* row = z.data() + r * hidden;
        for (int64_t n = 0; n < hidden; ++n) {
          float v = row[n] + b[static_cast<size_t>(l * hidden + n)];
          if (l + 1 < layers) v = 0.5f * v * (1.0f + std::tanh(k * (v + 0.044715f * v * v * v)));
          row[n] = v;
        }
      }
      quantizeRow(in[0].dtype, z.data(), rows * hidden);
      h = z;
    }
    storeDense(out[0], h.data());
  }
};

int32_t build(const aclTensor* x, const aclTensor* weights, const aclTensor* biases, int64_t numLayers,
              const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnFusedPatchMlpGetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x", x}, {"weights", weights}, {"biases", biases}, {"out", out}});
  if (st != kSuccess) return st;
  for (const auto& [name, t] : {std::pair<const char*, const aclTensor*>{"x", x},
                                {"weights", weights},
                                {"biases", biases},
                                {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  const aclDataType dt = x->desc.dtype;
  if ((st = checkDtype(api, "x", dt, kInfo)) != kSuccess) return st;
  const aclDataType biasType = dt == ACL_BF16 ? ACL_FLOAT : dt;
  if (weights->desc.dtype != dt || out->desc.dtype != dt || biases->desc.dtype != biasType) {
    return fail(api, kErrParamInvalid,
                fmt::format("weights and out must have x's type {} and biases {}, but are {}, {} and {}",
                            dtypeName(dt), dtypeName(biasType), dtypeName(weights->desc.dtype),
                            dtypeName(out->desc.dtype), dtypeName(biases->desc.dtype)));
  }
  if (numLayers <= 0)
    return fail(api, kErrParamInvalid, fmt::format("numLayers must be > 0, but is {}", numLayers));
  const auto& xs = x->desc.shape;
  const auto& os = out->desc.shape;
  if (xs.size() < 2 || os.size() != xs.size() || weights->desc.rank() != 1 || biases->desc.rank() != 1) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("x and out must be 2-8 dimensional of equal rank, weights and biases 1-dimensional, "
                    "but are {}, {}, {} and {}",
                    shapeString(xs), shapeString(os), shapeString(weights->desc.shape),
                    shapeString(biases->desc.shape)));
  }
  auto inst = std::make_unique<FusedPatchMlpInstance>();
  inst->layers = numLayers;
  inst->patch = xs.back();
  inst->hidden = os.back();
  inst->rows = dimProduct(xs, 0, xs.size() - 1);
  std::vector<int64_t> expectOut(xs.begin(), xs.end() - 1);
  expectOut.push_back(inst->hidden);
  if ((st = checkShape(api, "out", os, expectOut)) != kSuccess) return st;
  const int64_t h = inst->hidden;
  if ((st = checkShape(api, "weights", weights->desc.shape, {inst->patch * h + (numLayers - 1) * h * h})) !=
      kSuccess)
    return st;
  if ((st = checkShape(api, "biases", biases->desc.shape, {numLayers * h})) != kSuccess) return st;
  inst->name = "aclnnFusedPatchMlp";
  addInput(*inst, "x", x);
  addInput(*inst, "weights", weights);
  addInput(*inst, "biases", biases);
  addOutput(*inst, "out", out);
  inst->attrs = fmt::format("numLayers={}", numLayers);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnFusedPatchMlpGetWorkspaceSize(const aclTensor* x, const aclTensor* weights,
                                                          const aclTensor* biases, int64_t numLayers,
                                                          const aclTensor* out, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor) {
  return npusim::aclnn::build(x, weights, biases, numLayers, out, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(FusedPatchMlp)

// aclnnDeformableConv2d (ops-nn conv/deformable_conv2d/docs/aclnnDeformableConv2d.md): modulated
// deformable 2-D convolution. Each kernel tap of each output position samples the input at its
// regular place moved by a learnt (x, y) offset, bilinearly, times a mask; the samples form
// deformOut [N, C, outH * kH, outW * kW] (tap (ki, kj) of position (oh, ow) at row oh * kH + ki,
// column ow * kW + kj), stored in x's type. The output is the convolution of deformOut with the
// weight at stride (kH, kW) on the convolution engine.
//
// offset is [N, 3 * deformableGroups * kH * kW, outH, outW]: the x (width) offsets of every
// group and tap, then the y (height) offsets, then the masks, tap index ki * kW + kj (the
// layout of the public golden, ops-nn deformable_conv2d/tests/assets/golden.py).
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <utility>

#include "aclnnop/aclnn_deformable_conv2d.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/conv_op.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnDeformableConv2d",
                   ExecUnit::kCube,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                   "out = weight (*) bilinear samples of x at offset taps x mask + bias"};
const OpRegistrar kRegistrar(kInfo);

struct Sampling {
  int64_t inH = 0, inW = 0, kH = 0, kW = 0, outH = 0, outW = 0;
  int64_t strideH = 1, strideW = 1, padTop = 0, padLeft = 0, dilH = 1, dilW = 1, deformGroups = 1;
};

// Bilinear value of one channel plane at (h, w); neighbours outside the plane count as 0.
float bilinear(const float* plane, const Sampling& s, float h, float w) {
  const float h0 = std::floor(h), w0 = std::floor(w);
  const float dh = h - h0, dw = w - w0;
  auto at = [&](float hi, float wi) {
    if (hi < 0 || wi < 0 || hi >= static_cast<float>(s.inH) || wi >= static_cast<float>(s.inW)) return 0.0f;
    return plane[static_cast<int64_t>(hi) * s.inW + static_cast<int64_t>(wi)];
  };
  const float top = at(h0, w0) * (1 - dw) + at(h0, w0 + 1) * dw;
  const float bottom = at(h0 + 1, w0) * (1 - dw) + at(h0 + 1, w0 + 1) * dw;
  return top * (1 - dh) + bottom * dh;
}

class DeformableConvInstance : public OpInstanceBase<DeformableConvInstance> {
 public:
  Sampling s;
  ConvGeometry conv;  // deformOut (big) convolved at stride (kH, kW) into out (small)
  MatmulSpec spec;
  bool hasBias = false, hasDeformOut = false;
  TensorDesc deformDesc;  // where deformOut lives (the optional output, else x's address for the cost)

  // The convolution on the engine's cost, plus the sampling: x and offset read, deformOut
  // written, four neighbours per sample through the vector units.
  rt::OpWork work() const override {
    ConvInstance c;
    c.geo = conv;
    c.spec = spec;
    c.inputs = {deformDesc, inputs[1]};
    if (hasBias) c.inputs.push_back(inputs[3]);
    c.outputs = {outputs[0]};
    rt::OpWork w = c.work();
    const uint64_t samples = static_cast<uint64_t>(deformDesc.numel()) * deformDesc.elementSize();
    const uint64_t reads = static_cast<uint64_t>(inputs[0].numel()) * inputs[0].elementSize() +
                           static_cast<uint64_t>(inputs[2].numel()) * inputs[2].elementSize();
    for (size_t i = 0; i < w.tiles.size(); ++i) {
      w.tiles[i].readBytes += shareOf(reads, i, w.tiles.size());
      w.tiles[i].writeBytes += shareOf(samples, i, w.tiles.size());
      w.tiles[i].vectorBytes += shareOf(4 * samples, i, w.tiles.size());
    }
    return w;
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<float> x = loadDense<float>(in[0]), off = loadDense<float>(in[2]);
    const int64_t N = conv.batch, C = conv.bigCh, K = s.kH * s.kW, dg = s.deformGroups;
    const int64_t rows = s.outH * s.kH, cols = s.outW * s.kW, plane = s.outH * s.outW;
    std::vector<float> deform(static_cast<size_t>(N * C * rows * cols));
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t c = 0; c < C; ++c) {
        const float* xPlane = x.data() + (n * C + c) * s.inH * s.inW;
        const int64_t group = c / (C / dg);
        for (int64_t oh = 0; oh < s.outH; ++oh) {
          for (int64_t ow = 0; ow < s.outW; ++ow) {
            for (int64_t k = 0; k < K; ++k) {
              const int64_t ki = k / s.kW, kj = k % s.kW;
              auto offsetAt = [&](int64_t part) {
                return off[static_cast<size_t>(((n * 3 * dg * K) + part * dg * K + group * K + k) * plane +
                                               oh * s.outW + ow)];
              };
              const float h = static_cast<float>(oh * s.strideH - s.padTop + ki * s.dilH) + offsetAt(1);
              const float w = static_cast<float>(ow * s.strideW - s.padLeft + kj * s.dilW) + offsetAt(0);
              deform[static_cast<size_t>(((n * C + c) * rows + oh * s.kH + ki) * cols + ow * s.kW + kj)] =
                  bilinear(xPlane, s, h, w) * offsetAt(2);
            }
          }
        }
      }
    }
    quantizeRow(in[0].dtype, deform.data(),
                static_cast<int64_t>(deform.size()));  // deformOut is stored in x's type
    if (hasDeformOut) storeDense(out[1], deform.data());
    std::vector<float> wv = loadDense<float>(in[1]);
    std::vector<float> y(static_cast<size_t>(out[0].numel()));
    convGather(conv, deform.data(), wv.data(), y.data());
    if (hasBias) {
      const std::vector<float> bias = loadDense<float>(in[3]);
      for (size_t i = 0; i < y.size(); ++i) y[i] += bias[(i / static_cast<size_t>(plane)) % bias.size()];
    }
    quantizeRow(spec.resultType, y.data(), static_cast<int64_t>(y.size()));
    storeDense(out[0], y.data());
  }
};

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnDeformableConv2dGetWorkspaceSize(
    const aclTensor* x, const aclTensor* weight, const aclTensor* offset, const aclTensor* biasOptional,
    const aclIntArray* kernelSize, const aclIntArray* stride, const aclIntArray* padding,
    const aclIntArray* dilation, int64_t groups, int64_t deformableGroups, bool modulated, aclTensor* out,
    aclTensor* deformOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor) {
  namespace a = npusim::aclnn;
  const char* api = "aclnnDeformableConv2dGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = a::checkNotNull(api, {{"x", x}, {"weight", weight}, {"offset", offset}, {"out", out}});
  if (st != a::kSuccess) return st;
  std::vector<int64_t> k, sv, pv, dv;
  if ((st = a::convIntArray(api, "kernelSize", kernelSize, 2, 0, &k)) != a::kSuccess) return st;
  if ((st = a::convIntArray(api, "stride", stride, 4, 0, &sv)) != a::kSuccess) return st;
  if ((st = a::convIntArray(api, "padding", padding, 4, 0, &pv)) != a::kSuccess) return st;
  if ((st = a::convIntArray(api, "dilation", dilation, 4, 0, &dv)) != a::kSuccess) return st;
  const std::pair<const char*, const aclTensor*> tensors[] = {{"x", x},
                                                              {"weight", weight},
                                                              {"offset", offset},
                                                              {"out", out},
                                                              {"biasOptional", biasOptional},
                                                              {"deformOutOptional", deformOutOptional}};
  for (const auto& [name, t] : tensors) {
    if (t == nullptr) continue;
    if ((st = a::checkTensor(api, name, t->desc)) != a::kSuccess) return st;
    if (t->desc.dtype != x->desc.dtype || !a::kInfo.accepts(t->desc.dtype)) {
      return a::fail(api, a::kErrParamInvalid,
                     fmt::format("{} must have x's type, one of {}, but is {}", name, a::kInfo.dtypeList(),
                                 a::dtypeName(t->desc.dtype)));
    }
    if (t->desc.numel() == 0) {
      return a::fail(api, a::kErrParamInvalid,
                     fmt::format("{} is empty: empty tensors are not supported", name));
    }
  }
  if (!modulated)
    return a::fail(api, a::kErrParamInvalid, "modulated must be true (the only value supported)");
  if (x->desc.rank() != 4 || weight->desc.rank() != 4) {
    return a::fail(api, a::kErrParamInvalid,
                   fmt::format("x and weight must be 4-D, but are {} and {}", a::shapeString(x->desc.shape),
                               a::shapeString(weight->desc.shape)));
  }
  const int64_t N = x->desc.shape[0], C = x->desc.shape[1], outC = weight->desc.shape[0];
  if (k[0] < 1 || k[1] < 1 || k[0] != weight->desc.shape[2] || k[1] != weight->desc.shape[3] ||
      k[0] * k[1] > 2048) {
    return a::fail(
        api, a::kErrParamInvalid,
        fmt::format("kernelSize {} must be positive, equal weight's spatial sizes {} and have at most "
                    "2048 taps",
                    a::shapeString(k), a::shapeString(weight->desc.shape)));
  }
  if (sv[0] != 1 || sv[1] != 1 || dv[0] != 1 || dv[1] != 1 || sv[2] < 1 || sv[3] < 1 || dv[2] < 1 ||
      dv[3] < 1 || pv[0] < 0 || pv[1] < 0 || pv[2] < 0 || pv[3] < 0) {
    return a::fail(
        api, a::kErrParamInvalid,
        fmt::format("stride {} and dilation {} must be [1, 1, h, w] with h, w >= 1, padding {} >= 0",
                    a::shapeString(sv), a::shapeString(dv), a::shapeString(pv)));
  }
  if (groups < 1 || deformableGroups < 1 || C % groups != 0 || outC % groups != 0 ||
      C % deformableGroups != 0 || weight->desc.shape[1] * groups != C ||
      k[0] * k[1] * weight->desc.shape[1] > 65535) {
    return a::fail(
        api, a::kErrParamInvalid,
        fmt::format("groups {} must divide x's {} and weight's {} channels (weight [outC, inC / groups, "
                    "kH, kW]), deformableGroups {} must divide x's channels, kH * kW * inC / groups <= "
                    "65535",
                    groups, C, outC, deformableGroups));
  }
  a::Sampling s;
  s.inH = x->desc.shape[2];
  s.inW = x->desc.shape[3];
  s.kH = k[0];
  s.kW = k[1];
  s.strideH = sv[2];
  s.strideW = sv[3];
  s.padTop = pv[0];
  s.padLeft = pv[2];
  s.dilH = dv[2];
  s.dilW = dv[3];
  s.deformGroups = deformableGroups;
  const int64_t spanH = (k[0] - 1) * dv[2] + 1, spanW = (k[1] - 1) * dv[3] + 1;
  if (s.inH + pv[0] + pv[1] < spanH || s.inW + pv[2] + pv[3] < spanW) {
    return a::fail(api, a::kErrParamInvalid, "the padded input is smaller than the dilated kernel");
  }
  s.outH = (s.inH + pv[0] + pv[1] - spanH) / sv[2] + 1;
  s.outW = (s.inW + pv[2] + pv[3] - spanW) / sv[3] + 1;
  if ((st = a::checkShape(api, "offset", offset->desc.shape,
                          {N, 3 * deformableGroups * k[0] * k[1], s.outH, s.outW})) != a::kSuccess) {
    return st;
  }
  if ((st = a::checkShape(api, "out", out->desc.shape, {N, outC, s.outH, s.outW})) != a::kSuccess) return st;
  if (biasOptional != nullptr &&
      (st = a::checkShape(api, "biasOptional", biasOptional->desc.shape, {outC})) != a::kSuccess) {
    return st;
  }
  const std::vector<int64_t> deformShape{N, C, s.outH * k[0], s.outW * k[1]};
  if (deformOutOptional != nullptr &&
      (st = a::checkShape(api, "deformOutOptional", deformOutOptional->desc.shape, deformShape)) !=
          a::kSuccess) {
    return st;
  }

  auto inst = std::make_unique<a::DeformableConvInstance>();
  inst->name = "aclnnDeformableConv2d";
  inst->s = s;
  a::ConvGeometry& g = inst->conv;
  g.batch = N;
  g.groups = groups;
  g.smallCh = outC;
  g.bigCh = C;
  g.small = {1, s.outH, s.outW};
  g.big = {1, deformShape[2], deformShape[3]};
  g.kernel = {1, k[0], k[1]};
  g.stride = {1, k[0], k[1]};
  inst->spec = a::matmulSpecFor(x->desc.dtype, a::kKeepDtype);
  a::addInput(*inst, "x", x);
  a::addInput(*inst, "weight", weight);
  a::addInput(*inst, "offset", offset);
  if (biasOptional != nullptr) {
    inst->hasBias = true;
    a::addInput(*inst, "biasOptional", biasOptional);
  }
  a::addOutput(*inst, "out", out);
  if (deformOutOptional != nullptr) {
    inst->hasDeformOut = true;
    a::addOutput(*inst, "deformOutOptional", deformOutOptional);
    inst->deformDesc = deformOutOptional->desc;
  } else {
    inst->deformDesc = x->desc;
    inst->deformDesc.shape = deformShape;
    inst->deformDesc.strides = a::contiguousStrides(deformShape);
  }
  inst->attrs = fmt::format(
      "kernelSize={}, stride={}, padding={}, dilation={}, groups={}, deformableGroups={}", a::shapeString(k),
      a::shapeString(sv), a::shapeString(pv), a::shapeString(dv), groups, deformableGroups);
  return a::makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(DeformableConv2d)

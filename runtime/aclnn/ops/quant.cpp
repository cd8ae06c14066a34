// Quantisation (ops-nn quant/, docs formulas; 910B = "Atlas A2" rows):
//  DynamicQuant(V2): per row of x (the last dimension), optionally times smooth scales (per
//    group of rows with groupIndex: cumulative row ends), symmetric: scale = max|x| / 127 (int8)
//    or / 7 (int4), y = rint(x / scale); asymmetric (V2 with offsetOut): scale = (max - min) /
//    (qmax - qmin), offset = qmax - max / scale, y = rint(x / scale + offset).
//  AscendQuant(V3): y = round_mode(x * scale (* scale in sqrtMode) + offset), scale and offset
//    along the last axis (V3: `axis`), saturated to the output type.
//  AscendAntiQuant: y = (x + offset) * scale (* scale in sqrtMode), int8 to fp16 or bf16.
//  Quantize: out = rint(x / scales + zeroPoints) along `axis`, saturated to int8, uint8 or int32.
//  FakeQuantPer{Channel,Tensor}AffineCachemask: q = rint(x / scale) + zeroPoint (rint(x / scale +
//    zeroPoint) for a floating zero point), out = (clamp(q, qmin, qmax) - zeroPoint) * scale, mask =
//    qmin <= q <= qmax; per tensor with fakeQuantEnabled < 1: out = x, mask all true.
//  GroupQuant: y = rint(x * scale[group] + offset), the rows of x in groups by groupIndex
//    (cumulative ends), scale [E, K], one offset; int8 or int4 packed in int32.
//  DynamicBlockQuant(V2): per block of rowBlockSize x colBlockSize of the last two dimensions,
//    scale = max|x| / qmax (qmax 127, V2: dstTypeMax when > 0), capped at 1 / minScale when
//    minScale > 0; y = round_mode(x / scale) in int8 (fp8/hifloat8: 161002).
//  DequantBias: y = (A + bias) * weightScale * activateScale for an int32 bias, otherwise
//    A * weightScale * activateScale + bias; int32 to fp16 or bf16.
// Outputs int8 or int4 packed in int32 (quant_format.h); fp8/hifloat8 are refused (161002).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_ascend_anti_quant.h"
#include "aclnnop/aclnn_ascend_quant.h"
#include "aclnnop/aclnn_ascend_quant_v3.h"
#include "aclnnop/aclnn_dequant_bias.h"
#include "aclnnop/aclnn_dynamic_block_quant.h"
#include "aclnnop/aclnn_dynamic_block_quant_v2.h"
#include "aclnnop/aclnn_dynamic_quant.h"
#include "aclnnop/aclnn_dynamic_quant_v2.h"
#include "aclnnop/aclnn_fake_quant_per_channel_affine_cachemask.h"
#include "aclnnop/aclnn_fake_quant_per_tensor_affine_cachemask.h"
#include "aclnnop/aclnn_group_quant.h"
#include "aclnnop/aclnn_quantize.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/quant_format.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const std::initializer_list<aclDataType> kHalf = {ACL_FLOAT16, ACL_BF16};
const std::initializer_list<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

const OpRegistrar kDyn({"aclnnDynamicQuant",
                        ExecUnit::kVector,
                        {ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT32},
                        "scale = rowmax|x * smooth| / qmax; y = rint(x * smooth / scale)"});
const OpRegistrar kDynV2({"aclnnDynamicQuantV2",
                          ExecUnit::kVector,
                          {ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT32},
                          "per-token symmetric or asymmetric dynamic quantisation, grouped smooth scales"});
const OpRegistrar kQuant({"aclnnAscendQuant",
                          ExecUnit::kVector,
                          {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8},
                          "y = round(x * scale + offset)"});
const OpRegistrar kQuantV3({"aclnnAscendQuantV3",
                            ExecUnit::kVector,
                            {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8},
                            "y = round(x * scale + offset) along axis"});
const OpRegistrar kAnti({"aclnnAscendAntiQuant",
                         ExecUnit::kVector,
                         {ACL_INT8, ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                         "y = (x + offset) * scale"});
const OpRegistrar kQuantize({"aclnnQuantize",
                             ExecUnit::kVector,
                             {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8},
                             "out = rint(x / scales + zeroPoints)"});
const OpRegistrar kFakeChannel({"aclnnFakeQuantPerChannelAffineCachemask",
                                ExecUnit::kVector,
                                {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                                "out = (clamp(rint(x / scale) + zp, qmin, qmax) - zp) * scale, mask"});
const OpRegistrar kFakeTensor({"aclnnFakeQuantPerTensorAffineCachemask",
                               ExecUnit::kVector,
                               {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                               "out = (clamp(rint(x / scale) + zp, qmin, qmax) - zp) * scale, mask"});
const OpRegistrar kGroupQuant({"aclnnGroupQuant",
                               ExecUnit::kVector,
                               {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8},
                               "y = rint(x * scale[group] + offset)"});
const OpRegistrar kBlock({"aclnnDynamicBlockQuant",
                          ExecUnit::kVector,
                          {ACL_FLOAT16, ACL_BF16, ACL_INT8},
                          "scale = blockmax|x| / 127; y = rint(x / scale)"});
const OpRegistrar kBlockV2({"aclnnDynamicBlockQuantV2",
                            ExecUnit::kVector,
                            {ACL_FLOAT16, ACL_BF16, ACL_INT8},
                            "scale = blockmax|x| / dstTypeMax; y = rint(x / scale)"});
const OpRegistrar kDeqBias({"aclnnDequantBias",
                            ExecUnit::kVector,
                            {ACL_INT32, ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                            "y = (A + bias) * weightScale * activateScale"});

int32_t quantOutput(const char* api, const char* name, aclDataType dt, QuantFormat* f) {
  if (quantFormatOf(dt, f)) return kSuccess;
  return require(
      api, false,
      fmt::format("{} type {} is not supported on 910B (int8, or int4 packed in int32; fp8 and hifloat8 "
                  "are Atlas A3/950 formats)",
                  name, dtypeName(dt)));
}

// y's shape for x's when int4 values are packed eight to an int32 along the last dimension.
std::vector<int64_t> packedShape(std::vector<int64_t> shape, const QuantFormat& f) {
  if (!shape.empty()) shape.back() /= f.perElement();
  return shape;
}

int32_t checkPackable(const char* api, const std::vector<int64_t>& xShape, const QuantFormat& f) {
  return require(api, xShape.empty() || xShape.back() % f.perElement() == 0,
                 fmt::format("the last dimension of {} must be a multiple of {} for packed int4",
                             shapeString(xShape), f.perElement()));
}

struct DynamicArgs {
  QuantFormat f;
  bool smooth = false, grouped = false, asymmetric = false;
};

// in: x [, smooth [, groupIndex]]; out: y, scale [, offset].
void dynamicQuantKernel(const DynamicArgs& a, const std::vector<HostTensor>& in,
                        const std::vector<HostTensor>& out) {
  const std::vector<float> x = loadDense<float>(in[0]);
  const int64_t H = in[0].shape.empty() ? 1 : in[0].shape.back(), rows = H == 0 ? 0 : in[0].numel() / H;
  const std::vector<float> smooth = a.smooth ? loadDense<float>(in[1]) : std::vector<float>();
  const std::vector<int64_t> groupEnds = a.grouped ? loadDense<int64_t>(in[2]) : std::vector<int64_t>();
  std::vector<double> scaled(x.size());
  std::vector<float> scales(static_cast<size_t>(rows)), offsets(static_cast<size_t>(rows));
  size_t group = 0;
  for (int64_t r = 0; r < rows; ++r) {
    while (a.grouped && group + 1 < groupEnds.size() && r >= groupEnds[group]) ++group;
    const float* s = a.smooth ? smooth.data() + (a.grouped ? group * H : 0) : nullptr;
    double hi = -INFINITY, lo = INFINITY, absMax = 0;
    for (int64_t h = 0; h < H; ++h) {
      const double v = static_cast<double>(x[r * H + h]) * (s != nullptr ? s[h] : 1.0f);
      scaled[r * H + h] = v;
      hi = std::max(hi, v);
      lo = std::min(lo, v);
      absMax = std::max(absMax, std::fabs(v));
    }
    const float scale = a.asymmetric ? static_cast<float>((hi - lo) / (a.f.maxValue() - a.f.minValue()))
                                     : static_cast<float>(absMax / a.f.maxValue());
    const float offset = a.asymmetric && scale != 0 ? static_cast<float>(a.f.maxValue() - hi / scale) : 0.0f;
    scales[r] = scale;
    offsets[r] = offset;
    for (int64_t h = 0; h < H; ++h) {
      double& v = scaled[r * H + h];
      v = scale == 0 ? 0.0 : v / scale + offset;
    }
  }
  const std::vector<int64_t> q = packQuantized(scaled, a.f, RoundMode::kRint);
  storeDense(out[0], q.data());
  storeDense(out[1], scales.data());
  if (a.asymmetric) storeDense(out[2], offsets.data());
}

int32_t buildDynamicQuant(const char* api, const char* name, const aclTensor* x, const aclTensor* smooth,
                          const aclTensor* groupIndex, const aclTensor* y, const aclTensor* scale,
                          const aclTensor* offset, uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "x", x, kHalf)) != kSuccess) return st;
  if ((st = require(api, x->desc.rank() >= 2 && x->desc.rank() <= 8,
                    fmt::format("x must have 2 to 8 dimensions, has {}", x->desc.rank()))) != kSuccess) {
    return st;
  }
  if ((st = checkArg(api, "yOut", y,
                     {ACL_INT8, ACL_INT32, ACL_INT4, ACL_FLOAT8_E4M3FN, ACL_FLOAT8_E5M2, ACL_HIFLOAT8})) !=
      kSuccess) {
    return st;
  }
  DynamicArgs a;
  if ((st = quantOutput(api, "yOut", y->desc.dtype, &a.f)) != kSuccess) return st;
  if ((st = require(
           api, y->desc.dtype == a.f.stored,
           "an int4 yOut tensor is not supported by the simulator: pass int32 holding 8 packed values")) !=
      kSuccess) {
    return st;
  }
  if ((st = checkPackable(api, x->desc.shape, a.f)) != kSuccess) return st;
  if ((st = checkShape(api, "yOut", y->desc.shape, packedShape(x->desc.shape, a.f))) != kSuccess) return st;
  const int64_t H = x->desc.shape.back();
  std::vector<int64_t> rowShape(x->desc.shape.begin(), x->desc.shape.end() - 1);
  if ((st = checkArg(api, "scaleOut", scale, {ACL_FLOAT})) != kSuccess) return st;
  if ((st = checkShape(api, "scaleOut", scale->desc.shape, rowShape)) != kSuccess) return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = name;
  addInput(*inst, "x", x);
  if (groupIndex != nullptr && smooth == nullptr) {
    return require(api, false, "groupIndexOptional needs smoothScalesOptional");
  }
  if (smooth != nullptr) {
    if ((st = checkArg(api, "smoothScalesOptional", smooth, {x->desc.dtype})) != kSuccess) return st;
    if (groupIndex != nullptr) {
      if ((st = checkArg(api, "groupIndexOptional", groupIndex, {ACL_INT32}, 1)) != kSuccess) return st;
      if ((st = checkShape(api, "smoothScalesOptional", smooth->desc.shape,
                           {groupIndex->desc.shape[0], H})) != kSuccess) {
        return st;
      }
    } else if ((st = checkShape(api, "smoothScalesOptional", smooth->desc.shape, {H})) != kSuccess) {
      return st;
    }
    addInput(*inst, "smoothScalesOptional", smooth);
    a.smooth = true;
    if (groupIndex != nullptr) {
      addInput(*inst, "groupIndexOptional", groupIndex);
      a.grouped = true;
    }
  }
  addOutput(*inst, "yOut", y);
  addOutput(*inst, "scaleOut", scale);
  if (offset != nullptr) {
    if ((st = checkArg(api, "offsetOut", offset, {ACL_FLOAT})) != kSuccess) return st;
    if ((st = checkShape(api, "offsetOut", offset->desc.shape, rowShape)) != kSuccess) return st;
    addOutput(*inst, "offsetOut", offset);
    a.asymmetric = true;
  }
  // smooth multiply, |x| and the row max, the divide, the cast to the integer type.
  inst->vectorPasses = 4 + (a.smooth ? 1 : 0) + (a.asymmetric ? 2 : 0);
  inst->kernel = [a](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    dynamicQuantKernel(a, in, out);
  };
  inst->attrs = fmt::format("y={}", dtypeName(y->desc.dtype));
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

// Index along `axis` of every row-major element of `shape`.
std::vector<int64_t> axisIndex(const std::vector<int64_t>& shape, size_t axis) {
  const int64_t inner = dimProduct(shape, axis + 1, shape.size()), n = shape[axis];
  std::vector<int64_t> idx(static_cast<size_t>(dimProduct(shape, 0, shape.size())));
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = (static_cast<int64_t>(i) / inner) % n;
  return idx;
}

// scale/offset of x along `axis`: 1-D of x.shape[axis] or 1 values, or x's rank with 1 elsewhere.
int32_t checkAlongAxis(const char* api, const char* name, const aclTensor* t,
                       const std::vector<int64_t>& xShape, size_t axis) {
  const std::vector<int64_t>& s = t->desc.shape;
  const int64_t n = t->desc.numel();
  bool ok = n == 1 || n == xShape[axis];
  if (ok && s.size() > 1) {
    ok = s.size() == xShape.size();
    for (size_t d = 0; ok && d < s.size(); ++d) ok = s[d] == 1 || (d == axis && s[d] == xShape[axis]);
  }
  return require(api, ok,
                 fmt::format("{} {} must hold 1 or {} values along axis {} of x {}", name, shapeString(s),
                             xShape[axis], axis, shapeString(xShape)));
}

int32_t buildAscendQuant(const char* api, const char* name, const aclTensor* x, const aclTensor* scale,
                         const aclTensor* offset, bool sqrtMode, const char* roundMode, int32_t dstType,
                         int64_t axis, const aclTensor* y, uint64_t* workspaceSize,
                         aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "x", x, kFloats)) != kSuccess) return st;
  if ((st = require(api, x->desc.rank() >= 1, "x must have at least one dimension")) != kSuccess) return st;
  if ((st = checkArg(api, "scale", scale, kFloats)) != kSuccess) return st;
  if (roundMode == nullptr) return fail(api, kErrParamNullptr, "roundMode is null");
  RoundMode mode;
  if ((st = require(api, parseRoundMode(roundMode, &mode) && mode != RoundMode::kRint,
                    fmt::format("roundMode \"{}\" must be round, floor, ceil or trunc", roundMode))) !=
      kSuccess) {
    return st;
  }
  QuantFormat f;
  if ((st = quantOutput(api, "dstType", static_cast<aclDataType>(dstType), &f)) != kSuccess) return st;
  const int64_t ax = wrapDim(axis, x->desc.rank());
  if ((st = require(api, ax >= 0,
                    fmt::format("axis {} is out of range for x {}", axis, shapeString(x->desc.shape)))) !=
      kSuccess) {
    return st;
  }
  if ((st = checkAlongAxis(api, "scale", scale, x->desc.shape, static_cast<size_t>(ax))) != kSuccess)
    return st;
  if (offset != nullptr) {
    if ((st = checkArg(api, "offset", offset, {scale->desc.dtype})) != kSuccess) return st;
    if ((st = checkAlongAxis(api, "offset", offset, x->desc.shape, static_cast<size_t>(ax))) != kSuccess)
      return st;
  }
  if ((st = checkPackable(api, x->desc.shape, f)) != kSuccess) return st;
  if ((st = checkArg(api, "y", y, {f.stored})) != kSuccess) return st;
  if ((st = checkShape(api, "y", y->desc.shape, packedShape(x->desc.shape, f))) != kSuccess) return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = name;
  addInput(*inst, "x", x);
  addInput(*inst, "scale", scale);
  if (offset != nullptr) addInput(*inst, "offset", offset);
  addOutput(*inst, "y", y);
  inst->vectorPasses = 3 + (sqrtMode ? 1 : 0);
  const bool hasOffset = offset != nullptr;
  const size_t a = static_cast<size_t>(ax);
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> xv = loadDense<float>(in[0]), sv = loadDense<float>(in[1]);
    const std::vector<float> ov = hasOffset ? loadDense<float>(in[2]) : std::vector<float>();
    const std::vector<int64_t> idx = axisIndex(in[0].shape, a);
    std::vector<double> v(xv.size());
    for (size_t i = 0; i < xv.size(); ++i) {
      const double s = sv[sv.size() == 1 ? 0 : idx[i]];
      const double o = hasOffset ? ov[ov.size() == 1 ? 0 : idx[i]] : 0.0;
      v[i] = static_cast<double>(xv[i]) * s * (sqrtMode ? s : 1.0) + o;
    }
    const std::vector<int64_t> q = packQuantized(v, f, mode);
    storeDense(out[0], q.data());
  };
  inst->attrs =
      fmt::format("sqrtMode={} roundMode={} dstType={} axis={}", sqrtMode, roundMode, dstType, axis);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

// Both fake-quantisation forms: scale and zeroPoint one value or one per index along `axis`.
int32_t buildFakeQuant(const char* api, const char* name, const aclTensor* self, const aclTensor* scale,
                       const aclTensor* zeroPoint, int64_t axis, bool enabled, int64_t quantMin,
                       int64_t quantMax, const aclTensor* out, const aclTensor* mask, uint64_t* workspaceSize,
                       aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "self", self, kFloats)) != kSuccess) return st;
  if ((st = checkArg(api, "scale", scale, {ACL_FLOAT}, 1)) != kSuccess) return st;
  if ((st = checkArg(api, "zeroPoint", zeroPoint, {ACL_INT32, ACL_FLOAT16, ACL_FLOAT}, 1)) != kSuccess)
    return st;
  if ((st = checkArg(api, "out", out, {self->desc.dtype})) != kSuccess) return st;
  if ((st = checkArg(api, "mask", mask, {ACL_BOOL})) != kSuccess) return st;
  if ((st = checkShape(api, "out", out->desc.shape, self->desc.shape)) != kSuccess) return st;
  if ((st = checkShape(api, "mask", mask->desc.shape, self->desc.shape)) != kSuccess) return st;
  if ((st = require(api, quantMin <= quantMax,
                    fmt::format("quantMin {} exceeds quantMax {}", quantMin, quantMax))) != kSuccess) {
    return st;
  }
  const int64_t ax = self->desc.rank() == 0 ? 0 : wrapDim(axis, self->desc.rank());
  if ((st = require(api, ax >= 0, fmt::format("axis {} is out of range", axis))) != kSuccess) return st;
  const int64_t along = self->desc.rank() == 0 ? 1 : self->desc.shape[static_cast<size_t>(ax)];
  if ((st = require(api,
                    (scale->desc.numel() == 1 || scale->desc.numel() == along) &&
                        zeroPoint->desc.numel() == scale->desc.numel(),
                    fmt::format("scale and zeroPoint must both hold 1 or {} values", along))) != kSuccess) {
    return st;
  }
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = name;
  addInput(*inst, "self", self);
  addInput(*inst, "scale", scale);
  addInput(*inst, "zeroPoint", zeroPoint);
  addOutput(*inst, "out", out);
  addOutput(*inst, "mask", mask);
  inst->vectorPasses = 5;  // divide, round, clamp, subtract, multiply (and the compares)
  const bool intZero = zeroPoint->desc.dtype == ACL_INT32;
  const size_t a = static_cast<size_t>(ax);
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& o) {
    const std::vector<float> x = loadDense<float>(in[0]), sc = loadDense<float>(in[1]),
                             zp = loadDense<float>(in[2]);
    const std::vector<int64_t> idx =
        in[0].shape.empty() ? std::vector<int64_t>(1, 0) : axisIndex(in[0].shape, a);
    std::vector<float> y(x.size());
    std::vector<int64_t> m(x.size(), 1);
    for (size_t i = 0; i < x.size(); ++i) {
      if (!enabled) {
        y[i] = x[i];
        continue;
      }
      const size_t c = sc.size() == 1 ? 0 : static_cast<size_t>(idx[i]);
      const double q = intZero ? std::nearbyint(x[i] / sc[c]) + zp[c] : std::nearbyint(x[i] / sc[c] + zp[c]);
      m[i] = q >= static_cast<double>(quantMin) && q <= static_cast<double>(quantMax) ? 1 : 0;
      const double clamped = std::clamp(q, static_cast<double>(quantMin), static_cast<double>(quantMax));
      y[i] = static_cast<float>((clamped - zp[c]) * sc[c]);
    }
    storeDense(o[0], y.data());
    storeDense(o[1], m.data());
  };
  inst->attrs = fmt::format("axis={} quantMin={} quantMax={}", axis, quantMin, quantMax);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

int32_t buildBlockQuant(const char* api, const char* name, const aclTensor* x, double minScale,
                        const char* roundMode, int64_t dstType, int64_t rowBlock, int64_t colBlock,
                        double dstTypeMax, const aclTensor* y, const aclTensor* scale,
                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "x", x, kHalf)) != kSuccess) return st;
  if ((st = require(api, x->desc.rank() == 2 || x->desc.rank() == 3, "x must be [M, N] or [B, M, N]")) !=
      kSuccess) {
    return st;
  }
  RoundMode mode = RoundMode::kRint;
  if (roundMode != nullptr &&
      (st = require(
           api, parseRoundMode(roundMode, &mode) && (mode == RoundMode::kRint || mode == RoundMode::kRound),
           fmt::format("roundMode \"{}\" must be rint or round", roundMode))) != kSuccess) {
    return st;
  }
  QuantFormat f;
  if ((st = require(
           api, dstType == ACL_INT8,
           fmt::format(
               "dstType {} is not supported on 910B (int8; fp8 and hifloat8 are Atlas A3/950 formats)",
               dstType))) != kSuccess) {
    return st;
  }
  quantFormatOf(ACL_INT8, &f);
  if ((st = require(api, rowBlock > 0 && colBlock > 0 && minScale >= 0,
                    "rowBlockSize and colBlockSize must be > 0 and minScale >= 0")) != kSuccess) {
    return st;
  }
  if ((st = checkArg(api, "yOut", y, {ACL_INT8})) != kSuccess) return st;
  if ((st = checkShape(api, "yOut", y->desc.shape, x->desc.shape)) != kSuccess) return st;
  std::vector<int64_t> sShape = x->desc.shape;
  const size_t r = sShape.size();
  sShape[r - 2] = (sShape[r - 2] + rowBlock - 1) / rowBlock;
  sShape[r - 1] = (sShape[r - 1] + colBlock - 1) / colBlock;
  if ((st = checkArg(api, "scaleOut", scale, {ACL_FLOAT})) != kSuccess) return st;
  if ((st = checkShape(api, "scaleOut", scale->desc.shape, sShape)) != kSuccess) return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = name;
  addInput(*inst, "x", x);
  addOutput(*inst, "yOut", y);
  addOutput(*inst, "scaleOut", scale);
  inst->vectorPasses = 4;  // abs, block max, divide, cast
  const double qmax = dstTypeMax > 0 ? dstTypeMax : f.maxValue();
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> xv = loadDense<float>(in[0]);
    const std::vector<int64_t>& shape = in[0].shape;
    const int64_t M = shape[r - 2], N = shape[r - 1], B = r == 3 ? shape[0] : 1;
    const int64_t bm = sShape[r - 2], bn = sShape[r - 1];
    std::vector<float> sc(static_cast<size_t>(B * bm * bn));
    std::vector<double> v(xv.size());
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t i = 0; i < bm; ++i) {
        for (int64_t j = 0; j < bn; ++j) {
          const int64_t m1 = std::min(M, (i + 1) * rowBlock), n1 = std::min(N, (j + 1) * colBlock);
          double amax = 0;
          for (int64_t m = i * rowBlock; m < m1; ++m) {
            for (int64_t n = j * colBlock; n < n1; ++n)
              amax = std::max(amax, std::fabs(double{xv[(b * M + m) * N + n]}));
          }
          double s = amax / qmax;
          if (minScale > 0) s = std::min(s, 1.0 / minScale);
          sc[(b * bm + i) * bn + j] = static_cast<float>(s);
          for (int64_t m = i * rowBlock; m < m1; ++m) {
            for (int64_t n = j * colBlock; n < n1; ++n) {
              const int64_t k = (b * M + m) * N + n;
              v[k] = s == 0 ? 0.0 : xv[k] / s;
            }
          }
        }
      }
    }
    const std::vector<int64_t> q = packQuantized(v, f, mode);
    storeDense(out[0], q.data());
    storeDense(out[1], sc.data());
  };
  inst->attrs = fmt::format("rowBlockSize={} colBlockSize={}", rowBlock, colBlock);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnDynamicQuantGetWorkspaceSize(const aclTensor* x,
                                                         const aclTensor* smoothScalesOptional,
                                                         const aclTensor* yOut, const aclTensor* scaleOut,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildDynamicQuant("aclnnDynamicQuantGetWorkspaceSize", "aclnnDynamicQuant", x, smoothScalesOptional,
                           nullptr, yOut, scaleOut, nullptr, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnDynamicQuantV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* smoothScalesOptional, const aclTensor* groupIndexOptional,
    int64_t dstType, const aclTensor* yOut, const aclTensor* scaleOut, const aclTensor* offsetOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnDynamicQuantV2GetWorkspaceSize";
  if (yOut != nullptr && dstType != static_cast<int64_t>(yOut->desc.dtype) &&
      !(dstType == ACL_INT4 && yOut->desc.dtype == ACL_INT32)) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("dstType {} does not match yOut's type {}", dstType, dtypeName(yOut->desc.dtype)));
  }
  return buildDynamicQuant(api, "aclnnDynamicQuantV2", x, smoothScalesOptional, groupIndexOptional, yOut,
                           scaleOut, offsetOut, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnAscendQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                        const aclTensor* offset, bool sqrtMode,
                                                        const char* roundMode, int32_t dstType,
                                                        const aclTensor* y, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return buildAscendQuant("aclnnAscendQuantGetWorkspaceSize", "aclnnAscendQuant", x, scale, offset, sqrtMode,
                          roundMode, dstType, -1, y, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnAscendQuantV3GetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                          const aclTensor* offset, bool sqrtMode,
                                                          const char* roundMode, int32_t dstType,
                                                          int32_t axis, const aclTensor* y,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildAscendQuant("aclnnAscendQuantV3GetWorkspaceSize", "aclnnAscendQuantV3", x, scale, offset,
                          sqrtMode, roundMode, dstType, axis, y, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnAscendAntiQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                            const aclTensor* offset, int64_t dstType,
                                                            bool sqrtMode, const aclTensor* y,
                                                            uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  const char* api = "aclnnAscendAntiQuantGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "x", x, {ACL_INT8})) != kSuccess) return st;
  if ((st = require(api, x->desc.rank() >= 1, "x must have at least one dimension")) != kSuccess) return st;
  if ((st = checkArg(api, "scale", scale, kFloats, 1)) != kSuccess) return st;
  if ((st = require(api, dstType == ACL_FLOAT16 || dstType == ACL_BF16,
                    fmt::format("dstType {} must be 1 (fp16) or 27 (bf16)", dstType))) != kSuccess) {
    return st;
  }
  const size_t last = x->desc.rank() - 1;
  if ((st = checkAlongAxis(api, "scale", scale, x->desc.shape, last)) != kSuccess) return st;
  if (offset != nullptr) {
    if ((st = checkArg(api, "offset", offset, {scale->desc.dtype}, 1)) != kSuccess) return st;
    if ((st = checkShape(api, "offset", offset->desc.shape, scale->desc.shape)) != kSuccess) return st;
  }
  if ((st = checkArg(api, "y", y, {static_cast<aclDataType>(dstType)})) != kSuccess) return st;
  if ((st = checkShape(api, "y", y->desc.shape, x->desc.shape)) != kSuccess) return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnAscendAntiQuant";
  addInput(*inst, "x", x);
  addInput(*inst, "scale", scale);
  if (offset != nullptr) addInput(*inst, "offset", offset);
  addOutput(*inst, "y", y);
  inst->vectorPasses = 3 + (sqrtMode ? 1 : 0);
  const bool hasOffset = offset != nullptr;
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> xv = loadDense<float>(in[0]), sv = loadDense<float>(in[1]);
    const std::vector<float> ov = hasOffset ? loadDense<float>(in[2]) : std::vector<float>();
    const std::vector<int64_t> idx = axisIndex(in[0].shape, last);
    std::vector<float> yv(xv.size());
    for (size_t i = 0; i < xv.size(); ++i) {
      const size_t c = sv.size() == 1 ? 0 : static_cast<size_t>(idx[i]);
      const float s = sv[c];
      yv[i] = (xv[i] + (hasOffset ? ov[c] : 0.0f)) * s * (sqrtMode ? s : 1.0f);
    }
    storeDense(out[0], yv.data());
  };
  inst->attrs = fmt::format("dstType={} sqrtMode={}", dstType, sqrtMode);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnDequantBiasGetWorkspaceSize(const aclTensor* x, const aclTensor* weightScale,
                                                        const aclTensor* activateScaleOptional,
                                                        const aclTensor* biasOptional, int64_t outputDtype,
                                                        const aclTensor* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  const char* api = "aclnnDequantBiasGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "x", x, {ACL_INT32}, 2)) != kSuccess) return st;
  const int64_t M = x->desc.shape[0], N = x->desc.shape[1];
  if ((st = checkArg(api, "weightScale", weightScale, {ACL_FLOAT, ACL_BF16}, 1)) != kSuccess) return st;
  if ((st = checkShape(api, "weightScale", weightScale->desc.shape, {N})) != kSuccess) return st;
  if ((st = require(api, outputDtype == ACL_FLOAT16 || outputDtype == ACL_BF16,
                    fmt::format("outputDtype {} must be 1 (fp16) or 27 (bf16)", outputDtype))) != kSuccess) {
    return st;
  }
  if ((st = checkArg(api, "out", out, {static_cast<aclDataType>(outputDtype)})) != kSuccess) return st;
  if ((st = checkShape(api, "out", out->desc.shape, {M, N})) != kSuccess) return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnDequantBias";
  addInput(*inst, "x", x);
  addInput(*inst, "weightScale", weightScale);
  const bool hasAct = activateScaleOptional != nullptr, hasBias = biasOptional != nullptr;
  if (hasAct) {
    if ((st = checkArg(api, "activateScaleOptional", activateScaleOptional, {ACL_FLOAT}, 1)) != kSuccess)
      return st;
    if ((st = checkShape(api, "activateScaleOptional", activateScaleOptional->desc.shape, {M})) != kSuccess)
      return st;
    addInput(*inst, "activateScaleOptional", activateScaleOptional);
  }
  bool intBias = false;
  if (hasBias) {
    if ((st = checkArg(api, "biasOptional", biasOptional, {ACL_FLOAT, ACL_BF16, ACL_FLOAT16, ACL_INT32},
                       1)) != kSuccess) {
      return st;
    }
    if ((st = checkShape(api, "biasOptional", biasOptional->desc.shape, {N})) != kSuccess) return st;
    intBias = biasOptional->desc.dtype == ACL_INT32;
    addInput(*inst, "biasOptional", biasOptional);
  }
  addOutput(*inst, "out", out);
  inst->vectorPasses = 3 + (hasAct ? 1 : 0) + (hasBias ? 1 : 0);
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& o) {
    const std::vector<double> A = loadDense<double>(in[0]), ws = loadDense<double>(in[1]);
    const std::vector<double> as = hasAct ? loadDense<double>(in[2]) : std::vector<double>();
    const std::vector<double> bias = hasBias ? loadDense<double>(in[hasAct ? 3 : 2]) : std::vector<double>();
    std::vector<float> y(static_cast<size_t>(M * N));
    for (int64_t m = 0; m < M; ++m) {
      for (int64_t n = 0; n < N; ++n) {
        const double b = hasBias ? bias[n] : 0.0, s = ws[n] * (hasAct ? as[m] : 1.0);
        const double a = A[m * N + n];
        y[m * N + n] = static_cast<float>(intBias ? (a + b) * s : a * s + b);
      }
    }
    storeDense(o[0], y.data());
  };
  inst->attrs = fmt::format("outputDtype={}", outputDtype);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnQuantizeGetWorkspaceSize(const aclTensor* x, const aclTensor* scales,
                                                     const aclTensor* zeroPoints, aclDataType dtype,
                                                     int32_t axis, aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  const char* api = "aclnnQuantizeGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "x", x, kFloats)) != kSuccess) return st;
  if ((st = checkArg(api, "scales", scales, kFloats, 1)) != kSuccess) return st;
  if ((st = require(
           api, dtype == ACL_INT8 || dtype == ACL_UINT8 || dtype == ACL_INT32,
           fmt::format("dtype {} is not supported on 910B (int8, uint8, int32; fp8 and hifloat8 are Atlas "
                       "A3/950 formats)",
                       dtypeName(dtype)))) != kSuccess) {
    return st;
  }
  if ((st = checkArg(api, "out", out, {dtype})) != kSuccess) return st;
  if ((st = checkShape(api, "out", out->desc.shape, x->desc.shape)) != kSuccess) return st;
  const int64_t ax = x->desc.rank() == 0 ? 0 : wrapDim(axis, x->desc.rank());
  if ((st = require(api, ax >= 0,
                    fmt::format("axis {} is out of range for x {}", axis, shapeString(x->desc.shape)))) !=
      kSuccess) {
    return st;
  }
  const int64_t along = x->desc.rank() == 0 ? 1 : x->desc.shape[static_cast<size_t>(ax)];
  if ((st = require(api, scales->desc.numel() == 1 || scales->desc.numel() == along,
                    fmt::format("scales must hold 1 or {} values", along))) != kSuccess) {
    return st;
  }
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnQuantize";
  addInput(*inst, "x", x);
  addInput(*inst, "scales", scales);
  const bool hasZero = zeroPoints != nullptr;
  if (hasZero) {
    if ((st = checkArg(api, "zeroPoints", zeroPoints, {ACL_INT32, ACL_INT8, ACL_UINT8, ACL_FLOAT, ACL_BF16},
                       1)) != kSuccess) {
      return st;
    }
    if ((st = require(api, zeroPoints->desc.numel() == scales->desc.numel(),
                      "zeroPoints must match scales")) != kSuccess) {
      return st;
    }
    addInput(*inst, "zeroPoints", zeroPoints);
  }
  addOutput(*inst, "out", out);
  inst->vectorPasses = 3;  // divide, add, cast
  const double lo = dtype == ACL_INT8 ? -128.0 : dtype == ACL_UINT8 ? 0.0 : -2147483648.0;
  const double hi = dtype == ACL_INT8 ? 127.0 : dtype == ACL_UINT8 ? 255.0 : 2147483647.0;
  const size_t a = static_cast<size_t>(ax);
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& o) {
    const std::vector<double> xv = loadDense<double>(in[0]), sv = loadDense<double>(in[1]);
    const std::vector<double> zv = hasZero ? loadDense<double>(in[2]) : std::vector<double>();
    const std::vector<int64_t> idx =
        in[0].shape.empty() ? std::vector<int64_t>(1, 0) : axisIndex(in[0].shape, a);
    std::vector<int64_t> q(xv.size());
    for (size_t i = 0; i < xv.size(); ++i) {
      const size_t c = sv.size() == 1 ? 0 : static_cast<size_t>(idx[i]);
      const double v = std::nearbyint(xv[i] / sv[c] + (hasZero ? zv[c] : 0.0));
      q[i] = static_cast<int64_t>(std::isnan(v) ? 0.0 : std::clamp(v, lo, hi));
    }
    storeDense(o[0], q.data());
  };
  inst->attrs = fmt::format("dtype={} axis={}", dtypeName(dtype), axis);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnFakeQuantPerChannelAffineCachemaskGetWorkspaceSize(
    const aclTensor* self, const aclTensor* scale, const aclTensor* zeroPoint, int64_t axis, int64_t quantMin,
    int64_t quantMax, aclTensor* out, aclTensor* mask, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildFakeQuant("aclnnFakeQuantPerChannelAffineCachemaskGetWorkspaceSize",
                        "aclnnFakeQuantPerChannelAffineCachemask", self, scale, zeroPoint, axis, true,
                        quantMin, quantMax, out, mask, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnFakeQuantPerTensorAffineCachemaskGetWorkspaceSize(
    const aclTensor* self, const aclTensor* scale, const aclTensor* zeroPoint, float fakeQuantEnabled,
    int64_t quantMin, int64_t quantMax, aclTensor* out, aclTensor* mask, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  const char* api = "aclnnFakeQuantPerTensorAffineCachemaskGetWorkspaceSize";
  if (scale != nullptr && scale->desc.numel() != 1) {
    return fail(api, kErrParamInvalid, "scale must hold one value per tensor");
  }
  return buildFakeQuant(api, "aclnnFakeQuantPerTensorAffineCachemask", self, scale, zeroPoint, 0,
                        fakeQuantEnabled >= 1.0f, quantMin, quantMax, out, mask, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnGroupQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                       const aclTensor* groupIndex,
                                                       const aclTensor* offsetOptional, int32_t dstType,
                                                       aclTensor* y, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
  const char* api = "aclnnGroupQuantGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "x", x, kFloats, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "scale", scale, kFloats, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "groupIndex", groupIndex, {ACL_INT32, ACL_INT64}, 1)) != kSuccess) return st;
  const int64_t M = x->desc.shape[0], K = x->desc.shape[1], E = scale->desc.shape[0];
  if ((st = require(api, scale->desc.shape[1] == K && groupIndex->desc.shape[0] == E,
                    fmt::format("scale {} must be [E, {}] and groupIndex [E]", shapeString(scale->desc.shape),
                                K))) != kSuccess) {
    return st;
  }
  QuantFormat f;
  if ((st = quantOutput(api, "dstType", static_cast<aclDataType>(dstType), &f)) != kSuccess) return st;
  if ((st = checkPackable(api, x->desc.shape, f)) != kSuccess) return st;
  if ((st = checkArg(api, "y", y, {f.stored})) != kSuccess) return st;
  if ((st = checkShape(api, "y", y->desc.shape, packedShape(x->desc.shape, f))) != kSuccess) return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnGroupQuant";
  addInput(*inst, "x", x);
  addInput(*inst, "scale", scale);
  addInput(*inst, "groupIndex", groupIndex);
  const bool hasOffset = offsetOptional != nullptr;
  if (hasOffset) {
    if ((st = checkArg(api, "offsetOptional", offsetOptional, {scale->desc.dtype})) != kSuccess) return st;
    if ((st = require(api, offsetOptional->desc.numel() == 1, "offsetOptional must be one value")) !=
        kSuccess) {
      return st;
    }
    addInput(*inst, "offsetOptional", offsetOptional);
  }
  addOutput(*inst, "y", y);
  inst->vectorPasses = 3;  // multiply, add, cast
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& o) {
    const std::vector<float> xv = loadDense<float>(in[0]), sv = loadDense<float>(in[1]);
    const std::vector<int64_t> ends = loadDense<int64_t>(in[2]);
    const float off = hasOffset ? loadDense<float>(in[3])[0] : 0.0f;
    std::vector<double> v(xv.size(), 0.0);
    size_t g = 0;
    for (int64_t m = 0; m < M; ++m) {
      while (g < ends.size() && m >= ends[g]) ++g;
      if (g >= ends.size()) break;  // rows past the last group stay 0
      for (int64_t k = 0; k < K; ++k) {
        v[m * K + k] = static_cast<double>(xv[m * K + k]) * sv[g * K + k] + off;
      }
    }
    const std::vector<int64_t> q = packQuantized(v, f, RoundMode::kRint);
    storeDense(o[0], q.data());
  };
  inst->attrs = fmt::format("dstType={}", dstType);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnDynamicBlockQuantGetWorkspaceSize(
    const aclTensor* x, double minScale, char* roundModeOptional, int64_t dstType, int64_t rowBlockSize,
    int64_t colBlockSize, const aclTensor* yOut, const aclTensor* scaleOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return buildBlockQuant("aclnnDynamicBlockQuantGetWorkspaceSize", "aclnnDynamicBlockQuant", x, minScale,
                         roundModeOptional, dstType, rowBlockSize, colBlockSize, 0.0, yOut, scaleOut,
                         workspaceSize, executor);
}

extern "C" aclnnStatus aclnnDynamicBlockQuantV2GetWorkspaceSize(
    const aclTensor* x, double minScale, char* roundModeOptional, int64_t dstType, int64_t rowBlockSize,
    int64_t colBlockSize, double dstTypeMax, const aclTensor* yOut, const aclTensor* scaleOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildBlockQuant("aclnnDynamicBlockQuantV2GetWorkspaceSize", "aclnnDynamicBlockQuantV2", x, minScale,
                         roundModeOptional, dstType, rowBlockSize, colBlockSize, dstTypeMax, yOut, scaleOut,
                         workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(DynamicQuant)
NPUSIM_ACLNN_PHASE2(DynamicQuantV2)
NPUSIM_ACLNN_PHASE2(AscendQuant)
NPUSIM_ACLNN_PHASE2(AscendQuantV3)
NPUSIM_ACLNN_PHASE2(AscendAntiQuant)
NPUSIM_ACLNN_PHASE2(DequantBias)
NPUSIM_ACLNN_PHASE2(Quantize)
NPUSIM_ACLNN_PHASE2(GroupQuant)
NPUSIM_ACLNN_PHASE2(DynamicBlockQuant)
NPUSIM_ACLNN_PHASE2(DynamicBlockQuantV2)
NPUSIM_ACLNN_PHASE2(FakeQuantPerChannelAffineCachemask)
NPUSIM_ACLNN_PHASE2(FakeQuantPerTensorAffineCachemask)

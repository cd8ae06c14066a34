// aclnnDequantSwigluQuant and V2 (ops-nn quant/dequant_swiglu_quant): per row of x [N..., H],
// with g the row's group (groupIndex [G]: row counts per group in order; [G, 2]: (group id,
// count) pairs; rows after the counted ones are not written; without it, group 0 for all):
//  1. dequant (fp32): d = x (+ an int32 bias before the cast), * weightScale[g] (per column),
//     * activationScale[row], + a floating bias[g]; absent tensors are skipped.
//  2. swiglu on the halves (A activated, B linear): mode 0, A = the left half when activateLeft
//     else the right: s = silu(A) * B; V2 mode 2, the same halves: s = min(A, L) *
//     sigmoid(alpha * min(A, L)) * (clamp(B, -L, L) + gluBias); V2 mode 1, the same with A the
//     even and B the odd columns (the GPT-OSS layout; its kernel ignores activateLeft there).
//  3. quant to int8 (rint, saturated; NaN gives 0): "static": y = s / quantScale + quantOffset
//     (one value, or one per output column); "dynamic": t = s * quantScale[g] (per column),
//     scaleOut[row] = max|t| / 127, y = t / scaleOut[row].
// as the 910B kernels order it (op_kernel/dequant_swiglu_quant*.h). V2's other output types
// (dstType 34..41: fp8, hifp8, fp4) have no element type in the simulator and are refused.
// Cost: every input read once, y and scaleOut written once, 8 vector passes.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_dequant_swiglu_quant.h"
#include "aclnnop/aclnn_dequant_swiglu_quant_v2.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

// The docs: x FLOAT16, BFLOAT16, INT32; scales and offsets FLOAT; bias FLOAT, FLOAT16, BFLOAT16,
// INT32; groupIndex INT32, INT64 (V2: INT64); yOut INT8; scaleOut FLOAT.
const OpInfo kInfoV1{"aclnnDequantSwigluQuant",
                     ExecUnit::kVector,
                     {ACL_FLOAT16, ACL_BF16, ACL_INT32},
                     "y = quant(swiglu(dequant(x)))"};
const OpInfo kInfoV2{"aclnnDequantSwigluQuantV2",
                     ExecUnit::kVector,
                     {ACL_FLOAT16, ACL_BF16, ACL_INT32},
                     "y = quant(swiglu variant(dequant(x)))"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kInfoV1), OpRegistrar(kInfoV2)};

enum Input { kX, kWeightScale, kActivationScale, kBias, kQuantScale, kQuantOffset, kGroupIndex, kInputs };

struct Options {
  bool activateLeft = false, dynamic = false;
  int64_t swigluMode = 0;
  double clampLimit = 7.0, gluAlpha = 1.702, gluBias = 1.0;
};

class DequantSwigluQuantInstance : public OpInstanceBase<DequantSwigluQuantInstance> {
 public:
  Options opt;
  int slot[kInputs] = {0, -1, -1, -1, -1, -1, -1};  // index in `inputs`, or -1 when absent

  rt::OpWork work() const override {
    VectorPass pass{&inputs, &outputs[0], inputs[0].numel(), 8};
    pass.extraWriteBytes = static_cast<uint64_t>(outputs[1].numel()) * outputs[1].elementSize();
    return vectorTiles(pass);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    auto load = [&](Input k) {
      return slot[k] >= 0 ? loadDense<double>(in[static_cast<size_t>(slot[k])]) : std::vector<double>();
    };
    const std::vector<double> x = load(kX), ws = load(kWeightScale), as = load(kActivationScale),
                              bias = load(kBias), qs = load(kQuantScale), qo = load(kQuantOffset),
                              groups = load(kGroupIndex);
    const bool intBias = slot[kBias] >= 0 && in[static_cast<size_t>(slot[kBias])].dtype == ACL_INT32;
    const int64_t h = in[0].shape.back(), half = h / 2, rows = in[0].numel() / std::max<int64_t>(h, 1);
    std::vector<int64_t> y = loadDense<int64_t>(out[0]);
    std::vector<float> scaleOut = loadDense<float>(out[1]);
    // Row of a per-group parameter: one row for all groups, or the group's own.
    auto rowOf = [](const std::vector<double>& p, int64_t width, int64_t g) {
      const int64_t n = static_cast<int64_t>(p.size()) / width;
      return n <= 1 ? 0 : std::min(g, n - 1) * width;
    };
    std::vector<double> d(static_cast<size_t>(h)), s(static_cast<size_t>(half));
    auto doRow = [&](int64_t r, int64_t g) {
      for (int64_t c = 0; c < h; ++c) {
        float v = static_cast<float>(x[static_cast<size_t>(r * h + c)] +
                                     (intBias ? bias[rowOf(bias, h, g) + c] : 0));
        if (!ws.empty()) v *= static_cast<float>(ws[static_cast<size_t>(rowOf(ws, h, g) + c)]);
        if (!as.empty()) v *= static_cast<float>(as[static_cast<size_t>(r)]);
        if (!bias.empty() && !intBias)
          v += static_cast<float>(bias[static_cast<size_t>(rowOf(bias, h, g) + c)]);
        d[static_cast<size_t>(c)] = v;
      }
      const float lim = static_cast<float>(opt.clampLimit);
      for (int64_t j = 0; j < half; ++j) {
        const bool interleaved = opt.swigluMode == 1;
        const int64_t ia = interleaved ? 2 * j : (opt.activateLeft ? j : half + j);
        const int64_t ib = interleaved ? 2 * j + 1 : (opt.activateLeft ? half + j : j);
        float a = static_cast<float>(d[static_cast<size_t>(ia)]),
              b = static_cast<float>(d[static_cast<size_t>(ib)]);
        float alpha = 1.f;
        if (opt.swigluMode != 0) {
          a = std::min(a, lim);
          b = std::clamp(b, -lim, lim) + static_cast<float>(opt.gluBias);
          alpha = static_cast<float>(opt.gluAlpha);
        }
        s[static_cast<size_t>(j)] = a / (1.f + std::exp(-alpha * a)) * b;
      }
      float inv = 1.f;
      if (opt.dynamic) {
        float mx = 0;
        for (int64_t j = 0; j < half; ++j) {
          float t = static_cast<float>(s[static_cast<size_t>(j)]);
          if (!qs.empty()) t *= static_cast<float>(qs[static_cast<size_t>(rowOf(qs, half, g) + j)]);
          s[static_cast<size_t>(j)] = t;
          mx = std::max(mx, std::fabs(t));
        }
        scaleOut[static_cast<size_t>(r)] = mx / 127.f;
        inv = 1.f / (mx / 127.f);
      }
      for (int64_t j = 0; j < half; ++j) {
        float t = static_cast<float>(s[static_cast<size_t>(j)]);
        if (opt.dynamic) {
          t *= inv;
        } else if (!qs.empty()) {
          const size_t k = qs.size() == 1 ? 0 : static_cast<size_t>(j);
          t = t / static_cast<float>(qs[k]) +
              (qo.empty() ? 0.f : static_cast<float>(qo[qo.size() == 1 ? 0 : k]));
        }
        const float q = std::rint(t);
        y[static_cast<size_t>(r * half + j)] =
            std::isnan(q) ? 0 : static_cast<int64_t>(std::clamp(q, -128.f, 127.f));
      }
    };
    if (groups.empty()) {
      for (int64_t r = 0; r < rows; ++r) doRow(r, 0);
    } else {
      const bool pairs = in[static_cast<size_t>(slot[kGroupIndex])].shape.size() == 2;
      const size_t count = pairs ? groups.size() / 2 : groups.size();
      int64_t r = 0;
      for (size_t k = 0; k < count && r < rows; ++k) {
        const int64_t g = pairs ? static_cast<int64_t>(groups[2 * k]) : static_cast<int64_t>(k);
        const int64_t n = static_cast<int64_t>(pairs ? groups[2 * k + 1] : groups[k]);
        if (pairs && n <= 0) break;  // the kernel stops at the first empty pair
        for (int64_t i = 0; i < std::max<int64_t>(n, 0) && r < rows; ++i) doRow(r++, g);
      }
    }
    storeDense(out[0], y.data());
    storeDense(out[1], scaleOut.data());
  }
};

struct Args {
  const aclTensor *x, *weightScale, *activationScale, *bias, *quantScale, *quantOffset, *groupIndex;
  const char* quantMode;
  const aclTensor *yOut, *scaleOut;
};

int32_t build(const OpInfo& info, const Args& a, const Options& base, uint64_t* workspaceSize,
              aclOpExecutor** executor) {
  const std::string apiName = info.name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  int32_t st = checkNotNull(api, {{"x", a.x}, {"yOut", a.yOut}, {"scaleOut", a.scaleOut}});
  if (st != kSuccess) return st;
  const aclTensor* all[kInputs] = {a.x,          a.weightScale, a.activationScale, a.bias,
                                   a.quantScale, a.quantOffset, a.groupIndex};
  const char* names[kInputs] = {"x",
                                "weightScaleOptional",
                                "activationScaleOptional",
                                "biasOptional",
                                "quantScaleOptional",
                                "quantOffsetOptional",
                                "groupIndexOptional"};
  for (int k = 0; k < kInputs; ++k) {
    if (all[k] != nullptr && (st = checkTensor(api, names[k], all[k]->desc)) != kSuccess) return st;
  }
  if ((st = checkTensor(api, "yOut", a.yOut->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "scaleOut", a.scaleOut->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "x", a.x->desc.dtype, info)) != kSuccess) return st;
  auto typeIs = [&](int k, std::initializer_list<aclDataType> ok) -> int32_t {
    if (all[k] == nullptr || std::find(ok.begin(), ok.end(), all[k]->desc.dtype) != ok.end()) return kSuccess;
    return fail(api, kErrParamInvalid,
                fmt::format("{} type {} is not supported", names[k], dtypeName(all[k]->desc.dtype)));
  };
  for (int k : {kWeightScale, kActivationScale, kQuantScale, kQuantOffset}) {
    if ((st = typeIs(k, {ACL_FLOAT})) != kSuccess) return st;
  }
  if ((st = typeIs(kBias, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32})) != kSuccess) return st;
  if ((st = typeIs(kGroupIndex, {ACL_INT32, ACL_INT64})) != kSuccess) return st;
  if (a.yOut->desc.dtype != ACL_INT8 || a.scaleOut->desc.dtype != ACL_FLOAT)
    return fail(api, kErrParamInvalid,
                fmt::format("yOut must be int8 and scaleOut fp32, not {} and {}",
                            dtypeName(a.yOut->desc.dtype), dtypeName(a.scaleOut->desc.dtype)));
  const TensorDesc& x = a.x->desc;
  if (x.rank() < 2 || x.shape.back() % 2 != 0)
    return fail(
        api, kErrParamInvalid,
        fmt::format("x {} must have 2 dimensions or more and an even last one", shapeString(x.shape)));
  const std::string mode = a.quantMode == nullptr ? "static" : a.quantMode;
  if (mode != "static" && mode != "dynamic")
    return fail(api, kErrParamInvalid, fmt::format("quantMode '{}' must be \"static\" or \"dynamic\"", mode));
  const int64_t h = x.shape.back(), half = h / 2, rows = x.numel() / std::max<int64_t>(h, 1);
  std::vector<int64_t> yShape = x.shape;
  yShape.back() = half;
  if ((st = checkShape(api, "yOut", a.yOut->desc.shape, yShape)) != kSuccess) return st;
  if (a.scaleOut->desc.numel() != rows)
    return fail(api, kErrParamInvalid,
                fmt::format("scaleOut {} must hold one value per row of x ({})",
                            shapeString(a.scaleOut->desc.shape), rows));
  // Per-column parameters: one row, or one per group.
  const int64_t groupCount = a.groupIndex == nullptr ? 1 : a.groupIndex->desc.shape[0];
  auto perColumn = [&](int k, int64_t width) -> int32_t {
    if (all[k] == nullptr) return kSuccess;
    const int64_t n = all[k]->desc.numel();
    if (n == width || (n == groupCount * width && all[k]->desc.shape.back() == width)) return kSuccess;
    return fail(api, kErrParamInvalid,
                fmt::format("{} {} must be [{}] or [groups {}, {}]", names[k],
                            shapeString(all[k]->desc.shape), width, groupCount, width));
  };
  if ((st = perColumn(kWeightScale, h)) != kSuccess || (st = perColumn(kBias, h)) != kSuccess) return st;
  if (mode == "dynamic" && (st = perColumn(kQuantScale, half)) != kSuccess) return st;
  for (int k : {kQuantScale, kQuantOffset}) {
    if (mode == "static" && all[k] != nullptr && all[k]->desc.numel() != 1 && all[k]->desc.numel() != half)
      return fail(api, kErrParamInvalid,
                  fmt::format("{} {} must hold 1 or {} values in static mode", names[k],
                              shapeString(all[k]->desc.shape), half));
  }
  if (a.activationScale != nullptr && a.activationScale->desc.numel() != rows)
    return fail(api, kErrParamInvalid,
                fmt::format("activationScaleOptional {} must hold one value per row of x ({})",
                            shapeString(a.activationScale->desc.shape), rows));
  if (a.groupIndex != nullptr) {
    const TensorDesc& gi = a.groupIndex->desc;
    if (gi.rank() < 1 || gi.rank() > 2 || gi.shape[0] < 1 || (gi.rank() == 2 && gi.shape[1] != 2))
      return fail(
          api, kErrParamInvalid,
          fmt::format("groupIndexOptional {} must be [groups] or [groups, 2]", shapeString(gi.shape)));
  }
  auto inst = std::make_unique<DequantSwigluQuantInstance>();
  inst->name = info.name;
  inst->opt = base;
  inst->opt.dynamic = mode == "dynamic";
  for (int k = 0; k < kInputs; ++k) {
    if (all[k] == nullptr) continue;
    inst->slot[k] = static_cast<int>(inst->inputs.size());
    addInput(*inst, names[k], all[k]);
  }
  addOutput(*inst, "yOut", a.yOut);
  addOutput(*inst, "scaleOut", a.scaleOut);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnDequantSwigluQuantGetWorkspaceSize(
    const aclTensor* x, const aclTensor* weightScaleOptional, const aclTensor* activationScaleOptional,
    const aclTensor* biasOptional, const aclTensor* quantScaleOptional, const aclTensor* quantOffsetOptional,
    const aclTensor* groupIndexOptional, bool activateLeft, char* quantModeOptional, const aclTensor* yOut,
    const aclTensor* scaleOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  npusim::rt::chargeOpPrepare("aclnnDequantSwigluQuantGetWorkspaceSize");
  Options o;
  o.activateLeft = activateLeft;
  return build(kInfoV1,
               {x, weightScaleOptional, activationScaleOptional, biasOptional, quantScaleOptional,
                quantOffsetOptional, groupIndexOptional, quantModeOptional, yOut, scaleOut},
               o, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(DequantSwigluQuant)

extern "C" aclnnStatus aclnnDequantSwigluQuantV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* weightScaleOptional, const aclTensor* activationScaleOptional,
    const aclTensor* biasOptional, const aclTensor* quantScaleOptional, const aclTensor* quantOffsetOptional,
    const aclTensor* groupIndexOptional, bool activateLeft, char* quantModeOptional, int64_t dstType,
    char* roundModeOptional, int64_t activateDim, int64_t swigluMode, double clampLimit, double gluAlpha,
    double gluBias, const aclTensor* yOut, const aclTensor* scaleOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnDequantSwigluQuantV2GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  if (dstType != 2)
    return fail(
        api, kErrParamInvalid,
        fmt::format("dstType {} is not supported: only 2 (int8); the fp8/hifp8/fp4 outputs have no element "
                    "type in the simulator",
                    dstType));
  if (roundModeOptional != nullptr && std::string(roundModeOptional) != "rint")
    return fail(api, kErrParamInvalid,
                fmt::format("roundMode '{}' is not supported for int8 (only \"rint\")", roundModeOptional));
  if (swigluMode < 0 || swigluMode > 2)
    return fail(api, kErrParamInvalid, fmt::format("swigluMode {} must be 0, 1 or 2", swigluMode));
  if (swigluMode != 0 && !(clampLimit > 0 && std::isfinite(clampLimit)))
    return fail(api, kErrParamInvalid, fmt::format("clampLimit {} must be positive and finite", clampLimit));
  if (x != nullptr && activateDim != -1 && activateDim != static_cast<int64_t>(x->desc.rank()) - 1)
    return fail(api, kErrParamInvalid,
                fmt::format("activateDim {} is not supported (only the last axis)", activateDim));
  Options o;
  o.activateLeft = activateLeft;
  o.swigluMode = swigluMode;
  o.clampLimit = clampLimit;
  o.gluAlpha = gluAlpha;
  o.gluBias = gluBias;
  return build(kInfoV2,
               {x, weightScaleOptional, activationScaleOptional, biasOptional, quantScaleOptional,
                quantOffsetOptional, groupIndexOptional, quantModeOptional, yOut, scaleOut},
               o, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(DequantSwigluQuantV2)

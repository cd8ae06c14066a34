// aclnnSwiGluQuant / V2 (ops-nn quant/swi_glu_quant docs and kernel): act = silu(A) * B of the
// halves A (first), B of x's last dimension (activateLeft false: A * silu(B)), then per row,
// with the smooth scales of the row's group (groupIndex: cumulative ends, V2 groupListType 1:
// counts; without it, one smooth row for all):
//   "dynamic": t = act * smooth, scale = 127 / max|t| (the multiplier, as the kernel writes it),
//              y = rint(t * scale);
//   "static":  y = rint(act * smooth + offset) (smooth and offsets per tensor or per channel).
// Rows past the last group are left at 0 (scale 0). y int8 (V2 dstType 2); int4 (dstType 29) is
// refused: the simulator's tensors have no 4-bit element type.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "aclnnop/aclnn_swi_glu_quant.h"
#include "aclnnop/aclnn_swi_glu_quant_v2.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpRegistrar kV1({"aclnnSwiGluQuant",
                       ExecUnit::kVector,
                       {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT8},
                       "y = quant(silu(A) * B * smooth[group])"});
const OpRegistrar kV2({"aclnnSwiGluQuantV2",
                       ExecUnit::kVector,
                       {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT8},
                       "y = quant(silu(A) * B * smooth[group])"});

struct SwiGluQuantArgs {
  bool dynamic = true, activateLeft = true, hasSmooth = false, hasOffsets = false, hasGroups = false;
  bool cumulative = true;
  int64_t smoothRows = 1;  // groups of smooth scales (rows of smoothScales)
};

void swigluQuantKernel(const SwiGluQuantArgs& a, const std::vector<HostTensor>& in,
                       const std::vector<HostTensor>& out) {
  const std::vector<float> x = loadDense<float>(in[0]);
  const int64_t H = in[0].shape.back() / 2, rows = H == 0 ? 0 : static_cast<int64_t>(x.size()) / (2 * H);
  size_t next = 1;
  const std::vector<float> smooth = a.hasSmooth ? loadDense<float>(in[next++]) : std::vector<float>();
  const std::vector<float> offsets = a.hasOffsets ? loadDense<float>(in[next++]) : std::vector<float>();
  std::vector<int64_t> ends;
  if (a.hasGroups) {
    ends = loadDense<int64_t>(in[next++]);
    if (!a.cumulative) {
      for (size_t g = 1; g < ends.size(); ++g) ends[g] += ends[g - 1];
    }
  } else {
    ends.assign(1, rows);
  }
  const int64_t perRow = smooth.size() == 1 ? 1 : H;  // per-tensor or per-channel parameters
  std::vector<int64_t> y(static_cast<size_t>(rows * H), 0);
  std::vector<float> scales(static_cast<size_t>(rows), 0.0f);
  std::vector<double> t(static_cast<size_t>(H));
  size_t g = 0;
  for (int64_t r = 0; r < rows; ++r) {
    while (g < ends.size() && r >= ends[g]) ++g;
    if (g >= ends.size()) break;  // past the last group
    const int64_t sg = std::min<int64_t>(static_cast<int64_t>(g), a.smoothRows - 1);
    double m = 0;
    for (int64_t i = 0; i < H; ++i) {
      const double A = x[r * 2 * H + i], B = x[r * 2 * H + H + i];
      const double act = a.activateLeft ? A / (1 + std::exp(-A)) * B : A * (B / (1 + std::exp(-B)));
      const size_t c = static_cast<size_t>(sg * perRow + (perRow == 1 ? 0 : i));
      t[i] = act * (a.hasSmooth ? smooth[c] : 1.0f) + (!a.dynamic && a.hasOffsets ? offsets[c] : 0.0f);
      m = std::max(m, std::fabs(t[i]));
    }
    const double s = a.dynamic ? (m > 0 ? 127.0 / m : 0.0) : 1.0;
    if (a.dynamic) scales[r] = static_cast<float>(s);
    for (int64_t i = 0; i < H; ++i)
      y[r * H + i] = static_cast<int64_t>(std::clamp(std::nearbyint(t[i] * s), -128.0, 127.0));
  }
  storeDense(out[0], y.data());
  if (a.dynamic) storeDense(out[1], scales.data());
}

int32_t buildSwiGluQuant(const char* api, const char* name, const aclTensor* x, const aclTensor* smooth,
                         const aclTensor* offsets, const aclTensor* groupIndex, bool activateLeft,
                         const char* quantMode, int64_t groupListType, int64_t dstType, const aclTensor* y,
                         const aclTensor* scale, uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "x", x, {ACL_FLOAT16, ACL_BF16, ACL_FLOAT})) != kSuccess) return st;
  if ((st = require(api, x->desc.rank() >= 2 && x->desc.shape.back() % 2 == 0,
                    fmt::format("x {} must have >= 2 dimensions and an even last one",
                                shapeString(x->desc.shape)))) != kSuccess) {
    return st;
  }
  if (quantMode == nullptr) return fail(api, kErrParamNullptr, "quantModeOptional is null");
  const std::string mode(quantMode);
  if ((st = require(api, mode == "dynamic" || mode == "static",
                    fmt::format("quantMode \"{}\" must be \"dynamic\" or \"static\"", mode))) != kSuccess) {
    return st;
  }
  if ((st = require(
           api, dstType == ACL_INT8,
           fmt::format("dstType {} is not supported (only 2, int8: the simulator has no int4 element type)",
                       dstType))) != kSuccess) {
    return st;
  }
  if ((st = require(api, groupListType == 0 || groupListType == 1,
                    fmt::format("groupListType {} must be 0 (cumsum) or 1 (count)", groupListType))) !=
      kSuccess) {
    return st;
  }
  const int64_t H = x->desc.shape.back() / 2;
  std::vector<int64_t> yShape = x->desc.shape, rowShape(x->desc.shape.begin(), x->desc.shape.end() - 1);
  yShape.back() = H;
  if ((st = checkArg(api, "yOut", y, {ACL_INT8})) != kSuccess) return st;
  if ((st = checkShape(api, "yOut", y->desc.shape, yShape)) != kSuccess) return st;
  SwiGluQuantArgs a;
  a.dynamic = mode == "dynamic";
  a.activateLeft = activateLeft;
  a.cumulative = groupListType == 0;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = name;
  addInput(*inst, "x", x);
  if (smooth != nullptr) {
    if ((st = checkArg(api, "smoothScalesOptional", smooth, {ACL_FLOAT})) != kSuccess) return st;
    const int64_t n = smooth->desc.numel();
    a.smoothRows = smooth->desc.rank() == 2 ? smooth->desc.shape[0] : 1;
    if ((st = require(api, n == 1 || n == a.smoothRows * H,
                      fmt::format("smoothScales {} must hold 1 value or {} per group",
                                  shapeString(smooth->desc.shape), H))) != kSuccess) {
      return st;
    }
    addInput(*inst, "smoothScalesOptional", smooth);
    a.hasSmooth = true;
  }
  if (offsets != nullptr) {
    if ((st = checkArg(api, "offsetsOptional", offsets, {ACL_FLOAT})) != kSuccess) return st;
    if ((st = require(api, smooth != nullptr && offsets->desc.numel() == smooth->desc.numel(),
                      "offsetsOptional needs smoothScales of the same size")) != kSuccess) {
      return st;
    }
    addInput(*inst, "offsetsOptional", offsets);
    a.hasOffsets = true;
  }
  if (groupIndex != nullptr) {
    if ((st = checkArg(api, "groupIndexOptional", groupIndex, {ACL_INT32, ACL_INT64}, 1)) != kSuccess)
      return st;
    addInput(*inst, "groupIndexOptional", groupIndex);
    a.hasGroups = true;
  }
  addOutput(*inst, "yOut", y);
  if (a.dynamic) {
    if ((st = checkArg(api, "scaleOut", scale, {ACL_FLOAT})) != kSuccess) return st;
    if ((st = checkShape(api, "scaleOut", scale->desc.shape, rowShape)) != kSuccess) return st;
    addOutput(*inst, "scaleOut", scale);
  }
  inst->vectorPasses = 7;  // exp, add, divide, multiply, smooth, max, quantise
  inst->kernel = [a](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    swigluQuantKernel(a, in, out);
  };
  inst->attrs = fmt::format("quantMode={} activateLeft={}", mode, activateLeft);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnSwiGluQuantGetWorkspaceSize(
    const aclTensor* x, const aclTensor* smoothScalesOptional, const aclTensor* offsetsOptional,
    const aclTensor* groupIndexOptional, bool activateLeft, char* quantModeOptional, const aclTensor* yOut,
    const aclTensor* scaleOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  return buildSwiGluQuant("aclnnSwiGluQuantGetWorkspaceSize", "aclnnSwiGluQuant", x, smoothScalesOptional,
                          offsetsOptional, groupIndexOptional, activateLeft, quantModeOptional, 0, ACL_INT8,
                          yOut, scaleOut, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnSwiGluQuantV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* smoothScalesOptional, const aclTensor* offsetsOptional,
    const aclTensor* groupIndexOptional, bool activateLeft, char* quantModeOptional, int64_t groupListType,
    int64_t dstType, const aclTensor* yOut, const aclTensor* scaleOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  return buildSwiGluQuant("aclnnSwiGluQuantV2GetWorkspaceSize", "aclnnSwiGluQuantV2", x, smoothScalesOptional,
                          offsetsOptional, groupIndexOptional, activateLeft, quantModeOptional, groupListType,
                          dstType, yOut, scaleOut, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(SwiGluQuant)
NPUSIM_ACLNN_PHASE2(SwiGluQuantV2)

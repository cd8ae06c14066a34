// aclnnRotateQuant (ops-nn matmul/rotate_quant/docs/aclnnRotateQuant.md), the Atlas A2 (INT) form:
// x [m, n] fp16/bf16 is rotated block by block, Y = (x.reshape(*, k) @ rotation).reshape(m, n)
// with rotation [k, k] of x's type (n a multiple of k); if alpha (bf16 [1]) lies in (0, 1), each
// group of 32 values of a row is clamped to ±alpha·max|group|; then each row is quantised
// symmetrically: s_i = max_j |Y_ij| / C (C = 127 for int8 yOut, 7 for int4 packed eight to an
// int32 yOut [m, n / 8]), y_ij = round(Y_ij / s_i) with roundMode "rint", "round" or "floor";
// scaleOut [m] fp32 holds s_i. Y stays in fp32 between the cube and the vector unit (the doc does
// not say otherwise). axis must be -1 and trans false (the only values the header allows);
// scaleAlg and dstTypeMax concern the MX formats (Ascend 950), which are 161002 here.
// Cost: the cube's (m·n/k) x k x k product, one vector pass over Y in fp32 for the row maxima and
// the division, y and scaleOut written once.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "aclnnop/aclnn_rotate_quant.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/matmul.h"
#include "runtime/aclnn/ops/matmul_geometry.h"
#include "runtime/aclnn/ops/matmul_tiling.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/quant_format.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnRotateQuant",
                   ExecUnit::kCube,
                   {ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT32, ACL_FLOAT},
                   "y = quant_per_row(clamp((x.reshape(*, k) @ rotation).reshape(m, n)))"};
const OpRegistrar kRegistrar(kInfo);

constexpr int64_t kClampGroup = 32;

// inputs: x (dense [m, n] copy read as [m·n/k, k]), rotation, then alpha if given;
// outputs: yOut, scaleOut.
class RotateQuantInstance : public OpInstanceBase<RotateQuantInstance> {
 public:
  int64_t m = 0, n = 0, k = 0;
  QuantFormat format;
  RoundMode mode = RoundMode::kRint;
  bool hasAlpha = false;

  rt::OpWork work() const override {
    MatmulGeometry g;
    const std::vector<int64_t> rows = {m * n / k, k}, dense = {k, 1};
    matmulGeometry(rows, dense, inputs[1].shape, inputs[1].strides, dense, &g);
    const MatmulTiling t = planMatmul(1, g.M, g.N, g.K, 2, rt::coreRates().cubeCores);
    auto base = [](const TensorDesc& d) {
      return d.data + static_cast<uint64_t>(d.offset) * d.elementSize();
    };
    // The product is stored at the quantised size (int8 here, the int4 words a little less).
    rt::OpWork w =
        matmulWork(t, g, MatmulAddressing{base(inputs[0]), base(inputs[1]), base(outputs[0]), 2, 2, 1, 1});
    const uint64_t yFp32 = static_cast<uint64_t>(m * n) * 4, scales = static_cast<uint64_t>(m) * 4;
    for (size_t i = 0; i < w.tiles.size(); ++i) {
      w.tiles[i].vectorBytes += shareOf(yFp32, i, w.tiles.size());
      w.tiles[i].writeBytes += shareOf(scales, i, w.tiles.size());
    }
    return w;
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    std::vector<float> x = loadDense<float>(in[0]);
    std::vector<float> y(x.size());
    const MatmulSpec spec{in[0].dtype == ACL_BF16 ? CubeInput::kBf16 : CubeInput::kF16, ACL_FLOAT};
    HostTensor rows = hostTensor(ACL_FLOAT, {m * n / k, k}, x.data());
    matmulKernel(spec, rows, in[1], hostTensor(ACL_FLOAT, {m * n / k, k}, y.data()));
    const float alpha = hasAlpha ? loadDense<float>(in[2])[0] : 0.0f;
    std::vector<double> q(y.size());
    std::vector<float> scale(static_cast<size_t>(m));
    for (int64_t i = 0; i < m; ++i) {
      float* row = &y[static_cast<size_t>(i * n)];
      if (alpha > 0.0f && alpha < 1.0f) {
        for (int64_t g0 = 0; g0 < n; g0 += kClampGroup) {
          const int64_t g1 = std::min(n, g0 + kClampGroup);
          float mx = 0;
          for (int64_t j = g0; j < g1; ++j) mx = std::max(mx, std::fabs(row[j]));
          const float limit = alpha * mx;
          for (int64_t j = g0; j < g1; ++j) row[j] = std::clamp(row[j], -limit, limit);
        }
      }
      float mx = 0;
      for (int64_t j = 0; j < n; ++j) mx = std::max(mx, std::fabs(row[j]));
      const float s = mx / static_cast<float>(format.maxValue());
      scale[static_cast<size_t>(i)] = s;
      for (int64_t j = 0; j < n; ++j) q[static_cast<size_t>(i * n + j)] = s > 0 ? row[j] / s : 0.0;
    }
    const std::vector<int64_t> packed = packQuantized(q, format, mode);
    storeDense(out[0], packed.data());
    storeDense(out[1], scale.data());
  }
};

int32_t build(const aclTensor* x, const aclTensor* rotation, const aclTensor* alpha, int64_t axis,
              const char* roundMode, int64_t scaleAlg, bool trans, const aclTensor* yOut,
              const aclTensor* scaleOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnRotateQuantGetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x", x}, {"rotation", rotation}, {"yOut", yOut}, {"scaleOut", scaleOut}});
  if (st != kSuccess) return st;
  const std::pair<const char*, const aclTensor*> all[] = {
      {"x", x}, {"rotation", rotation}, {"yOut", yOut}, {"scaleOut", scaleOut}};
  for (const auto& [name, t] : all) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  const aclDataType xt = x->desc.dtype;
  if ((xt != ACL_FLOAT16 && xt != ACL_BF16) || rotation->desc.dtype != xt) {
    return fail(api, kErrParamInvalid,
                fmt::format("x and rotation must both be fp16 or both bf16, but are {} and {}", dtypeName(xt),
                            dtypeName(rotation->desc.dtype)));
  }
  if (axis != -1) return fail(api, kErrParamInvalid, fmt::format("axis must be -1, but is {}", axis));
  if (trans) return fail(api, kErrParamInvalid, "trans must be false");
  RoundMode mode;
  if (!parseRoundMode(roundMode, &mode) ||
      (mode != RoundMode::kRint && mode != RoundMode::kRound && mode != RoundMode::kFloor)) {
    return fail(api, kErrParamInvalid,
                fmt::format("roundMode must be \"rint\", \"round\" or \"floor\", but is \"{}\"",
                            roundMode != nullptr ? roundMode : "(null)"));
  }
  if (scaleAlg < 0 || scaleAlg > 2) {
    return fail(api, kErrParamInvalid, fmt::format("scaleAlg must be 0, 1 or 2, but is {}", scaleAlg));
  }
  QuantFormat format;
  if (yOut->desc.dtype != ACL_INT8 && yOut->desc.dtype != ACL_INT32) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("yOut must be int8 or int32 (int4 packed) on Atlas A2; {} (the MX formats) is not "
                    "supported by the simulator",
                    dtypeName(yOut->desc.dtype)));
  }
  quantFormatOf(yOut->desc.dtype, &format);
  if (x->desc.rank() != 2 || rotation->desc.rank() != 2) {
    return fail(api, kErrParamInvalid, "x and rotation must be 2-dimensional");
  }
  const int64_t m = x->desc.shape[0], n = x->desc.shape[1], k = rotation->desc.shape[0];
  if (rotation->desc.shape[1] != k || k == 0 || n % k != 0) {
    return fail(api, kErrParamInvalid,
                fmt::format("rotation {} must be square [k, k] with k dividing x's last dimension {}",
                            shapeString(rotation->desc.shape), n));
  }
  if (format.bits == 4 && n % 8 != 0) {
    return fail(api, kErrParamInvalid, fmt::format("an int4 yOut needs n = {} to be a multiple of 8", n));
  }
  if ((st = checkShape(api, "yOut", yOut->desc.shape, {m, n / format.perElement()})) != kSuccess) return st;
  if (scaleOut->desc.dtype != ACL_FLOAT) {
    return fail(api, kErrParamInvalid,
                fmt::format("scaleOut must be fp32, but is {}", dtypeName(scaleOut->desc.dtype)));
  }
  if ((st = checkShape(api, "scaleOut", scaleOut->desc.shape, {m})) != kSuccess) return st;
  if (alpha != nullptr) {
    if ((st = checkTensor(api, "alpha", alpha->desc)) != kSuccess) return st;
    if (alpha->desc.dtype != ACL_BF16 || alpha->desc.numel() != 1) {
      return fail(api, kErrParamInvalid,
                  fmt::format("alpha must be a bf16 [1] tensor, but is {}", alpha->desc.brief()));
    }
  }
  auto inst = std::make_unique<RotateQuantInstance>();
  inst->name = "aclnnRotateQuant";
  inst->m = m;
  inst->n = n;
  inst->k = k;
  inst->format = format;
  inst->mode = mode;
  inst->inputs = {x->desc, rotation->desc};
  inst->inputNames = {"x", "rotation"};
  if (alpha != nullptr) {
    inst->hasAlpha = true;
    inst->inputs.push_back(alpha->desc);
    inst->inputNames.emplace_back("alpha");
  }
  inst->outputs = {yOut->desc, scaleOut->desc};
  inst->outputNames = {"yOut", "scaleOut"};
  inst->outputAlias = {-1, -1};
  inst->attrs = fmt::format("roundMode={}", roundMode);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnRotateQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* rotation,
                                                        const aclTensor* alpha, int64_t axis, char* roundMode,
                                                        int64_t scaleAlg, double dstTypeMax, bool trans,
                                                        aclTensor* yOut, aclTensor* scaleOut,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)dstTypeMax;  // the MX formats only; the INT forms do not check it (header comment)
  return npusim::aclnn::build(x, rotation, alpha, axis, roundMode, scaleAlg, trans, yOut, scaleOut,
                              workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(RotateQuant)

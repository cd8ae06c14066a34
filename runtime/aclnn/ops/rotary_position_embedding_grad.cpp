// aclnnRotaryPositionEmbeddingGrad (ops-transformer posembedding/rotary_position_embedding_grad
// docs): the backward of out = x * cos + R(x) * sin over the last dimension D, R the rotation of
// `mode` (0 half [-x2, x1], 1 interleave (a, b) -> (-b, a), 2 quarter [-x2, x1, -x4, x3]):
//   dx = dy * cos + R^T(dy * sin),   R^T the transpose (half: [v2, -v1]; interleave (v0, v1) ->
//   (v1, -v0)); with x given, dcos = sum(dy * x) and dsin = sum(dy * R(x)) over the dimensions
//   cos and sin are broadcast along. dy 4-D, cos and sin broadcastable to it; fp32/fp16/bf16
//   (computed in fp32). Mode 3 (interleave-half) is refused with 161002.
#include <fmt/format.h>

#include "aclnnop/aclnn_rotary_position_embedding_grad.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpRegistrar kInfo({"aclnnRotaryPositionEmbeddingGrad",
                         ExecUnit::kVector,
                         {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                         "dx = dy * cos + R^T(dy * sin); dcos = sum(dy * x); dsin = sum(dy * R(x))"});

// R(v) (transpose = false) or R^T(v) of one row of D values.
void rotate(int64_t mode, bool transpose, const float* v, float* r, int64_t D) {
  if (mode == 1) {
    for (int64_t i = 0; i + 1 < D; i += 2) {
      r[i] = transpose ? v[i + 1] : -v[i + 1];
      r[i + 1] = transpose ? -v[i] : v[i];
    }
    return;
  }
  const int64_t part = mode == 0 ? D / 2 : D / 4;
  for (int64_t base = 0; base + 2 * part <= D; base += 2 * part) {
    for (int64_t i = 0; i < part; ++i) {
      r[base + i] = transpose ? v[base + part + i] : -v[base + part + i];
      r[base + part + i] = transpose ? -v[base + i] : v[base + i];
    }
  }
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnRotaryPositionEmbeddingGradGetWorkspaceSize(
    const aclTensor* dy, const aclTensor* cos, const aclTensor* sin, const aclTensor* xOptional, int64_t mode,
    const aclTensor* dxOut, const aclTensor* dcosOut, const aclTensor* dsinOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  const char* api = "aclnnRotaryPositionEmbeddingGradGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "dy", dy, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, 4)) != kSuccess) return st;
  const aclDataType dt = dy->desc.dtype;
  if ((st = checkArg(api, "cos", cos, {dt}, 4)) != kSuccess) return st;
  if ((st = checkArg(api, "sin", sin, {dt}, 4)) != kSuccess) return st;
  if ((st = checkArg(api, "dxOut", dxOut, {dt})) != kSuccess) return st;
  if ((st = require(api, mode >= 0 && mode <= 2,
                    fmt::format("mode {} is not supported (0 half, 1 interleave, 2 quarter)", mode))) !=
      kSuccess) {
    return st;
  }
  const std::vector<int64_t>& ys = dy->desc.shape;
  const int64_t D = ys[3];
  if ((st = require(api, D % (mode == 2 ? 4 : 2) == 0, "the last dimension does not split for this mode")) !=
      kSuccess) {
    return st;
  }
  if ((st = checkShape(api, "sin", sin->desc.shape, cos->desc.shape)) != kSuccess) return st;
  const std::vector<int64_t>& cs = cos->desc.shape;
  bool broadcast = cs[3] == D;
  for (int d = 0; d < 3 && broadcast; ++d) broadcast = cs[d] == 1 || cs[d] == ys[d];
  if ((st = require(api, broadcast,
                    fmt::format("cos {} does not broadcast to dy {}", shapeString(cs), shapeString(ys)))) !=
      kSuccess) {
    return st;
  }
  if ((st = checkShape(api, "dxOut", dxOut->desc.shape, ys)) != kSuccess) return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnRotaryPositionEmbeddingGrad";
  addInput(*inst, "dy", dy);
  addInput(*inst, "cos", cos);
  addInput(*inst, "sin", sin);
  // The cos/sin gradients need x; empty outputs (as the public example passes) ask for none.
  const bool grads =
      xOptional != nullptr && dcosOut != nullptr && dsinOut != nullptr && dcosOut->desc.numel() > 0;
  if (grads) {
    if ((st = checkArg(api, "xOptional", xOptional, {dt})) != kSuccess) return st;
    if ((st = checkShape(api, "xOptional", xOptional->desc.shape, ys)) != kSuccess) return st;
    if ((st = checkArg(api, "dcosOut", dcosOut, {dt})) != kSuccess) return st;
    if ((st = checkArg(api, "dsinOut", dsinOut, {dt})) != kSuccess) return st;
    if ((st = checkShape(api, "dcosOut", dcosOut->desc.shape, cs)) != kSuccess) return st;
    if ((st = checkShape(api, "dsinOut", dsinOut->desc.shape, cs)) != kSuccess) return st;
    addInput(*inst, "xOptional", xOptional);
  }
  addOutput(*inst, "dxOut", dxOut);
  if (grads) {
    addOutput(*inst, "dcosOut", dcosOut);
    addOutput(*inst, "dsinOut", dsinOut);
  }
  inst->vectorPasses = grads ? 8 : 4;
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> g = loadDense<float>(in[0]), c = loadDense<float>(in[1]),
                             s = loadDense<float>(in[2]);
    const std::vector<float> x = grads ? loadDense<float>(in[3]) : std::vector<float>();
    const std::vector<int64_t>& shape = in[0].shape;
    const std::vector<int64_t>& cshape = in[1].shape;
    const int64_t rows = D == 0 ? 0 : static_cast<int64_t>(g.size()) / D;
    std::vector<float> dx(g.size()), dcos(c.size(), 0.0f), dsin(c.size(), 0.0f), gs(static_cast<size_t>(D)),
        r(static_cast<size_t>(D));
    for (int64_t row = 0; row < rows; ++row) {
      int64_t rem = row, cRow = 0, stride = 1;
      for (int d = 2; d >= 0; --d) {
        const int64_t idx = rem % shape[d];
        rem /= shape[d];
        cRow += (cshape[d] == 1 ? 0 : idx) * stride;
        stride *= cshape[d];
      }
      const float* gy = g.data() + row * D;
      for (int64_t i = 0; i < D; ++i) gs[i] = gy[i] * s[cRow * D + i];
      rotate(mode, true, gs.data(), r.data(), D);
      for (int64_t i = 0; i < D; ++i) dx[row * D + i] = gy[i] * c[cRow * D + i] + r[i];
      if (!grads) continue;
      rotate(mode, false, x.data() + row * D, r.data(), D);
      for (int64_t i = 0; i < D; ++i) {
        dcos[cRow * D + i] += gy[i] * x[row * D + i];
        dsin[cRow * D + i] += gy[i] * r[i];
      }
    }
    storeDense(out[0], dx.data());
    if (grads) {
      storeDense(out[1], dcos.data());
      storeDense(out[2], dsin.data());
    }
  };
  inst->attrs = fmt::format("mode={}", mode);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(RotaryPositionEmbeddingGrad)

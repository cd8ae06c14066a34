// aclnnApplyRotaryPosEmb / V2 (ops-transformer posembedding/apply_rotary_pos_emb docs): query
// and key rotated in place, x = x * cos + rotate(x) * sin over the last dimension D, cos and sin
// broadcast to each ([B, S, 1, D] for the BSND layout). rotate: "half" [-x2, x1] (V1 always),
// "quarter" [-x2, x1, -x4, x3], "interleave" pairs (a, b) -> (-b, a). fp16, bf16, fp32
// (computed in fp32). Layout 1 (BSND) as the doc supports; others are refused (161002).
#include <fmt/format.h>

#include <string>

#include "aclnnop/aclnn_apply_rotary_pos_emb.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb_v2.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpRegistrar kV1({"aclnnApplyRotaryPosEmb",
                       ExecUnit::kVector,
                       {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                       "q, k = x * cos + rotate_half(x) * sin, in place"});
const OpRegistrar kV2({"aclnnApplyRotaryPosEmbV2",
                       ExecUnit::kVector,
                       {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                       "q, k = x * cos + rotate(x) * sin, in place"});

enum class Rotation { kHalf, kQuarter, kInterleave };

// rotate(x) of one row of D values.
void rotateRow(Rotation r, const float* x, float* out, int64_t D) {
  if (r == Rotation::kInterleave) {
    for (int64_t i = 0; i + 1 < D; i += 2) {
      out[i] = -x[i + 1];
      out[i + 1] = x[i];
    }
    return;
  }
  const int64_t part = r == Rotation::kHalf ? D / 2 : D / 4;
  for (int64_t base = 0; base + 2 * part <= D; base += 2 * part) {
    for (int64_t i = 0; i < part; ++i) {
      out[base + i] = -x[base + part + i];
      out[base + part + i] = x[base + i];
    }
  }
}

// x (rank 4) rotated with cos/sin broadcast to its shape.
void applyRope(Rotation r, const HostTensor& x, const HostTensor& cosT, const HostTensor& sinT) {
  std::vector<float> v = loadDense<float>(x);
  const std::vector<float> c = loadDense<float>(cosT), s = loadDense<float>(sinT);
  const std::vector<int64_t>& xs = x.shape;
  const std::vector<int64_t>& cs = cosT.shape;
  const int64_t D = xs[3], rows = D == 0 ? 0 : x.numel() / D;
  std::vector<float> rot(static_cast<size_t>(D));
  for (int64_t row = 0; row < rows; ++row) {
    // Index of this row's cos/sin row: the row's coordinates with broadcast dimensions at 0.
    int64_t rem = row, cRow = 0, stride = 1;
    for (int d = 2; d >= 0; --d) {
      const int64_t idx = rem % xs[d];
      rem /= xs[d];
      cRow += (cs[d] == 1 ? 0 : idx) * stride;
      stride *= cs[d];
    }
    float* p = v.data() + row * D;
    rotateRow(r, p, rot.data(), D);
    for (int64_t i = 0; i < D; ++i) p[i] = p[i] * c[cRow * D + i] + rot[i] * s[cRow * D + i];
  }
  storeDense(x, v.data());
}

int32_t buildRope(const char* api, const char* name, aclTensor* q, aclTensor* k, const aclTensor* cosT,
                  const aclTensor* sinT, int64_t layout, Rotation r, uint64_t* workspaceSize,
                  aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  const std::initializer_list<aclDataType> floats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  if ((st = checkArg(api, "queryRef", q, floats, 4)) != kSuccess) return st;
  const aclDataType dt = q->desc.dtype;
  if ((st = checkArg(api, "keyRef", k, {dt}, 4)) != kSuccess) return st;
  if ((st = checkArg(api, "cos", cosT, {dt}, 4)) != kSuccess) return st;
  if ((st = checkArg(api, "sin", sinT, {dt}, 4)) != kSuccess) return st;
  if ((st = require(api, layout == 1,
                    fmt::format("layout {} is not supported (only 1, BSND, as documented)", layout))) !=
      kSuccess) {
    return st;
  }
  const int64_t D = q->desc.shape[3];
  const int64_t quantum = r == Rotation::kQuarter ? 4 : 2;
  if ((st = require(api, D % quantum == 0 && k->desc.shape[3] == D,
                    fmt::format("query and key need the same last dimension, a multiple of {}", quantum))) !=
      kSuccess) {
    return st;
  }
  if ((st = checkShape(api, "sin", sinT->desc.shape, cosT->desc.shape)) != kSuccess) return st;
  for (const aclTensor* x : {q, k}) {
    const std::vector<int64_t>& cs = cosT->desc.shape;
    bool ok = cs[3] == D;
    for (int d = 0; d < 3 && ok; ++d) ok = cs[d] == 1 || cs[d] == x->desc.shape[d];
    if ((st = require(api, ok,
                      fmt::format("cos {} does not broadcast to {}", shapeString(cs),
                                  shapeString(x->desc.shape)))) != kSuccess) {
      return st;
    }
  }
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = name;
  addInput(*inst, "queryRef", q);
  addInput(*inst, "keyRef", k);
  addInput(*inst, "cos", cosT);
  addInput(*inst, "sin", sinT);
  addOutput(*inst, "queryRef", q, 0);
  addOutput(*inst, "keyRef", k, 1);
  inst->vectorPasses = 4;  // rotate, two multiplies, add
  inst->kernel = [r](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    applyRope(r, out[0], in[2], in[3]);
    applyRope(r, out[1], in[2], in[3]);
  };
  inst->attrs = fmt::format("layout={}", layout);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnApplyRotaryPosEmbGetWorkspaceSize(aclTensor* queryRef, aclTensor* keyRef,
                                                              const aclTensor* cos, const aclTensor* sin,
                                                              int64_t layout, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  return buildRope("aclnnApplyRotaryPosEmbGetWorkspaceSize", "aclnnApplyRotaryPosEmb", queryRef, keyRef, cos,
                   sin, layout, Rotation::kHalf, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnApplyRotaryPosEmbV2GetWorkspaceSize(aclTensor* queryRef, aclTensor* keyRef,
                                                                const aclTensor* cos, const aclTensor* sin,
                                                                int64_t layout, char* rotaryMode,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnApplyRotaryPosEmbV2GetWorkspaceSize";
  if (rotaryMode == nullptr) return fail(api, kErrParamNullptr, "rotaryMode is null");
  const std::string mode(rotaryMode);
  Rotation r;
  if (mode == "half") {
    r = Rotation::kHalf;
  } else if (mode == "quarter") {
    r = Rotation::kQuarter;
  } else if (mode == "interleave") {
    r = Rotation::kInterleave;
  } else {
    return fail(api, kErrParamInvalid,
                fmt::format("rotaryMode \"{}\" must be half, quarter or interleave", mode));
  }
  return buildRope(api, "aclnnApplyRotaryPosEmbV2", queryRef, keyRef, cos, sin, layout, r, workspaceSize,
                   executor);
}

NPUSIM_ACLNN_PHASE2(ApplyRotaryPosEmb)
NPUSIM_ACLNN_PHASE2(ApplyRotaryPosEmbV2)

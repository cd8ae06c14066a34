// aclnnRotaryPositionEmbedding (ops-transformer posembedding/rotary_position_embedding/docs/
// aclnnRotaryPositionEmbedding.md): out = x * cos + rotate(x) * sin over the last dimension D,
// with x 4-D and cos/sin broadcast to it (e.g. [1,S,1,D] for BSND). rotate by mode:
// 0 half: [-x2, x1] of the two halves; 1 interleave: pairs (a, b) -> (-b, a);
// 2 quarter: [-x2, x1, -x4, x3] of the four quarters; 3 interleave-half: x is first
// de-interleaved (even positions, then odd), then treated as in half mode.
#include <fmt/format.h>

#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/strided_loop.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnRotaryPositionEmbedding",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                   "out = x * cos + rotate(x) * sin"};
const OpRegistrar kRegistrar(kInfo);

constexpr int64_t kMaxD = 1024;

// cos or sin viewed with x's shape (stride 0 along broadcast dimensions).
HostTensor expandTo(const HostTensor& t, const std::vector<int64_t>& shape) {
  HostTensor e = t;
  e.shape = shape;
  e.strides.assign(shape.size(), 0);
  for (size_t i = 0; i < shape.size(); ++i) e.strides[i] = t.shape[i] == 1 ? 0 : t.strides[i];
  return e;
}

void rotate(int64_t mode, const float* x, float* r, int64_t D) {
  const int64_t h = D / 2, q = D / 4;
  switch (mode) {
    case 0:
    case 3:  // x already de-interleaved for mode 3
      for (int64_t i = 0; i < h; ++i) {
        r[i] = -x[i + h];
        r[i + h] = x[i];
      }
      return;
    case 1:
      for (int64_t i = 0; i < h; ++i) {
        r[2 * i] = -x[2 * i + 1];
        r[2 * i + 1] = x[2 * i];
      }
      return;
    default:
      for (int64_t i = 0; i < q; ++i) {
        r[i] = -x[i + q];
        r[i + q] = x[i];
        r[i + 2 * q] = -x[i + 3 * q];
        r[i + 3 * q] = x[i + 2 * q];
      }
      return;
  }
}

class RopeInstance : public OpInstanceBase<RopeInstance> {
 public:
  int64_t mode = 0;

  rt::OpWork work() const override {
    // Rotate, two multiplies, one add.
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), 3});
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    std::vector<float> x = loadDense<float>(in[0]);
    const std::vector<float> c = loadDense<float>(expandTo(in[1], in[0].shape));
    const std::vector<float> s = loadDense<float>(expandTo(in[2], in[0].shape));
    const int64_t D = in[0].shape.back(), rows = D == 0 ? 0 : static_cast<int64_t>(x.size()) / D;
    float xin[kMaxD], rot[kMaxD];
    for (int64_t r = 0; r < rows; ++r) {
      float* p = x.data() + r * D;
      if (mode == 3) {  // even positions first, then odd
        for (int64_t i = 0; i < D / 2; ++i) {
          xin[i] = p[2 * i];
          xin[i + D / 2] = p[2 * i + 1];
        }
      } else {
        std::copy_n(p, D, xin);
      }
      rotate(mode, xin, rot, D);
      const float* cr = c.data() + r * D;
      const float* sr = s.data() + r * D;
      for (int64_t i = 0; i < D; ++i) p[i] = xin[i] * cr[i] + rot[i] * sr[i];
    }
    storeDense(out[0], x.data());
  }
};

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnRotaryPositionEmbeddingGetWorkspaceSize(const aclTensor* x, const aclTensor* cos,
                                                                    const aclTensor* sin, int64_t mode,
                                                                    aclTensor* out, uint64_t* workspaceSize,
                                                                    aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnRotaryPositionEmbeddingGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x", x}, {"cos", cos}, {"sin", sin}, {"out", out}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"x", x}, {"cos", cos}, {"sin", sin}, {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kInfo)) != kSuccess) return st;
    if (t->desc.dtype != x->desc.dtype) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} type {} differs from x type {}", name, dtypeName(t->desc.dtype),
                              dtypeName(x->desc.dtype)));
    }
  }
  if (mode < 0 || mode > 3) {
    return fail(api, kErrParamInvalid, fmt::format("mode must be 0, 1, 2 or 3, but is {}", mode));
  }
  const auto& xs = x->desc.shape;
  if (xs.size() != 4) {
    return fail(api, kErrParamInvalid, fmt::format("x must be 4-dimensional, but is {}", shapeString(xs)));
  }
  const int64_t D = xs[3];
  if (D > kMaxD || D % (mode == 2 ? 4 : 2) != 0) {
    return fail(api, kErrParamInvalid,
                fmt::format("D = {} must be at most {} and divisible by {} in mode {}", D, kMaxD,
                            mode == 2 ? 4 : 2, mode));
  }
  if (cos->desc.shape != sin->desc.shape) {
    return fail(api, kErrParamInvalid,
                fmt::format("cos shape {} and sin shape {} differ", shapeString(cos->desc.shape),
                            shapeString(sin->desc.shape)));
  }
  bool ok = cos->desc.rank() == 4 && cos->desc.shape[3] == D;
  for (size_t i = 0; ok && i < 3; ++i) ok = cos->desc.shape[i] == 1 || cos->desc.shape[i] == xs[i];
  if (!ok) {
    return fail(api, kErrParamInvalid,
                fmt::format("cos/sin shape {} does not broadcast to x shape {} with the same D",
                            shapeString(cos->desc.shape), shapeString(xs)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, xs)) != kSuccess) return st;
  auto inst = std::make_unique<RopeInstance>();
  inst->name = "aclnnRotaryPositionEmbedding";
  inst->mode = mode;
  addInput(*inst, "x", x);
  addInput(*inst, "cos", cos);
  addInput(*inst, "sin", sin);
  addOutput(*inst, "out", out);
  inst->attrs = fmt::format("mode={}", mode);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(RotaryPositionEmbedding)

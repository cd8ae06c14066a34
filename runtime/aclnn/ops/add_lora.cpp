// aclnnAddLora (ops-math math/add_lora, issue 28): each row b of x goes through the LoRA pair its
// index picks, and the result is added to a slice of y, from its doc:
//   z1 = x[b] · weightA[i, layerIdx]ᵀ   (weightA [loras, layers, R, H1]; skipped when absent: z1 = x[b])
//   z2 = z1 · weightB[i, layerIdx]ᵀ · scale   (weightB [loras, layers, H2, R], H2 = ySliceSize)
//   out[b, yOffset + o] = y[b, yOffset + o] + z2[o], out elsewhere = y,
// i = indices[b]; a row whose index is outside [0, loras) is not updated. fp16 tensors, int32
// indices; z1 rounded to fp32 as the cube leaves it, out rounded once. Cost: every operand read
// and out written once, with min(R, 64) vector passes over out for the two rank-R products.
#include <fmt/format.h>

#include <vector>

#include "aclnnop/aclnn_add_lora.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

class AddLoraInstance : public OpInstanceBase<AddLoraInstance> {
 public:
  int64_t layerIdx = 0, yOffset = 0, ySliceSize = 0;
  double scale = 1;
  bool hasA = false;

  rt::OpWork work() const override {
    const int64_t r = inputs[2].shape[3];
    return vectorTiles(
        VectorPass{&inputs, &outputs[0], outputs[0].numel(), static_cast<int>(std::min<int64_t>(r, 64))});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const HostTensor &y = in[0], &x = in[1], &wb = in[2], &idx = in[3];
    const int64_t B = y.shape[0], H3 = y.shape[1], H1 = x.shape[1], loras = wb.shape[0], layers = wb.shape[1];
    const int64_t H2 = wb.shape[2], R = wb.shape[3];
    std::vector<double> vy = loadWide(y, y.shape);
    const std::vector<double> vx = loadWide(x, x.shape), vb = loadWide(wb, wb.shape),
                              va = hasA ? loadWide(in[4], in[4].shape) : std::vector<double>();
    std::vector<int64_t> vi(static_cast<size_t>(B));
    copyView(idx, hostTensor(ACL_INT64, idx.shape, vi.data()));
    std::vector<double> z1(static_cast<size_t>(R));
    for (int64_t b = 0; b < B; ++b) {
      const int64_t i = vi[static_cast<size_t>(b)];
      if (i < 0 || i >= loras) continue;
      const size_t slab = static_cast<size_t>(i * layers + layerIdx);
      for (int64_t r = 0; r < R; ++r) {
        double s = 0;
        if (!hasA) {
          s = vx[static_cast<size_t>(b * H1 + r)];
        } else {
          for (int64_t h = 0; h < H1; ++h)
            s += vx[static_cast<size_t>(b * H1 + h)] *
                 va[slab * static_cast<size_t>(R * H1) + static_cast<size_t>(r * H1 + h)];
        }
        z1[static_cast<size_t>(r)] =
            static_cast<float>(s);  // the first matmul's result, as the cube leaves it
      }
      for (int64_t o = 0; o < std::min(H2, ySliceSize); ++o) {
        double s = 0;
        for (int64_t r = 0; r < R; ++r)
          s += z1[static_cast<size_t>(r)] *
               vb[slab * static_cast<size_t>(H2 * R) + static_cast<size_t>(o * R + r)];
        vy[static_cast<size_t>(b * H3 + yOffset + o)] += s * scale;
      }
    }
    storeRounded(out[0], vy);
  }
};

const OpInfo kAddLora{"aclnnAddLora",
                      ExecUnit::kVector,
                      {ACL_FLOAT16},
                      "out = y, with out[:, yOffset:+ySliceSize] += x · Aᵀ · Bᵀ · scale per row's LoRA"};
const OpRegistrar kRegistrar(kAddLora);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnAddLoraGetWorkspaceSize(const aclTensor* y, const aclTensor* x,
                                                    const aclTensor* weightB, const aclTensor* indices,
                                                    const aclTensor* weightAOptional, int64_t layerIdx,
                                                    double scale, int64_t yOffset, int64_t ySliceSize,
                                                    const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  using namespace npusim::aclnn;
  const char* api = "aclnnAddLoraGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st =
      checkNotNull(api, {{"y", y}, {"x", x}, {"weightB", weightB}, {"indices", indices}, {"out", out}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"y", y},
                         {"x", x},
                         {"weightB", weightB},
                         {"out", out},
                         {"weightAOptional", weightAOptional}}) {
    if (t == nullptr) continue;
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kAddLora)) != kSuccess) return st;
  }
  if ((st = checkTensor(api, "indices", indices->desc)) != kSuccess) return st;
  const auto& ys = y->desc.shape;
  const auto& xs = x->desc.shape;
  const auto& bs = weightB->desc.shape;
  const auto refuse = [&](const std::string& why) { return fail(api, kErrParamInvalid, why); };
  if (ys.size() != 2 || xs.size() != 2 || bs.size() != 4 || xs[0] != ys[0]) {
    return refuse(fmt::format("y {} and x {} must be 2-D with one batch, weightB {} 4-D", shapeString(ys),
                              shapeString(xs), shapeString(bs)));
  }
  if (indices->desc.dtype != ACL_INT32 || indices->desc.shape != std::vector<int64_t>{ys[0]}) {
    return refuse(fmt::format("indices {} {} must be int32 of y's batch {}", shapeString(indices->desc.shape),
                              dtypeName(indices->desc.dtype), ys[0]));
  }
  if (layerIdx < 0 || layerIdx >= bs[1])
    return refuse(fmt::format("layerIdx {} is not below {}", layerIdx, bs[1]));
  if (yOffset < 0 || ySliceSize < 0 || yOffset + ySliceSize > ys[1] || ySliceSize > bs[2]) {
    return refuse(fmt::format("yOffset {} + ySliceSize {} must fit in y's {} columns and weightB's {} rows",
                              yOffset, ySliceSize, ys[1], bs[2]));
  }
  if (weightAOptional != nullptr) {
    const auto& as = weightAOptional->desc.shape;
    if (as.size() != 4 || as[0] != bs[0] || as[1] != bs[1] || as[2] != bs[3] || as[3] != xs[1]) {
      return refuse(fmt::format("weightA {} must be [loras, layers, R, H1] = [{}, {}, {}, {}]",
                                shapeString(as), bs[0], bs[1], bs[3], xs[1]));
    }
  } else if (xs[1] != bs[3]) {
    return refuse(fmt::format("without weightA, x's last dim {} must be weightB's rank {}", xs[1], bs[3]));
  }
  if ((st = checkShape(api, "out", out->desc.shape, ys)) != kSuccess) return st;
  auto inst = std::make_unique<AddLoraInstance>();
  inst->name = "aclnnAddLora";
  inst->layerIdx = layerIdx;
  inst->scale = scale;
  inst->yOffset = yOffset;
  inst->ySliceSize = ySliceSize;
  inst->hasA = weightAOptional != nullptr;
  inst->attrs =
      fmt::format("layerIdx={}, scale={}, yOffset={}, ySliceSize={}", layerIdx, scale, yOffset, ySliceSize);
  addInput(*inst, "y", y);
  addInput(*inst, "x", x);
  addInput(*inst, "weightB", weightB);
  addInput(*inst, "indices", indices);
  if (weightAOptional != nullptr) addInput(*inst, "weightAOptional", weightAOptional);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(AddLora)

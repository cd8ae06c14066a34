// aclnnQuantMatmulReduceSumWeightNz (ops-nn matmul/quant_matmul_reduce_sum/docs): the batch of
// quantised products summed, out[m, n] = Σ_b (x1[b] @ x2[b])[m, n] · x1Scale[b, m] · x2Scale[n],
// for x1 int8 [batch, m, k] (ND), x2 int8 [batch, k, n] in FRACTAL_NZ (weight_nz.h; the [batch, k, n]
// view of aclnnTransMatmulWeight's output), x1Scale fp32 [batch, m] (per token), x2Scale bf16 [n]
// (per channel), out bf16 [m, n]. Each product is exact in int32, dequantised in fp32 and the
// batches added in fp32; out is rounded once. The doc's reserved parameters (yScale, offsets, bias)
// must be null, transposes false, groupSize 0, dims [0] and keepDims false (161002 otherwise), and
// it rules out empty tensors. Cost: batch · m · n · k int8 MACs (int8_matmul.h), x1 and the NZ
// weight read, every batch's tile written to out's place (the batches accumulate there), the
// scales read once.
#include <fmt/format.h>

#include <vector>

#include "aclnnop/aclnn_quant_matmul_reduce_sum.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/int8_matmul.h"
#include "runtime/aclnn/ops/matmul_geometry.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/weight_nz.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnQuantMatmulReduceSumWeightNz",
                   ExecUnit::kCube,
                   {ACL_INT8, ACL_FLOAT, ACL_BF16},
                   "out = sum_b (x1[b] @ x2[b]) * x1Scale[b] * x2Scale, x2 in FRACTAL_NZ"};
const OpRegistrar kRegistrar(kInfo);

// inputs: x1, x2 (the NZ storage), x1Scale, x2Scale.
class QuantMatmulReduceSumInstance : public OpInstanceBase<QuantMatmulReduceSumInstance> {
 public:
  Int8Operands x;  // x2 always in NZ

  // The batched product with every batch's result placed on out (batch stride 0).
  MatmulGeometry geometry() const {
    return x.geometry(inputs[0], {0, outputs[0].strides[0], outputs[0].strides[1]});
  }

  rt::OpWork work() const override {
    return int8MatmulWork(geometry(), inputs[0], x.x2View, outputs[0], paramBytes(inputs, 2));
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const MatmulGeometry g = geometry();
    const std::vector<int64_t> acc = x.products(g, in);
    const std::vector<float> s1 = loadDense<float>(in[2]), s2 = loadDense<float>(in[3]);
    std::vector<float> y(static_cast<size_t>(g.M * g.N), 0.0f);
    for (int64_t i = 0; i < g.batch; ++i) {
      for (int64_t m = 0; m < g.M; ++m) {
        const float rowScale = s1[static_cast<size_t>(i * g.M + m)];
        for (int64_t n = 0; n < g.N; ++n) {
          const auto a = static_cast<float>(acc[static_cast<size_t>((i * g.M + m) * g.N + n)]);
          y[static_cast<size_t>(m * g.N + n)] += a * rowScale * s2[static_cast<size_t>(n)];
        }
      }
    }
    storeDense(out[0], y.data());
  }
};

int32_t build(const aclTensor* x1, const aclTensor* x2, const aclTensor* x1Scale, const aclTensor* x2Scale,
              const aclTensor* yScale, const aclTensor* x1Offset, const aclTensor* x2Offset,
              const aclTensor* yOffset, const aclTensor* bias, bool transposeX1, bool transposeX2,
              int64_t groupSize, const aclIntArray* dims, bool keepDims, const aclTensor* out,
              uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnQuantMatmulReduceSumWeightNzGetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(
      api,
      {{"x1", x1}, {"x2", x2}, {"x1Scale", x1Scale}, {"x2Scale", x2Scale}, {"dims", dims}, {"out", out}});
  if (st != kSuccess) return st;
  if (yScale != nullptr || x1Offset != nullptr || x2Offset != nullptr || yOffset != nullptr ||
      bias != nullptr || transposeX1 || transposeX2 || groupSize != 0 || keepDims ||
      dims->values != std::vector<int64_t>{0}) {
    return fail(api, kErrParamInvalid,
                "yScale, x1Offset, x2Offset, yOffset and bias are reserved (must be nullptr); transposeX1, "
                "transposeX2 and keepDims must be false, groupSize 0 and dims [0]");
  }
  const std::pair<const char*, const aclTensor*> all[] = {
      {"x1", x1}, {"x2", x2}, {"x1Scale", x1Scale}, {"x2Scale", x2Scale}, {"out", out}};
  for (const auto& [name, t] : all) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if (t->desc.numel() == 0) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} must not be empty, but is {}", name, t->desc.brief()));
    }
  }
  if (x1->desc.dtype != ACL_INT8 || x2->desc.dtype != ACL_INT8 || x1Scale->desc.dtype != ACL_FLOAT ||
      x2Scale->desc.dtype != ACL_BF16 || out->desc.dtype != ACL_BF16) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("x1, x2, x1Scale, x2Scale and out must be int8, int8, fp32, bf16 and bf16, but are "
                    "{}, {}, {}, {} and {}",
                    dtypeName(x1->desc.dtype), dtypeName(x2->desc.dtype), dtypeName(x1Scale->desc.dtype),
                    dtypeName(x2Scale->desc.dtype), dtypeName(out->desc.dtype)));
  }
  if (x2->desc.format != ACL_FORMAT_FRACTAL_NZ) {
    return fail(api, kErrParamInvalid,
                "x2 must be in FRACTAL_NZ format (converted by aclnnTransMatmulWeight)");
  }
  if (x1->desc.rank() != 3 || x2->desc.rank() != 3) {
    return fail(api, kErrParamInvalid,
                fmt::format("x1 and x2 must be [batch, m, k] and [batch, k, n], but are {} and {}",
                            shapeString(x1->desc.shape), shapeString(x2->desc.shape)));
  }
  NzLayout layout;
  const std::string bad = nzLayoutOf(x2->desc, &layout);
  if (!bad.empty()) return fail(api, kErrParamInvalid, "x2: " + bad);
  if (layout.transposed) {
    return fail(api, kErrParamInvalid, "x2 must be a [batch, k, n] weight (transposeX2 is not supported)");
  }
  const int64_t batch = x1->desc.shape[0], m = x1->desc.shape[1], k = x1->desc.shape[2],
                n = x2->desc.shape[2];
  if ((st = checkShape(api, "x2", x2->desc.shape, {batch, k, n})) != kSuccess) return st;
  if ((st = checkShape(api, "x1Scale", x1Scale->desc.shape, {batch, m})) != kSuccess) return st;
  if ((st = checkShape(api, "x2Scale", x2Scale->desc.shape, {n})) != kSuccess) return st;
  if ((st = checkShape(api, "out", out->desc.shape, {m, n})) != kSuccess) return st;
  auto inst = std::make_unique<QuantMatmulReduceSumInstance>();
  inst->name = kInfo.name;
  inst->x = Int8Operands{x2->desc, layout, true};
  inst->inputs = {x1->desc, nzStorageDesc(x2->desc, layout), x1Scale->desc, x2Scale->desc};
  inst->inputNames = {"x1", "x2", "x1Scale", "x2Scale"};
  inst->outputs = {out->desc};
  inst->outputNames = {"out"};
  inst->outputAlias = {-1};
  inst->attrs = "dims=[0], keepDims=false";
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnQuantMatmulReduceSumWeightNzGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* x1Scale, const aclTensor* x2Scale,
    const aclTensor* yScale, const aclTensor* x1Offset, const aclTensor* x2Offset, const aclTensor* yOffset,
    const aclTensor* bias, bool transposeX1, bool transposeX2, int64_t groupSize, const aclIntArray* dims,
    bool keepDims, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build(x1, x2, x1Scale, x2Scale, yScale, x1Offset, x2Offset, yOffset, bias,
                              transposeX1, transposeX2, groupSize, dims, keepDims, out, workspaceSize,
                              executor);
}

NPUSIM_ACLNN_PHASE2(QuantMatmulReduceSumWeightNz)

// aclnnFusedQuantMatmul / aclnnFusedQuantMatmulWeightNz (ops-nn matmul/fused_quant_mat_mul/docs):
// qbmmout = (x1 @ x2 + bias) · x2Scale · x1Scale for an int32 bias, x1 @ x2 · x2Scale · x1Scale +
// bias for a float bias (fp32, bf16, fp16) or none; out = gelu_tanh(qbmmout) or gelu_erf(qbmmout)
// by fusedOpType. x1 [.., m, k] and x2 [.., k, n] int8 (2-6 dimensions, batches broadcast; the
// WeightNz form takes x2 in FRACTAL_NZ, weight_nz.h, which the plain form also reads), x1Scale
// fp32 [m] (per token), x2Scale fp32 or bf16 [n] or [1], bias [n], out fp16/bf16. The int8
// product is exact (int8_matmul.h), the epilogue is fp32, out rounded once. The reserved
// parameters (yScale, offsets, x3, groupSize) must be null / 0; int4 and int32-packed inputs and
// a 3-D bias are 161002. Cost: the int8 cube work, the scales and bias read once, one vector
// pass over out for the activation.
#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_fused_quant_matmul.h"
#include "aclnnop/aclnn_fused_quant_matmul_weight_nz.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/int8_matmul.h"
#include "runtime/aclnn/ops/matmul_geometry.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/weight_nz.h"

namespace npusim::aclnn {
namespace {

const OpInfo kPlain{"aclnnFusedQuantMatmul",
                    ExecUnit::kCube,
                    {ACL_INT8, ACL_FLOAT, ACL_BF16, ACL_FLOAT16, ACL_INT32},
                    "out = gelu(x1 @ x2 * x2Scale * x1Scale + bias)"};
const OpInfo kNz{"aclnnFusedQuantMatmulWeightNz",
                 ExecUnit::kCube,
                 {ACL_INT8, ACL_FLOAT, ACL_BF16, ACL_FLOAT16, ACL_INT32},
                 "out = gelu(x1 @ x2 * x2Scale * x1Scale + bias), x2 in FRACTAL_NZ"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kPlain), OpRegistrar(kNz)};

// inputs: x1, x2 (the NZ storage when x2Nz), x1Scale, x2Scale, then bias when given.
class FusedQuantInstance : public OpInstanceBase<FusedQuantInstance> {
 public:
  bool geluTanh = true, hasBias = false, x2Nz = false;
  TensorDesc x2View;  // the [.., k, n] view of x2
  NzLayout nz;

  MatmulGeometry geometry() const {
    MatmulGeometry g;
    matmulGeometry(inputs[0].shape, inputs[0].strides, x2View.shape, x2View.strides, outputs[0].strides, &g);
    return g;
  }

  rt::OpWork work() const override {
    uint64_t params = 0;
    for (size_t i = 2; i < inputs.size(); ++i)
      params += static_cast<uint64_t>(inputs[i].numel()) * inputs[i].elementSize();
    rt::OpWork w = int8MatmulWork(geometry(), inputs[0], x2View, outputs[0], params);
    for (auto& tile : w.tiles) tile.vectorBytes += tile.writeBytes;  // the activation on the way out
    return w;
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (out[0].numel() == 0) return;
    const MatmulGeometry g = geometry();
    std::vector<char> dense;
    const std::vector<int64_t> acc = int8Products(g, in[0], denseWeightView(in[1], x2View, x2Nz, nz, &dense));
    const std::vector<float> s1 = loadDense<float>(in[2]), s2 = loadDense<float>(in[3]);
    std::vector<double> bias(static_cast<size_t>(g.N), 0.0);
    const bool intBias = hasBias && in[4].dtype == ACL_INT32;
    if (hasBias) bias = loadDense<double>(in[4]);
    std::vector<float> row(static_cast<size_t>(g.N));
    const int64_t es = static_cast<int64_t>(dtypeSize(out[0].dtype));
    for (int64_t i = 0; i < g.batch; ++i) {
      for (int64_t m = 0; m < g.M; ++m) {
        for (int64_t n = 0; n < g.N; ++n) {
          const auto ni = static_cast<size_t>(n);
          const auto a = static_cast<double>(acc[static_cast<size_t>((i * g.M + m) * g.N + n)]);
          const float scale = s2[s2.size() == 1 ? 0 : ni] * s1[static_cast<size_t>(m)];
          float v = intBias ? static_cast<float>(a + bias[ni]) * scale
                            : static_cast<float>(a) * scale + static_cast<float>(bias[ni]);
          v = geluTanh ? 0.5f * v * (1.0f + std::tanh(0.7978845608028654f * (v + 0.044715f * v * v * v)))
                       : 0.5f * v * (1.0f + std::erf(v * 0.7071067811865476f));
          row[ni] = v;
        }
        storeRow(out[0].dtype, out[0].data + (g.cOff[static_cast<size_t>(i)] + m * g.cSm) * es, g.cSn * es,
                 g.N, row.data());
      }
    }
  }
};

int32_t build(const OpInfo& info, bool requireNz, const aclTensor* x1, const aclTensor* x2,
              const aclTensor* x1Scale, const aclTensor* x2Scale, const aclTensor* yScale,
              const aclTensor* x1Offset, const aclTensor* x2Offset, const aclTensor* yOffset,
              const aclTensor* bias, const aclTensor* x3, const char* fusedOpType, int64_t groupSize,
              const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const std::string apiName = info.name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x1", x1},
                                  {"x2", x2},
                                  {"x1Scale", x1Scale},
                                  {"x2Scale", x2Scale},
                                  {"fusedOpType", fusedOpType},
                                  {"out", out}});
  if (st != kSuccess) return st;
  if (yScale != nullptr || x1Offset != nullptr || x2Offset != nullptr || yOffset != nullptr ||
      x3 != nullptr || groupSize != 0) {
    return fail(
        api, kErrParamInvalid,
        "yScaleOptional, x1OffsetOptional, x2OffsetOptional, yOffsetOptional and x3Optional are reserved "
        "(must be nullptr) and groupSizeOptional must be 0");
  }
  const std::string op(fusedOpType);
  if (op != "gelu_tanh" && op != "gelu_erf") {
    return fail(api, kErrParamInvalid,
                fmt::format("fusedOpType must be \"gelu_tanh\" or \"gelu_erf\", but is \"{}\"", op));
  }
  const std::pair<const char*, const aclTensor*> all[] = {
      {"x1", x1}, {"x2", x2}, {"x1Scale", x1Scale}, {"x2Scale", x2Scale}, {"out", out}};
  for (const auto& [name, t] : all) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  if (x1->desc.dtype != ACL_INT8 || x2->desc.dtype != ACL_INT8) {
    return fail(api, kErrParamInvalid,
                fmt::format("x1 and x2 must be int8 (int4 and int32-packed inputs are not supported by the "
                            "simulator), but are {} and {}",
                            dtypeName(x1->desc.dtype), dtypeName(x2->desc.dtype)));
  }
  const bool nz = x2->desc.format == ACL_FORMAT_FRACTAL_NZ;
  if (requireNz && !nz) {
    return fail(api, kErrParamInvalid,
                "x2 must be in FRACTAL_NZ format (converted by aclnnTransMatmulWeight)");
  }
  NzLayout layout;
  if (nz) {
    const std::string bad = nzLayoutOf(x2->desc, &layout);
    if (!bad.empty()) return fail(api, kErrParamInvalid, "x2: " + bad);
  }
  for (const auto& [name, t] :
       {std::pair<const char*, const aclTensor*>{"x1", x1}, {"x2", x2}, {"out", out}}) {
    if (t->desc.rank() < 2 || t->desc.rank() > 6) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} must have 2 to 6 dimensions, but is {}", name, shapeString(t->desc.shape)));
    }
  }
  std::vector<int64_t> shape;
  const std::string why = matmulOutShape(x1->desc.shape, x2->desc.shape, &shape);
  if (!why.empty()) return fail(api, kErrParamInvalid, why);
  if (out->desc.dtype != ACL_FLOAT16 && out->desc.dtype != ACL_BF16) {
    return fail(api, kErrParamInvalid,
                fmt::format("out must be fp16 or bf16, but is {}", dtypeName(out->desc.dtype)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  const int64_t m = shape[shape.size() - 2], n = shape.back();
  if (x1Scale->desc.dtype != ACL_FLOAT || x1Scale->desc.shape != std::vector<int64_t>{m}) {
    return fail(api, kErrParamInvalid,
                fmt::format("x1Scale must be fp32 [m] = [{}], but is {}", m, x1Scale->desc.brief()));
  }
  const auto& s2 = x2Scale->desc;
  if ((s2.dtype != ACL_FLOAT && s2.dtype != ACL_BF16) ||
      (s2.shape != std::vector<int64_t>{n} && s2.shape != std::vector<int64_t>{1})) {
    return fail(api, kErrParamInvalid,
                fmt::format("x2Scale must be fp32 or bf16 [n] = [{}] or [1], but is {}", n, s2.brief()));
  }
  if (bias != nullptr) {
    if ((st = checkTensor(api, "biasOptional", bias->desc)) != kSuccess) return st;
    const aclDataType bt = bias->desc.dtype;
    if ((bt != ACL_INT32 && bt != ACL_FLOAT && bt != ACL_BF16 && bt != ACL_FLOAT16) ||
        bias->desc.shape != std::vector<int64_t>{n}) {
      return fail(
          api, kErrParamInvalid,
          fmt::format(
              "biasOptional must be int32, fp32, bf16 or fp16 [n] = [{}] (a 3-D bias is not modelled), "
              "but is {}",
              n, bias->desc.brief()));
    }
  }
  auto inst = std::make_unique<FusedQuantInstance>();
  inst->name = info.name;
  inst->geluTanh = op == "gelu_tanh";
  inst->x2View = x2->desc;
  inst->x2Nz = nz;
  inst->nz = layout;
  inst->inputs = {x1->desc, nz ? nzStorageDesc(x2->desc, layout) : x2->desc, x1Scale->desc, x2Scale->desc};
  inst->inputNames = {"x1", "x2", "x1Scale", "x2Scale"};
  if (bias != nullptr) {
    inst->hasBias = true;
    addInput(*inst, "bias", bias);
  }
  inst->outputs = {out->desc};
  inst->outputNames = {"out"};
  inst->outputAlias = {-1};
  inst->attrs = fmt::format("fusedOpType={}", op);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" {

aclnnStatus aclnnFusedQuantMatmulGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* x1Scale, const aclTensor* x2Scale,
    const aclTensor* yScaleOptional, const aclTensor* x1OffsetOptional, const aclTensor* x2OffsetOptional,
    const aclTensor* yOffsetOptional, const aclTensor* biasOptional, const aclTensor* x3Optional,
    const char* fusedOpType, int64_t groupSizeOptional, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return npusim::aclnn::build(npusim::aclnn::kPlain, false, x1, x2, x1Scale, x2Scale, yScaleOptional,
                              x1OffsetOptional, x2OffsetOptional, yOffsetOptional, biasOptional, x3Optional,
                              fusedOpType, groupSizeOptional, out, workspaceSize, executor);
}

aclnnStatus aclnnFusedQuantMatmulWeightNzGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* x1Scale, const aclTensor* x2Scale,
    const aclTensor* yScaleOptional, const aclTensor* x1OffsetOptional, const aclTensor* x2OffsetOptional,
    const aclTensor* yOffsetOptional, const aclTensor* biasOptional, const aclTensor* x3Optional,
    const char* fusedOpType, int64_t groupSizeOptional, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return npusim::aclnn::build(npusim::aclnn::kNz, true, x1, x2, x1Scale, x2Scale, yScaleOptional,
                              x1OffsetOptional, x2OffsetOptional, yOffsetOptional, biasOptional, x3Optional,
                              fusedOpType, groupSizeOptional, out, workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(FusedQuantMatmul)
NPUSIM_ACLNN_PHASE2(FusedQuantMatmulWeightNz)

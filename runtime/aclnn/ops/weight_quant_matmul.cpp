// aclnnWeightQuantBatchMatmulV2 / V3 (ops-nn matmul/weight_quant_batch_matmul_v2/docs): the
// weight-only quantised matmul y = x @ ANTIQUANT(weight) + bias, ANTIQUANT(w) = (w +
// antiquantOffset) * antiquantScale, for x [m, k] fp16/bf16 (a strided view) and weight [k, n]
// int8 (a strided view) or int4 packed eight to an int32 ([k, n / 8], dense, value i in bits
// 4i..4i+3). antiquantScale / antiquantOffset (x's type) are per tensor [1], per channel [n] or
// [1, n], or per group [ceil(k / g), n] with antiquantGroupSize g (a multiple of 32 in [32, k-1]);
// bias [n] or [1, n] (fp16 for fp16 x, fp32 or bf16 for bf16 x); y of x's type. The vector unit
// dequantises the weight in x's type (the sum and the product each rounded to it), the cube
// multiplies with fp32 accumulation, bias is added in fp32 and y rounded once. The int8 output
// (quantScale / quantOffset) is not modelled: 161002. V3's innerPrecise (0 or 1) selects a kernel
// variant, not the numbers. Cost: the fp16 matmul tiling with the weight read at one byte per element (an
// overestimate for packed int4), the dequantised weight passing the vector unit once, scale/offset/bias read
// once.
#include <fmt/format.h>

#include <cstring>
#include <vector>

#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v3.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/int8_matmul.h"
#include "runtime/aclnn/ops/matmul.h"
#include "runtime/aclnn/ops/matmul_geometry.h"
#include "runtime/aclnn/ops/matmul_tiling.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpInfo kV2{"aclnnWeightQuantBatchMatmulV2",
                 ExecUnit::kCube,
                 {ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT32},
                 "y = x @ ((weight + antiquantOffset) * antiquantScale) + bias"};
const OpInfo kV3{"aclnnWeightQuantBatchMatmulV3",
                 ExecUnit::kCube,
                 {ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT32},
                 "y = x @ ((weight + antiquantOffset) * antiquantScale) + bias"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kV2), OpRegistrar(kV3)};

// inputs: x, weight, antiquantScale, then antiquantOffset and bias when given.
class WeightQuantInstance : public OpInstanceBase<WeightQuantInstance> {
 public:
  int64_t k = 0, n = 0, groupSize = 0;
  bool packedInt4 = false;
  int offsetInput = -1, biasInput = -1;

  // The weight as a [k, n] view for the geometry (packed int4 counts one byte per element).
  TensorDesc weightView() const { return !packedInt4 ? inputs[1] : packedInt4View(inputs[1], k, n); }

  rt::OpWork work() const override {
    return weightOnlyQuantWork(inputs[0], weightView(), outputs[0], paramBytes(inputs, 2));
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const aclDataType xt = in[0].dtype;
    const std::vector<int64_t> w = weights(in[1]);
    const std::vector<float> scale = loadDense<float>(in[2]);
    std::vector<float> offset;
    if (offsetInput >= 0) offset = loadDense<float>(in[static_cast<size_t>(offsetInput)]);
    const int64_t perRow = static_cast<int64_t>(scale.size()) == 1 ? 0 : n;  // per tensor: one value
    std::vector<float> deq(static_cast<size_t>(k * n));
    for (int64_t r = 0; r < k; ++r) {
      const int64_t group = groupSize > 0 ? r / groupSize : 0;
      float* row = &deq[static_cast<size_t>(r * n)];
      for (int64_t c = 0; c < n; ++c) {
        const auto p = static_cast<size_t>(group * perRow + (perRow != 0 ? c : 0));
        row[c] = static_cast<float>(w[static_cast<size_t>(r * n + c)]) + (offset.empty() ? 0.0f : offset[p]);
      }
      quantizeRow(xt, row, n);
      for (int64_t c = 0; c < n; ++c) {
        row[c] *= scale[static_cast<size_t>(group * perRow + (perRow != 0 ? c : 0))];
      }
      quantizeRow(xt, row, n);
    }
    const MatmulSpec spec{xt == ACL_BF16 ? CubeInput::kBf16 : CubeInput::kF16, ACL_FLOAT};
    std::vector<float> y(static_cast<size_t>(out[0].numel()));
    matmulKernel(spec, in[0], hostTensor(ACL_FLOAT, {k, n}, deq.data()),
                 hostTensor(ACL_FLOAT, out[0].shape, y.data()));
    if (biasInput >= 0) {
      const std::vector<float> bias = loadDense<float>(in[static_cast<size_t>(biasInput)]);
      for (size_t i = 0; i < y.size(); ++i) y[i] += bias[i % static_cast<size_t>(n)];
    }
    storeDense(out[0], y.data());
  }

 private:
  // The weight's integers in [k, n] row-major order.
  std::vector<int64_t> weights(const HostTensor& t) const {
    return !packedInt4 ? loadDense<int64_t>(t) : unpackInt4(t.data, k * n);
  }
};

int32_t build(const OpInfo& info, const aclTensor* x, const aclTensor* weight,
              const aclTensor* antiquantScale, const aclTensor* antiquantOffset, const aclTensor* quantScale,
              const aclTensor* quantOffset, const aclTensor* bias, int groupSize, int innerPrecise,
              const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const std::string apiName = info.name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  rt::chargeOpPrepare(api);
  int32_t st =
      checkNotNull(api, {{"x", x}, {"weight", weight}, {"antiquantScale", antiquantScale}, {"y", y}});
  if (st != kSuccess) return st;
  if (quantScale != nullptr || quantOffset != nullptr) {
    return fail(api, kErrParamInvalid,
                "quantScaleOptional / quantOffsetOptional (an int8 y) are not supported by the simulator");
  }
  for (const auto& [name, t] : {std::pair<const char*, const aclTensor*>{"x", x},
                                {"weight", weight},
                                {"antiquantScale", antiquantScale},
                                {"y", y}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  const aclDataType xt = x->desc.dtype;
  if (xt != ACL_FLOAT16 && xt != ACL_BF16) {
    return fail(api, kErrParamInvalid, fmt::format("x must be fp16 or bf16, but is {}", dtypeName(xt)));
  }
  const bool packed = weight->desc.dtype == ACL_INT32;
  if (weight->desc.dtype != ACL_INT8 && !packed) {
    return fail(api, kErrParamInvalid,
                fmt::format("weight must be int8 or int4 packed in int32 on Atlas A2, but is {}",
                            dtypeName(weight->desc.dtype)));
  }
  if (x->desc.rank() != 2 || weight->desc.rank() != 2 || y->desc.rank() != 2) {
    return fail(api, kErrParamInvalid, "x, weight and y must be 2-dimensional");
  }
  if (packed && !weight->desc.isContiguous()) {
    return fail(api, kErrParamInvalid, "an int4 weight packed in int32 must be contiguous");
  }
  const int64_t m = x->desc.shape[0], k = x->desc.shape[1];
  const int64_t n = packed ? weight->desc.shape[1] * 8 : weight->desc.shape[1];
  if (weight->desc.shape[0] != k) {
    return fail(api, kErrParamInvalid,
                fmt::format("weight {} does not have x's k = {} rows", shapeString(weight->desc.shape), k));
  }
  if (y->desc.dtype != xt) {
    return fail(api, kErrParamInvalid,
                fmt::format("y must have x's type {}, but is {}", dtypeName(xt), dtypeName(y->desc.dtype)));
  }
  if ((st = checkShape(api, "y", y->desc.shape, {m, n})) != kSuccess) return st;
  if (innerPrecise != 0 && innerPrecise != 1) {
    return fail(api, kErrParamInvalid, fmt::format("innerPrecise must be 0 or 1, but is {}", innerPrecise));
  }
  if (groupSize != 0 && (groupSize < 32 || groupSize % 32 != 0 || groupSize > k - 1)) {
    return fail(api, kErrParamInvalid,
                fmt::format("antiquantGroupSize must be 0 or a multiple of 32 in [32, k - 1 = {}], but is {}",
                            k - 1, groupSize));
  }
  // Scale (and offset) shapes: [1], [n], [1, n] or, per group, [ceil(k / g), n].
  const std::vector<int64_t>& s = antiquantScale->desc.shape;
  const int64_t groups = groupSize > 0 ? (k + groupSize - 1) / groupSize : 1;
  const bool perTensor = groupSize == 0 && (s == std::vector<int64_t>{1});
  const bool perChannel = groupSize == 0 && (s == std::vector<int64_t>{n} || s == std::vector<int64_t>{1, n});
  const bool perGroup = groupSize > 0 && s == std::vector<int64_t>{groups, n};
  if (!perTensor && !perChannel && !perGroup) {
    return fail(
        api, kErrParamInvalid,
        fmt::format(
            "antiquantScale shape {} is not [1], [n] or [1, n] (n = {}), or [ceil(k / g), n] = [{}, {}] "
            "with antiquantGroupSize {}",
            shapeString(s), n, groups, n, groupSize));
  }
  if (antiquantScale->desc.dtype != xt) {
    return fail(api, kErrParamInvalid,
                fmt::format("antiquantScale must have x's type {} on Atlas A2, but is {}", dtypeName(xt),
                            dtypeName(antiquantScale->desc.dtype)));
  }
  if (antiquantOffset != nullptr) {
    if ((st = checkTensor(api, "antiquantOffsetOptional", antiquantOffset->desc)) != kSuccess) return st;
    if (antiquantOffset->desc.shape != s || antiquantOffset->desc.dtype != xt) {
      return fail(api, kErrParamInvalid, "antiquantOffsetOptional must have antiquantScale's shape and type");
    }
  }
  if (bias != nullptr) {
    if ((st = checkTensor(api, "biasOptional", bias->desc)) != kSuccess) return st;
    const aclDataType bt = bias->desc.dtype;
    const bool typeOk = xt == ACL_FLOAT16 ? bt == ACL_FLOAT16 : (bt == ACL_FLOAT || bt == ACL_BF16);
    if (!typeOk) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("biasOptional type {} does not go with x's {} (fp16 with fp16, fp32 or bf16 with bf16)",
                      dtypeName(bt), dtypeName(xt)));
    }
    if (bias->desc.shape != std::vector<int64_t>{n} && bias->desc.shape != std::vector<int64_t>{1, n}) {
      return fail(api, kErrParamInvalid,
                  fmt::format("biasOptional must be [n] or [1, n] with n = {}, but is {}", n,
                              shapeString(bias->desc.shape)));
    }
  }
  auto inst = std::make_unique<WeightQuantInstance>();
  inst->name = info.name;
  inst->k = k;
  inst->n = n;
  inst->groupSize = groupSize;
  inst->packedInt4 = packed;
  inst->inputs = {x->desc, weight->desc, antiquantScale->desc};
  inst->inputNames = {"x", "weight", "antiquantScale"};
  if (antiquantOffset != nullptr) {
    inst->offsetInput = static_cast<int>(inst->inputs.size());
    inst->inputs.push_back(antiquantOffset->desc);
    inst->inputNames.emplace_back("antiquantOffset");
  }
  if (bias != nullptr) {
    inst->biasInput = static_cast<int>(inst->inputs.size());
    inst->inputs.push_back(bias->desc);
    inst->inputNames.emplace_back("bias");
  }
  inst->outputs = {y->desc};
  inst->outputNames = {"y"};
  inst->outputAlias = {-1};
  inst->attrs = fmt::format("antiquantGroupSize={}, innerPrecise={}", groupSize, innerPrecise);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" {

aclnnStatus aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* weight, const aclTensor* antiquantScale,
    const aclTensor* antiquantOffsetOptional, const aclTensor* quantScaleOptional,
    const aclTensor* quantOffsetOptional, const aclTensor* biasOptional, int antiquantGroupSize,
    const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build(npusim::aclnn::kV2, x, weight, antiquantScale, antiquantOffsetOptional,
                              quantScaleOptional, quantOffsetOptional, biasOptional, antiquantGroupSize, 0, y,
                              workspaceSize, executor);
}

aclnnStatus aclnnWeightQuantBatchMatmulV3GetWorkspaceSize(
    const aclTensor* x, const aclTensor* weight, const aclTensor* antiquantScale,
    const aclTensor* antiquantOffsetOptional, const aclTensor* quantScaleOptional,
    const aclTensor* quantOffsetOptional, const aclTensor* biasOptional, int antiquantGroupSize,
    int innerPrecise, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build(npusim::aclnn::kV3, x, weight, antiquantScale, antiquantOffsetOptional,
                              quantScaleOptional, quantOffsetOptional, biasOptional, antiquantGroupSize,
                              innerPrecise, y, workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(WeightQuantBatchMatmulV2)
NPUSIM_ACLNN_PHASE2(WeightQuantBatchMatmulV3)

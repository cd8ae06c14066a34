// aclnnQuantMatmulV3 / aclnnQuantMatmulV4 / aclnnQuantMatmulWeightNz (ops-nn
// matmul/quant_batch_matmul_v3/docs), the Atlas A2 int8 rows of their dtype tables: x1 int8
// [.., m, k] and x2 int8 [.., k, n] (2-6 dimensions, batches broadcast; transposeX1 / transposeX2
// read them transposed; x2 in ND or FRACTAL_NZ, weight_nz.h, WeightNz requiring NZ), scale (WeightNz:
// x2Scale) [1] or [n], pertokenScale (V4 pertokenScaleOptional, WeightNz x1Scale) fp32 [m], bias
// [n] or [batch, 1, n] (3-D out only), offset (WeightNz x2Offset) fp32 [1] or [n]:
// - scale uint64/int64 (aclnnTransQuantParam's format, quant_param.h), no pertokenScale: out fp16
//   = (x1 @ x2 + bias) · scale with an int32 bias, or out int8 = sat(rint((x1 @ x2 + bias) · scale +
//   offset)), the offset from the offset tensor or else from the parameter's offset bits;
// - scale fp32/bf16, out bf16: x1 @ x2 · scale (· pertokenScale), an int32 bias added to the
//   product first, a bf16/fp32 bias after the scales;
// - scale fp32 with pertokenScale, out fp16: the same, a fp16/fp32 bias after the scales.
// Products are exact integers, scales applied in fp32, out rounded once. Empty tensors are 161002
// (the docs' error tables). int4 / int32-packed x1
// and x2, the int32 out, yScale, x1Offset, yOffset (the int8 x int4 K-G mode, on aclnnQuantMatmulV5)
// and a non-zero groupSize (the 950's per-block modes) are 161002. Cost: the int8 cube work
// (int8_matmul.h), the parameters read once.
#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_quant_matmul_v3.h"
#include "aclnnop/aclnn_quant_matmul_v4.h"
#include "aclnnop/aclnn_quant_matmul_weight_nz.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/int8_matmul.h"
#include "runtime/aclnn/ops/matmul_geometry.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/quant_param.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/weight_nz.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kTypes{ACL_INT8, ACL_UINT64, ACL_INT64,  ACL_FLOAT,
                                      ACL_BF16, ACL_INT32,  ACL_FLOAT16};
const OpInfo kV3{"aclnnQuantMatmulV3", ExecUnit::kCube, kTypes,
                 "out = (x1 @ x2 + bias) * scale + offset, or x1 @ x2 * scale + bias"};
const OpInfo kV4{"aclnnQuantMatmulV4", ExecUnit::kCube, kTypes,
                 "out = (x1 @ x2 (+ int32 bias)) * scale * pertokenScale (+ float bias)"};
const OpInfo kNz{"aclnnQuantMatmulWeightNz", ExecUnit::kCube, kTypes,
                 "out = (x1 @ x2 (+ int32 bias)) * x2Scale * x1Scale (+ float bias), x2 in FRACTAL_NZ"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kV3), OpRegistrar(kV4), OpRegistrar(kNz)};

// inputs: x1 (the [.., m, k] view), x2 (the view, or the NZ storage when x2Nz), scale, then offset,
// pertokenScale and bias when given (indices below).
class QuantMatmulV4Instance : public OpInstanceBase<QuantMatmulV4Instance> {
 public:
  Int8Operands x;
  bool scaleIsParam = false;
  int offsetInput = -1, pertokenInput = -1, biasInput = -1;

  rt::OpWork work() const override {
    return int8MatmulWork(x.geometry(inputs[0], outputs[0].strides), inputs[0], x.x2View, outputs[0],
                          paramBytes(inputs, 2));
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const MatmulGeometry g = x.geometry(inputs[0], outputs[0].strides);
    const std::vector<int64_t> acc = x.products(g, in);
    std::vector<float> scale;
    std::vector<double> paramOffset;
    if (scaleIsParam) {
      for (const int64_t p : loadDense<int64_t>(in[2])) {
        scale.push_back(quantParamScale(static_cast<uint64_t>(p)));
        paramOffset.push_back(quantParamOffset(static_cast<uint64_t>(p)));
      }
    } else {
      scale = loadDense<float>(in[2]);
    }
    auto optional = [&](int idx) {
      return idx >= 0 ? loadDense<double>(in[static_cast<size_t>(idx)]) : std::vector<double>{};
    };
    const std::vector<double> offset = offsetInput >= 0 ? optional(offsetInput) : paramOffset,
                              pertoken = optional(pertokenInput), bias = optional(biasInput);
    const bool intBias = biasInput >= 0 && in[static_cast<size_t>(biasInput)].dtype == ACL_INT32;
    const bool biasPerBatch = biasInput >= 0 && in[static_cast<size_t>(biasInput)].shape.size() == 3;
    const bool int8Out = out[0].dtype == ACL_INT8;
    auto perN = [](const auto& v, int64_t n) { return v[v.size() == 1 ? 0 : static_cast<size_t>(n)]; };
    std::vector<float> row(static_cast<size_t>(g.N));
    const auto es = static_cast<int64_t>(dtypeSize(out[0].dtype));
    for (int64_t i = 0; i < g.batch; ++i) {
      for (int64_t m = 0; m < g.M; ++m) {
        for (int64_t n = 0; n < g.N; ++n) {
          const double bv = bias.empty() ? 0.0 : bias[static_cast<size_t>((biasPerBatch ? i * g.N : 0) + n)];
          const auto a = static_cast<double>(acc[static_cast<size_t>((i * g.M + m) * g.N + n)]);
          float v = static_cast<float>(intBias ? a + bv : a) * perN(scale, n);
          if (!pertoken.empty()) v *= static_cast<float>(pertoken[static_cast<size_t>(m)]);
          if (!intBias) v += static_cast<float>(bv);
          if (int8Out) {  // the fixpipe's requantisation: offset, round half to even, saturate (storeRow)
            if (!offset.empty()) v += static_cast<float>(perN(offset, n));
            v = std::nearbyint(v);
          }
          row[static_cast<size_t>(n)] = v;
        }
        storeRow(out[0].dtype, out[0].data + (g.cOff[static_cast<size_t>(i)] + m * g.cSm) * es, g.cSn * es,
                 g.N, row.data());
      }
    }
  }
};

struct Args {
  const aclTensor *x1, *x2, *scale, *offset, *pertoken, *bias, *yScale, *x1Offset, *yOffset;
  int64_t groupSize;
  bool transposeX1, transposeX2;
  const aclTensor* out;
};

// The names the entry point gives scale, offset and pertokenScale (WeightNz: x2Scale, x2Offset, x1Scale).
struct Names {
  const char *scale, *offset, *pertoken;
};

bool isVector(const aclTensor* t, int64_t n) {
  return t->desc.rank() == 1 && (t->desc.shape[0] == 1 || t->desc.shape[0] == n);
}

int32_t build(const OpInfo& info, bool requireNz, const Args& a, uint64_t* workspaceSize,
              aclOpExecutor** executor) {
  const std::string apiName = info.name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  const Names names =
      requireNz ? Names{"x2Scale", "x2Offset", "x1Scale"} : Names{"scale", "offset", "pertokenScaleOptional"};
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x1", a.x1}, {"x2", a.x2}, {names.scale, a.scale}, {"out", a.out}});
  if (st != kSuccess) return st;
  if (a.yScale != nullptr || a.x1Offset != nullptr || a.yOffset != nullptr || a.groupSize != 0) {
    return fail(
        api, kErrParamInvalid,
        "yScale, x1Offset and yOffset (int8 x int4 per-group mode) and a non-zero groupSize (per-block "
        "modes) are not supported by the simulator on the Atlas A2 rows modelled here");
  }
  std::vector<std::pair<const char*, const aclTensor*>> present = {
      {"x1", a.x1}, {"x2", a.x2}, {names.scale, a.scale}, {"out", a.out}};
  for (const auto& [name, t] : {std::pair<const char*, const aclTensor*>{names.offset, a.offset},
                                {names.pertoken, a.pertoken},
                                {"bias", a.bias}}) {
    if (t != nullptr) present.emplace_back(name, t);
  }
  for (const auto& [name, t] : present) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if (t->desc.numel() == 0) {  // the docs' error table: empty tensors are invalid on these rows
      return fail(api, kErrParamInvalid,
                  fmt::format("{} must not be empty, but is {}", name, t->desc.brief()));
    }
  }
  if (a.x1->desc.dtype != ACL_INT8 || a.x2->desc.dtype != ACL_INT8) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("x1 and x2 must be int8 (the int4 and int32-packed inputs are not supported by the "
                    "simulator), but are {} and {}",
                    dtypeName(a.x1->desc.dtype), dtypeName(a.x2->desc.dtype)));
  }
  for (const auto& [name, t] :
       {std::pair<const char*, const aclTensor*>{"x1", a.x1}, {"x2", a.x2}, {"out", a.out}}) {
    if (t->desc.rank() < 2 || t->desc.rank() > 6) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} must have 2 to 6 dimensions, but is {}", name, shapeString(t->desc.shape)));
    }
  }
  const bool nz = a.x2->desc.format == ACL_FORMAT_FRACTAL_NZ;
  if (requireNz && !nz) {
    return fail(api, kErrParamInvalid,
                "x2 must be in FRACTAL_NZ format (converted by aclnnTransMatmulWeight)");
  }
  const TensorDesc x1View = a.transposeX1 ? swapLastTwo(a.x1->desc) : a.x1->desc;
  const TensorDesc x2View = a.transposeX2 ? swapLastTwo(a.x2->desc) : a.x2->desc;
  NzLayout layout;
  if (nz) {
    const std::string bad = nzLayoutOf(x2View, &layout);
    if (!bad.empty()) return fail(api, kErrParamInvalid, "x2: " + bad);
  }
  std::vector<int64_t> shape;
  const std::string why = matmulOutShape(x1View.shape, x2View.shape, &shape);
  if (!why.empty()) return fail(api, kErrParamInvalid, why);
  if ((st = checkShape(api, "out", a.out->desc.shape, shape)) != kSuccess) return st;
  const int64_t m = shape[shape.size() - 2], n = shape.back();
  const aclDataType ot = a.out->desc.dtype, scaleType = a.scale->desc.dtype;
  const bool param = scaleType == ACL_UINT64 || scaleType == ACL_INT64;
  const aclDataType bt = a.bias != nullptr ? a.bias->desc.dtype : ACL_INT32;
  // The Atlas A2 int8 rows of the docs' dtype tables.
  bool rowOk = false;
  if (ot == ACL_FLOAT16 && param) {
    rowOk = a.pertoken == nullptr && bt == ACL_INT32;
  } else if (ot == ACL_INT8) {
    rowOk = param && a.pertoken == nullptr && bt == ACL_INT32;
  } else if (ot == ACL_BF16) {
    rowOk = (scaleType == ACL_FLOAT || scaleType == ACL_BF16) &&
            (bt == ACL_INT32 || bt == ACL_BF16 || bt == ACL_FLOAT);
  } else if (ot == ACL_FLOAT16) {
    rowOk = scaleType == ACL_FLOAT && a.pertoken != nullptr &&
            (bt == ACL_INT32 || bt == ACL_FLOAT16 || bt == ACL_FLOAT);
  }
  if (!rowOk || (a.offset != nullptr && ot != ACL_INT8)) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("{} {}, {} {}, bias {} and out {} are not an Atlas A2 row of the doc's dtype table "
                    "(uint64/int64 scale: out fp16 or int8, int32 bias, no {}; fp32/bf16 scale: out bf16, "
                    "int32/bf16/fp32 bias; fp32 scale with {}: out fp16, int32/fp16/fp32 bias; {} only "
                    "with an int8 out; the int32 out is not supported by the simulator)",
                    names.scale, dtypeName(scaleType), names.pertoken,
                    a.pertoken != nullptr ? dtypeName(a.pertoken->desc.dtype) : "null",
                    a.bias != nullptr ? dtypeName(bt) : "null", dtypeName(ot), names.pertoken, names.pertoken,
                    names.offset));
  }
  if (!isVector(a.scale, n)) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("{} must be [1] or [n] = [{}], but is {}", names.scale, n, a.scale->desc.brief()));
  }
  if (a.offset != nullptr && (a.offset->desc.dtype != ACL_FLOAT || !isVector(a.offset, n))) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("{} must be fp32 [1] or [n] = [{}], but is {}", names.offset, n, a.offset->desc.brief()));
  }
  if (a.pertoken != nullptr &&
      (a.pertoken->desc.dtype != ACL_FLOAT || a.pertoken->desc.shape != std::vector<int64_t>{m})) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("{} must be fp32 [m] = [{}], but is {}", names.pertoken, m, a.pertoken->desc.brief()));
  }
  if (a.bias != nullptr) {
    const std::vector<int64_t>& bs = a.bias->desc.shape;
    const bool flat = bs == std::vector<int64_t>{n};
    const bool perBatch = shape.size() == 3 && bs == std::vector<int64_t>{shape[0], 1, n};
    if (!flat && !perBatch) {
      return fail(api, kErrParamInvalid,
                  fmt::format("bias must be [n] = [{}] (or [batch, 1, n] for a 3-D out), but is {}", n,
                              shapeString(bs)));
    }
  }
  auto inst = std::make_unique<QuantMatmulV4Instance>();
  inst->name = info.name;
  inst->x = Int8Operands{x2View, layout, nz};
  inst->scaleIsParam = param;
  inst->inputs = {x1View, nz ? nzStorageDesc(x2View, layout) : x2View, a.scale->desc};
  inst->inputNames = {"x1", "x2", names.scale};
  auto add = [&](const char* name, const aclTensor* t, int* idx) {
    if (t == nullptr) return;
    *idx = static_cast<int>(inst->inputs.size());
    addInput(*inst, name, t);
  };
  add(names.offset, a.offset, &inst->offsetInput);
  add(names.pertoken, a.pertoken, &inst->pertokenInput);
  add("bias", a.bias, &inst->biasInput);
  inst->outputs = {a.out->desc};
  inst->outputNames = {"out"};
  inst->outputAlias = {-1};
  inst->attrs = fmt::format("transposeX1={}, transposeX2={}, x2Format={}", a.transposeX1, a.transposeX2,
                            nz ? "FRACTAL_NZ" : "ND");
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" {

aclnnStatus aclnnQuantMatmulV3GetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                               const aclTensor* scale, const aclTensor* offset,
                                               const aclTensor* bias, bool transposeX1, bool transposeX2,
                                               const aclTensor* out, uint64_t* workspaceSize,
                                               aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  return build(
      kV3, false,
      Args{x1, x2, scale, offset, nullptr, bias, nullptr, nullptr, nullptr, 0, transposeX1, transposeX2, out},
      workspaceSize, executor);
}

aclnnStatus aclnnQuantMatmulV4GetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                               const aclTensor* scale, const aclTensor* offset,
                                               const aclTensor* pertokenScaleOptional, const aclTensor* bias,
                                               bool transposeX1, bool transposeX2, const aclTensor* out,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  return build(kV4, false,
               Args{x1, x2, scale, offset, pertokenScaleOptional, bias, nullptr, nullptr, nullptr, 0,
                    transposeX1, transposeX2, out},
               workspaceSize, executor);
}

aclnnStatus aclnnQuantMatmulWeightNzGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                     const aclTensor* x1Scale, const aclTensor* x2Scale,
                                                     const aclTensor* yScale, const aclTensor* x1Offset,
                                                     const aclTensor* x2Offset, const aclTensor* yOffset,
                                                     const aclTensor* bias, bool transposeX1,
                                                     bool transposeX2, int64_t groupSize, aclTensor* out,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  return build(kNz, true,
               Args{x1, x2, x2Scale, x2Offset, x1Scale, bias, yScale, x1Offset, yOffset, groupSize,
                    transposeX1, transposeX2, out},
               workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(QuantMatmulV3)
NPUSIM_ACLNN_PHASE2(QuantMatmulV4)
NPUSIM_ACLNN_PHASE2(QuantMatmulWeightNz)

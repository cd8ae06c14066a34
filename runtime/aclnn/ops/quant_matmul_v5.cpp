// aclnnQuantMatmulV5 (ops-nn matmul/quant_batch_matmul_v4/docs/aclnnQuantMatmulV5.md), the Atlas A2
// modes, 2-D x1 [m, k] int8 and out [m, n] fp16/bf16:
// - per channel / per token (K-C, K-T, T-C, T-T; groupSize 0): x2 int8 [k, n] ([n, k] with
//   transposeX2), x2Scale [n] or [1] fp32/bf16 (or uint64/int64 in aclnnTransQuantParam's format,
//   quant_param.h), x1Scale fp32 [m] or [m, 1] (optional), bias int32 (added before the scales)
//   or fp32/bf16/fp16 (after): out = (x1 @ x2 (+ bias)) · x2Scale · x1Scale (+ bias);
// - per block (G-B): groupSize = gsK | gsN << 16 | gsM << 32 with gsM 1, x2Scale fp32
//   [ceil(n/gsN), kLoops] (or [kLoops, ceil(n/gsN)]), x1Scale fp32 [m, kLoops], bias fp32 [n]:
//   out[m, n] = Σ_j (x1[m, j-th K slice] · x2[j-th K slice, n]) · x1Scale[m, j] · x2Scale(n/gsN, j)
//   + bias[n], kLoops = ceil(k / gsK);
// - per group (K-G): x2 int4 packed eight to an int32 [k, n/8], x2Scale uint64/int64 [ceil(k/g), n]
//   holding an fp32 in its low 32 bits, g = groupSize's gsK, x1Scale fp32 [m, 1], yOffset fp32 [n]:
//   out = ((x1 @ (x2 · x2Scale)) + yOffset) · x1Scale.
// Products are exact integers, scales applied in fp32, out rounded once. The int8 / int32 outputs,
// offsets x1Offset / x2Offset, yScale, int4 x1 and the 950-only modes are 161002.
// Cost: the int8 cube work (int8_matmul.h), the parameters read once.
#include <fmt/format.h>

#include <vector>

#include "aclnnop/aclnn_quant_matmul_v5.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/int8_matmul.h"
#include "runtime/aclnn/ops/matmul_geometry.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/quant_param.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnQuantMatmulV5",
                   ExecUnit::kCube,
                   {ACL_INT8, ACL_INT32, ACL_FLOAT, ACL_BF16, ACL_FLOAT16, ACL_UINT64, ACL_INT64},
                   "out = (x1 @ x2) * x2Scale * x1Scale + bias (per channel, per block or per group)"};
const OpRegistrar kRegistrar(kInfo);

enum class Mode { kChannel, kBlock, kGroup };

// inputs: x1 ([m, k] view), x2 ([k, n] view; the packed int32 tensor in kGroup), x2Scale, then
// x1Scale, bias, yOffset when given (indices below).
class QuantMatmulV5Instance : public OpInstanceBase<QuantMatmulV5Instance> {
 public:
  Mode mode = Mode::kChannel;
  int64_t m = 0, k = 0, n = 0, gsK = 0, gsN = 0;
  bool x2ScaleByN = true;     // kBlock: x2Scale is [ceil(n / gsN), kLoops] (else transposed)
  bool scaleIsParam = false;  // x2Scale holds uint64 quantisation parameters
  int x1ScaleInput = -1, biasInput = -1, yOffsetInput = -1;

  TensorDesc x2View() const { return mode != Mode::kGroup ? inputs[1] : packedInt4View(inputs[1], k, n); }

  rt::OpWork work() const override {
    const TensorDesc b = x2View();
    MatmulGeometry g;
    matmulGeometry(inputs[0].shape, inputs[0].strides, b.shape, b.strides, outputs[0].strides, &g);
    uint64_t params = 0;
    for (size_t i = 2; i < inputs.size(); ++i)
      params += static_cast<uint64_t>(inputs[i].numel()) * inputs[i].elementSize();
    return int8MatmulWork(g, inputs[0], b, outputs[0], params);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<int64_t> a = loadDense<int64_t>(in[0]);
    const std::vector<int64_t> w = weights(in[1]);
    std::vector<float> s2(static_cast<size_t>(in[2].numel()));
    if (scaleIsParam) {
      const std::vector<int64_t> raw = loadDense<int64_t>(in[2]);
      for (size_t i = 0; i < raw.size(); ++i) s2[i] = quantParamScale(static_cast<uint64_t>(raw[i]));
    } else {
      s2 = loadDense<float>(in[2]);
    }
    auto optional = [&](int idx) {
      return idx >= 0 ? loadDense<double>(in[static_cast<size_t>(idx)]) : std::vector<double>{};
    };
    const std::vector<double> s1 = optional(x1ScaleInput), bias = optional(biasInput),
                              yOff = optional(yOffsetInput);
    const bool intBias = biasInput >= 0 && in[static_cast<size_t>(biasInput)].dtype == ACL_INT32;
    std::vector<float> y(static_cast<size_t>(m * n));
    const int64_t loops = gsK > 0 ? (k + gsK - 1) / gsK : 1;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double v = 0;
        if (mode == Mode::kChannel) {
          int64_t acc = 0;
          for (int64_t q = 0; q < k; ++q)
            acc += a[static_cast<size_t>(i * k + q)] * w[static_cast<size_t>(q * n + j)];
          double p = static_cast<double>(acc) + (intBias ? bias[static_cast<size_t>(j)] : 0.0);
          p = static_cast<float>(p) * s2[s2.size() == 1 ? 0 : static_cast<size_t>(j)];
          if (!s1.empty()) p = static_cast<float>(p) * static_cast<float>(s1[static_cast<size_t>(i)]);
          if (!bias.empty() && !intBias) p += bias[static_cast<size_t>(j)];
          v = p;
        } else if (mode == Mode::kBlock) {
          for (int64_t l = 0; l < loops; ++l) {
            int64_t acc = 0;
            for (int64_t q = l * gsK; q < std::min(k, (l + 1) * gsK); ++q)
              acc += a[static_cast<size_t>(i * k + q)] * w[static_cast<size_t>(q * n + j)];
            const size_t si = x2ScaleByN ? static_cast<size_t>((j / gsN) * loops + l)
                                         : static_cast<size_t>(l * ((n + gsN - 1) / gsN) + j / gsN);
            v +=
                static_cast<float>(acc) * static_cast<float>(s1[static_cast<size_t>(i * loops + l)]) * s2[si];
          }
          if (!bias.empty()) v += bias[static_cast<size_t>(j)];
        } else {  // kGroup: the weight dequantised per group of gsK rows, then the product in fp32
          for (int64_t q = 0; q < k; ++q) {
            const float deq = static_cast<float>(w[static_cast<size_t>(q * n + j)]) *
                              s2[static_cast<size_t>((q / gsK) * n + j)];
            v += static_cast<double>(a[static_cast<size_t>(i * k + q)]) * deq;
          }
          v = (static_cast<float>(v) + static_cast<float>(yOff[static_cast<size_t>(j)])) *
              static_cast<float>(s1[static_cast<size_t>(i)]);
        }
        y[static_cast<size_t>(i * n + j)] = static_cast<float>(v);
      }
    }
    storeDense(out[0], y.data());
  }

 private:
  // The weight's integers in [k, n] row-major order (int4 nibbles, low nibble first, for kGroup).
  std::vector<int64_t> weights(const HostTensor& t) const {
    return mode != Mode::kGroup ? loadDense<int64_t>(t) : unpackInt4(t.data, k * n);
  }
};

bool isShape(const aclTensor* t, std::initializer_list<int64_t> s) {
  return t->desc.shape == std::vector<int64_t>(s);
}

int32_t build(const aclTensor* x1, const aclTensor* x2, const aclTensor* x1Scale, const aclTensor* x2Scale,
              const aclTensor* yScale, const aclTensor* x1Offset, const aclTensor* x2Offset,
              const aclTensor* yOffset, const aclTensor* bias, bool transposeX1, bool transposeX2,
              int64_t groupSize, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnQuantMatmulV5GetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x1", x1}, {"x2", x2}, {"x2Scale", x2Scale}, {"out", out}});
  if (st != kSuccess) return st;
  if (yScale != nullptr || x1Offset != nullptr || x2Offset != nullptr) {
    return fail(api, kErrParamInvalid,
                "yScale, x1Offset and x2Offset (int8 outputs, int4 x1) are not supported by the simulator");
  }
  for (const auto& [name, t] :
       {std::pair<const char*, const aclTensor*>{"x1", x1}, {"x2", x2}, {"x2Scale", x2Scale}, {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  if (x1->desc.dtype != ACL_INT8 || (x2->desc.dtype != ACL_INT8 && x2->desc.dtype != ACL_INT32)) {
    return fail(api, kErrParamInvalid,
                fmt::format("x1 must be int8 and x2 int8 or int32 (packed int4) here, but are {} and {}",
                            dtypeName(x1->desc.dtype), dtypeName(x2->desc.dtype)));
  }
  if (x1->desc.rank() != 2 || x2->desc.rank() != 2 || out->desc.rank() != 2) {
    return fail(api, kErrParamInvalid, "x1, x2 and out must be 2-dimensional");
  }
  if (out->desc.dtype != ACL_FLOAT16 && out->desc.dtype != ACL_BF16) {
    return fail(
        api, kErrParamInvalid,
        fmt::format(
            "out must be fp16 or bf16 (int8 and int32 outputs are not supported by the simulator), but is {}",
            dtypeName(out->desc.dtype)));
  }
  const bool packed = x2->desc.dtype == ACL_INT32;
  const TensorDesc a = transposeX1 ? swapLastTwo(x1->desc) : x1->desc;
  const TensorDesc b = transposeX2 ? swapLastTwo(x2->desc) : x2->desc;
  const int64_t m = a.shape[0], k = a.shape[1];
  const int64_t n = packed ? b.shape[1] * 8 : b.shape[1];
  if (b.shape[0] != k) {
    return fail(api, kErrParamInvalid,
                fmt::format("x1 read as {} and x2 read as {} do not multiply", shapeString(a.shape),
                            shapeString(b.shape)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, {m, n})) != kSuccess) return st;
  const int64_t gsK = groupSize & 0xFFFF, gsN = (groupSize >> 16) & 0xFFFF, gsM = (groupSize >> 32) & 0xFFFF;
  auto inst = std::make_unique<QuantMatmulV5Instance>();
  inst->m = m;
  inst->k = k;
  inst->n = n;
  const aclDataType s2t = x2Scale->desc.dtype;
  if (packed) {  // K-G
    if (transposeX1 || transposeX2 || !x2->desc.isContiguous() || gsK <= 0 || gsN != 0 ||
        x1Scale == nullptr || yOffset == nullptr || bias != nullptr ||
        (s2t != ACL_UINT64 && s2t != ACL_INT64) || !isShape(x2Scale, {(k + gsK - 1) / gsK, n}) ||
        !isShape(x1Scale, {m, 1}) || x1Scale->desc.dtype != ACL_FLOAT || !isShape(yOffset, {n}) ||
        yOffset->desc.dtype != ACL_FLOAT) {
      return fail(
          api, kErrParamInvalid,
          fmt::format(
              "with an int32 (packed int4) x2 only the K-G mode is modelled: dense x1 [m, k], x2 [k, n/8], "
              "x1Scale fp32 [m, 1], x2Scale uint64/int64 [ceil(k / gsK), n], yOffset fp32 [n], no bias, "
              "groupSize gsK > 0 (m = {}, k = {}, n = {}, groupSize = {:#x})",
              m, k, n, groupSize));
    }
    inst->mode = Mode::kGroup;
    inst->gsK = gsK;
    inst->scaleIsParam = true;
  } else if (gsK > 0 || gsN > 0) {  // G-B
    const int64_t loops = gsK > 0 ? (k + gsK - 1) / gsK : 0, nb = gsN > 0 ? (n + gsN - 1) / gsN : 0;
    const bool byN = gsN > 0 && isShape(x2Scale, {nb, loops}), byK = gsN > 0 && isShape(x2Scale, {loops, nb});
    if (gsK <= 0 || gsN <= 0 || gsM > 1 || x1Scale == nullptr || x1Scale->desc.dtype != ACL_FLOAT ||
        !isShape(x1Scale, {m, loops}) || s2t != ACL_FLOAT || (!byN && !byK) || yOffset != nullptr ||
        (bias != nullptr && (bias->desc.dtype != ACL_FLOAT || !isShape(bias, {n})))) {
      return fail(
          api, kErrParamInvalid,
          fmt::format(
              "per-block (G-B) mode: groupSize {:#x} must give gsM 1 (or 0), gsN and gsK > 0; x1Scale fp32 "
              "[m, ceil(k / gsK)], x2Scale fp32 [ceil(n / gsN), ceil(k / gsK)] or its transpose, bias fp32 "
              "[n]",
              groupSize));
    }
    inst->mode = Mode::kBlock;
    inst->gsK = gsK;
    inst->gsN = gsN;
    inst->x2ScaleByN = byN;
  } else {  // K-C, K-T, T-C, T-T
    const bool param = s2t == ACL_UINT64 || s2t == ACL_INT64;
    if ((!param && s2t != ACL_FLOAT && s2t != ACL_BF16) ||
        (!isShape(x2Scale, {n}) && !isShape(x2Scale, {1})) || yOffset != nullptr ||
        (param && x1Scale != nullptr)) {
      return fail(
          api, kErrParamInvalid,
          fmt::format(
              "per-channel mode: x2Scale must be fp32/bf16 (or uint64/int64 without x1Scale) [n] = [{}] or "
              "[1], no yOffset; x2Scale is {}",
              n, x2Scale->desc.brief()));
    }
    if (x1Scale != nullptr &&
        (x1Scale->desc.dtype != ACL_FLOAT || (!isShape(x1Scale, {m}) && !isShape(x1Scale, {m, 1})))) {
      return fail(api, kErrParamInvalid,
                  fmt::format("x1Scale must be fp32 [m] = [{}], but is {}", m, x1Scale->desc.brief()));
    }
    if (bias != nullptr) {
      const aclDataType bt = bias->desc.dtype;
      if ((bt != ACL_INT32 && bt != ACL_FLOAT && bt != ACL_BF16 && bt != ACL_FLOAT16) ||
          !isShape(bias, {n})) {
        return fail(api, kErrParamInvalid,
                    fmt::format("bias must be int32, fp32, bf16 or fp16 [n] = [{}], but is {}", n,
                                bias->desc.brief()));
      }
    }
    inst->mode = Mode::kChannel;
    inst->scaleIsParam = param;
  }
  inst->name = "aclnnQuantMatmulV5";
  inst->inputs = {a, packed ? x2->desc : b, x2Scale->desc};
  inst->inputNames = {"x1", "x2", "x2Scale"};
  auto add = [&](const char* name, const aclTensor* t, int* idx) {
    if (t == nullptr) return;
    *idx = static_cast<int>(inst->inputs.size());
    addInput(*inst, name, t);
  };
  add("x1Scale", x1Scale, &inst->x1ScaleInput);
  add("bias", bias, &inst->biasInput);
  add("yOffset", yOffset, &inst->yOffsetInput);
  inst->outputs = {out->desc};
  inst->outputNames = {"out"};
  inst->outputAlias = {-1};
  inst->attrs =
      fmt::format("transposeX1={}, transposeX2={}, groupSize={:#x}", transposeX1, transposeX2, groupSize);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnQuantMatmulV5GetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                          const aclTensor* x1Scale, const aclTensor* x2Scale,
                                                          const aclTensor* yScale, const aclTensor* x1Offset,
                                                          const aclTensor* x2Offset, const aclTensor* yOffset,
                                                          const aclTensor* bias, bool transposeX1,
                                                          bool transposeX2, int64_t groupSize, aclTensor* out,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build(x1, x2, x1Scale, x2Scale, yScale, x1Offset, x2Offset, yOffset, bias,
                              transposeX1, transposeX2, groupSize, out, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(QuantMatmulV5)

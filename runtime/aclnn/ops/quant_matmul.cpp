// aclnnQuantMatmul / aclnnQuantMatmulV2 (ops-nn matmul/quant_matmul/docs): out = (x1 @ x2 + bias)
// * deqScale with int8 x1 [.., m, k] and x2 [.., k, n] (2-3 dimensions; V2: adjX1 / adjX2 read
// them transposed, batches broadcast), int32 bias [n] (optional), fp16 out. The cube multiplies
// int8 into an exact int32 accumulator; the fixpipe adds bias, multiplies by the scale and
// rounds to fp16. V1 takes deqScale as a float; V2 as the uint64 of aclnnTransQuantParam, whose
// scale is the fp32 in the low 32 bits with the 13 lowest mantissa bits cleared (one per
// column n, or one for all; the doc's align(n, 16) entries and the public example's n are both
// accepted). Cost: int8_matmul.h (the int8 cube rate), bias and scale read once.
#include <fmt/format.h>

#include <vector>

#include "aclnnop/aclnn_quant_matmul.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/int8_matmul.h"
#include "runtime/aclnn/ops/matmul_geometry.h"
#include "runtime/aclnn/ops/matmul_tiling.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/quant_param.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpInfo kV1{"aclnnQuantMatmul",
                 ExecUnit::kCube,
                 {ACL_INT8, ACL_INT32, ACL_FLOAT16},
                 "out = fp16((x1 @ x2 + bias) * deqScale)"};
const OpInfo kV2{"aclnnQuantMatmulV2",
                 ExecUnit::kCube,
                 {ACL_INT8, ACL_INT32, ACL_UINT64, ACL_FLOAT16},
                 "out = fp16((x1 @ x2 + bias) * deqScale)"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kV1), OpRegistrar(kV2)};

// inputs: x1, x2 (views in [.., m, k] / [.., k, n] order), then deqScale (V2) and bias if given.
class QuantMatmulInstance : public OpInstanceBase<QuantMatmulInstance> {
 public:
  float scalarScale = 1;  // V1
  int scaleInput = -1, biasInput = -1;

  MatmulGeometry geometry() const {
    MatmulGeometry g;
    matmulGeometry(inputs[0].shape, inputs[0].strides, inputs[1].shape, inputs[1].strides, outputs[0].strides,
                   &g);
    return g;
  }

  rt::OpWork work() const override {
    uint64_t params = 0;  // scale and bias, read by the fixpipe
    for (size_t i = 2; i < inputs.size(); ++i)
      params += static_cast<uint64_t>(inputs[i].numel()) * inputs[i].elementSize();
    return int8MatmulWork(geometry(), inputs[0], inputs[1], outputs[0], params);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const MatmulGeometry g = geometry();
    if (out[0].numel() == 0) return;
    std::vector<float> scale(static_cast<size_t>(g.N), scalarScale);
    if (scaleInput >= 0) {
      const std::vector<int64_t> raw = loadDense<int64_t>(in[static_cast<size_t>(scaleInput)]);
      for (int64_t n = 0; n < g.N; ++n) {
        scale[static_cast<size_t>(n)] =
            quantParamScale(static_cast<uint64_t>(raw[raw.size() == 1 ? 0 : static_cast<size_t>(n)]));
      }
    }
    std::vector<int64_t> bias(static_cast<size_t>(g.N), 0);
    if (biasInput >= 0) bias = loadDense<int64_t>(in[static_cast<size_t>(biasInput)]);
    const std::vector<int64_t> acc = int8Products(g, in[0], in[1]);
    std::vector<float> row(static_cast<size_t>(g.N));
    for (int64_t i = 0; i < g.batch; ++i) {
      for (int64_t m = 0; m < g.M; ++m) {
        for (int64_t n = 0; n < g.N; ++n) {
          const int64_t v = acc[static_cast<size_t>((i * g.M + m) * g.N + n)] + bias[static_cast<size_t>(n)];
          row[static_cast<size_t>(n)] = static_cast<float>(v) * scale[static_cast<size_t>(n)];
        }
        storeRow(out[0].dtype, out[0].data + (g.cOff[static_cast<size_t>(i)] + m * g.cSm) * 2, g.cSn * 2, g.N,
                 row.data());
      }
    }
  }
};

int32_t build(const OpInfo& info, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
              const aclTensor* deqScale, float scalarScale, bool adjX1, bool adjX2, const aclTensor* out,
              uint64_t* workspaceSize, aclOpExecutor** executor) {
  const std::string apiName = info.name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  const bool v2 = &info == &kV2;
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x1", x1}, {"x2", x2}, {"out", out}});
  if (st == kSuccess && v2) st = checkNotNull(api, {{"deqScale", deqScale}});
  if (st != kSuccess) return st;
  auto typed = [&](const char* name, const aclTensor* t, aclDataType dt, size_t lo, size_t hi) {
    int32_t s = checkTensor(api, name, t->desc);
    if (s != kSuccess) return s;
    if (t->desc.dtype != dt) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} must be {}, but is {}", name, dtypeName(dt), dtypeName(t->desc.dtype)));
    }
    if (t->desc.rank() < lo || t->desc.rank() > hi) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} must have {} to {} dimensions, but is {}", name, lo, hi,
                              shapeString(t->desc.shape)));
    }
    return kSuccess;
  };
  if ((st = typed("x1", x1, ACL_INT8, 2, 3)) != kSuccess) return st;
  if ((st = typed("x2", x2, ACL_INT8, 2, 3)) != kSuccess) return st;
  if ((st = typed("out", out, ACL_FLOAT16, 2, 3)) != kSuccess) return st;
  if (bias != nullptr && (st = typed("bias", bias, ACL_INT32, 1, 1)) != kSuccess) return st;
  if (v2 && (st = typed("deqScale", deqScale, ACL_UINT64, 1, 1)) != kSuccess) return st;
  const TensorDesc a = adjX1 ? swapLastTwo(x1->desc) : x1->desc;
  const TensorDesc b = adjX2 ? swapLastTwo(x2->desc) : x2->desc;
  if (!v2 && a.rank() != b.rank()) {
    return fail(api, kErrParamInvalid,
                fmt::format("x1 {} and x2 {} must have the same rank (no broadcast)", shapeString(a.shape),
                            shapeString(b.shape)));
  }
  std::vector<int64_t> shape;
  const std::string why = matmulOutShape(a.shape, b.shape, &shape);
  if (!why.empty()) return fail(api, kErrParamInvalid, why);
  if (!v2 && a.rank() == 3 && a.shape[0] != b.shape[0]) {
    return fail(api, kErrParamInvalid,
                fmt::format("x1 and x2 batches {} and {} differ", a.shape[0], b.shape[0]));
  }
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  const int64_t n = shape.back();
  if (bias != nullptr && bias->desc.shape[0] != n) {
    return fail(api, kErrParamInvalid,
                fmt::format("bias must have n = {} elements, but has {}", n, bias->desc.shape[0]));
  }
  if (v2) {
    const int64_t t = deqScale->desc.shape[0];
    if (t != 1 && t != n && t != (n + 15) / 16 * 16) {
      return fail(api, kErrParamInvalid,
                  fmt::format("deqScale must have 1, n = {} or align(n, 16) = {} elements, but has {}", n,
                              (n + 15) / 16 * 16, t));
    }
  }
  auto inst = std::make_unique<QuantMatmulInstance>();
  inst->name = info.name;
  inst->inputs = {a, b};
  inst->inputNames = {"x1", "x2"};
  if (v2) {
    inst->scaleInput = static_cast<int>(inst->inputs.size());
    TensorDesc s = deqScale->desc;
    if (s.shape[0] != 1) s.shape[0] = n;  // the padding entries are not read
    inst->inputs.push_back(s);
    inst->inputNames.emplace_back("deqScale");
  }
  if (bias != nullptr) {
    inst->biasInput = static_cast<int>(inst->inputs.size());
    inst->inputs.push_back(bias->desc);
    inst->inputNames.emplace_back("bias");
  }
  inst->outputs = {out->desc};
  inst->outputNames = {"out"};
  inst->outputAlias = {-1};
  inst->scalarScale = scalarScale;
  inst->attrs =
      v2 ? fmt::format("adjX1={}, adjX2={}", adjX1, adjX2) : fmt::format("deqScale={}", scalarScale);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" {

aclnnStatus aclnnQuantMatmulGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                                             float deqScale, aclTensor* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return npusim::aclnn::build(npusim::aclnn::kV1, x1, x2, bias, nullptr, deqScale, false, false, out,
                              workspaceSize, executor);
}

aclnnStatus aclnnQuantMatmulV2GetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                               const aclTensor* bias, const aclTensor* deqScale, bool adjX1,
                                               bool adjX2, aclTensor* out, uint64_t* workspaceSize,
                                               aclOpExecutor** executor) {
  return npusim::aclnn::build(npusim::aclnn::kV2, x1, x2, bias, deqScale, 1.0f, adjX1, adjX2, out,
                              workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(QuantMatmul)
NPUSIM_ACLNN_PHASE2(QuantMatmulV2)

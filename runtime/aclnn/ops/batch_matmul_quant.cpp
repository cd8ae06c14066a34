// aclnnBatchMatmulQuant (ops-nn matmul/batch_matmul_quant/docs/aclnnBatchMatmulQuant.md): out =
// Quant(x1 @ x2 + bias) for 2-D fp16 x1 [m, k] and x2 [k, n] (transposeX1 / transposeX2 read them
// as [k, m] / [n, k], strided views), fp16 bias [n] (optional), int8 out [m, n]. The cube
// multiplies fp16 with fp32 accumulation; the fixpipe adds bias and quantises with the
// parameter of aclnnTransQuantParam (quant_param.h): out = sat_int8(rint(v · scale + offset)),
// per column (1, n or align(n, 16) parameters; the doc names 1 and align(n, 16), the public
// example passes n). Rounding half to even is an assumption (the doc does not say). Cost: the
// fp16 matmul tiling writing 1-byte results, bias and parameters read once.
#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "aclnnop/aclnn_batchmatmul_quant.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/matmul.h"
#include "runtime/aclnn/ops/matmul_geometry.h"
#include "runtime/aclnn/ops/matmul_tiling.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/quant_param.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnBatchMatmulQuant",
                   ExecUnit::kCube,
                   {ACL_FLOAT16, ACL_UINT64, ACL_INT8},
                   "out = int8(rint((x1 @ x2 + bias) * scale + offset))"};
const OpRegistrar kRegistrar(kInfo);

// inputs: x1, x2 (as [m, k] / [k, n] views), quantParam, then bias if given.
class BatchMatmulQuantInstance : public OpInstanceBase<BatchMatmulQuantInstance> {
 public:
  bool hasBias = false;

  rt::OpWork work() const override {
    MatmulGeometry g;
    matmulGeometry(inputs[0].shape, inputs[0].strides, inputs[1].shape, inputs[1].strides, outputs[0].strides,
                   &g);
    const MatmulTiling t = planMatmul(g.batch, g.M, g.N, g.K, 2, rt::coreRates().cubeCores);
    auto base = [](const TensorDesc& d) {
      return d.data + static_cast<uint64_t>(d.offset) * d.elementSize();
    };
    rt::OpWork w =
        matmulWork(t, g, MatmulAddressing{base(inputs[0]), base(inputs[1]), base(outputs[0]), 2, 2, 1, 1});
    uint64_t params = 0;
    for (size_t i = 2; i < inputs.size(); ++i)
      params += static_cast<uint64_t>(inputs[i].numel()) * inputs[i].elementSize();
    for (size_t i = 0; i < w.tiles.size(); ++i) w.tiles[i].readBytes += shareOf(params, i, w.tiles.size());
    return w;
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const auto m = out[0].shape[0], n = out[0].shape[1];
    std::vector<float> c(static_cast<size_t>(m * n));
    matmulKernel(MatmulSpec{CubeInput::kF16, ACL_FLOAT}, in[0], in[1],
                 hostTensor(ACL_FLOAT, {m, n}, c.data()));
    const std::vector<int64_t> params = loadDense<int64_t>(in[2]);
    std::vector<float> bias(static_cast<size_t>(n), 0.0f);
    if (hasBias) bias = loadDense<float>(in[3]);
    std::vector<int64_t> q(c.size());
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const auto p = static_cast<uint64_t>(params[params.size() == 1 ? 0 : static_cast<size_t>(j)]);
        const size_t o = static_cast<size_t>(i * n + j);
        const float v = (c[o] + bias[static_cast<size_t>(j)]) * quantParamScale(p) +
                        static_cast<float>(quantParamOffset(p));
        q[o] = std::isnan(v) ? 0
                             : static_cast<int64_t>(std::fmin(127.0f, std::fmax(-128.0f, std::nearbyint(v))));
      }
    }
    storeDense(out[0], q.data());
  }
};

TensorDesc transposed(const TensorDesc& d) {
  TensorDesc v = d;
  std::swap(v.shape[0], v.shape[1]);
  std::swap(v.strides[0], v.strides[1]);
  return v;
}

int32_t build(const aclTensor* x1, const aclTensor* x2, const aclTensor* quantParam, const aclTensor* bias,
              bool transposeX1, bool transposeX2, const aclTensor* out, uint64_t* workspaceSize,
              aclOpExecutor** executor) {
  const char* api = "aclnnBatchMatmulQuantGetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x1", x1}, {"x2", x2}, {"quantParam", quantParam}, {"out", out}});
  if (st != kSuccess) return st;
  const std::pair<const char*, const aclTensor*> typed[] = {{"x1", x1}, {"x2", x2}, {"out", out}};
  for (const auto& [name, t] : typed) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    const aclDataType want = t == out ? ACL_INT8 : ACL_FLOAT16;
    if (t->desc.dtype != want || t->desc.rank() != 2) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("{} must be a 2-D {} tensor, but is {}", name, dtypeName(want), t->desc.brief()));
    }
  }
  const TensorDesc a = transposeX1 ? transposed(x1->desc) : x1->desc;
  const TensorDesc b = transposeX2 ? transposed(x2->desc) : x2->desc;
  if (a.shape[1] != b.shape[0]) {
    return fail(api, kErrParamInvalid,
                fmt::format("x1 read as {} and x2 read as {} do not multiply", shapeString(a.shape),
                            shapeString(b.shape)));
  }
  const int64_t n = b.shape[1];
  if ((st = checkShape(api, "out", out->desc.shape, {a.shape[0], n})) != kSuccess) return st;
  if ((st = checkTensor(api, "quantParam", quantParam->desc)) != kSuccess) return st;
  const int64_t t = quantParam->desc.numel();
  if (quantParam->desc.dtype != ACL_UINT64 || quantParam->desc.rank() != 1 ||
      (t != 1 && t != n && t != (n + 15) / 16 * 16)) {
    return fail(
        api, kErrParamInvalid,
        fmt::format(
            "quantParam must be a 1-D uint64 tensor of 1, n = {} or align(n, 16) = {} elements, but is {}", n,
            (n + 15) / 16 * 16, quantParam->desc.brief()));
  }
  if (bias != nullptr) {
    if ((st = checkTensor(api, "bias", bias->desc)) != kSuccess) return st;
    if (bias->desc.dtype != ACL_FLOAT16 || bias->desc.shape != std::vector<int64_t>{n}) {
      return fail(api, kErrParamInvalid,
                  fmt::format("bias must be fp16 [{}], but is {}", n, bias->desc.brief()));
    }
  }
  auto inst = std::make_unique<BatchMatmulQuantInstance>();
  inst->name = "aclnnBatchMatmulQuant";
  TensorDesc params = quantParam->desc;
  if (t != 1) params.shape = {n};  // the padding entries are not read
  inst->inputs = {a, b, params};
  inst->inputNames = {"x1", "x2", "quantParam"};
  if (bias != nullptr) {
    inst->hasBias = true;
    addInput(*inst, "bias", bias);
  }
  inst->outputs = {out->desc};
  inst->outputNames = {"out"};
  inst->outputAlias = {-1};
  inst->attrs = fmt::format("transposeX1={}, transposeX2={}", transposeX1, transposeX2);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnBatchMatmulQuantGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* quantParam, const aclTensor* bias,
    bool transposeX1, bool transposeX2, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build(x1, x2, quantParam, bias, transposeX1, transposeX2, out, workspaceSize,
                              executor);
}

NPUSIM_ACLNN_PHASE2(BatchMatmulQuant)

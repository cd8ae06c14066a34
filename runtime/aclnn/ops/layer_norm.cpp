// aclnnLayerNorm (ops-nn norm/layer_norm_v4/docs/aclnnLayerNorm&aclnnLayerNormWithImplMode.md):
// over the trailing dimensions given by normalizedShape, mean = E[x], rstd = 1/sqrt(Var[x] +
// eps) (biased variance) and out = (x - mean) * rstd * weight + bias; weight defaults to ones
// and bias to zeros. input and out share a type (fp32, fp16, bf16); weight and bias have
// input's type or fp32, and each other's when both are given; meanOut and rstdOut (optional)
// have input's type and shape [A..., 1...]. Computed in fp64, each output rounded once.
#include <fmt/format.h>

#include <cmath>

#include "aclnnop/aclnn_layer_norm.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnLayerNorm",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                   "out = (x - mean) / sqrt(var + eps) * weight + bias"};
const OpInfo kFastInfo{"aclnnFastLayerNorm", ExecUnit::kVector, kInfo.dtypes, kInfo.formula};
const OpInfo kImplInfo{"aclnnLayerNormWithImplMode", ExecUnit::kVector, kInfo.dtypes, kInfo.formula};
const OpRegistrar kRegistrars[] = {OpRegistrar(kInfo), OpRegistrar(kFastInfo), OpRegistrar(kImplInfo)};

class LayerNormInstance : public OpInstanceBase<LayerNormInstance> {
 public:
  double eps = 1e-5;
  int64_t normSize = 1;            // elements normalised together
  int weightIn = -1, biasIn = -1;  // input index of weight / bias, -1 when absent
  int meanOut = -1, rstdOut = -1;  // output index of meanOut / rstdOut, -1 when absent

  rt::OpWork work() const override {
    // Sum, sum of squares, centre-and-scale, weight and bias: four vector passes over x.
    VectorPass p{&inputs, &outputs[0], outputs[0].numel(), 3};
    for (size_t i = 1; i < outputs.size(); ++i)
      p.extraWriteBytes += static_cast<uint64_t>(outputs[i].numel()) * outputs[i].elementSize();
    return vectorTiles(p);
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    std::vector<double> x = loadDense<double>(in[0]);
    const std::vector<double> w = weightIn >= 0 ? loadDense<double>(in[static_cast<size_t>(weightIn)])
                                                : std::vector<double>(static_cast<size_t>(normSize), 1.0);
    const std::vector<double> b = biasIn >= 0 ? loadDense<double>(in[static_cast<size_t>(biasIn)])
                                              : std::vector<double>(static_cast<size_t>(normSize), 0.0);
    const int64_t rows = normSize == 0 ? 0 : static_cast<int64_t>(x.size()) / normSize;
    std::vector<double> mean(static_cast<size_t>(rows)), rstd(static_cast<size_t>(rows));
    for (int64_t r = 0; r < rows; ++r) {
      double* p = x.data() + r * normSize;
      double s = 0, ss = 0;
      for (int64_t i = 0; i < normSize; ++i) s += p[i];
      const double m = s / static_cast<double>(normSize);
      for (int64_t i = 0; i < normSize; ++i) ss += (p[i] - m) * (p[i] - m);
      const double rs = 1.0 / std::sqrt(ss / static_cast<double>(normSize) + eps);
      mean[static_cast<size_t>(r)] = m;
      rstd[static_cast<size_t>(r)] = rs;
      for (int64_t i = 0; i < normSize; ++i)
        p[i] = (p[i] - m) * rs * w[static_cast<size_t>(i)] + b[static_cast<size_t>(i)];
    }
    storeDense(out[0], x.data());
    if (meanOut >= 0) storeDense(out[static_cast<size_t>(meanOut)], mean.data());
    if (rstdOut >= 0) storeDense(out[static_cast<size_t>(rstdOut)], rstd.data());
  }
};

int32_t layerNormPhase1(const char* api, const OpInfo& info, const aclTensor* input,
                        const aclIntArray* normalizedShape, const aclTensor* weightOptional,
                        const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional,
                        aclTensor* rstdOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"input", input}, {"normalizedShape", normalizedShape}, {"out", out}});
  if (st != kSuccess) return st;
  const std::pair<const char*, const aclTensor*> all[] = {
      {"input", input}, {"weightOptional", weightOptional},   {"biasOptional", biasOptional},
      {"out", out},     {"meanOutOptional", meanOutOptional}, {"rstdOutOptional", rstdOutOptional}};
  for (auto [name, t] : all) {
    if (t == nullptr) continue;
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, info)) != kSuccess) return st;
  }
  const aclDataType xt = input->desc.dtype;
  for (auto [name, t] : {all[3], all[4], all[5]}) {
    if (t != nullptr && t->desc.dtype != xt) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("{} type {} must equal input type {}", name, dtypeName(t->desc.dtype), dtypeName(xt)));
    }
  }
  const aclDataType wt = weightOptional ? weightOptional->desc.dtype
                         : biasOptional ? biasOptional->desc.dtype
                                        : xt;
  if ((wt != xt && wt != ACL_FLOAT) || (weightOptional && biasOptional && biasOptional->desc.dtype != wt)) {
    return fail(api, kErrParamInvalid, "weightOptional and biasOptional must share input's type or fp32");
  }
  const std::vector<int64_t>& ns = normalizedShape->values;
  const std::vector<int64_t>& xs = input->desc.shape;
  if (ns.empty() || ns.size() > xs.size()) {
    return fail(api, kErrParamInvalid,
                fmt::format("normalizedShape {} must have 1 to {} dimensions", shapeString(ns), xs.size()));
  }
  const size_t lead = xs.size() - ns.size();
  for (size_t i = 0; i < ns.size(); ++i) {
    if (ns[i] != xs[lead + i]) {
      return fail(api, kErrParamInvalid,
                  fmt::format("normalizedShape {} does not match the trailing dimensions of input {}",
                              shapeString(ns), shapeString(xs)));
    }
  }
  for (auto [name, t] : {all[1], all[2]}) {
    if (t != nullptr && (st = checkShape(api, name, t->desc.shape, ns)) != kSuccess) return st;
  }
  if ((st = checkShape(api, "out", out->desc.shape, xs)) != kSuccess) return st;
  std::vector<int64_t> statShape = xs;
  for (size_t i = lead; i < xs.size(); ++i) statShape[i] = 1;
  for (auto [name, t] : {all[4], all[5]}) {
    if (t != nullptr && (st = checkShape(api, name, t->desc.shape, statShape)) != kSuccess) return st;
  }
  auto inst = std::make_unique<LayerNormInstance>();
  inst->name = info.name;
  inst->eps = eps;
  inst->normSize = dimProduct(ns, 0, ns.size());
  addInput(*inst, "input", input);
  if (weightOptional != nullptr) {
    inst->weightIn = static_cast<int>(inst->inputs.size());
    addInput(*inst, "weightOptional", weightOptional);
  }
  if (biasOptional != nullptr) {
    inst->biasIn = static_cast<int>(inst->inputs.size());
    addInput(*inst, "biasOptional", biasOptional);
  }
  addOutput(*inst, "out", out);
  if (meanOutOptional != nullptr) {
    inst->meanOut = static_cast<int>(inst->outputs.size());
    addOutput(*inst, "meanOutOptional", meanOutOptional);
  }
  if (rstdOutOptional != nullptr) {
    inst->rstdOut = static_cast<int>(inst->outputs.size());
    addOutput(*inst, "rstdOutOptional", rstdOutOptional);
  }
  inst->attrs = fmt::format("normalizedShape={}, eps={}", shapeString(ns), eps);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnLayerNormGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional,
    const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional,
    aclTensor* rstdOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::layerNormPhase1("aclnnLayerNormGetWorkspaceSize", npusim::aclnn::kInfo, input,
                                        normalizedShape, weightOptional, biasOptional, eps, out,
                                        meanOutOptional, rstdOutOptional, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnFastLayerNormGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional,
    const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional,
    aclTensor* rstdOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::layerNormPhase1("aclnnFastLayerNormGetWorkspaceSize", npusim::aclnn::kFastInfo, input,
                                        normalizedShape, weightOptional, biasOptional, eps, out,
                                        meanOutOptional, rstdOutOptional, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnLayerNormWithImplModeGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional,
    const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional,
    aclTensor* rstdOutOptional, int32_t implMode, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnLayerNormWithImplModeGetWorkspaceSize";
  if (implMode < 0 || implMode > 2) {
    return fail(api, kErrParamInvalid, fmt::format("implMode must be 0, 1 or 2, but is {}", implMode));
  }
  if (implMode == 2) {
    for (const aclTensor* t : {input, weightOptional, biasOptional, static_cast<const aclTensor*>(out)}) {
      if (t != nullptr && t->desc.dtype != ACL_FLOAT16) {
        return fail(api, kErrParamInvalid, "implMode 2 (keep fp16) needs every tensor in fp16");
      }
    }
  }
  return layerNormPhase1(api, kImplInfo, input, normalizedShape, weightOptional, biasOptional, eps, out,
                         meanOutOptional, rstdOutOptional, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(LayerNorm)
NPUSIM_ACLNN_PHASE2(FastLayerNorm)
NPUSIM_ACLNN_PHASE2(LayerNormWithImplMode)

// RMS and layer norm fused with quantisation (ops-nn norm/rms_norm_quant, rms_norm_quant_v3,
// add_rms_norm_quant(_v2), rms_norm_dynamic_quant, add_rms_norm_dynamic_quant(_v2),
// layer_norm_quant, add_layer_norm_quant(_v2) docs):
//   x = x1 (+ x2) (+ bias)               (Add*: x written as xOut)
//   n = x / sqrt(mean(x^2) + eps) * gamma   over the last dimension (rmsNormOut: n), or for the
//       layer norms (x - mean) / sqrt(var + eps) * gamma (layernormRes: n + beta)
//   q = n (+ beta)                      (rstd = 1 / sqrt(mean(x^2) + eps) when asked)
// then one or two quantised outputs of q:
//   static:  y = rint(q / scale + offset) (divMode; RmsNormQuant always) or rint(q * scale +
//            offset), scale and offset one value or one per channel;
//   dynamic: per row, s = max|q * smooth| / qmax, y = rint(q * smooth / s), s written out.
// x fp16/bf16 (fp32 for the static forms where documented), computed in fp32; y int8 or int4
// packed in int32 (quant_format.h).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "aclnnop/aclnn_add_layer_norm_quant.h"
#include "aclnnop/aclnn_add_layer_norm_quant_v2.h"
#include "aclnnop/aclnn_add_rms_norm_dynamic_quant.h"
#include "aclnnop/aclnn_add_rms_norm_dynamic_quant_v2.h"
#include "aclnnop/aclnn_add_rms_norm_quant.h"
#include "aclnnop/aclnn_add_rms_norm_quant_v2.h"
#include "aclnnop/aclnn_layer_norm_quant.h"
#include "aclnnop/aclnn_rms_norm_dynamic_quant.h"
#include "aclnnop/aclnn_rms_norm_quant.h"
#include "aclnnop/aclnn_rms_norm_quant_v3.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/quant_format.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const char* const kNames[] = {"aclnnRmsNormQuant",
                              "aclnnRmsNormQuantV3",
                              "aclnnAddRmsNormQuant",
                              "aclnnAddRmsNormQuantV2",
                              "aclnnRmsNormDynamicQuant",
                              "aclnnAddRmsNormDynamicQuant",
                              "aclnnAddRmsNormDynamicQuantV2",
                              "aclnnLayerNormQuant",
                              "aclnnAddLayerNormQuant",
                              "aclnnAddLayerNormQuantV2"};
const OpRegistrar kReg0({kNames[0],
                         ExecUnit::kVector,
                         {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT8},
                         "y = rint((rmsnorm(x) * gamma + beta) / scale + offset)"});
const OpRegistrar kReg1({kNames[1],
                         ExecUnit::kVector,
                         {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT8},
                         "y = rint((rmsnorm(x) * gamma + beta) / or * scale + offset), rstd"});
const OpRegistrar kReg2({kNames[2],
                         ExecUnit::kVector,
                         {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT8},
                         "x = x1 + x2; y1, y2 = rint(rmsnorm(x) * gamma / or * scales + zeroPoints)"});
const OpRegistrar kReg3(
    {kNames[3],
     ExecUnit::kVector,
     {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT8},
     "x = x1 + x2; y1, y2 = rint((rmsnorm(x) * gamma + beta) / or * scales + zeroPoints)"});
const OpRegistrar kReg4({kNames[4],
                         ExecUnit::kVector,
                         {ACL_FLOAT16, ACL_BF16, ACL_INT8},
                         "y, scale = dynamic_quant((rmsnorm(x) * gamma + beta) * smooth)"});
const OpRegistrar kReg5({kNames[5],
                         ExecUnit::kVector,
                         {ACL_FLOAT16, ACL_BF16, ACL_INT8},
                         "x = x1 + x2; y1, y2 = dynamic_quant(rmsnorm(x) * gamma * smooth1, smooth2)"});
const OpRegistrar kReg7({kNames[7],
                         ExecUnit::kVector,
                         {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT8},
                         "y = layernorm(x) * gamma + beta; res = rint(y / scale + zp) or dynamic"});
const OpRegistrar kReg8({kNames[8],
                         ExecUnit::kVector,
                         {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT8},
                         "x = x1 + x2 + bias; y1, y2 = quant(layernorm(x) * gamma + beta)"});
const OpRegistrar kReg9({kNames[9],
                         ExecUnit::kVector,
                         {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT8},
                         "x = x1 + x2 + bias; y1, y2 = quant(layernorm(x) * gamma + beta), layernormRes"});
const OpRegistrar kReg6(
    {kNames[6],
     ExecUnit::kVector,
     {ACL_FLOAT16, ACL_BF16, ACL_INT8},
     "x = x1 + x2; y1, y2 = dynamic_quant((rmsnorm(x) * gamma + beta) * smooth1, smooth2)"});

// One quantised output and where its parameters are among the kernel's inputs (-1: absent).
struct QuantOut {
  bool dynamic = false, divMode = true;
  QuantFormat f;
  int scale = -1, offset = -1, smooth = -1;  // input indices
  int y = -1, rowScale = -1;                 // output indices
};

struct NormQuantSpec {
  double eps = 1e-6;
  int x2 = -1, beta = -1, bias = -1;          // input indices (x1 is 0, gamma is 1)
  int xOut = -1, rmsNormOut = -1, rstd = -1;  // output indices (rmsNormOut: also layernormRes)
  bool layerNorm = false;                     // subtract the mean (layer norm) instead of RMS
  bool normOutWithBeta = false;               // the norm output includes beta (layernormRes)
  QuantOut q[2];
  int quantCount = 0;
};

void normQuantKernel(const NormQuantSpec& s, const std::vector<HostTensor>& in,
                     const std::vector<HostTensor>& out) {
  std::vector<float> x = loadDense<float>(in[0]);
  if (s.x2 >= 0) {
    const std::vector<float> x2 = loadDense<float>(in[s.x2]);
    for (size_t i = 0; i < x.size(); ++i) x[i] += x2[i];
  }
  const int64_t n = in[0].shape.back(), rows = n == 0 ? 0 : in[0].numel() / n;
  if (s.bias >= 0) {
    const std::vector<float> bias = loadDense<float>(in[s.bias]);
    for (size_t i = 0; i < x.size(); ++i) x[i] += bias[i % static_cast<size_t>(n)];
  }
  const std::vector<float> gamma = loadDense<float>(in[1]);
  const std::vector<float> beta = s.beta >= 0 ? loadDense<float>(in[s.beta]) : std::vector<float>();
  std::vector<float> norm(x.size()), q(x.size()), rstd(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    double mean = 0, ss = 0;
    if (s.layerNorm) {
      for (int64_t i = 0; i < n; ++i) mean += x[r * n + i];
      mean /= static_cast<double>(n);
    }
    for (int64_t i = 0; i < n; ++i) ss += (x[r * n + i] - mean) * (x[r * n + i] - mean);
    rstd[r] = static_cast<float>(1.0 / std::sqrt(ss / static_cast<double>(n) + s.eps));
    for (int64_t i = 0; i < n; ++i) {
      norm[r * n + i] = static_cast<float>((x[r * n + i] - mean) * rstd[r] * gamma[i]);
      q[r * n + i] = norm[r * n + i] + (s.beta >= 0 ? beta[i] : 0.0f);
    }
  }
  if (s.xOut >= 0) storeDense(out[s.xOut], x.data());
  if (s.rmsNormOut >= 0) storeDense(out[s.rmsNormOut], s.normOutWithBeta ? q.data() : norm.data());
  if (s.rstd >= 0) storeDense(out[s.rstd], rstd.data());
  for (int k = 0; k < s.quantCount; ++k) {
    const QuantOut& o = s.q[k];
    std::vector<double> v(q.size());
    if (o.dynamic) {
      const std::vector<float> smooth = o.smooth >= 0 ? loadDense<float>(in[o.smooth]) : std::vector<float>();
      std::vector<float> scales(static_cast<size_t>(rows));
      for (int64_t r = 0; r < rows; ++r) {
        double m = 0;
        for (int64_t i = 0; i < n; ++i) {
          v[r * n + i] = static_cast<double>(q[r * n + i]) * (o.smooth >= 0 ? smooth[i] : 1.0f);
          m = std::max(m, std::fabs(v[r * n + i]));
        }
        scales[r] = static_cast<float>(m / o.f.maxValue());
        for (int64_t i = 0; i < n; ++i) v[r * n + i] = scales[r] == 0 ? 0.0 : v[r * n + i] / scales[r];
      }
      storeDense(out[o.rowScale], scales.data());
    } else {
      const std::vector<float> sc = loadDense<float>(in[o.scale]);
      const std::vector<float> off = o.offset >= 0 ? loadDense<float>(in[o.offset]) : std::vector<float>();
      for (size_t i = 0; i < q.size(); ++i) {
        const size_t c = i % static_cast<size_t>(n);
        const double scale = sc[sc.size() == 1 ? 0 : c],
                     offset = off.empty() ? 0.0 : off[off.size() == 1 ? 0 : c];
        v[i] = (o.divMode ? q[i] / scale : q[i] * scale) + offset;
      }
    }
    const std::vector<int64_t> packed = packQuantized(v, o.f, RoundMode::kRint);
    storeDense(out[o.y], packed.data());
  }
}

// The builder's view of the operator being assembled: its instance and the next free indices.
class Builder {
 public:
  Builder(const char* api, const char* name) : api_(api), inst_(std::make_unique<DenseKernelInstance>()) {
    inst_->name = name;
  }
  int input(const char* n, const aclTensor* t) {
    addInput(*inst_, n, t);
    return static_cast<int>(inst_->inputs.size()) - 1;
  }
  int output(const char* n, const aclTensor* t) {
    addOutput(*inst_, n, t);
    return static_cast<int>(inst_->outputs.size()) - 1;
  }
  // A per-channel parameter: one value or one per channel (n), of the given types.
  int32_t channelParam(const char* n, const aclTensor* t, std::initializer_list<aclDataType> types,
                       int64_t channels) {
    int32_t st = checkArg(api_, n, t, types);
    if (st != kSuccess) return st;
    return require(api_, t->desc.numel() == 1 || t->desc.numel() == channels,
                   fmt::format("{} {} must hold 1 or {} values", n, shapeString(t->desc.shape), channels));
  }
  int32_t finish(NormQuantSpec spec, uint64_t* workspaceSize, aclOpExecutor** executor) {
    inst_->vectorPasses = 5 + 2 * spec.quantCount;  // square-sum, rstd, scale by gamma, (beta), quantise
    inst_->kernel = [spec](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
      normQuantKernel(spec, in, out);
    };
    inst_->attrs = fmt::format("epsilon={}", spec.eps);
    return makeExecutor(api_, std::move(inst_), workspaceSize, executor);
  }
  const char* api() const { return api_; }

 private:
  const char* api_;
  std::unique_ptr<DenseKernelInstance> inst_;
};

const std::initializer_list<aclDataType> kHalf = {ACL_FLOAT16, ACL_BF16};
const std::initializer_list<aclDataType> kAnyFloat = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT};

// x1 (+ x2) and gamma: x of 1-8 dimensions, gamma one value per channel (the last dimension).
int32_t normInputs(Builder& b, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                   std::initializer_list<aclDataType> types, NormQuantSpec* s) {
  const char* api = b.api();
  int32_t st;
  if ((st = checkArg(api, x2 != nullptr ? "x1" : "x", x1, types)) != kSuccess) return st;
  if ((st = require(api, x1->desc.rank() >= 1, "x must have at least one dimension")) != kSuccess) return st;
  b.input(x2 != nullptr ? "x1" : "x", x1);
  if ((st = checkArg(api, "gamma", gamma, {x1->desc.dtype})) != kSuccess) return st;
  if ((st = require(api, gamma->desc.numel() == x1->desc.shape.back(),
                    fmt::format("gamma {} must hold one value per channel of x {}",
                                shapeString(gamma->desc.shape), shapeString(x1->desc.shape)))) != kSuccess) {
    return st;
  }
  b.input("gamma", gamma);
  if (x2 != nullptr) {
    if ((st = checkArg(api, "x2", x2, {x1->desc.dtype})) != kSuccess) return st;
    if ((st = checkShape(api, "x2", x2->desc.shape, x1->desc.shape)) != kSuccess) return st;
    s->x2 = b.input("x2", x2);
  }
  return kSuccess;
}

int32_t betaInput(Builder& b, const aclTensor* x, const aclTensor* beta, NormQuantSpec* s) {
  if (beta == nullptr) return kSuccess;
  int32_t st = checkArg(b.api(), "beta", beta, {x->desc.dtype});
  if (st != kSuccess) return st;
  if ((st = require(b.api(), beta->desc.numel() == x->desc.shape.back(),
                    "beta must hold one value per channel")) != kSuccess) {
    return st;
  }
  s->beta = b.input("beta", beta);
  return kSuccess;
}

// A quantised output y of x's shape (packed for int4) in int8 / int32.
int32_t quantOutput(Builder& b, const char* name, const aclTensor* x, const aclTensor* y, QuantOut* o) {
  int32_t st = checkArg(b.api(), name, y, {ACL_INT8, ACL_INT32, ACL_INT4, ACL_FLOAT8_E4M3FN, ACL_HIFLOAT8});
  if (st != kSuccess) return st;
  if (!quantFormatOf(y->desc.dtype, &o->f) || y->desc.dtype != o->f.stored) {
    return require(b.api(), false,
                   fmt::format("{} type {} is not supported (int8, or int4 packed eight to an int32)", name,
                               dtypeName(y->desc.dtype)));
  }
  std::vector<int64_t> shape = x->desc.shape;
  if ((st = require(b.api(), shape.back() % o->f.perElement() == 0,
                    "the last dimension must be a multiple of 8 for int4")) != kSuccess) {
    return st;
  }
  shape.back() /= o->f.perElement();
  if ((st = checkShape(b.api(), name, y->desc.shape, shape)) != kSuccess) return st;
  o->y = b.output(name, y);
  return kSuccess;
}

// A static quantised output: scale (and offset) per tensor or per channel.
int32_t staticQuant(Builder& b, NormQuantSpec* s, const aclTensor* x, const char* yName, const aclTensor* y,
                    const aclTensor* scale, const aclTensor* offset, bool divMode) {
  QuantOut& o = s->q[s->quantCount];
  const int64_t n = x->desc.shape.back();
  int32_t st;
  if ((st = b.channelParam("scale", scale, kAnyFloat, n)) != kSuccess) return st;
  o.scale = b.input("scale", scale);
  if (offset != nullptr) {
    if ((st = b.channelParam("offset", offset, {ACL_INT8, ACL_INT32, ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, n)) !=
        kSuccess) {
      return st;
    }
    o.offset = b.input("offset", offset);
  }
  o.divMode = divMode;
  if ((st = quantOutput(b, yName, x, y, &o)) != kSuccess) return st;
  ++s->quantCount;
  return kSuccess;
}

// A dynamic quantised output with its per-row scale (x's shape without the last dimension).
int32_t dynamicQuant(Builder& b, NormQuantSpec* s, const aclTensor* x, const char* yName, const aclTensor* y,
                     const char* scaleName, const aclTensor* rowScale, const aclTensor* smooth) {
  QuantOut& o = s->q[s->quantCount];
  o.dynamic = true;
  int32_t st;
  if (smooth != nullptr) {
    if ((st = b.channelParam("smoothScales", smooth, {x->desc.dtype}, x->desc.shape.back())) != kSuccess)
      return st;
    o.smooth = b.input("smoothScales", smooth);
  }
  if ((st = quantOutput(b, yName, x, y, &o)) != kSuccess) return st;
  if ((st = checkArg(b.api(), scaleName, rowScale, {ACL_FLOAT})) != kSuccess) return st;
  const std::vector<int64_t> rows(x->desc.shape.begin(), x->desc.shape.end() - 1);
  if ((st = require(b.api(), rowScale->desc.numel() == dimProduct(rows, 0, rows.size()),
                    fmt::format("{} must hold one value per row", scaleName))) != kSuccess) {
    return st;
  }
  o.rowScale = b.output(scaleName, rowScale);
  ++s->quantCount;
  return kSuccess;
}

int32_t xOutput(Builder& b, NormQuantSpec* s, const aclTensor* x1, const aclTensor* xOut) {
  int32_t st = checkArg(b.api(), "xOut", xOut, {x1->desc.dtype});
  if (st != kSuccess) return st;
  if ((st = checkShape(b.api(), "xOut", xOut->desc.shape, x1->desc.shape)) != kSuccess) return st;
  s->xOut = b.output("xOut", xOut);
  return kSuccess;
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

#define NQ_TRY(expr)                 \
  do {                               \
    const int32_t st_ = (expr);      \
    if (st_ != kSuccess) return st_; \
  } while (0)

extern "C" aclnnStatus aclnnRmsNormQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma,
                                                         const aclTensor* beta, const aclTensor* scale,
                                                         const aclTensor* offset, double epsilon,
                                                         aclTensor* y, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  Builder b("aclnnRmsNormQuantGetWorkspaceSize", kNames[0]);
  npusim::rt::chargeOpPrepare(b.api());
  NormQuantSpec s;
  s.eps = epsilon;
  NQ_TRY(normInputs(b, x, nullptr, gamma, kAnyFloat, &s));
  NQ_TRY(betaInput(b, x, beta, &s));
  NQ_TRY(staticQuant(b, &s, x, "y", y, scale, offset, true));
  return b.finish(s, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnRmsNormQuantV3GetWorkspaceSize(
    const aclTensor* x, const aclTensor* gamma, const aclTensor* scale, const aclTensor* offsetOptional,
    const aclTensor* betaOptional, double epsilon, bool divMode, bool outputRstd, aclTensor* y,
    aclTensor* rstd, uint64_t* workspaceSize, aclOpExecutor** executor) {
  Builder b("aclnnRmsNormQuantV3GetWorkspaceSize", kNames[1]);
  npusim::rt::chargeOpPrepare(b.api());
  NormQuantSpec s;
  s.eps = epsilon;
  NQ_TRY(normInputs(b, x, nullptr, gamma, kAnyFloat, &s));
  NQ_TRY(betaInput(b, x, betaOptional, &s));
  NQ_TRY(staticQuant(b, &s, x, "y", y, scale, offsetOptional, divMode));
  if (outputRstd) {
    NQ_TRY(checkArg(b.api(), "rstd", rstd, {ACL_FLOAT}));
    std::vector<int64_t> shape = x->desc.shape;
    shape.back() = 1;
    NQ_TRY(checkShape(b.api(), "rstd", rstd->desc.shape, shape));
    s.rstd = b.output("rstd", rstd);
  }
  return b.finish(s, workspaceSize, executor);
}

namespace npusim::aclnn {
namespace {

int32_t buildAddRmsNormQuant(Builder& b, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                             const aclTensor* scales1, const aclTensor* scales2, const aclTensor* zeroPoints1,
                             const aclTensor* zeroPoints2, const aclTensor* beta, int64_t axis,
                             double epsilon, bool divMode, aclTensor* y1, aclTensor* y2, aclTensor* xOut,
                             aclTensor* rmsNormOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(b.api());
  NormQuantSpec s;
  s.eps = epsilon;
  NQ_TRY(
      require(b.api(), axis == -1, fmt::format("axis {} is not supported (only -1, as documented)", axis)));
  NQ_TRY(normInputs(b, x1, x2, gamma, kAnyFloat, &s));
  if (x2 == nullptr) return fail(b.api(), kErrParamNullptr, "x2 is null");
  NQ_TRY(betaInput(b, x1, beta, &s));
  NQ_TRY(staticQuant(b, &s, x1, "y1Out", y1, scales1, zeroPoints1, divMode));
  if (scales2 != nullptr) NQ_TRY(staticQuant(b, &s, x1, "y2Out", y2, scales2, zeroPoints2, divMode));
  NQ_TRY(xOutput(b, &s, x1, xOut));
  if (rmsNormOut != nullptr) {
    NQ_TRY(checkArg(b.api(), "rmsNormOut", rmsNormOut, {x1->desc.dtype}));
    NQ_TRY(checkShape(b.api(), "rmsNormOut", rmsNormOut->desc.shape, x1->desc.shape));
    s.rmsNormOut = b.output("rmsNormOut", rmsNormOut);
  }
  return b.finish(s, workspaceSize, executor);
}

int32_t buildAddRmsNormDynamicQuant(Builder& b, const aclTensor* x1, const aclTensor* x2,
                                    const aclTensor* gamma, const aclTensor* smooth1,
                                    const aclTensor* smooth2, const aclTensor* beta, double epsilon,
                                    const aclBoolArray* mask, aclTensor* y1, aclTensor* y2, aclTensor* xOut,
                                    aclTensor* scale1, aclTensor* scale2, uint64_t* workspaceSize,
                                    aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(b.api());
  NormQuantSpec s;
  s.eps = epsilon;
  NQ_TRY(normInputs(b, x1, x2, gamma, kHalf, &s));
  if (x2 == nullptr) return fail(b.api(), kErrParamNullptr, "x2 is null");
  NQ_TRY(betaInput(b, x1, beta, &s));
  // Which outputs are quantised: the mask when given, else y1 always and y2 with two smooths.
  bool want1 = true, want2 = smooth1 != nullptr && smooth2 != nullptr;
  if (mask != nullptr) {
    NQ_TRY(require(b.api(), mask->values.size() == 2, "outputMask must hold two values"));
    want1 = mask->values[0];
    want2 = mask->values[1];
  }
  if (want1) NQ_TRY(dynamicQuant(b, &s, x1, "y1Out", y1, "scale1Out", scale1, smooth1));
  if (want2) NQ_TRY(dynamicQuant(b, &s, x1, "y2Out", y2, "scale2Out", scale2, smooth2));
  NQ_TRY(xOutput(b, &s, x1, xOut));
  return b.finish(s, workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnAddRmsNormQuantGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma, const aclTensor* scales1,
    const aclTensor* scales2Optional, const aclTensor* zeroPoints1Optional,
    const aclTensor* zeroPoints2Optional, int64_t axis, double epsilon, bool divMode, aclTensor* y1Out,
    aclTensor* y2Out, aclTensor* xOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  Builder b("aclnnAddRmsNormQuantGetWorkspaceSize", kNames[2]);
  return buildAddRmsNormQuant(b, x1, x2, gamma, scales1, scales2Optional, zeroPoints1Optional,
                              zeroPoints2Optional, nullptr, axis, epsilon, divMode, y1Out, y2Out, xOut,
                              nullptr, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnAddRmsNormQuantV2GetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma, const aclTensor* scales1,
    const aclTensor* scales2Optional, const aclTensor* zeroPoints1Optional,
    const aclTensor* zeroPoints2Optional, const aclTensor* betaOptional, int64_t axis, double epsilon,
    bool divMode, aclTensor* y1Out, aclTensor* y2Out, aclTensor* xOut, aclTensor* rmsNormOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  Builder b("aclnnAddRmsNormQuantV2GetWorkspaceSize", kNames[3]);
  return buildAddRmsNormQuant(b, x1, x2, gamma, scales1, scales2Optional, zeroPoints1Optional,
                              zeroPoints2Optional, betaOptional, axis, epsilon, divMode, y1Out, y2Out, xOut,
                              rmsNormOut, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnRmsNormDynamicQuantGetWorkspaceSize(
    const aclTensor* x, const aclTensor* gamma, const aclTensor* smoothScalesOptional,
    const aclTensor* betaOptional, double epsilon, int64_t dstType, const aclTensor* yOut,
    const aclTensor* scaleOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  Builder b("aclnnRmsNormDynamicQuantGetWorkspaceSize", kNames[4]);
  npusim::rt::chargeOpPrepare(b.api());
  NormQuantSpec s;
  s.eps = epsilon;
  NQ_TRY(normInputs(b, x, nullptr, gamma, kHalf, &s));
  NQ_TRY(betaInput(b, x, betaOptional, &s));
  if (yOut != nullptr) {
    NQ_TRY(require(b.api(),
                   dstType == static_cast<int64_t>(yOut->desc.dtype) ||
                       (dstType == ACL_INT4 && yOut->desc.dtype == ACL_INT32),
                   fmt::format("dstType {} does not match yOut's type", dstType)));
  }
  NQ_TRY(dynamicQuant(b, &s, x, "yOut", yOut, "scaleOut", scaleOut, smoothScalesOptional));
  return b.finish(s, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnAddRmsNormDynamicQuantGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma, const aclTensor* smoothScale1Optional,
    const aclTensor* smoothScale2Optional, double epsilon, aclTensor* y1Out, aclTensor* y2Out,
    aclTensor* xOut, aclTensor* scale1Out, aclTensor* scale2Out, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  Builder b("aclnnAddRmsNormDynamicQuantGetWorkspaceSize", kNames[5]);
  return buildAddRmsNormDynamicQuant(b, x1, x2, gamma, smoothScale1Optional, smoothScale2Optional, nullptr,
                                     epsilon, nullptr, y1Out, y2Out, xOut, scale1Out, scale2Out,
                                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnAddRmsNormDynamicQuantV2GetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma, const aclTensor* smoothScale1Optional,
    const aclTensor* smoothScale2Optional, const aclTensor* betaOptional, double epsilon,
    const aclBoolArray* outputMaskOptional, aclTensor* y1Out, aclTensor* y2Out, aclTensor* xOut,
    aclTensor* scale1Out, aclTensor* scale2Out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  Builder b("aclnnAddRmsNormDynamicQuantV2GetWorkspaceSize", kNames[6]);
  return buildAddRmsNormDynamicQuant(b, x1, x2, gamma, smoothScale1Optional, smoothScale2Optional,
                                     betaOptional, epsilon, outputMaskOptional, y1Out, y2Out, xOut, scale1Out,
                                     scale2Out, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnLayerNormQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma,
                                                           const aclTensor* beta, const aclTensor* scale,
                                                           const aclTensor* zeroPointsOptional, int quantMode,
                                                           double epsilon, aclTensor* res,
                                                           aclTensor* scaleOut, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  Builder b("aclnnLayerNormQuantGetWorkspaceSize", kNames[7]);
  npusim::rt::chargeOpPrepare(b.api());
  NQ_TRY(require(b.api(), quantMode == 0 || quantMode == 1,
                 fmt::format("quantMode {} must be 0 (static) or 1 (dynamic)", quantMode)));
  NormQuantSpec s;
  s.eps = epsilon;
  s.layerNorm = true;
  NQ_TRY(normInputs(b, x, nullptr, gamma, kAnyFloat, &s));
  NQ_TRY(betaInput(b, x, beta, &s));
  if (quantMode == 0) {
    NQ_TRY(staticQuant(b, &s, x, "res", res, scale, zeroPointsOptional, true));
  } else {
    NQ_TRY(dynamicQuant(b, &s, x, "res", res, "scaleOut", scaleOut, scale));
  }
  return b.finish(s, workspaceSize, executor);
}

namespace npusim::aclnn {
namespace {

int32_t buildAddLayerNormQuant(Builder& b, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                               const aclTensor* beta, const aclTensor* bias, const aclTensor* scales1,
                               const aclTensor* scales2, const aclTensor* zeroPoints1,
                               const aclTensor* zeroPoints2, const char* quantMode, double epsilon,
                               bool additionalOutput, bool divMode, aclTensor* y1, aclTensor* y2,
                               aclTensor* xOut, aclTensor* layernormRes, aclTensor* outScales1,
                               aclTensor* outScales2, uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(b.api());
  if (quantMode == nullptr) return fail(b.api(), kErrParamNullptr, "quantMode is null");
  const std::string mode(quantMode);
  NQ_TRY(require(b.api(), mode == "static" || mode == "dynamic",
                 fmt::format("quantMode \"{}\" must be \"static\" or \"dynamic\"", mode)));
  NormQuantSpec s;
  s.eps = epsilon;
  s.layerNorm = true;
  s.normOutWithBeta = true;
  NQ_TRY(normInputs(b, x1, x2, gamma, kAnyFloat, &s));
  if (x2 == nullptr) return fail(b.api(), kErrParamNullptr, "x2 is null");
  NQ_TRY(betaInput(b, x1, beta, &s));
  if (bias != nullptr) {
    NQ_TRY(b.channelParam("biasOptional", bias, {x1->desc.dtype}, x1->desc.shape.back()));
    s.bias = b.input("biasOptional", bias);
  }
  if (mode == "static") {
    if (scales1 == nullptr)
      return fail(b.api(), kErrParamNullptr, "static quantisation needs scales1Optional");
    NQ_TRY(staticQuant(b, &s, x1, "y1Out", y1, scales1, zeroPoints1, divMode));
    if (scales2 != nullptr) NQ_TRY(staticQuant(b, &s, x1, "y2Out", y2, scales2, zeroPoints2, divMode));
  } else {
    NQ_TRY(dynamicQuant(b, &s, x1, "y1Out", y1, "outScales1Out", outScales1, scales1));
    if (scales1 != nullptr && scales2 != nullptr) {
      NQ_TRY(dynamicQuant(b, &s, x1, "y2Out", y2, "outScales2Out", outScales2, scales2));
    }
  }
  if (additionalOutput) NQ_TRY(xOutput(b, &s, x1, xOut));
  if (layernormRes != nullptr) {
    NQ_TRY(checkArg(b.api(), "layernormRes", layernormRes, {x1->desc.dtype}));
    NQ_TRY(checkShape(b.api(), "layernormRes", layernormRes->desc.shape, x1->desc.shape));
    s.rmsNormOut = b.output("layernormRes", layernormRes);
  }
  return b.finish(s, workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnAddLayerNormQuantGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma, const aclTensor* beta,
    const aclTensor* biasOptional, const aclTensor* scales1Optional, const aclTensor* scales2Optional,
    const aclTensor* zeroPoints1Optional, const aclTensor* zeroPoints2Optional, const char* quantMode,
    double epsilon, bool additionalOutput, bool divMode, aclTensor* y1Out, aclTensor* y2Out, aclTensor* xOut,
    aclTensor* outScales1Out, aclTensor* outScales2Out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  Builder b("aclnnAddLayerNormQuantGetWorkspaceSize", kNames[8]);
  return buildAddLayerNormQuant(b, x1, x2, gamma, beta, biasOptional, scales1Optional, scales2Optional,
                                zeroPoints1Optional, zeroPoints2Optional, quantMode, epsilon,
                                additionalOutput, divMode, y1Out, y2Out, xOut, nullptr, outScales1Out,
                                outScales2Out, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnAddLayerNormQuantV2GetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma, const aclTensor* beta,
    const aclTensor* biasOptional, const aclTensor* scales1Optional, const aclTensor* scales2Optional,
    const aclTensor* zeroPoints1Optional, const aclTensor* zeroPoints2Optional, const char* quantMode,
    double epsilon, bool additionalOutput, bool divMode, aclTensor* y1Out, aclTensor* y2Out, aclTensor* xOut,
    aclTensor* layernormRes, aclTensor* outScales1Out, aclTensor* outScales2Out, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  Builder b("aclnnAddLayerNormQuantV2GetWorkspaceSize", kNames[9]);
  return buildAddLayerNormQuant(b, x1, x2, gamma, beta, biasOptional, scales1Optional, scales2Optional,
                                zeroPoints1Optional, zeroPoints2Optional, quantMode, epsilon,
                                additionalOutput, divMode, y1Out, y2Out, xOut, layernormRes, outScales1Out,
                                outScales2Out, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(RmsNormQuant)
NPUSIM_ACLNN_PHASE2(RmsNormQuantV3)
NPUSIM_ACLNN_PHASE2(AddRmsNormQuant)
NPUSIM_ACLNN_PHASE2(AddRmsNormQuantV2)
NPUSIM_ACLNN_PHASE2(RmsNormDynamicQuant)
NPUSIM_ACLNN_PHASE2(AddRmsNormDynamicQuant)
NPUSIM_ACLNN_PHASE2(AddRmsNormDynamicQuantV2)
NPUSIM_ACLNN_PHASE2(LayerNormQuant)
NPUSIM_ACLNN_PHASE2(AddLayerNormQuant)
NPUSIM_ACLNN_PHASE2(AddLayerNormQuantV2)

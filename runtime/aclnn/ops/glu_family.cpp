// The gated linear units of ops-nn activation/ (issue 28) on the gated engine (gated_op.h):
// Glu and GluBackward (A * sigmoid(B)), GeGlu / GeGluV3 and their backward forms (gelu of one
// half times the other, erf or tanh GELU), SwiGluGrad, SituGlu and SituGluGrad, GeluMul,
// FatreluMul, ClippedSwiglu (V2, Grad: halves or even/odd entries, the rows after groupIndex's
// sum written as 0), SwigluGroup (refused: Ascend 950 only) and the experimental SwigluClamp.
// Each is its element functions (from the operator's docs/aclnn*.md or README) and its entry point.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "aclnnop/aclnn_clipped_swiglu.h"
#include "aclnnop/aclnn_clipped_swiglu_grad.h"
#include "aclnnop/aclnn_clipped_swiglu_v2.h"
#include "aclnnop/aclnn_fatrelu_mul.h"
#include "aclnnop/aclnn_geglu.h"
#include "aclnnop/aclnn_geglu_backward.h"
#include "aclnnop/aclnn_gelu_mul.h"
#include "aclnnop/aclnn_glu.h"
#include "aclnnop/aclnn_glu_backward.h"
#include "aclnnop/aclnn_situ_glu.h"
#include "aclnnop/aclnn_situ_glu_grad.h"
#include "aclnnop/aclnn_swi_glu_grad.h"
#include "aclnnop/aclnn_swiglu_clamp.h"
#include "aclnnop/aclnn_swiglu_group.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/gated_op.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const double kPi = std::acos(-1.0);

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }
// GELU, p[0]: 0 the erf form, 1 the tanh approximation (the docs' `approximate`).
double gelu(double x, const GatedParams& p) {
  if (p[0] == 0) return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  return 0.5 * x * (1 + std::tanh(std::sqrt(2 / kPi) * (x + 0.044715 * x * x * x)));
}
double geluDeriv(double x, const GatedParams& p) {
  if (p[0] == 0)
    return 0.5 * (1 + std::erf(x / std::sqrt(2.0))) + x * std::exp(-x * x / 2) / std::sqrt(2 * kPi);
  const double k = std::sqrt(2 / kPi), t = std::tanh(k * (x + 0.044715 * x * x * x));
  return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * 0.044715 * x * x);
}

// --- Glu: lin * sigmoid(act), the second half activated ---
double gluFwd(double act, double lin, const GatedParams&) { return lin * sigmoid(act); }
void gluBwd(double act, double lin, const GatedParams&, double* dAct, double* dLin) {
  const double s = sigmoid(act);
  *dAct = lin * s * (1 - s);
  *dLin = s;
}
// --- GeGlu: gelu(act) * lin ---
double gegluFwd(double act, double lin, const GatedParams& p) { return gelu(act, p) * lin; }
void gegluBwd(double act, double lin, const GatedParams& p, double* dAct, double* dLin) {
  *dAct = lin * geluDeriv(act, p);
  *dLin = gelu(act, p);
}
// --- SwiGlu: silu(act) * lin ---
void swigluBwd(double act, double lin, const GatedParams&, double* dAct, double* dLin) {
  const double s = sigmoid(act);
  *dAct = lin * s * (1 + act * (1 - s));
  *dLin = act * s;
}
// --- SituGlu: beta tanh(gate / beta) sigmoid(gate) * up', up' = lb tanh(up / lb) when lb > 0 ---
double situGate(double g, const GatedParams& p) { return p[0] * std::tanh(g / p[0]) * sigmoid(g); }
double situUp(double u, const GatedParams& p) { return p[1] > 0 ? p[1] * std::tanh(u / p[1]) : u; }
double situFwd(double act, double lin, const GatedParams& p) { return situGate(act, p) * situUp(lin, p); }
void situBwd(double act, double lin, const GatedParams& p, double* dAct, double* dLin) {
  const double t = std::tanh(act / p[0]), s = sigmoid(act);
  *dAct = ((1 - t * t) * s + p[0] * t * s * (1 - s)) * situUp(lin, p);
  const double tu = p[1] > 0 ? std::tanh(lin / p[1]) : 0;
  *dLin = situGate(act, p) * (p[1] > 0 ? 1 - tu * tu : 1);
}
// --- FatreluMul: (act >= threshold ? act : 0) * lin, p[0] the threshold ---
double fatreluFwd(double act, double lin, const GatedParams& p) { return (act < p[0] ? 0 : act) * lin; }
// --- SwigluClamp: min(silu(gate), limit) * clamp(up, -limit, limit), p[0] the limit ---
double swigluClampFwd(double act, double lin, const GatedParams& p) {
  return std::min(act * sigmoid(act), p[0]) * std::min(std::max(lin, -p[0]), p[0]);
}

// --- ClippedSwiglu, p: alpha, limit, bias: a = min(A, l), b = clamp(B, -l, l), a sigmoid(alpha a) (b + bias)
// ---
double clippedFwd(double act, double lin, const GatedParams& p) {
  const double l = p[1], a = std::min(act, l), b = std::min(std::max(lin, -l), l);
  return a * sigmoid(p[0] * a) * (b + p[2]);
}
void clippedBwd(double act, double lin, const GatedParams& p, double* dAct, double* dLin) {
  const double l = p[1], a = std::min(act, l), b = std::min(std::max(lin, -l), l), s = sigmoid(p[0] * a);
  *dAct = act <= l ? (s + p[0] * a * s * (1 - s)) * (b + p[2]) : 0;
  *dLin = lin >= -l && lin <= l ? a * s : 0;
}

const OpInfo kGlu{
    "aclnnGlu", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}, "out = A * sigmoid(B)"};
const OpInfo kGluBackward{"aclnnGluBackward",
                          ExecUnit::kVector,
                          {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE},
                          "out = gradOut * d(A * sigmoid(B)) / d(A, B)"};
const OpInfo kGeGlu{"aclnnGeGlu", ExecUnit::kVector, kFloats, "out = A * gelu(B), outGelu = gelu(B)"};
const OpInfo kGeGluV3{"aclnnGeGluV3", ExecUnit::kVector, kFloats,
                      "out = gelu(act) * lin, act the left half if activateLeft"};
const OpInfo kGeGluBackward{"aclnnGeGluBackward", ExecUnit::kVector, kFloats,
                            "gradInput = gradOutput * d(A * gelu(B)) / d(A, B)"};
const OpInfo kGeGluV3Backward{"aclnnGeGluV3Backward", ExecUnit::kVector, kFloats,
                              "gradInput = gradOutput * d(gelu(act) * lin) / d(act, lin)"};
const OpInfo kSwiGluGrad{"aclnnSwiGluGrad", ExecUnit::kVector, kFloats,
                         "out = yGrad * d(silu(A) * B) / d(A, B)"};
const OpInfo kSituGlu{
    "aclnnSituGlu", ExecUnit::kVector, kFloats,
    "out = beta tanh(gate / beta) sigmoid(gate) * (linearBeta tanh(up / linearBeta) or up)"};
const OpInfo kSituGluGrad{"aclnnSituGluGrad", ExecUnit::kVector, kFloats,
                          "out = gradY * d SituGlu / d(gate, up)"};
const OpInfo kGeluMul{"aclnnGeluMul", ExecUnit::kVector, kFloats,
                      "out = gelu(x1) * x2, x halved along the last dim"};
const OpInfo kFatreluMul{"aclnnFatreluMul", ExecUnit::kVector, kFloats,
                         "out = (x1 >= threshold ? x1 : 0) * x2, x halved along the last dim"};
const OpInfo kSwigluClamp{"aclnnSwigluClamp", ExecUnit::kVector, kFloats,
                          "y = min(silu(gate), limit) * clamp(up, -limit, limit)"};

// SwigluGroup exists on Ascend 950 only (its doc: Atlas A2 not supported): refused on the 910B.
const OpInfo kSwigluGroup{"aclnnSwigluGroup", ExecUnit::kVector, kFloats,
                          "Ascend 950 only: refused on the simulated 910B"};
const OpRegistrar kSwigluGroupRegistrar(kSwigluGroup);

const OpInfo kClippedSwiglu{"aclnnClippedSwiglu", ExecUnit::kVector, kFloats,
                            "out = min(A, l) sigmoid(alpha min(A, l)) (clamp(B, -l, l) + bias)"};
// ClippedSwigluV2 exists on Ascend 950 only (its doc: Atlas A2 not supported): refused on the 910B.
const OpInfo kClippedSwigluV2{"aclnnClippedSwigluV2", ExecUnit::kVector, kFloats,
                              "Ascend 950 only: refused on the simulated 910B"};
const OpInfo kClippedSwigluGrad{"aclnnClippedSwigluGrad", ExecUnit::kVector, kFloats,
                                "gradXOut = gradY * d ClippedSwiglu / d(A, B), 0 where a clamp bound"};
const OpRegistrar kClippedRegistrars[] = {OpRegistrar(kClippedSwiglu), OpRegistrar(kClippedSwigluV2),
                                          OpRegistrar(kClippedSwigluGrad)};
const GatedDef kClippedSwigluDef{&kClippedSwiglu, clippedFwd, nullptr, nullptr, 6};
const GatedDef kClippedSwigluGradDef{&kClippedSwigluGrad, clippedFwd, clippedBwd, nullptr, 8};

const OpRegistrar kRegistrars[] = {
    OpRegistrar(kGlu),        OpRegistrar(kGluBackward),   OpRegistrar(kGeGlu),
    OpRegistrar(kGeGluV3),    OpRegistrar(kGeGluBackward), OpRegistrar(kGeGluV3Backward),
    OpRegistrar(kSwiGluGrad), OpRegistrar(kSituGlu),       OpRegistrar(kSituGluGrad),
    OpRegistrar(kGeluMul),    OpRegistrar(kFatreluMul),    OpRegistrar(kSwigluClamp)};

const GatedDef kGluDef{&kGlu, gluFwd, nullptr, nullptr, 4};
const GatedDef kGluBackwardDef{&kGluBackward, gluFwd, gluBwd, nullptr, 6};
const GatedDef kGeGluDef{&kGeGlu, gegluFwd, nullptr, gelu, 6};
const GatedDef kGeGluV3Def{&kGeGluV3, gegluFwd, nullptr, gelu, 6};
const GatedDef kGeGluBackwardDef{&kGeGluBackward, gegluFwd, gegluBwd, nullptr, 8};
const GatedDef kGeGluV3BackwardDef{&kGeGluV3Backward, gegluFwd, gegluBwd, nullptr, 8};
const GatedDef kSwiGluGradDef{&kSwiGluGrad, nullptr, swigluBwd, nullptr, 6};
const GatedDef kSituGluDef{&kSituGlu, situFwd, nullptr, nullptr, 8};
const GatedDef kSituGluGradDef{&kSituGluGrad, situFwd, situBwd, nullptr, 10};
const GatedDef kGeluMulDef{&kGeluMul, gegluFwd, nullptr, nullptr, 6};
const GatedDef kFatreluMulDef{&kFatreluMul, fatreluFwd, nullptr, nullptr, 2};
const GatedDef kSwigluClampDef{&kSwigluClamp, swigluClampFwd, nullptr, nullptr, 6};

std::string apiOf(const OpInfo& info) { return info.name + "GetWorkspaceSize"; }

int32_t badApproximate(const char* api, int64_t approximate) {
  npusim::rt::chargeOpPrepare(api);
  return fail(api, kErrParamInvalid,
              fmt::format("approximate must be 0 (none) or 1 (tanh), not {}", approximate));
}

int32_t geglu(const GatedDef& d, const aclTensor* self, int64_t dim, int64_t approximate, bool activateLeft,
              aclTensor* out, aclTensor* outGelu, uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = apiOf(*d.info);
  if (approximate != 0 && approximate != 1) return badApproximate(api.c_str(), approximate);
  GatedArgs a{api.c_str(), "self", "out", dim, activateLeft, {static_cast<double>(approximate), 0, 0, 0}};
  a.attrs = fmt::format("dim={}, approximate={}, activateLeft={}", dim, approximate, activateLeft);
  a.gateName = "outGelu";
  a.gateOut = outGelu;
  return buildGated(d, a, self, out, ws, ex);
}

int32_t gegluBackward(const GatedDef& d, const aclTensor* gradOutput, const aclTensor* self,
                      const aclTensor* gelu, int64_t dim, int64_t approximate, bool activateLeft,
                      aclTensor* gradInput, uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = apiOf(*d.info);
  if (approximate != 0 && approximate != 1) return badApproximate(api.c_str(), approximate);
  GatedArgs a{api.c_str(), "self",       "gradInput",
              dim,         activateLeft, {static_cast<double>(approximate), 0, 0, 0}};
  a.attrs = fmt::format("dim={}, approximate={}, activateLeft={}", dim, approximate, activateLeft);
  a.gradName = "gradOutput";
  a.grad = gradOutput;
  a.extraName = "gelu";
  a.extra = gelu;
  return buildGated(d, a, self, gradInput, ws, ex);
}

// The operators whose only parameter is dim (Glu, GluBackward, SwiGluGrad); grad: the
// gradient operators' incoming gradient, or nullptr.
int32_t split(const GatedDef& d, const char* xName, bool actFirst, const aclTensor* x, int64_t dim,
              const char* gradName, const aclTensor* grad, const aclTensor* out, uint64_t* ws,
              aclOpExecutor** ex) {
  const std::string api = apiOf(*d.info);
  GatedArgs a{api.c_str(), xName, "out", dim, actFirst};
  a.attrs = fmt::format("dim={}", dim);
  a.gradName = gradName;
  a.grad = grad;
  return buildGated(d, a, x, out, ws, ex);
}

// SituGlu and SituGluGrad (gradY): beta 0 would divide by zero.
int32_t situ(const GatedDef& d, const aclTensor* gradY, const aclTensor* x, int64_t dim, double beta,
             double linearBeta, bool activateLeft, const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = apiOf(*d.info);
  if (beta == 0) {
    npusim::rt::chargeOpPrepare(api.c_str());
    return fail(api.c_str(), kErrParamInvalid, "beta must not be 0");
  }
  GatedArgs a{api.c_str(), "x", "out", dim, activateLeft, {beta, linearBeta, 0, 0}};
  a.attrs =
      fmt::format("dim={}, beta={}, linearBeta={}, activateLeft={}", dim, beta, linearBeta, activateLeft);
  if (d.bwd != nullptr) {  // the gradient form: a null gradY is 161001
    a.gradName = "gradY";
    a.grad = gradY;
  }
  return buildGated(d, a, x, out, ws, ex);
}

int32_t clipped(const GatedDef& d, const aclTensor* gradY, const aclTensor* x, const aclTensor* groupIndex,
                int64_t dim, double alpha, double limit, double bias, bool interleaved, const aclTensor* out,
                uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = apiOf(*d.info);
  GatedArgs a{api.c_str(), "x", d.bwd != nullptr ? "gradXOut" : "out", dim, true, {alpha, limit, bias, 0}};
  a.attrs = fmt::format("dim={}, alpha={}, limit={}, bias={}, interleaved={}", dim, alpha, limit, bias,
                        interleaved);
  a.interleaved = interleaved;
  a.groupIndex = groupIndex;
  if (d.bwd != nullptr) {
    a.gradName = "gradY";
    a.grad = gradY;
  }
  return buildGated(d, a, x, out, ws, ex);
}

// The operators whose docs give them to Ascend 950 only: 161002 with the reason on the 910B.
int32_t onlyOn950(const OpInfo& info, const aclTensor* x, const aclTensor* out) {
  const std::string api = apiOf(info);
  npusim::rt::chargeOpPrepare(api.c_str());
  int32_t st = checkNotNull(api.c_str(), {{"x", x}, {"out", out}});
  if (st != kSuccess) return st;
  return fail(
      api.c_str(), kErrParamInvalid,
      fmt::format("{} runs on Ascend 950 only (its doc: Atlas A2 not supported); the simulated device is a "
                  "910B",
                  info.name));
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;
#define WS uint64_t *ws, aclOpExecutor **ex

extern "C" aclnnStatus aclnnGluGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* out,
                                                WS) {
  return split(kGluDef, "self", false, self, dim, nullptr, nullptr, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Glu)
extern "C" aclnnStatus aclnnGluBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* self,
                                                        int64_t dim, const aclTensor* out, WS) {
  return split(kGluBackwardDef, "self", false, self, dim, "gradOut", gradOut, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(GluBackward)

// GeGlu activates the second half (A * gelu(B)); GeGluV3 either, by activateLeft.
extern "C" aclnnStatus aclnnGeGluGetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t approximate,
                                                  aclTensor* out, aclTensor* outGelu, WS) {
  return geglu(kGeGluDef, self, dim, approximate, false, out, outGelu, ws, ex);
}
NPUSIM_ACLNN_PHASE2(GeGlu)
extern "C" aclnnStatus aclnnGeGluV3GetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t approximate,
                                                    bool activateLeft, aclTensor* out, aclTensor* outGelu,
                                                    WS) {
  return geglu(kGeGluV3Def, self, dim, approximate, activateLeft, out, outGelu, ws, ex);
}
NPUSIM_ACLNN_PHASE2(GeGluV3)
extern "C" aclnnStatus aclnnGeGluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                          const aclTensor* gelu, int64_t dim,
                                                          int64_t approximate, aclTensor* gradInput, WS) {
  return gegluBackward(kGeGluBackwardDef, gradOutput, self, gelu, dim, approximate, false, gradInput, ws, ex);
}
NPUSIM_ACLNN_PHASE2(GeGluBackward)
extern "C" aclnnStatus aclnnGeGluV3BackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                            const aclTensor* self, const aclTensor* gelu,
                                                            int64_t dim, int64_t approximate,
                                                            bool activateLeft, aclTensor* gradInput, WS) {
  return gegluBackward(kGeGluV3BackwardDef, gradOutput, self, gelu, dim, approximate, activateLeft, gradInput,
                       ws, ex);
}
NPUSIM_ACLNN_PHASE2(GeGluV3Backward)

extern "C" aclnnStatus aclnnSwiGluGradGetWorkspaceSize(const aclTensor* yGrad, const aclTensor* x,
                                                       int64_t dim, const aclTensor* out, WS) {
  return split(kSwiGluGradDef, "x", true, x, dim, "yGrad", yGrad, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(SwiGluGrad)

extern "C" aclnnStatus aclnnSituGluGetWorkspaceSize(const aclTensor* x, int64_t dim, double beta,
                                                    double linearBeta, bool activateLeft,
                                                    const aclTensor* out, WS) {
  return situ(kSituGluDef, nullptr, x, dim, beta, linearBeta, activateLeft, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(SituGlu)
extern "C" aclnnStatus aclnnSituGluGradGetWorkspaceSize(const aclTensor* gradY, const aclTensor* x,
                                                        int64_t dim, double beta, double linearBeta,
                                                        bool activateLeft, const aclTensor* out, WS) {
  return situ(kSituGluGradDef, gradY, x, dim, beta, linearBeta, activateLeft, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(SituGluGrad)

// approximateOptional: "none" (erf, also when null) or "tanh".
extern "C" aclnnStatus aclnnGeluMulGetWorkspaceSize(const aclTensor* input, char* approximateOptional,
                                                    const aclTensor* out, WS) {
  const char* api = "aclnnGeluMulGetWorkspaceSize";
  const std::string mode = approximateOptional == nullptr ? "none" : approximateOptional;
  if (mode != "none" && mode != "tanh") {
    npusim::rt::chargeOpPrepare(api);
    return fail(api, kErrParamInvalid,
                fmt::format("approximate must be \"none\" or \"tanh\", not \"{}\"", mode));
  }
  GatedArgs a{api, "input", "out", -1, true, {mode == "tanh" ? 1.0 : 0.0, 0, 0, 0}};
  a.attrs = "approximate=" + mode;
  return buildGated(kGeluMulDef, a, input, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(GeluMul)
extern "C" aclnnStatus aclnnFatreluMulGetWorkspaceSize(const aclTensor* input, const aclTensor* threshold,
                                                       const aclTensor* out, WS) {
  GatedArgs a{"aclnnFatreluMulGetWorkspaceSize", "input", "out", -1, true};
  a.extraName = "threshold";
  a.extra = threshold;
  a.extraIsParam = true;
  return buildGated(kFatreluMulDef, a, input, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(FatreluMul)
extern "C" aclnnStatus aclnnSwigluClampGetWorkspaceSize(const aclTensor* x, double limit, aclTensor* y, WS) {
  GatedArgs a{"aclnnSwigluClampGetWorkspaceSize", "x", "y", -1, true, {limit, 0, 0, 0}};
  a.attrs = fmt::format("limit={}", limit);
  return buildGated(kSwigluClampDef, a, x, y, ws, ex);
}
NPUSIM_ACLNN_PHASE2(SwigluClamp)

extern "C" aclnnStatus aclnnClippedSwigluGetWorkspaceSize(const aclTensor* x,
                                                          const aclTensor* groupIndexOptional, int64_t dim,
                                                          double alpha, double limit, double bias,
                                                          bool interleaved, const aclTensor* out, WS) {
  return clipped(kClippedSwigluDef, nullptr, x, groupIndexOptional, dim, alpha, limit, bias, interleaved, out,
                 ws, ex);
}
NPUSIM_ACLNN_PHASE2(ClippedSwiglu)
extern "C" aclnnStatus aclnnClippedSwigluV2GetWorkspaceSize(const aclTensor* x,
                                                            const aclTensor* groupIndexOptional, int64_t dim,
                                                            double alpha, double limit, double bias,
                                                            bool interleaved, int64_t clampMode,
                                                            const aclTensor* out, WS) {
  (void)groupIndexOptional, (void)dim, (void)alpha, (void)limit, (void)bias, (void)interleaved,
      (void)clampMode;
  return onlyOn950(kClippedSwigluV2, x, out);
}
NPUSIM_ACLNN_PHASE2(ClippedSwigluV2)
extern "C" aclnnStatus aclnnClippedSwigluGradGetWorkspaceSize(const aclTensor* gradY, const aclTensor* x,
                                                              const aclTensor* groupIndexOptional,
                                                              int64_t dim, double alpha, double limit,
                                                              double bias, bool interleaved,
                                                              const aclTensor* gradXOut, WS) {
  return clipped(kClippedSwigluGradDef, gradY, x, groupIndexOptional, dim, alpha, limit, bias, interleaved,
                 gradXOut, ws, ex);
}
NPUSIM_ACLNN_PHASE2(ClippedSwigluGrad)

extern "C" aclnnStatus aclnnSwigluGroupGetWorkspaceSize(const aclTensor* x, const aclTensor* weightOptional,
                                                        const aclTensor* groupIndexOptional,
                                                        double clampLimit, const aclTensor* out, WS) {
  (void)weightOptional, (void)groupIndexOptional, (void)clampLimit;
  return onlyOn950(kSwigluGroup, x, out);
}
NPUSIM_ACLNN_PHASE2(SwigluGroup)

// Fused vector operators of ops-nn's vfusion family (issue 28): each is its public definition
// (ops-nn vfusion/<op>/docs) on the elementwise engine of ternary_op.h, which owns the type
// checks, views, empty tensors and the cost model.
#include <fmt/format.h>

#include <string>
#include <tuple>

#include "aclnnop/aclnn_modulate.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/ternary_op.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {
namespace {

// out = self * (1 + scale) + shift; p[0], p[1]: whether scale and shift are given (their values
// follow self's in x in that order).
double modulate(const double* x, size_t, const PointwiseParams& p) {
  double v = x[0];
  size_t i = 1;
  if (p[0] != 0) v *= 1 + x[i++];
  if (p[1] != 0) v += x[i];
  return v;
}

const OpInfo kModulate{"aclnnModulate",
                       ExecUnit::kVector,
                       {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                       "out = self * (1 + scale) + shift, scale and shift per (batch, hidden)"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kModulate)};
// Two vector passes: the multiply-add of scale and the add of shift.
const TernaryDef kModulateDef{&kModulate, modulate, 2, nullptr, true};

// scale or shift as the (B, 1, D) operand of self (B, L, D): the doc allows (B, 1, D) and
// (B, D); the second is viewed with a unit middle dimension so it broadcasts over L.
int32_t modulationView(const char* api, const char* name, const aclTensor* self, const aclTensor* t,
                       aclTensor* view) {
  const auto& s = self->desc.shape;
  const auto& m = t->desc.shape;
  *view = *t;
  if (m.size() == 3 && m[0] == s[0] && m[1] == 1 && m[2] == s[2]) return kSuccess;
  if (m.size() == 2 && m[0] == s[0] && m[1] == s[2]) {
    view->desc.shape = {m[0], 1, m[1]};
    view->desc.strides = {t->desc.strides[0], t->desc.strides[1], t->desc.strides[1]};
    return kSuccess;
  }
  rt::chargeOpPrepare(api);
  return fail(api, kErrParamInvalid,
              fmt::format("{} has shape {}: with self {} it must be ({}, 1, {}) or ({}, {})", name,
                          shapeString(m), shapeString(s), s[0], s[2], s[0], s[2]));
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnModulateGetWorkspaceSize(const aclTensor* self, const aclTensor* scaleOptional,
                                                     const aclTensor* shiftOptional, aclTensor* out,
                                                     uint64_t* ws, aclOpExecutor** ex) {
  const char* api = "aclnnModulateGetWorkspaceSize";
  if (self == nullptr || out == nullptr) {
    npusim::rt::chargeOpPrepare(api);
    return checkNotNull(api, {{"self", self}, {"out", out}});
  }
  if (self->desc.shape.size() != 3) {
    npusim::rt::chargeOpPrepare(api);
    return fail(
        api, kErrParamInvalid,
        fmt::format("self has shape {}: it must be (batch, seq_len, hidden)", shapeString(self->desc.shape)));
  }
  aclTensor scale, shift;
  TernaryArgs a{api,
                "aclnnModulate",
                {{"self", self}},
                "out",
                out,
                false,
                {scaleOptional != nullptr ? 1.0 : 0.0, shiftOptional != nullptr ? 1.0 : 0.0},
                fmt::format("scale={}, shift={}", scaleOptional != nullptr, shiftOptional != nullptr)};
  for (const auto& [name, t, view] : {std::make_tuple("scaleOptional", scaleOptional, &scale),
                                      std::make_tuple("shiftOptional", shiftOptional, &shift)}) {
    if (t == nullptr) continue;
    int32_t st = modulationView(api, name, self, t, view);
    if (st != kSuccess) return st;
    if (self->desc.numel() == 0 && view->desc.numel() != 0) {
      npusim::rt::chargeOpPrepare(api);
      return fail(api, kErrParamInvalid, fmt::format("self is empty but {} is not", name));
    }
    a.xs.emplace_back(name, view);
  }
  return buildTernary(kModulateDef, a, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Modulate)

// aclnnArange (ops-math math/range/docs/aclnnArange.md): out = start, start + step, ... below
// end (above it for a negative step); out is 1-D with ceil((end - start) / step) elements,
// that quotient computed in fp32 when a scalar is a float narrower than fp64 (as the doc's
// example sizes out), else in fp64. Integer scalars with an integer out are computed in int64.
// Out may also be int8/uint8/int16 (the experimental ops-math arange registers them; values wrap
// as numpy's). A non-finite start, end or step is not checked (the experimental doc leaves value
// checks to the caller): out keeps the caller's length and gets start + i * step, inf/nan as IEEE.
#include <fmt/format.h>

#include <cmath>

#include "aclnnop/aclnn_arange.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/fill_op.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{
    "aclnnArange",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64},
    "out[i] = start + i * step, i < ceil((end - start) / step)"};
const OpRegistrar kRegistrar(kInfo);

bool scalarTypeOk(aclDataType t) {
  return t == ACL_BOOL || t == ACL_UINT8 || t == ACL_INT8 || t == ACL_INT16 || t == ACL_INT32 ||
         t == ACL_INT64 || t == ACL_FLOAT16 || t == ACL_BF16 || t == ACL_FLOAT || t == ACL_DOUBLE;
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar* start, const aclScalar* end,
                                                   const aclScalar* step, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnArangeGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"start", start}, {"end", end}, {"step", step}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "out", out->desc.dtype, kInfo)) != kSuccess) return st;
  bool anyFloat = false, anyDouble = false;
  for (auto [name, s] : {std::pair{"start", start}, {"end", end}, {"step", step}}) {
    const aclDataType t = s->value.dtype;
    if (!scalarTypeOk(t)) {
      return fail(api, kErrParamInvalid, fmt::format("{} of type {} is not supported", name, dtypeName(t)));
    }
    anyFloat = anyFloat || isFloating(t);
    anyDouble = anyDouble || t == ACL_DOUBLE;
  }
  const double s0 = start->value.toDouble(), s1 = end->value.toDouble(), ds = step->value.toDouble();
  const bool finite = std::isfinite(s0) && std::isfinite(s1) && std::isfinite(ds);
  if (ds == 0) {
    return fail(api, kErrParamInvalid, fmt::format("step must be non-zero (start {}, end {})", s0, s1));
  }
  if (finite && ((ds > 0 && s0 > s1) || (ds < 0 && s0 < s1))) {
    return fail(api, kErrParamInvalid,
                fmt::format("start {} and end {} are in the wrong order for step {}", s0, s1, ds));
  }
  if (finite) {
    const double q =
        anyFloat && !anyDouble
            ? static_cast<double>((static_cast<float>(s1) - static_cast<float>(s0)) / static_cast<float>(ds))
            : (s1 - s0) / ds;
    if (!(q < 0x1p62)) {
      return fail(api, kErrParamInvalid,
                  fmt::format("start {}, end {} and step {} give too many elements", s0, s1, ds));
    }
    const auto n = static_cast<int64_t>(std::ceil(q));
    if ((st = checkShape(api, "out", out->desc.shape, {n})) != kSuccess) return st;
  } else if (out->desc.shape.size() != 1) {
    return fail(api, kErrParamInvalid, fmt::format("out must be 1-D, has {} dims", out->desc.shape.size()));
  }
  auto inst = newFill("aclnnArange", "out", out);
  inst->integral = !anyFloat && isIntegral(out->desc.dtype, false);
  inst->start = s0;
  inst->step = ds;
  inst->startInt = start->value.toInt64();
  inst->stepInt = step->value.toInt64();
  inst->attrs =
      fmt::format("start={}, end={}, step={}", start->value.str(), end->value.str(), step->value.str());
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(Arange)

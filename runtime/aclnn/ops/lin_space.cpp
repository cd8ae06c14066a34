// Evenly spaced sequences (issue 28): aclnnLinspace (ops-math math/lin_space: start, end as host
// scalars), aclnnLinSpaceD (experimental/math/lin_space_d: start and end one-element device
// tensors, num an int array) and aclnnLogSpace (experimental/math/log_space: base^linspace).
// out[i] = start + i * (end - start) / (steps - 1), computed from the nearer end as torch does
// (the first half from start, the second from end, so out[steps - 1] is end exactly); steps = 1
// gives start. Integer outs truncate toward zero. Cost: out written once, one vector pass (two
// for the power), the two one-element tensors read for LinSpaceD.
#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "aclnnop/aclnn_lin_space_d.h"
#include "aclnnop/aclnn_linspace.h"
#include "aclnnop/aclnn_log_space.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

class SpaceInstance : public OpInstanceBase<SpaceInstance> {
 public:
  double start = 0, end = 0;
  double base = 0;  // 0: linear; else out = base^value

  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), base != 0 ? 1 : 0});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const int64_t n = out[0].numel();
    if (n == 0) return;
    double s = start, e = end;
    if (in.size() == 2) {                                        // LinSpaceD: the ends from device memory
      copyView(in[0], hostTensor(ACL_DOUBLE, in[0].shape, &s));  // one element
      copyView(in[1], hostTensor(ACL_DOUBLE, in[1].shape, &e));
    }
    std::vector<double> v(static_cast<size_t>(n));
    const double step = n > 1 ? (e - s) / static_cast<double>(n - 1) : 0;
    for (int64_t i = 0; i < n; ++i) {
      const double x =
          i < n / 2 ? s + step * static_cast<double>(i) : e - step * static_cast<double>(n - 1 - i);
      v[static_cast<size_t>(i)] = n == 1 ? s : x;
    }
    const aclDataType od = out[0].dtype;
    quantizeRow(isFloating(od) && od != ACL_DOUBLE ? ACL_FLOAT : ACL_DOUBLE, v.data(), n);
    if (base != 0) {
      for (double& x : v) x = std::pow(base, x);
    }
    storeRounded(out[0], v);
  }
};

const std::vector<aclDataType> kOutTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE,
                                            ACL_INT8,  ACL_INT16,   ACL_INT32, ACL_UINT8};
const OpInfo kLinspace{"aclnnLinspace", ExecUnit::kVector, kOutTypes,
                       "out[i] = start + i * (end - start) / (steps - 1)"};
const OpInfo kLogSpace{"aclnnLogSpace", ExecUnit::kVector, kOutTypes,
                       "out[i] = base ^ (start + i * (end - start) / (steps - 1))"};
// Out fp32 only (lin_space_d_def.cpp); start and end of these types.
const OpInfo kLinSpaceD{"aclnnLinSpaceD",
                        ExecUnit::kVector,
                        {ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_INT16, ACL_INT32, ACL_UINT8, ACL_BF16},
                        "z[i] = start + i * (end - start) / (num - 1)"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kLinspace), OpRegistrar(kLogSpace), OpRegistrar(kLinSpaceD)};

// out: 1-D of `steps` elements (steps >= 0) of an accepted type.
int32_t checkOut(const char* api, const OpInfo& info, const char* outName, const aclTensor* out,
                 int64_t steps) {
  int32_t st = checkTensor(api, outName, out->desc);
  if (st != kSuccess) return st;
  if ((st = checkDtype(api, outName, out->desc.dtype, info)) != kSuccess) return st;
  if (steps < 0) return fail(api, kErrParamInvalid, fmt::format("steps {} is negative", steps));
  return checkShape(api, outName, out->desc.shape, {steps});
}

int32_t buildScalarSpace(const OpInfo& info, const char* api, const aclScalar* start, const aclScalar* end,
                         int64_t steps, double base, const aclTensor* out, const char* outName, uint64_t* ws,
                         aclOpExecutor** ex) {
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"start", start}, {"end", end}, {outName, out}});
  if (st != kSuccess) return st;
  if ((st = checkOut(api, info, outName, out, steps)) != kSuccess) return st;
  auto inst = std::make_unique<SpaceInstance>();
  inst->name = info.name;
  inst->start = start->value.toDouble();
  inst->end = end->value.toDouble();
  inst->base = base;
  inst->attrs = fmt::format("start={}, end={}, steps={}", start->value.str(), end->value.str(), steps);
  if (base != 0) inst->attrs += fmt::format(", base={}", base);
  addOutput(*inst, outName, out);
  return makeExecutor(api, std::move(inst), ws, ex);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnLinspaceGetWorkspaceSize(const aclScalar* start, const aclScalar* end,
                                                     int64_t steps, aclTensor* out, uint64_t* ws,
                                                     aclOpExecutor** ex) {
  return buildScalarSpace(kLinspace, "aclnnLinspaceGetWorkspaceSize", start, end, steps, 0, out, "out", ws,
                          ex);
}
NPUSIM_ACLNN_PHASE2(Linspace)

// base must be positive (a base of 0 or below has no real logarithm of the sequence to follow).
extern "C" aclnnStatus aclnnLogSpaceGetWorkspaceSize(const aclScalar* start, const aclScalar* end,
                                                     int64_t steps, double base, const aclTensor* result,
                                                     uint64_t* ws, aclOpExecutor** ex) {
  const char* api = "aclnnLogSpaceGetWorkspaceSize";
  if (!(base > 0)) {
    npusim::rt::chargeOpPrepare(api);
    return fail(api, kErrParamInvalid, fmt::format("base {} is not positive", base));
  }
  return buildScalarSpace(kLogSpace, api, start, end, steps, base, result, "result", ws, ex);
}
NPUSIM_ACLNN_PHASE2(LogSpace)

extern "C" aclnnStatus aclnnLinSpaceDGetWorkspaceSize(const aclTensor* start, const aclTensor* end,
                                                      const aclIntArray* num, const aclTensor* z,
                                                      uint64_t* ws, aclOpExecutor** ex) {
  const char* api = "aclnnLinSpaceDGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"start", start}, {"end", end}, {"num", num}, {"z", z}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"start", start}, {"end", end}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kLinSpaceD)) != kSuccess) return st;
    if (t->desc.numel() != 1) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} must hold one element, not {}", name, shapeString(t->desc.shape)));
    }
  }
  if (num->values.size() != 1) {
    return fail(api, kErrParamInvalid, fmt::format("num must hold one value, not {}", num->values.size()));
  }
  if (z->desc.dtype != ACL_FLOAT) {
    return fail(api, kErrParamInvalid, fmt::format("z of type {} is not fp32", dtypeName(z->desc.dtype)));
  }
  if ((st = checkOut(api, kLinSpaceD, "z", z, num->values[0])) != kSuccess) return st;
  auto inst = std::make_unique<SpaceInstance>();
  inst->name = "aclnnLinSpaceD";
  inst->attrs = fmt::format("num={}", num->values[0]);
  addInput(*inst, "start", start);
  addInput(*inst, "end", end);
  addOutput(*inst, "z", z);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(LinSpaceD)

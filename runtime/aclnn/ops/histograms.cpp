// Counting operators (issue 28): aclnnBincount (ops-math math/bincount: out[v] += 1, or += the
// weight, for each value v of self) and aclnnHistc (math/histogram_v2: counts of self in `bins`
// equal bins over [min, max]; min == max takes self's own range; values outside are not counted
// and max itself falls in the last bin). out is created by the caller: Bincount's length must
// be at least minlength; a value of self at or past out's length is not counted (the device
// raises an AI-core exception there, which the simulator does not model), nor is a negative one.
// Cost: self (and weights) read once, out written, two vector passes (index, accumulate).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "aclnnop/aclnn_bincount.h"
#include "aclnnop/aclnn_histc.h"
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

class HistInstance : public OpInstanceBase<HistInstance> {
 public:
  bool isHistc = false;
  double lo = 0, hi = 0;  // Histc's range (equal: self's own)

  rt::OpWork work() const override {
    VectorPass p{&inputs, &outputs[0], inputs[0].numel(), 1};
    return vectorTiles(p);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const int64_t n = in[0].numel(), bins = out[0].numel();
    const std::vector<double> x = loadWide(in[0], in[0].shape);
    const std::vector<double> w = in.size() > 1 ? loadWide(in[1], in[0].shape) : std::vector<double>();
    std::vector<double> counts(static_cast<size_t>(bins), 0.0);
    if (isHistc) {
      double a = lo, b = hi;
      if (a == b && n > 0) {
        a = *std::min_element(x.begin(), x.end());
        b = *std::max_element(x.begin(), x.end());
      }
      if (a == b) {  // one value: torch widens the range by 1 on each side
        a -= 1;
        b += 1;
      }
      for (double v : x) {
        if (!(v >= a && v <= b)) continue;  // NaN is not counted either
        const auto k =
            std::min<int64_t>(bins - 1, static_cast<int64_t>((v - a) * static_cast<double>(bins) / (b - a)));
        counts[static_cast<size_t>(k)] += 1;
      }
    } else {
      for (size_t i = 0; i < x.size(); ++i) {
        if (x[i] < 0 || x[i] >= static_cast<double>(bins)) continue;
        counts[static_cast<size_t>(x[i])] += w.empty() ? 1.0 : w[i];
      }
    }
    storeRounded(out[0], counts);
  }
};

const OpInfo kBincount{"aclnnBincount",
                       ExecUnit::kVector,
                       {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8},
                       "out[self[i]] += weights[i] (or 1)"};
const std::vector<aclDataType> kBincountWeights = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16,
                                                   ACL_INT32, ACL_INT64,   ACL_UINT8,  ACL_BOOL};
const std::vector<aclDataType> kBincountOut = {ACL_INT32, ACL_INT64, ACL_FLOAT, ACL_DOUBLE};
const OpInfo kHistc{"aclnnHistc",
                    ExecUnit::kVector,
                    {ACL_FLOAT16, ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_INT16, ACL_INT8, ACL_UINT8},
                    "out[k] = number of self in the k-th of bins equal bins over [min, max]"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kBincount), OpRegistrar(kHistc)};

int32_t checkIn(const char* api, const char* name, aclDataType dt, const std::vector<aclDataType>& types) {
  if (std::find(types.begin(), types.end(), dt) != types.end()) return kSuccess;
  return fail(api, kErrParamInvalid, fmt::format("{} of type {} is not supported", name, dtypeName(dt)));
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnBincountGetWorkspaceSize(const aclTensor* self, const aclTensor* weights,
                                                     int64_t minlength, aclTensor* out, uint64_t* ws,
                                                     aclOpExecutor** ex) {
  const char* api = "aclnnBincountGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "self", self->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "self", self->desc.dtype, kBincount)) != kSuccess) return st;
  if ((st = checkIn(api, "out", out->desc.dtype, kBincountOut)) != kSuccess) return st;
  if (self->desc.shape.size() > 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("self must be 1-D, not {}", shapeString(self->desc.shape)));
  }
  if (minlength < 0) return fail(api, kErrParamInvalid, fmt::format("minlength {} is negative", minlength));
  if (out->desc.shape.size() != 1 || out->desc.shape[0] < minlength) {
    return fail(api, kErrParamInvalid,
                fmt::format("out {} must be 1-D of at least minlength {} elements",
                            shapeString(out->desc.shape), minlength));
  }
  if (weights != nullptr) {
    if ((st = checkTensor(api, "weights", weights->desc)) != kSuccess) return st;
    if ((st = checkIn(api, "weights", weights->desc.dtype, kBincountWeights)) != kSuccess) return st;
    if ((st = checkShape(api, "weights", weights->desc.shape, self->desc.shape)) != kSuccess) return st;
  }
  auto inst = std::make_unique<HistInstance>();
  inst->name = "aclnnBincount";
  inst->attrs = fmt::format("minlength={}", minlength);
  addInput(*inst, "self", self);
  if (weights != nullptr) addInput(*inst, "weights", weights);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(Bincount)

extern "C" aclnnStatus aclnnHistcGetWorkspaceSize(const aclTensor* self, int64_t bins, const aclScalar* min,
                                                  const aclScalar* max, aclTensor* out, uint64_t* ws,
                                                  aclOpExecutor** ex) {
  const char* api = "aclnnHistcGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"min", min}, {"max", max}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "self", self->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "self", self->desc.dtype, kHistc)) != kSuccess) return st;
  if ((st = checkDtype(api, "out", out->desc.dtype, kHistc)) != kSuccess) return st;
  const double lo = min->value.toDouble(), hi = max->value.toDouble();
  if (bins <= 0) return fail(api, kErrParamInvalid, fmt::format("bins {} is not positive", bins));
  if (!(lo <= hi) || std::isinf(lo) || std::isinf(hi)) {
    return fail(api, kErrParamInvalid, fmt::format("min {} and max {} are not a finite range", lo, hi));
  }
  if ((st = checkShape(api, "out", out->desc.shape, {bins})) != kSuccess) return st;
  auto inst = std::make_unique<HistInstance>();
  inst->name = "aclnnHistc";
  inst->isHistc = true;
  inst->lo = lo;
  inst->hi = hi;
  inst->attrs = fmt::format("bins={}, min={}, max={}", bins, lo, hi);
  addInput(*inst, "self", self);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(Histc)

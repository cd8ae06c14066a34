// Order statistics that the ops-nn index/gather_v2 folder groups with the gathers: aclnnMedian,
// aclnnMedianDim, aclnnNanMedian, aclnnNanMedianDim and aclnnKthvalue. Along dim (or over the
// flattened self) the values are ordered (stably, so equal values keep their order) and the
// one at rank r is returned with its index: the median is the lower one, r = (n - 1) / 2, as
// torch.median; Kthvalue takes r = k - 1. Median returns NaN (and the first NaN's index) when a
// slice has one; NanMedian ignores NaNs (NaN only when all are). Cost: self read once and the
// selection done in the vector cores (2 passes), values and indices written.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "aclnnop/aclnn_kthvalue.h"
#include "aclnnop/aclnn_median.h"
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

// aclnnMedian.md: FLOAT, FLOAT16, UINT8, INT8, INT16, INT32, INT64, BFLOAT16.
const std::vector<aclDataType> kMedianTypes{ACL_FLOAT, ACL_FLOAT16, ACL_UINT8, ACL_INT8,
                                            ACL_INT16, ACL_INT32,   ACL_INT64, ACL_BF16};
#define NPUSIM_ORDER_INFO(Name, types, formula)                           \
  const OpInfo k##Name{"aclnn" #Name, ExecUnit::kVector, types, formula}; \
  const OpRegistrar k##Name##Registrar(k##Name);
NPUSIM_ORDER_INFO(Median, kMedianTypes, "valuesOut = lower median of all elements (NaN if any)")
NPUSIM_ORDER_INFO(MedianDim, kMedianTypes, "values, indices = lower median along dim (NaN if any)")
NPUSIM_ORDER_INFO(NanMedian, kMedianTypes, "out = lower median of the non-NaN elements")
NPUSIM_ORDER_INFO(NanMedianDim, kMedianTypes,
                  "values, indices = lower median of the non-NaN elements along dim")
// aclnnKthvalue.md: BFLOAT16, FLOAT16, FLOAT32, INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64.
NPUSIM_ORDER_INFO(Kthvalue,
                  std::vector<aclDataType>({ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_INT16, ACL_INT32,
                                            ACL_INT64, ACL_UINT8, ACL_UINT16, ACL_UINT32, ACL_UINT64}),
                  "values, indices = k-th smallest along dim")
#undef NPUSIM_ORDER_INFO

class OrderInstance : public OpInstanceBase<OrderInstance> {
 public:
  std::vector<int64_t> shape;  // self as [outer, n, inner]
  int64_t k = 0;               // > 0: Kthvalue's k; 0: the lower median
  bool ignoreNan = false;

  rt::OpWork work() const override {
    std::vector<TensorDesc> reads{inputs[0]};
    VectorPass p{&reads, &outputs[0], inputs[0].numel(), 1};
    if (outputs.size() > 1)
      p.extraWriteBytes = static_cast<uint64_t>(outputs[1].numel()) * outputs[1].elementSize();
    return vectorTiles(p);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<double> x = loadDense<double>(in[0]);
    const int64_t outer = shape[0], n = shape[1], inner = shape[2];
    std::vector<double> values(static_cast<size_t>(outer * inner));
    std::vector<int64_t> indices(values.size());
    std::vector<int64_t> order;
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t j = 0; j < inner; ++j) {
        auto at = [&](int64_t i) { return x[static_cast<size_t>((o * n + i) * inner + j)]; };
        order.clear();
        int64_t firstNan = -1;
        for (int64_t i = 0; i < n; ++i) {
          if (std::isnan(at(i))) {
            if (firstNan < 0) firstNan = i;
            if (ignoreNan) continue;
          }
          order.push_back(i);
        }
        const size_t e = static_cast<size_t>(o * inner + j);
        if ((firstNan >= 0 && !ignoreNan) || order.empty()) {  // NaN wins (or nothing but NaN)
          values[e] = NAN;
          indices[e] = std::max<int64_t>(firstNan, 0);
          continue;
        }
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return at(a) < at(b); });
        const int64_t r = k > 0 ? k - 1 : (static_cast<int64_t>(order.size()) - 1) / 2;
        indices[e] = order[static_cast<size_t>(r)];
        values[e] = at(indices[e]);
      }
    }
    storeDense(out[0], values.data());
    if (out.size() > 1) storeDense(out[1], indices.data());
  }
};

// valuesOut (and indicesOut, int64) of self's reduced shape: along d, keepDim keeping it as 1;
// d < 0: all elements, one value.
int32_t build(const char* api, const OpInfo& info, const aclTensor* self, bool hasDim, int64_t dim,
              bool keepDim, int64_t k, bool ignoreNan, aclTensor* values, aclTensor* indices,
              uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"valuesOut", values}});
  if (st == kSuccess && hasDim) st = checkNotNull(api, {{"indicesOut", indices}});
  if (st != kSuccess || (st = checkTensor(api, "self", self->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "self", self->desc.dtype, info)) != kSuccess) return st;
  if ((st = checkTensor(api, "valuesOut", values->desc)) != kSuccess) return st;
  if (values->desc.dtype != self->desc.dtype)
    return fail(api, kErrParamInvalid,
                fmt::format("valuesOut type must equal self type {}", dtypeName(self->desc.dtype)));
  std::vector<int64_t> s = self->desc.shape;
  auto inst = std::make_unique<OrderInstance>();
  if (!hasDim) {
    if (values->desc.numel() != 1)
      return fail(api, kErrParamInvalid,
                  fmt::format("valuesOut must hold one element, not {}", values->desc.numel()));
    if (self->desc.numel() == 0) return fail(api, kErrParamInvalid, "self is empty: it has no median");
    inst->shape = {1, self->desc.numel(), 1};
  } else {
    const int64_t d = wrapDim(dim, std::max<size_t>(s.size(), 1));
    if (d < 0) return fail(api, kErrParamInvalid, fmt::format("dim {} is out of range", dim));
    if (s.empty()) s = {1};
    const auto ud = static_cast<size_t>(d);
    if (s[ud] == 0) return fail(api, kErrParamInvalid, fmt::format("dimension {} is empty", d));
    if (k != 0 && (k < 1 || k > s[ud]))
      return fail(api, kErrParamInvalid, fmt::format("k {} is outside [1, {}]", k, s[ud]));
    std::vector<int64_t> reduced = s;
    if (keepDim)
      reduced[ud] = 1;
    else
      reduced.erase(reduced.begin() + d);
    if (self->desc.rank() == 0) reduced.clear();
    if ((st = checkShape(api, "valuesOut", values->desc.shape, reduced)) != kSuccess) return st;
    if ((st = checkTensor(api, "indicesOut", indices->desc)) != kSuccess) return st;
    if (indices->desc.dtype != ACL_INT64)
      return fail(api, kErrParamInvalid,
                  fmt::format("indicesOut type must be int64, not {}", dtypeName(indices->desc.dtype)));
    if ((st = checkShape(api, "indicesOut", indices->desc.shape, reduced)) != kSuccess) return st;
    inst->shape = {dimProduct(s, 0, ud), s[ud], dimProduct(s, ud + 1, s.size())};
  }
  inst->name = info.name;
  inst->k = k;
  inst->ignoreNan = ignoreNan;
  addInput(*inst, "self", self);
  addOutput(*inst, "valuesOut", values);
  if (hasDim) addOutput(*inst, "indicesOut", indices);
  inst->attrs =
      hasDim ? fmt::format("dim={} keepDim={}{}", dim, keepDim, k > 0 ? fmt::format(" k={}", k) : "") : "";
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnMedianGetWorkspaceSize(const aclTensor* self, aclTensor* valuesOut,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return build("aclnnMedianGetWorkspaceSize", kMedian, self, false, 0, false, 0, false, valuesOut, nullptr,
               workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Median)

extern "C" aclnnStatus aclnnMedianDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepDim,
                                                      aclTensor* valuesOut, aclTensor* indicesOut,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return build("aclnnMedianDimGetWorkspaceSize", kMedianDim, self, true, dim, keepDim, 0, false, valuesOut,
               indicesOut, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(MedianDim)

extern "C" aclnnStatus aclnnNanMedianGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return build("aclnnNanMedianGetWorkspaceSize", kNanMedian, self, false, 0, false, 0, true, out, nullptr,
               workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(NanMedian)

extern "C" aclnnStatus aclnnNanMedianDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepDim,
                                                         aclTensor* valuesOut, aclTensor* indicesOut,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return build("aclnnNanMedianDimGetWorkspaceSize", kNanMedianDim, self, true, dim, keepDim, 0, true,
               valuesOut, indicesOut, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(NanMedianDim)

extern "C" aclnnStatus aclnnKthvalueGetWorkspaceSize(const aclTensor* self, int64_t k, int64_t dim,
                                                     bool keepdim, aclTensor* valuesOut,
                                                     aclTensor* indicesOut, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  const char* api = "aclnnKthvalueGetWorkspaceSize";
  if (k < 1) return fail(api, kErrParamInvalid, fmt::format("k {} must be at least 1", k));
  return build(api, kKthvalue, self, true, dim, keepdim, k, false, valuesOut, indicesOut, workspaceSize,
               executor);
}
NPUSIM_ACLNN_PHASE2(Kthvalue)

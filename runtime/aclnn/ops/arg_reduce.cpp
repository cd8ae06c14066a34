// Types: the built-in doc's, and int16 from the experimental folders' op definitions.
// Extremum along one dimension with its position (issue 28): aclnnMaxDim / aclnnMinDim (ops-math
// math/arg_max_with_value, arg_min_with_value: values and indices) and aclnnArgMin (math/arg_min:
// indices only). The first extremum wins; a NaN counts as the extremum (the first NaN), as
// aclnnArgMax. Cost: self streamed once, compare and select passes, the outputs written.
#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_min_dim.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/reduce_op.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

class ArgReduceInstance : public OpInstanceBase<ArgReduceInstance> {
 public:
  bool isMax = true;
  int64_t dim = 0;  // normalised; self's rank 0 reduces nothing

  rt::OpWork work() const override {
    VectorPass p{&inputs, &outputs[0], inputs[0].numel(), 1};
    if (outputs.size() > 1)
      p.extraWriteBytes = static_cast<uint64_t>(outputs[1].numel()) * outputs[1].elementSize();
    return vectorTiles(p);
  }

  // outputs: [values,] indices.
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const HostTensor& self = in[0];
    if (out.back().numel() == 0) return;
    const std::vector<double> x = loadWide(self, self.shape);
    int64_t outer = 1, inner = 1, len = 1;
    for (size_t d = 0; d < self.shape.size(); ++d) {
      const int64_t e = self.shape[d];
      if (static_cast<int64_t>(d) < dim)
        outer *= e;
      else if (static_cast<int64_t>(d) == dim)
        len = e;
      else
        inner *= e;
    }
    std::vector<double> best(static_cast<size_t>(outer * inner));
    std::vector<int64_t> at(best.size());
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        const size_t g = static_cast<size_t>(o * inner + i);
        double b = x[static_cast<size_t>(o * len * inner + i)];
        int64_t k = 0;
        for (int64_t j = 1; j < len && !std::isnan(b); ++j) {
          const double v = x[static_cast<size_t>((o * len + j) * inner + i)];
          if (std::isnan(v) || (isMax ? v > b : v < b)) {
            b = v;
            k = j;
          }
        }
        best[g] = b;
        at[g] = k;
      }
    }
    // The groups are out's elements in row-major order (the kept dims, keepdim's 1s aside).
    if (out.size() > 1) copyView(hostTensor(ACL_DOUBLE, out[0].shape, best.data()), out[0]);
    copyView(hostTensor(ACL_INT64, out.back().shape, at.data()), out.back());
  }
};

const OpInfo kMaxDim{"aclnnMaxDim",
                     ExecUnit::kVector,
                     {ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_BOOL, ACL_BF16, ACL_INT32, ACL_INT16},
                     "out, indices = max of self along dim and its first position"};
const OpInfo kMinDim{"aclnnMinDim", ExecUnit::kVector, kMaxDim.dtypes,
                     "out, indices = min of self along dim and its first position"};
const OpInfo kArgMin{
    "aclnnArgMin",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8},
    "out = position of the first minimum of self along dim"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kMaxDim), OpRegistrar(kMinDim), OpRegistrar(kArgMin)};

int32_t checkIndexType(const char* api, const char* name, const aclTensor* t) {
  const aclDataType dt = t->desc.dtype;
  if (dt == ACL_INT64 || dt == ACL_INT32) return kSuccess;
  return fail(api, kErrParamInvalid, fmt::format("{} of type {} is not int64 or int32", name, dtypeName(dt)));
}

// withValues: MaxDim/MinDim (values and indices); else ArgMin (indices only, values null).
int32_t buildArgReduce(const OpInfo& info, bool isMax, const aclTensor* self, int64_t dim, bool keepdim,
                       bool withValues, const aclTensor* values, const aclTensor* indices,
                       const char* indicesName, uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = info.name + "GetWorkspaceSize";
  const char* a = api.c_str();
  rt::chargeOpPrepare(a);
  int32_t st = withValues ? checkNotNull(a, {{"self", self}, {"out", values}, {indicesName, indices}})
                          : checkNotNull(a, {{"self", self}, {indicesName, indices}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(a, "self", self->desc)) != kSuccess) return st;
  if ((st = checkDtype(a, "self", self->desc.dtype, info)) != kSuccess) return st;
  if ((st = checkTensor(a, indicesName, indices->desc)) != kSuccess) return st;
  if ((st = checkIndexType(a, indicesName, indices)) != kSuccess) return st;
  std::vector<bool> reduce;
  std::vector<int64_t> outShape;
  if ((st = reduceDims(a, self->desc.shape, {dim}, keepdim, &reduce, &outShape)) != kSuccess) return st;
  if (self->desc.numel() == 0 && !self->desc.shape.empty()) {
    return fail(a, kErrParamInvalid, fmt::format("self shape {} is empty", shapeString(self->desc.shape)));
  }
  if ((st = checkShape(a, indicesName, indices->desc.shape, outShape)) != kSuccess) return st;
  if (withValues) {
    if ((st = checkTensor(a, "out", values->desc)) != kSuccess) return st;
    if (values->desc.dtype != self->desc.dtype) {
      return fail(a, kErrParamInvalid,
                  fmt::format("out of type {} must have self's type {}", dtypeName(values->desc.dtype),
                              dtypeName(self->desc.dtype)));
    }
    if ((st = checkShape(a, "out", values->desc.shape, outShape)) != kSuccess) return st;
  }
  auto inst = std::make_unique<ArgReduceInstance>();
  inst->name = info.name;
  inst->isMax = isMax;
  const int64_t rank = static_cast<int64_t>(self->desc.shape.size());
  inst->dim = rank == 0 ? 0 : (dim < 0 ? dim + rank : dim);
  inst->attrs = fmt::format("dim={}, keepdim={}", dim, keepdim);
  addInput(*inst, "self", self);
  if (withValues) addOutput(*inst, "out", values);
  addOutput(*inst, indicesName, indices);
  return makeExecutor(a, std::move(inst), ws, ex);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnMaxDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim,
                                                   aclTensor* out, aclTensor* indices, uint64_t* ws,
                                                   aclOpExecutor** ex) {
  return buildArgReduce(kMaxDim, true, self, dim, keepdim, true, out, indices, "indices", ws, ex);
}
NPUSIM_ACLNN_PHASE2(MaxDim)

extern "C" aclnnStatus aclnnMinDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim,
                                                   aclTensor* out, aclTensor* indices, uint64_t* ws,
                                                   aclOpExecutor** ex) {
  return buildArgReduce(kMinDim, false, self, dim, keepdim, true, out, indices, "indices", ws, ex);
}
NPUSIM_ACLNN_PHASE2(MinDim)

extern "C" aclnnStatus aclnnArgMinGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim,
                                                   aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  return buildArgReduce(kArgMin, false, self, dim, keepdim, false, nullptr, out, "out", ws, ex);
}
NPUSIM_ACLNN_PHASE2(ArgMin)

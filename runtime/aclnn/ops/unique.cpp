// torch.unique and torch.unique_consecutive (ops-nn index/unique_consecutive: aclnnUnique,
// aclnnUniqueConsecutive; index/unique_with_counts_ext2: aclnnUniqueDim). The number of
// distinct values is data: valueOut, inverseOut and countsOut are allocated large enough by
// the program; when the operator runs it writes them densely and sets their view shapes to the
// result's (aclGetViewShape reports them), as nonzero_select.cpp does. Unique and UniqueDim
// return the values sorted (as PyTorch does for every `sorted`); UniqueConsecutive keeps their
// order and merges only equal neighbours. dim 1000 (UniqueConsecutive) means the flattened self.
// NaNs compare unequal. Cost: self read, the outputs written whole.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "aclnnop/aclnn_unique.h"
#include "aclnnop/aclnn_unique_consecutive.h"
#include "aclnnop/aclnn_unique_dim.h"
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

// aclnnUnique.md: BOOL, FLOAT, FLOAT16, DOUBLE, UINT8, INT8, UINT16, INT16, INT32, UINT32,
// UINT64, INT64, BFLOAT16.
const std::vector<aclDataType> kTypes{ACL_BOOL,   ACL_FLOAT,  ACL_FLOAT16, ACL_DOUBLE, ACL_UINT8,
                                      ACL_INT8,   ACL_UINT16, ACL_INT16,   ACL_INT32,  ACL_UINT32,
                                      ACL_UINT64, ACL_INT64,  ACL_BF16};
const OpInfo kUnique{"aclnnUnique", ExecUnit::kVector, kTypes, "valueOut = sorted distinct values of self"};
const OpRegistrar kUniqueRegistrar(kUnique);
const OpInfo kUniqueConsecutive{"aclnnUniqueConsecutive", ExecUnit::kVector, kTypes,
                                "valueOut = self with runs of equal slices along dim merged"};
const OpRegistrar kUniqueConsecutiveRegistrar(kUniqueConsecutive);
const OpInfo kUniqueDim{"aclnnUniqueDim", ExecUnit::kVector, kTypes,
                        "valueOut = sorted distinct slices along dim"};
const OpRegistrar kUniqueDimRegistrar(kUniqueDim);

constexpr int64_t kNoDim = 1000;  // aclnnUniqueConsecutive.md: dim 1000 flattens self

class UniqueInstance : public OpInstanceBase<UniqueInstance> {
 public:
  bool consecutive = false;
  int64_t dim = -1;                       // -1: the flattened self
  std::vector<aclTensor*> resized;        // value, inverse, counts (null when not produced)
  std::vector<int> outputOf{-1, -1, -1};  // their indices in outputs

  rt::OpWork work() const override {
    std::vector<TensorDesc> reads{inputs[0]};
    uint64_t extra = 0;
    for (size_t i = 1; i < outputs.size(); ++i)
      extra += static_cast<uint64_t>(outputs[i].numel()) * outputs[i].elementSize();
    VectorPass p{&reads, &outputs[0], std::max(inputs[0].numel(), outputs[0].numel()), 1};
    p.extraWriteBytes = extra;
    return vectorTiles(p);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<double> x = loadDense<double>(in[0]);
    std::vector<int64_t> s = dim < 0 ? std::vector<int64_t>{static_cast<int64_t>(x.size())} : in[0].shape;
    if (s.empty()) s = {1};
    const auto d = static_cast<size_t>(dim < 0 ? 0 : dim);
    const int64_t outer = dimProduct(s, 0, d), n = s[d], inner = dimProduct(s, d + 1, s.size());
    // Slice i along d, as a vector (outer x inner values).
    auto slice = [&](int64_t i) {
      std::vector<double> v;
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t k = 0; k < inner; ++k) v.push_back(x[static_cast<size_t>((o * n + i) * inner + k)]);
      }
      return v;
    };
    std::vector<std::vector<double>> slices;
    for (int64_t i = 0; i < n; ++i) slices.push_back(slice(i));
    std::vector<int64_t> inverse(static_cast<size_t>(n)), counts, rep;  // rep: a slice of each group
    if (consecutive) {
      for (int64_t i = 0; i < n; ++i) {
        if (i == 0 || slices[static_cast<size_t>(i)] != slices[static_cast<size_t>(i - 1)]) {
          rep.push_back(i);
          counts.push_back(0);
        }
        ++counts.back();
        inverse[static_cast<size_t>(i)] = static_cast<int64_t>(rep.size()) - 1;
      }
    } else {
      std::map<std::vector<double>, int64_t> first;  // ordered: the groups come out sorted
      for (int64_t i = 0; i < n; ++i) first.emplace(slices[static_cast<size_t>(i)], i);
      std::map<std::vector<double>, int64_t> group;
      for (const auto& [v, i] : first) {
        group[v] = static_cast<int64_t>(rep.size());
        rep.push_back(i);
      }
      counts.assign(rep.size(), 0);
      for (int64_t i = 0; i < n; ++i) {
        const int64_t gi = group[slices[static_cast<size_t>(i)]];
        inverse[static_cast<size_t>(i)] = gi;
        ++counts[static_cast<size_t>(gi)];
      }
    }
    const auto k = static_cast<int64_t>(rep.size());
    std::vector<int64_t> valueShape = s;
    valueShape[d] = k;
    std::vector<double> value;
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t g = 0; g < k; ++g) {
        for (int64_t j = 0; j < inner; ++j)
          value.push_back(x[static_cast<size_t>((o * n + rep[static_cast<size_t>(g)]) * inner + j)]);
      }
    }
    const std::vector<int64_t> inverseShape = dim < 0 ? in[0].shape : std::vector<int64_t>{n};
    write(out, 0, valueShape, value.data());
    write(out, 1, inverseShape, inverse.data());
    write(out, 2, {k}, counts.data());
  }

 private:
  // Writes result `which` densely into its output (as much as its storage holds) and sets the
  // tensor's view shape.
  template <typename T>
  void write(const std::vector<HostTensor>& out, int which, std::vector<int64_t> shape, const T* v) const {
    const int o = outputOf[static_cast<size_t>(which)];
    if (o < 0) return;
    HostTensor dense = out[static_cast<size_t>(o)];
    if (dimProduct(shape, 0, shape.size()) > dense.numel()) return;  // out too small: left as it was
    dense.shape = shape;
    dense.strides = contiguousStrides(shape);
    storeDense(dense, v);
    if (resized[static_cast<size_t>(which)] != nullptr) {
      resized[static_cast<size_t>(which)]->desc.shape = shape;
      resized[static_cast<size_t>(which)]->desc.strides = contiguousStrides(shape);
    }
  }
};

int32_t build(const char* api, const OpInfo& info, const aclTensor* self, bool consecutive, int64_t dim,
              bool hasDim, aclTensor* valueOut, aclTensor* inverseOut, aclTensor* countsOut,
              uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"valueOut", valueOut}});
  if (st != kSuccess || (st = checkTensor(api, "self", self->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "self", self->desc.dtype, info)) != kSuccess) return st;
  int64_t d = -1;
  if (hasDim) {
    d = wrapDim(dim, std::max<size_t>(self->desc.rank(), 1));
    if (d < 0) return fail(api, kErrParamInvalid, fmt::format("dim {} is out of range", dim));
  }
  auto inst = std::make_unique<UniqueInstance>();
  inst->name = info.name;
  inst->consecutive = consecutive;
  inst->dim = d;
  addInput(*inst, "self", self);
  const std::pair<const char*, aclTensor*> outs[] = {
      {"valueOut", valueOut}, {"inverseOut", inverseOut}, {"countsOut", countsOut}};
  for (size_t i = 0; i < 3; ++i) {
    aclTensor* t = outs[i].second;
    inst->resized.push_back(t);
    if (t == nullptr) continue;
    if ((st = checkTensor(api, outs[i].first, t->desc)) != kSuccess) return st;
    const bool values = i == 0;
    if (values ? t->desc.dtype != self->desc.dtype : t->desc.dtype != ACL_INT64) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} type must be {}, not {}", outs[i].first,
                              values ? dtypeName(self->desc.dtype) : "int64", dtypeName(t->desc.dtype)));
    }
    if (!t->desc.isContiguous())
      return fail(api, kErrParamInvalid, fmt::format("{} must be contiguous", outs[i].first));
    inst->outputOf[i] = static_cast<int>(inst->outputs.size());
    addOutput(*inst, outs[i].first, t);
  }
  inst->attrs = fmt::format("dim={}", hasDim ? fmt::format("{}", dim) : "none");
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnUniqueGetWorkspaceSize(const aclTensor* self, bool sorted, bool returnInverse,
                                                   aclTensor* valueOut, aclTensor* inverseOut,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)sorted;
  return build("aclnnUniqueGetWorkspaceSize", kUnique, self, false, 0, false, valueOut,
               returnInverse ? inverseOut : nullptr, nullptr, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Unique)

extern "C" aclnnStatus aclnnUniqueConsecutiveGetWorkspaceSize(const aclTensor* self, bool returnInverse,
                                                              bool returnCounts, int64_t dim,
                                                              aclTensor* valueOut, aclTensor* inverseOut,
                                                              aclTensor* countsOut, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  return build("aclnnUniqueConsecutiveGetWorkspaceSize", kUniqueConsecutive, self, true, dim, dim != kNoDim,
               valueOut, returnInverse ? inverseOut : nullptr, returnCounts ? countsOut : nullptr,
               workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(UniqueConsecutive)

extern "C" aclnnStatus aclnnUniqueDimGetWorkspaceSize(const aclTensor* self, bool sorted, bool returnInverse,
                                                      int64_t dim, aclTensor* valueOut, aclTensor* inverseOut,
                                                      aclTensor* countsOut, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  (void)sorted;
  return build("aclnnUniqueDimGetWorkspaceSize", kUniqueDim, self, false, dim, true, valueOut,
               returnInverse ? inverseOut : nullptr, countsOut, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(UniqueDim)

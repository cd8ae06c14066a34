// Sorting and searching of ops-math math/sort, math/search_sorted, math/tensor_equal and the
// experimental sort_v2 / sort_with_index (issue 28): Sort, Argsort, SortV2, SortWithIndex,
// SearchSorted(s) and Equal. Sorting is along one dimension, NaN ordered above every number
// (PyTorch's rule), ties kept in input order (a stable sort, which also satisfies the unstable
// forms); the index outputs are positions along the dimension, or the carried `index` input's
// values (SortV2, SortWithIndex). Cost: the input read, the outputs written, and log2(n)
// vector passes of the device's merge sort.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "aclnnop/aclnn_argsort.h"
#include "aclnnop/aclnn_equal.h"
#include "aclnnop/aclnn_searchsorted.h"
#include "aclnnop/aclnn_sort.h"
#include "aclnnop/aclnn_sort_v2.h"
#include "aclnnop/aclnn_sort_with_index.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kSortable = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                            ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL};
const OpInfo kSort{"aclnnSort", ExecUnit::kVector, kSortable, "valuesOut, indicesOut = sort(self, dim)"};
const OpInfo kArgsort{"aclnnArgsort", ExecUnit::kVector, kSortable,
                      "out = the indices that sort self along dim"};
const OpInfo kSortV2{"aclnnSortV2",
                     ExecUnit::kVector,
                     {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                     "y, dstIndex = x sorted along axis, index carried"};
const OpInfo kSortWithIndex{"aclnnSortWithIndex",
                            ExecUnit::kVector,
                            {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                            "valuesOut, indicesOut = x sorted along axis, index carried"};
const OpInfo kSearchSorted{"aclnnSearchSorted", ExecUnit::kVector, kSortable,
                           "out = insertion points of self in sortedSequence's innermost rows"};
const OpInfo kSearchSorteds{"aclnnSearchSorteds", ExecUnit::kVector, kSortable,
                            "out = insertion points of the scalar self in sortedSequence's innermost rows"};
const OpInfo kEqual{"aclnnEqual", ExecUnit::kVector, kSortable,
                    "out = self and other have one shape and equal values"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kSort),         OpRegistrar(kArgsort),
                                   OpRegistrar(kSortV2),       OpRegistrar(kSortWithIndex),
                                   OpRegistrar(kSearchSorted), OpRegistrar(kSearchSorteds),
                                   OpRegistrar(kEqual)};

// a before b in ascending order, NaN last
bool less(double a, double b) { return !std::isnan(a) && (std::isnan(b) || a < b); }

int log2Passes(int64_t n) {
  int p = 0;
  while ((int64_t{1} << p) < n) ++p;
  return p;
}

class SortInstance : public OpInstanceBase<SortInstance> {
 public:
  int64_t dim = 0;
  bool descending = false;
  bool carry = false;  // inputs[1] holds the indices to carry along
  int valuesOut = 0;   // output index of the sorted values, or -1 (argsort)
  int indicesOut = 1;  // output index of the indices

  rt::OpWork work() const override {
    const int64_t n = inputs[0].shape.empty() ? 1 : inputs[0].shape[static_cast<size_t>(dim)];
    uint64_t extra = 0;
    for (size_t i = 1; i < outputs.size(); ++i)
      extra += static_cast<uint64_t>(outputs[i].numel()) * outputs[i].elementSize();
    return vectorTiles(VectorPass{&inputs, &outputs[0], inputs[0].numel(), log2Passes(n), extra});
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (in[0].numel() == 0) return;
    const std::vector<double> x = loadDense<double>(in[0]);
    const std::vector<int64_t> carried = carry ? loadDense<int64_t>(in[1]) : std::vector<int64_t>{};
    const size_t d = static_cast<size_t>(dim);
    const int64_t outer = dimProduct(in[0].shape, 0, d), n = in[0].shape.empty() ? 1 : in[0].shape[d],
                  inner = dimProduct(in[0].shape, d + 1, in[0].shape.size());
    std::vector<double> v(x.size());
    std::vector<int64_t> idx(x.size());
    std::vector<int64_t> order(static_cast<size_t>(n));
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        const auto at = [&](int64_t k) { return static_cast<size_t>((o * n + k) * inner + i); };
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
          return descending ? less(x[at(b)], x[at(a)]) : less(x[at(a)], x[at(b)]);
        });
        for (int64_t k = 0; k < n; ++k) {
          const int64_t src = order[static_cast<size_t>(k)];
          v[at(k)] = x[at(src)];
          idx[at(k)] = carry ? carried[at(src)] : src;
        }
      }
    }
    if (valuesOut >= 0) storeDense(out[static_cast<size_t>(valuesOut)], v.data());
    storeDense(out[static_cast<size_t>(indicesOut)], idx.data());
  }
};

struct SortArgs {
  const OpInfo* info;
  const char* xName;
  const aclTensor* x;
  int64_t dim;
  bool descending;
  const char* valuesName;  // nullptr: no values output (Argsort)
  const aclTensor* values;
  const char* indicesName;
  const aclTensor* indices;
  std::vector<aclDataType> indexTypes;
  const char* carryName = nullptr;  // the index input of SortV2 / SortWithIndex
  const aclTensor* carry = nullptr;
  std::string attrs = {};
};

int32_t buildSort(const SortArgs& s, uint64_t* ws, aclOpExecutor** ex) {
  const std::string apiName = s.info->name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{s.xName, s.x}, {s.indicesName, s.indices}});
  if (st != kSuccess) return st;
  if (s.valuesName != nullptr && (st = checkNotNull(api, {{s.valuesName, s.values}})) != kSuccess) return st;
  if (s.carryName != nullptr && (st = checkNotNull(api, {{s.carryName, s.carry}})) != kSuccess) return st;
  if ((st = checkTensor(api, s.xName, s.x->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, s.xName, s.x->desc.dtype, *s.info)) != kSuccess) return st;
  const size_t rank = s.x->desc.rank();
  const int64_t d = rank == 0 ? (s.dim == 0 || s.dim == -1 ? 0 : -1) : wrapDim(s.dim, rank);
  if (d < 0)
    return fail(api, kErrParamInvalid, fmt::format("dim {} is out of range for {} dimensions", s.dim, rank));
  auto inst = std::make_unique<SortInstance>();
  inst->name = s.info->name;
  inst->dim = rank == 0 ? 0 : d;
  inst->descending = s.descending;
  inst->attrs = s.attrs;
  addInput(*inst, s.xName, s.x);
  if (s.carry != nullptr) {
    if ((st = checkTensor(api, s.carryName, s.carry->desc)) != kSuccess) return st;
    if ((st = checkShape(api, s.carryName, s.carry->desc.shape, s.x->desc.shape)) != kSuccess) return st;
    if (!isIntegral(s.carry->desc.dtype, false)) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("{} must be of an integer type, not {}", s.carryName, dtypeName(s.carry->desc.dtype)));
    }
    inst->carry = true;
    addInput(*inst, s.carryName, s.carry);
  }
  if (s.valuesName != nullptr) {
    if ((st = checkTensor(api, s.valuesName, s.values->desc)) != kSuccess) return st;
    if (s.values->desc.dtype != s.x->desc.dtype) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} type {} must equal {} type {}", s.valuesName,
                              dtypeName(s.values->desc.dtype), s.xName, dtypeName(s.x->desc.dtype)));
    }
    if ((st = checkShape(api, s.valuesName, s.values->desc.shape, s.x->desc.shape)) != kSuccess) return st;
    addOutput(*inst, s.valuesName, s.values);
  } else {
    inst->valuesOut = -1;
    inst->indicesOut = 0;
  }
  if ((st = checkTensor(api, s.indicesName, s.indices->desc)) != kSuccess) return st;
  if (std::find(s.indexTypes.begin(), s.indexTypes.end(), s.indices->desc.dtype) == s.indexTypes.end()) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("{} of type {} is not supported", s.indicesName, dtypeName(s.indices->desc.dtype)));
  }
  if ((st = checkShape(api, s.indicesName, s.indices->desc.shape, s.x->desc.shape)) != kSuccess) return st;
  addOutput(*inst, s.indicesName, s.indices);
  return makeExecutor(api, std::move(inst), ws, ex);
}

const std::vector<aclDataType> kInt64 = {ACL_INT64};
const std::vector<aclDataType> kAnyIndex = {ACL_INT32, ACL_INT64, ACL_UINT32};

// --- SearchSorted: for each value, the count of sequence entries below it (left) or not
// above it (right) in the matching innermost row (or the only row of a 1-D sequence) ---
class SearchInstance : public OpInstanceBase<SearchInstance> {
 public:
  bool right = false;
  bool hasSorter = false;
  bool scalarSelf = false;
  double scalar = 0;

  rt::OpWork work() const override {
    const int64_t n = inputs[0].shape.empty() ? 1 : inputs[0].shape.back();
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), log2Passes(n)});
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (out[0].numel() == 0) return;
    const std::vector<double> seq = loadDense<double>(in[0]);
    const std::vector<double> vals = scalarSelf ? std::vector<double>{scalar} : loadDense<double>(in[1]);
    const std::vector<int64_t> sorter =
        hasSorter ? loadDense<int64_t>(in[scalarSelf ? 1 : 2]) : std::vector<int64_t>{};
    const int64_t n = in[0].shape.empty() ? 1 : in[0].shape.back();
    const int64_t rows = n == 0 ? 0 : static_cast<int64_t>(seq.size()) / n;
    const int64_t perRow =
        rows <= 1 ? static_cast<int64_t>(vals.size()) : static_cast<int64_t>(vals.size()) / rows;
    std::vector<int64_t> r(vals.size());
    for (size_t i = 0; i < vals.size(); ++i) {
      const int64_t row = rows <= 1 ? 0 : static_cast<int64_t>(i) / std::max<int64_t>(perRow, 1);
      const auto entry = [&](int64_t k) {
        const int64_t j = hasSorter ? sorter[static_cast<size_t>(row * n + k)] : k;
        return seq[static_cast<size_t>(row * n + j)];
      };
      int64_t lo = 0, hi = n;  // first k with entry(k) >= v (left) or > v (right), NaN last
      while (lo < hi) {
        const int64_t mid = (lo + hi) / 2;
        const double e = entry(mid), v = vals[i];
        const bool before = right ? !less(v, e) : less(e, v);
        if (before)
          lo = mid + 1;
        else
          hi = mid;
      }
      r[i] = lo;
    }
    storeDense(out[0], r.data());
  }
};

int32_t buildSearch(const OpInfo& info, const aclTensor* seq, const aclTensor* self, const aclScalar* scalar,
                    bool outInt32, bool right, const aclTensor* sorter, const aclTensor* out, uint64_t* ws,
                    aclOpExecutor** ex) {
  const std::string apiName = info.name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"sortedSequence", seq}, {"out", out}});
  if (st != kSuccess) return st;
  if (self == nullptr && scalar == nullptr) return checkNotNull(api, {{"self", nullptr}});
  if ((st = checkTensor(api, "sortedSequence", seq->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "sortedSequence", seq->desc.dtype, info)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if (out->desc.dtype != (outInt32 ? ACL_INT32 : ACL_INT64)) {
    return fail(api, kErrParamInvalid,
                fmt::format("out of type {} contradicts outInt32={}", dtypeName(out->desc.dtype), outInt32));
  }
  auto inst = std::make_unique<SearchInstance>();
  inst->name = info.name;
  inst->right = right;
  inst->attrs = fmt::format("outInt32={}, right={}", outInt32, right);
  addInput(*inst, "sortedSequence", seq);
  std::vector<int64_t> expect;
  if (self != nullptr) {
    if ((st = checkTensor(api, "self", self->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, "self", self->desc.dtype, info)) != kSuccess) return st;
    // a sequence of more than one dimension matches self in every dimension but the last
    const auto& ss = seq->desc.shape;
    const auto& vs = self->desc.shape;
    if (ss.size() > 1 && (vs.size() != ss.size() || !std::equal(ss.begin(), ss.end() - 1, vs.begin()))) {
      return fail(api, kErrParamInvalid,
                  fmt::format("sortedSequence shape {} and self shape {} differ outside the last dimension",
                              shapeString(ss), shapeString(vs)));
    }
    expect = vs;
    addInput(*inst, "self", self);
  } else {
    if (seq->desc.rank() > 1) {
      return fail(api, kErrParamInvalid, "with a scalar self, sortedSequence must be 1-D");
    }
    inst->scalarSelf = true;
    inst->scalar = scalar->value.toDouble();
    expect = {};
  }
  if (sorter != nullptr) {
    if ((st = checkTensor(api, "sorter", sorter->desc)) != kSuccess) return st;
    if (sorter->desc.dtype != ACL_INT64) {
      return fail(api, kErrParamInvalid,
                  fmt::format("sorter must be int64, not {}", dtypeName(sorter->desc.dtype)));
    }
    if ((st = checkShape(api, "sorter", sorter->desc.shape, seq->desc.shape)) != kSuccess) return st;
    inst->hasSorter = true;
    addInput(*inst, "sorter", sorter);
  }
  // a scalar self's one insertion point: out 0-d or [1] (the public example's)
  const bool oneElement = self == nullptr && out->desc.rank() == 1 && out->desc.shape[0] == 1;
  if (!oneElement && (st = checkShape(api, "out", out->desc.shape, expect)) != kSuccess) return st;
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}

// --- Equal: one bool, true when the shapes match and every pair of elements is equal ---
class EqualInstance : public OpInstanceBase<EqualInstance> {
 public:
  bool sameShape = true;

  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], inputs[0].numel(), 1});
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    bool eq = sameShape;
    if (eq) {
      const std::vector<double> a = loadDense<double>(in[0]), b = loadDense<double>(in[1]);
      for (size_t i = 0; eq && i < a.size(); ++i) eq = a[i] == b[i];
    }
    const int64_t v = eq ? 1 : 0;
    storeDense(out[0], &v);
  }
};

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;
#define WS uint64_t *ws, aclOpExecutor **ex

extern "C" aclnnStatus aclnnSortGetWorkspaceSize(const aclTensor* self, bool stable, int64_t dim,
                                                 bool descending, aclTensor* valuesOut, aclTensor* indicesOut,
                                                 WS) {
  return buildSort(
      {&kSort, "self", self, dim, descending, "valuesOut", valuesOut, "indicesOut", indicesOut, kInt64,
       nullptr, nullptr, fmt::format("stable={}, dim={}, descending={}", stable, dim, descending)},
      ws, ex);
}
NPUSIM_ACLNN_PHASE2(Sort)
extern "C" aclnnStatus aclnnArgsortGetWorkspaceSize(const aclTensor* self, int64_t dim, bool descending,
                                                    aclTensor* out, WS) {
  return buildSort({&kArgsort, "self", self, dim, descending, nullptr, nullptr, "out", out, kInt64, nullptr,
                    nullptr, fmt::format("dim={}, descending={}", dim, descending)},
                   ws, ex);
}
NPUSIM_ACLNN_PHASE2(Argsort)
extern "C" aclnnStatus aclnnSortV2GetWorkspaceSize(const aclTensor* x, const aclTensor* index,
                                                   const aclTensor* y, int64_t axis, bool descending,
                                                   const aclTensor* dstIndex, WS) {
  return buildSort({&kSortV2, "x", x, axis, descending, "y", y, "dstIndex", dstIndex, kAnyIndex, "index",
                    index, fmt::format("axis={}, descending={}", axis, descending)},
                   ws, ex);
}
NPUSIM_ACLNN_PHASE2(SortV2)
extern "C" aclnnStatus aclnnSortWithIndexGetWorkspaceSize(const aclTensor* x, const aclTensor* index,
                                                          const int64_t axis, const bool descending,
                                                          const bool stable, aclTensor* valuesOut,
                                                          aclTensor* indicesOut, WS) {
  return buildSort(
      {&kSortWithIndex, "x", x, axis, descending, "valuesOut", valuesOut, "indicesOut", indicesOut, kAnyIndex,
       "index", index, fmt::format("axis={}, descending={}, stable={}", axis, descending, stable)},
      ws, ex);
}
NPUSIM_ACLNN_PHASE2(SortWithIndex)

extern "C" aclnnStatus aclnnSearchSortedGetWorkspaceSize(const aclTensor* sortedSequence,
                                                         const aclTensor* self, bool outInt32, bool right,
                                                         const aclTensor* sorter, aclTensor* out, WS) {
  if (self == nullptr) {
    npusim::rt::chargeOpPrepare("aclnnSearchSortedGetWorkspaceSize");
    return checkNotNull("aclnnSearchSortedGetWorkspaceSize", {{"self", self}});
  }
  return buildSearch(kSearchSorted, sortedSequence, self, nullptr, outInt32, right, sorter, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(SearchSorted)
extern "C" aclnnStatus aclnnSearchSortedsGetWorkspaceSize(const aclTensor* sortedSequence,
                                                          const aclScalar* self, const bool outInt32,
                                                          const bool right, const aclTensor* sorter,
                                                          aclTensor* out, WS) {
  if (self == nullptr) {
    npusim::rt::chargeOpPrepare("aclnnSearchSortedsGetWorkspaceSize");
    return checkNotNull("aclnnSearchSortedsGetWorkspaceSize", {{"self", self}});
  }
  return buildSearch(kSearchSorteds, sortedSequence, nullptr, self, outInt32, right, sorter, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(SearchSorteds)

extern "C" aclnnStatus aclnnEqualGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                                  aclTensor* out, WS) {
  const char* api = "aclnnEqualGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"other", other}, {"out", out}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"self", self}, {"other", other}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kEqual)) != kSuccess) return st;
  }
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if (out->desc.dtype != ACL_BOOL || out->desc.numel() != 1) {
    return fail(api, kErrParamInvalid, fmt::format("out must be one bool, not {}", out->desc.brief()));
  }
  auto inst = std::make_unique<EqualInstance>();
  inst->name = "aclnnEqual";
  inst->sameShape = self->desc.shape == other->desc.shape;
  addInput(*inst, "self", self);
  addInput(*inst, "other", other);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(Equal)

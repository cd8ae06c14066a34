// Operators on the index/scatter engine (scatter_op.h), ops-nn index/...: scatter_elements_v2
// (Scatter, ScatterValue, ScatterReduce, their in-place forms), scatter_add (ScatterAdd),
// inplace_scatter_add (IndexAdd, IndexAddV2), scatter_update (IndexCopy, InplaceIndexCopy),
// index_fill_d (IndexFill, IndexFillTensor and in-place forms), scatter_nd (ScatterNd),
// scatter_nd_update (ScatterNdUpdate, InplacePut), tf_scatter_add (TfScatterAdd).
#include <fmt/format.h>

#include "aclnnop/aclnn_index_add.h"
#include "aclnnop/aclnn_index_add_v2.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_index_fill.h"
#include "aclnnop/aclnn_index_fill_tensor.h"
#include "aclnnop/aclnn_put.h"
#include "aclnnop/aclnn_scatter.h"
#include "aclnnop/aclnn_scatter_add.h"
#include "aclnnop/aclnn_scatter_nd.h"
#include "aclnnop/aclnn_scatter_nd_update.h"
#include "aclnnop/aclnn_scatter_reduce.h"
#include "aclnnop/aclnn_tf_scatter_add.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/gather_map_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/scatter_op.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kTypes{ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                      ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL};

#define NPUSIM_SCATTER_INFO(Name, formula)                                 \
  const OpInfo k##Name{"aclnn" #Name, ExecUnit::kVector, kTypes, formula}; \
  const OpRegistrar k##Name##Registrar(k##Name);

NPUSIM_SCATTER_INFO(Scatter, "out = self; out[p with p[dim] = index[p]] (reduce)= src[p]")
NPUSIM_SCATTER_INFO(ScatterValue, "out = self; out[p with p[dim] = index[p]] (reduce)= value")
NPUSIM_SCATTER_INFO(InplaceScatter, "selfRef[p with p[dim] = index[p]] (reduce)= src[p]")
NPUSIM_SCATTER_INFO(InplaceScatterValue, "selfRef[p with p[dim] = index[p]] (reduce)= value")
NPUSIM_SCATTER_INFO(ScatterAdd, "out = self; out[p with p[dim] = index[p]] += src[p]")
NPUSIM_SCATTER_INFO(ScatterReduce, "out = self; out[p with p[dim] = index[p]] reduced with src[p]")
NPUSIM_SCATTER_INFO(InplaceScatterReduce, "selfRef[p with p[dim] = index[p]] reduced with src[p]")
NPUSIM_SCATTER_INFO(IndexAdd, "out = self; out[..., index[i], ...] += alpha * source[..., i, ...]")
NPUSIM_SCATTER_INFO(IndexAddV2, "out = self; out[..., index[i], ...] += alpha * source[..., i, ...]")
NPUSIM_SCATTER_INFO(IndexCopy, "outRef = selfRef; outRef[..., index[i], ...] = source[..., i, ...]")
NPUSIM_SCATTER_INFO(InplaceIndexCopy, "selfRef[..., index[i], ...] = source[..., i, ...]")
NPUSIM_SCATTER_INFO(IndexFill, "out = self; out[..., index[i], ...] = value")
NPUSIM_SCATTER_INFO(IndexFillTensor, "out = self; out[..., index[i], ...] = value (index on the host)")
NPUSIM_SCATTER_INFO(InplaceIndexFill, "selfRef[..., index[i], ...] = value")
NPUSIM_SCATTER_INFO(InplaceIndexFillTensor, "selfRef[..., index[i], ...] = value (index on the host)")
NPUSIM_SCATTER_INFO(ScatterNd, "out = data; out[indices[i]] = updates[i]")
NPUSIM_SCATTER_INFO(ScatterNdUpdate, "varRef[indices[i]] = updates[i]")
NPUSIM_SCATTER_INFO(InplacePut, "selfRef.flat[index[i]] (+)= source.flat[i]")
NPUSIM_SCATTER_INFO(TfScatterAdd, "varRef[indices[i], ...] += updates[i, ...]")
#undef NPUSIM_SCATTER_INFO

int32_t checkIndexType(const char* api, const char* name, const aclTensor* index) {
  const int32_t st = checkTensor(api, name, index->desc);
  if (st != kSuccess) return st;
  if (index->desc.dtype != ACL_INT32 && index->desc.dtype != ACL_INT64) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} type must be int32 or int64, not {}", name, dtypeName(index->desc.dtype)));
  }
  return kSuccess;
}

// self and out (the same tensor when in place) of one accepted type and shape.
int32_t checkSelfOut(const char* api, const OpInfo& info, const char* selfName, const aclTensor* self,
                     const char* outName, const aclTensor* out) {
  int32_t st = checkMapArgs(api, info, selfName, self, outName, out);
  if (st != kSuccess) return st;
  return checkShape(api, outName, out->desc.shape, self->desc.shape);
}

// A source tensor of self's type.
int32_t checkSource(const char* api, const char* name, const aclTensor* src, const aclTensor* self) {
  int32_t st = checkNotNull(api, {{name, src}});
  if (st != kSuccess || (st = checkTensor(api, name, src->desc)) != kSuccess) return st;
  if (src->desc.dtype != self->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} type {} must equal self type {}", name, dtypeName(src->desc.dtype),
                            dtypeName(self->desc.dtype)));
  }
  return kSuccess;
}

std::unique_ptr<ScatterInstance> newScatter(const OpInfo& info, const char* selfName, const aclTensor* self,
                                            const char* outName, const aclTensor* out, bool inPlace) {
  auto inst = std::make_unique<ScatterInstance>();
  inst->name = info.name;
  addInput(*inst, selfName, self);
  addOutput(*inst, outName, out, inPlace ? 0 : -1);
  return inst;
}

// torch.scatter family along `dim`: updates at every position p of index, destination p with
// p[dim] replaced by index[p]. src (or the scalar) has at least index's extent everywhere.
int32_t elementScatter(const char* api, const OpInfo& info, const aclTensor* self, int64_t dim,
                       const aclTensor* index, const aclTensor* src, const aclScalar* value, int64_t reduce,
                       bool includeSelf, bool allowMean, const aclTensor* out, bool inPlace,
                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"index", index}});
  if (st == kSuccess && src == nullptr) st = checkNotNull(api, {{"value", value}});
  if (st != kSuccess || (st = checkSelfOut(api, info, inPlace ? "selfRef" : "self", self,
                                           inPlace ? "selfRef" : "out", out)) != kSuccess)
    return st;
  if ((st = checkIndexType(api, "index", index)) != kSuccess) return st;
  if (src != nullptr && (st = checkSource(api, "src", src, self)) != kSuccess) return st;
  const std::vector<int64_t> s = self->desc.shape, is = index->desc.shape;
  const size_t r = s.size();
  const int64_t d = wrapDim(dim, std::max<size_t>(r, 1));
  if (d < 0)
    return fail(api, kErrParamInvalid, fmt::format("dim {} is out of range for {} dimensions", dim, r));
  bool ok = is.size() == r && (src == nullptr || src->desc.rank() == r);
  for (size_t a = 0; ok && a < r; ++a) {
    ok = (static_cast<int64_t>(a) == d || is[a] <= s[a]) && (src == nullptr || is[a] <= src->desc.shape[a]);
  }
  if (!ok) {
    return fail(api, kErrParamInvalid,
                fmt::format("index {} must have self's rank and fit in self {} outside dim {} (and in src)",
                            shapeString(is), shapeString(s), d));
  }
  if (reduce < 0 || reduce > (allowMean ? 5 : 2))
    return fail(api, kErrParamInvalid, fmt::format("reduce {} is not one of the operator's modes", reduce));
  auto inst = newScatter(info, inPlace ? "selfRef" : "self", self, inPlace ? "selfRef" : "out", out, inPlace);
  addInput(*inst, "index", index);
  if (src != nullptr) {
    addInput(*inst, "src", src);
  } else {
    inst->srcInput = -1;
    inst->scalar = value->value;
  }
  inst->updateShape = is;
  inst->reduce = static_cast<ScatterReduce>(reduce);
  inst->includeSelf = includeSelf;
  inst->dest = [s, is, d](const std::vector<int64_t>& p, const std::vector<int64_t>& idx) {
    const int64_t i = wrapIndex(idx[static_cast<size_t>(flatIndex(p, is))], s[static_cast<size_t>(d)]);
    if (i < 0) return int64_t{-1};
    std::vector<int64_t> q = p;
    q[static_cast<size_t>(d)] = i;
    return flatIndex(q, s);
  };
  inst->attrs = fmt::format("dim={} reduce={}", dim, reduce);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

// Updates of whole slices along `dim`: the i-th slice of the update space goes to slice
// index[i] of out (IndexAdd, IndexCopy, IndexFill). updateShape: self's shape with dim's
// extent the number of indices (or the source's shape).
int32_t sliceScatter(const char* api, const OpInfo& info, const char* selfName, const aclTensor* self,
                     int64_t dim, const aclTensor* index, const aclIntArray* hostIndex,
                     const aclTensor* source, const aclScalar* value, double alpha, ScatterReduce reduce,
                     const char* outName, const aclTensor* out, bool inPlace, uint64_t* workspaceSize,
                     aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"index", index != nullptr ? static_cast<const void*>(index) : hostIndex}});
  if (st == kSuccess && source == nullptr) st = checkNotNull(api, {{"value", value}});
  if (st != kSuccess || (st = checkSelfOut(api, info, selfName, self, outName, out)) != kSuccess) return st;
  if (index != nullptr && (st = checkIndexType(api, "index", index)) != kSuccess) return st;
  if (index != nullptr && index->desc.rank() > 1)
    return fail(api, kErrParamInvalid,
                fmt::format("index must have at most 1 dimension, not {}", index->desc.rank()));
  const std::vector<int64_t> s = self->desc.shape;
  const size_t r = s.size();
  const int64_t d = wrapDim(dim, std::max<size_t>(r, 1));
  if (d < 0)
    return fail(api, kErrParamInvalid, fmt::format("dim {} is out of range for {} dimensions", dim, r));
  const int64_t count =
      index != nullptr ? index->desc.numel() : static_cast<int64_t>(hostIndex->values.size());
  std::vector<int64_t> us = s.empty() ? std::vector<int64_t>{1} : s;
  us[static_cast<size_t>(d)] = count;
  if (source != nullptr) {
    if ((st = checkSource(api, "source", source, self)) != kSuccess) return st;
    const std::vector<int64_t> want = s.empty() ? std::vector<int64_t>{count} : us;
    if (source->desc.shape != want && !(s.empty() && source->desc.numel() == count)) {
      return fail(api, kErrParamInvalid,
                  fmt::format("source shape {} must be self's shape with dim {} of the {} indices: {}",
                              shapeString(source->desc.shape), d, count, shapeString(want)));
    }
  }
  auto inst = newScatter(info, selfName, self, outName, out, inPlace);
  if (index != nullptr) {
    addInput(*inst, "index", index);
  } else {
    inst->indexInput = -1;
    inst->hostIndex = hostIndex->values;
  }
  if (source != nullptr) {
    addInput(*inst, "source", source);
    inst->srcInput = static_cast<int>(inst->inputs.size()) - 1;
  } else {
    inst->srcInput = -1;
    inst->scalar = value->value;
  }
  inst->updateShape = us;
  inst->alpha = alpha;
  inst->reduce = reduce;
  const std::vector<int64_t> os = s.empty() ? std::vector<int64_t>{1} : s;
  inst->dest = [os, d](const std::vector<int64_t>& p, const std::vector<int64_t>& idx) {
    const int64_t i =
        wrapIndex(idx[static_cast<size_t>(p[static_cast<size_t>(d)])], os[static_cast<size_t>(d)]);
    if (i < 0) return int64_t{-1};
    std::vector<int64_t> q = p;
    q[static_cast<size_t>(d)] = i;
    return flatIndex(q, os);
  };
  inst->attrs = fmt::format("dim={}", dim);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

// Updates addressed by rows of `indices` (ScatterNd, ScatterNdUpdate): indices [..., k],
// updates [...] + data.shape[k:]; update p goes to (indices[p[:-]], p[rest]).
int32_t ndScatter(const char* api, const OpInfo& info, const char* dataName, const aclTensor* data,
                  const aclTensor* indices, const aclTensor* updates, const char* outName,
                  const aclTensor* out, bool inPlace, ScatterReduce reduce, uint64_t* workspaceSize,
                  aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"indices", indices}});
  if (st != kSuccess || (st = checkSelfOut(api, info, dataName, data, outName, out)) != kSuccess) return st;
  if ((st = checkIndexType(api, "indices", indices)) != kSuccess) return st;
  if ((st = checkSource(api, "updates", updates, data)) != kSuccess) return st;
  const std::vector<int64_t> s = data->desc.shape, is = indices->desc.shape;
  if (is.empty() || is.back() < 1 || static_cast<size_t>(is.back()) > s.size())
    return fail(api, kErrParamInvalid, fmt::format("indices' last dimension must be in [1, {}]", s.size()));
  const auto k = static_cast<size_t>(is.back());
  std::vector<int64_t> us(is.begin(), is.end() - 1);
  us.insert(us.end(), s.begin() + static_cast<int64_t>(k), s.end());
  if ((st = checkShape(api, "updates", updates->desc.shape, us)) != kSuccess) return st;
  auto inst = newScatter(info, dataName, data, outName, out, inPlace);
  addInput(*inst, "indices", indices);
  addInput(*inst, "updates", updates);
  inst->updateShape = us;
  inst->reduce = reduce;
  const size_t lead = is.size() - 1;
  inst->dest = [s, us, k, lead](const std::vector<int64_t>& p, const std::vector<int64_t>& idx) {
    const int64_t row = flatIndex(std::vector<int64_t>(p.begin(), p.begin() + static_cast<int64_t>(lead)),
                                  std::vector<int64_t>(us.begin(), us.begin() + static_cast<int64_t>(lead)));
    std::vector<int64_t> q(s.size());
    for (size_t a = 0; a < k; ++a) {
      q[a] = wrapIndex(idx[static_cast<size_t>(row) * k + a], s[a]);
      if (q[a] < 0) return int64_t{-1};
    }
    for (size_t a = k; a < s.size(); ++a) q[a] = p[lead + a - k];
    return flatIndex(q, s);
  };
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnScatterGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                    const aclTensor* index, const aclTensor* src,
                                                    int64_t reduce, aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  if (src == nullptr) return checkNotNull("aclnnScatterGetWorkspaceSize", {{"src", src}});
  return elementScatter("aclnnScatterGetWorkspaceSize", kScatter, self, dim, index, src, nullptr, reduce,
                        true, false, out, false, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Scatter)

extern "C" aclnnStatus aclnnScatterValueGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                         const aclTensor* index, const aclScalar* value,
                                                         int64_t reduce, aclTensor* out,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return elementScatter("aclnnScatterValueGetWorkspaceSize", kScatterValue, self, dim, index, nullptr, value,
                        reduce, true, false, out, false, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ScatterValue)

extern "C" aclnnStatus aclnnInplaceScatterGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
                                                           const aclTensor* index, const aclTensor* src,
                                                           int64_t reduce, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  if (src == nullptr) return checkNotNull("aclnnInplaceScatterGetWorkspaceSize", {{"src", src}});
  return elementScatter("aclnnInplaceScatterGetWorkspaceSize", kInplaceScatter, selfRef, dim, index, src,
                        nullptr, reduce, true, false, selfRef, true, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceScatter)

extern "C" aclnnStatus aclnnInplaceScatterValueGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
                                                                const aclTensor* index,
                                                                const aclScalar* value, int64_t reduce,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor) {
  return elementScatter("aclnnInplaceScatterValueGetWorkspaceSize", kInplaceScatterValue, selfRef, dim, index,
                        nullptr, value, reduce, true, false, selfRef, true, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceScatterValue)

extern "C" aclnnStatus aclnnScatterAddGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                       const aclTensor* index, const aclTensor* src,
                                                       aclTensor* out, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
  if (src == nullptr) return checkNotNull("aclnnScatterAddGetWorkspaceSize", {{"src", src}});
  return elementScatter("aclnnScatterAddGetWorkspaceSize", kScatterAdd, self, dim, index, src, nullptr, 1,
                        true, false, out, false, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ScatterAdd)

extern "C" aclnnStatus aclnnScatterReduceGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                          const aclTensor* index, const aclTensor* src,
                                                          int64_t reduce, bool includeSelf, aclTensor* out,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (src == nullptr) return checkNotNull("aclnnScatterReduceGetWorkspaceSize", {{"src", src}});
  return elementScatter("aclnnScatterReduceGetWorkspaceSize", kScatterReduce, self, dim, index, src, nullptr,
                        reduce, includeSelf, true, out, false, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ScatterReduce)

extern "C" aclnnStatus aclnnInplaceScatterReduceGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
                                                                 const aclTensor* index, const aclTensor* src,
                                                                 int64_t reduce, bool includeSelf,
                                                                 uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor) {
  if (src == nullptr) return checkNotNull("aclnnInplaceScatterReduceGetWorkspaceSize", {{"src", src}});
  return elementScatter("aclnnInplaceScatterReduceGetWorkspaceSize", kInplaceScatterReduce, selfRef, dim,
                        index, src, nullptr, reduce, includeSelf, true, selfRef, true, workspaceSize,
                        executor);
}
NPUSIM_ACLNN_PHASE2(InplaceScatterReduce)

extern "C" aclnnStatus aclnnIndexAddGetWorkspaceSize(const aclTensor* self, const int64_t dim,
                                                     const aclTensor* index, const aclTensor* source,
                                                     const aclScalar* alpha, aclTensor* out,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnIndexAddGetWorkspaceSize";
  if (alpha == nullptr || source == nullptr) return checkNotNull(api, {{"source", source}, {"alpha", alpha}});
  return sliceScatter(api, kIndexAdd, "self", self, dim, index, nullptr, source, nullptr,
                      alpha->value.toDouble(), ScatterReduce::kAdd, "out", out, false, workspaceSize,
                      executor);
}
NPUSIM_ACLNN_PHASE2(IndexAdd)

// `mode` picks the device's fast or deterministic kernel; both compute the same sums here.
extern "C" aclnnStatus aclnnIndexAddV2GetWorkspaceSize(const aclTensor* self, const int64_t dim,
                                                       const aclTensor* index, const aclTensor* source,
                                                       const aclScalar* alpha, int64_t mode, aclTensor* out,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnIndexAddV2GetWorkspaceSize";
  if (alpha == nullptr || source == nullptr) return checkNotNull(api, {{"source", source}, {"alpha", alpha}});
  return sliceScatter(api, kIndexAddV2, "self", self, dim, index, nullptr, source, nullptr,
                      alpha->value.toDouble(), ScatterReduce::kAdd, "out", out, false, workspaceSize,
                      executor);
}
NPUSIM_ACLNN_PHASE2(IndexAddV2)

extern "C" aclnnStatus aclnnIndexCopyGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclTensor* index,
                                                      const aclTensor* source, aclTensor* outRef,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnIndexCopyGetWorkspaceSize";
  if (source == nullptr) return checkNotNull(api, {{"source", source}});
  return sliceScatter(api, kIndexCopy, "selfRef", selfRef, dim, index, nullptr, source, nullptr, 1,
                      ScatterReduce::kNone, "outRef", outRef, false, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(IndexCopy)

extern "C" aclnnStatus aclnnInplaceIndexCopyGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
                                                             const aclTensor* index, const aclTensor* source,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
  const char* api = "aclnnInplaceIndexCopyGetWorkspaceSize";
  if (source == nullptr) return checkNotNull(api, {{"source", source}});
  return sliceScatter(api, kInplaceIndexCopy, "selfRef", selfRef, dim, index, nullptr, source, nullptr, 1,
                      ScatterReduce::kNone, "selfRef", selfRef, true, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceIndexCopy)

extern "C" aclnnStatus aclnnIndexFillGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                      const aclTensor* index, const aclScalar* value,
                                                      aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  const char* api = "aclnnIndexFillGetWorkspaceSize";
  if (index == nullptr) return checkNotNull(api, {{"index", index}});
  return sliceScatter(api, kIndexFill, "self", self, dim, index, nullptr, nullptr, value, 1,
                      ScatterReduce::kNone, "out", out, false, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(IndexFill)

extern "C" aclnnStatus aclnnInplaceIndexFillGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
                                                             const aclTensor* index, const aclScalar* value,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
  const char* api = "aclnnInplaceIndexFillGetWorkspaceSize";
  if (index == nullptr) return checkNotNull(api, {{"index", index}});
  return sliceScatter(api, kInplaceIndexFill, "selfRef", selfRef, dim, index, nullptr, nullptr, value, 1,
                      ScatterReduce::kNone, "selfRef", selfRef, true, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceIndexFill)

extern "C" aclnnStatus aclnnIndexFillTensorGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                            const aclIntArray* index, const aclScalar* value,
                                                            aclTensor* out, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  const char* api = "aclnnIndexFillTensorGetWorkspaceSize";
  if (index == nullptr) return checkNotNull(api, {{"index", index}});
  return sliceScatter(api, kIndexFillTensor, "self", self, dim, nullptr, index, nullptr, value, 1,
                      ScatterReduce::kNone, "out", out, false, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(IndexFillTensor)

extern "C" aclnnStatus aclnnInplaceIndexFillTensorGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
                                                                   const aclIntArray* index,
                                                                   const aclScalar* value,
                                                                   uint64_t* workspaceSize,
                                                                   aclOpExecutor** executor) {
  const char* api = "aclnnInplaceIndexFillTensorGetWorkspaceSize";
  if (index == nullptr) return checkNotNull(api, {{"index", index}});
  return sliceScatter(api, kInplaceIndexFillTensor, "selfRef", selfRef, dim, nullptr, index, nullptr, value,
                      1, ScatterReduce::kNone, "selfRef", selfRef, true, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceIndexFillTensor)

extern "C" aclnnStatus aclnnScatterNdGetWorkspaceSize(const aclTensor* data, const aclTensor* indices,
                                                      const aclTensor* updates, aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ndScatter("aclnnScatterNdGetWorkspaceSize", kScatterNd, "data", data, indices, updates, "out", out,
                   false, ScatterReduce::kNone, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ScatterNd)

extern "C" aclnnStatus aclnnScatterNdUpdateGetWorkspaceSize(aclTensor* varRef, const aclTensor* indices,
                                                            const aclTensor* updates, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  return ndScatter("aclnnScatterNdUpdateGetWorkspaceSize", kScatterNdUpdate, "varRef", varRef, indices,
                   updates, "varRef", varRef, true, ScatterReduce::kNone, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ScatterNdUpdate)

extern "C" aclnnStatus aclnnInplacePutGetWorkspaceSize(aclTensor* selfRef, const aclTensor* index,
                                                       const aclTensor* source, bool accumulate,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnInplacePutGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"index", index}});
  if (st != kSuccess ||
      (st = checkSelfOut(api, kInplacePut, "selfRef", selfRef, "selfRef", selfRef)) != kSuccess)
    return st;
  if ((st = checkIndexType(api, "index", index)) != kSuccess) return st;
  if ((st = checkSource(api, "source", source, selfRef)) != kSuccess) return st;
  if (index->desc.numel() != source->desc.numel()) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("index has {} elements but source {}", index->desc.numel(), source->desc.numel()));
  }
  auto inst = newScatter(kInplacePut, "selfRef", selfRef, "selfRef", selfRef, true);
  addInput(*inst, "index", index);
  addInput(*inst, "source", source);
  inst->updateShape = source->desc.shape;
  inst->reduce = accumulate ? ScatterReduce::kAdd : ScatterReduce::kNone;
  const int64_t n = selfRef->desc.numel();
  const std::vector<int64_t> us = source->desc.shape;
  inst->dest = [n, us](const std::vector<int64_t>& p, const std::vector<int64_t>& idx) {
    return wrapIndex(idx[static_cast<size_t>(flatIndex(p, us))], n);
  };
  inst->attrs = fmt::format("accumulate={}", accumulate);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplacePut)

extern "C" aclnnStatus aclnnTfScatterAddGetWorkspaceSize(aclTensor* varRef, const aclTensor* indices,
                                                         const aclTensor* updates, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  const char* api = "aclnnTfScatterAddGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"indices", indices}});
  if (st != kSuccess ||
      (st = checkSelfOut(api, kTfScatterAdd, "varRef", varRef, "varRef", varRef)) != kSuccess)
    return st;
  if ((st = checkIndexType(api, "indices", indices)) != kSuccess) return st;
  if ((st = checkSource(api, "updates", updates, varRef)) != kSuccess) return st;
  const std::vector<int64_t> s = varRef->desc.shape, is = indices->desc.shape;
  if (s.empty()) return fail(api, kErrParamInvalid, "varRef must have at least 1 dimension");
  std::vector<int64_t> us = is;
  us.insert(us.end(), s.begin() + 1, s.end());
  if ((st = checkShape(api, "updates", updates->desc.shape, us)) != kSuccess) return st;
  auto inst = newScatter(kTfScatterAdd, "varRef", varRef, "varRef", varRef, true);
  addInput(*inst, "indices", indices);
  addInput(*inst, "updates", updates);
  inst->updateShape = us;
  inst->reduce = ScatterReduce::kAdd;
  const size_t lead = is.size();
  inst->dest = [s, is, lead](const std::vector<int64_t>& p, const std::vector<int64_t>& idx) {
    const int64_t row =
        wrapIndex(idx[static_cast<size_t>(flatIndex(
                      std::vector<int64_t>(p.begin(), p.begin() + static_cast<int64_t>(lead)), is))],
                  s[0]);
    if (row < 0) return int64_t{-1};
    std::vector<int64_t> q{row};
    q.insert(q.end(), p.begin() + static_cast<int64_t>(lead), p.end());
    return flatIndex(q, s);
  };
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(TfScatterAdd)

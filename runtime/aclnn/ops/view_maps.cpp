// View-like data movement on the gather-map engine (gather_map_op.h): aclnnChannelShuffle
// (ops-math conversion/transpose), aclnnConfusionTranspose (conversion/confusion_transpose_d),
// aclnnStridedSliceAssignV2 (conversion/strided_slice_assign_v2), and the experimental
// aclnnAsStrided, aclnnStridedSlice, aclnnTransposev and aclnnViewCopy (experimental/conversion/
// as_strided, strided_slice, transposev, view_copy).
#include <fmt/format.h>

#include "aclnnop/aclnn_as_strided.h"
#include "aclnnop/aclnn_channel_shuffle.h"
#include "aclnnop/aclnn_confusion_transpose.h"
#include "aclnnop/aclnn_strided_slice.h"
#include "aclnnop/aclnn_strided_slice_assign_v2.h"
#include "aclnnop/aclnn_transposev.h"
#include "aclnnop/aclnn_view_copy.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/gather_map_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kAllTypes{ACL_FLOAT,  ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE,   ACL_INT8,
                                         ACL_UINT8,  ACL_INT16,   ACL_INT32,  ACL_INT64,    ACL_BOOL,
                                         ACL_UINT16, ACL_UINT32,  ACL_UINT64, ACL_COMPLEX64};

#define NPUSIM_VIEW_INFO(Name, formula)                                       \
  const OpInfo k##Name{"aclnn" #Name, ExecUnit::kVector, kAllTypes, formula}; \
  const OpRegistrar k##Name##Registrar(k##Name);

NPUSIM_VIEW_INFO(ChannelShuffle, "out[n, i*g + j, ...] = self[n, j*(C/g) + i, ...]")
NPUSIM_VIEW_INFO(ConfusionTranspose, "out = reshape(permute(x)) or permute(reshape(x))")
NPUSIM_VIEW_INFO(StridedSliceAssignV2, "varRef[begin:end:strides along axes] = inputValue")
NPUSIM_VIEW_INFO(AsStrided, "out[p] = x.flat[storageOffset + sum p * stride]")
NPUSIM_VIEW_INFO(StridedSlice, "z = x (as [rows, last dim])[start1:end1:stride1, start2:end2:stride2]")
NPUSIM_VIEW_INFO(Transposev, "out = x.permute(perm), perm a device tensor")
NPUSIM_VIEW_INFO(ViewCopy, "dst_out = dst with its (size, stride, offset) view set to src's view")
#undef NPUSIM_VIEW_INFO

// A transpose whose permutation is a device tensor (int32/int64): it is read when the operator
// runs; one that is not a permutation is reported then (the kernel error of
// aclrtSynchronizeStream) and out is left as it was.
class PermTensorInstance : public OpInstanceBase<PermTensorInstance> {
 public:
  rt::OpWork work() const override {
    std::vector<TensorDesc> reads{inputs[0]};
    VectorPass p{&reads, &outputs[0], outputs[0].numel(), 0};
    p.extraReadBytes = static_cast<uint64_t>(inputs[1].numel()) * inputs[1].elementSize();
    return vectorTiles(p);
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<int64_t> perm = loadDense<int64_t>(in[1]);
    const size_t r = in[0].shape.size();
    HostTensor view = in[0];
    std::vector<bool> seen(r, false);
    bool ok = perm.size() == r;
    for (size_t i = 0; ok && i < r; ++i) {
      const int64_t d = wrapDim(perm[i], r);
      ok = d >= 0 && !seen[static_cast<size_t>(d)];
      if (!ok) break;
      seen[static_cast<size_t>(d)] = true;
      view.shape[i] = in[0].shape[static_cast<size_t>(d)];
      view.strides[i] = in[0].strides[static_cast<size_t>(d)];
    }
    if (!ok) {
      reportExecutionError(name.c_str(), fmt::format("perm {} is not a permutation of x's {} dimensions",
                                                     shapeString(perm), r));
      return;
    }
    // Like the device kernel, out receives the permuted elements in row-major order whatever
    // shape it was declared with (phase 1 checked its rank and size).
    HostTensor dense = out[0];
    dense.shape = view.shape;
    dense.strides = contiguousStrides(view.shape);
    copyView(view, out[0].strides == contiguousStrides(out[0].shape) ? dense : out[0]);
  }
};

// Python-style slice bounds of a dimension of size n: start and end clamped into [0, n].
int64_t clampBound(int64_t v, int64_t n) {
  if (v < 0) v += n;
  return std::clamp<int64_t>(v, 0, n);
}

int64_t sliceLength(int64_t start, int64_t end, int64_t step) {
  return end > start ? (end - start + step - 1) / step : 0;
}

// ViewCopy: the views (size, stride, storage offset, each a device tensor) are read when the
// operator runs; dst_out receives dst with the dst view overwritten by the src view. A view
// reaching outside its tensor's elements is reported then (the kernel error of
// aclrtSynchronizeStream) and dst_out is left as it was.
class ViewCopyInstance : public OpInstanceBase<ViewCopyInstance> {
 public:
  rt::OpWork work() const override {
    std::vector<TensorDesc> reads{inputs[0], inputs[4]};
    VectorPass p{&reads, &outputs[0], outputs[0].numel(), 0};
    for (int k : {1, 2, 3, 5, 6, 7})
      p.extraReadBytes += static_cast<uint64_t>(inputs[static_cast<size_t>(k)].numel()) *
                          inputs[static_cast<size_t>(k)].elementSize();
    return vectorTiles(p);
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    std::vector<double> y = loadDense<double>(in[0]);
    const std::vector<double> src = loadDense<double>(in[4]);
    const std::vector<int64_t> dSize = loadDense<int64_t>(in[1]), dStride = loadDense<int64_t>(in[2]),
                               dOff = loadDense<int64_t>(in[3]), sSize = loadDense<int64_t>(in[5]),
                               sStride = loadDense<int64_t>(in[6]), sOff = loadDense<int64_t>(in[7]);
    if (dSize != sSize || dStride.size() != dSize.size() || sStride.size() != sSize.size() || dOff.empty() ||
        sOff.empty()) {
      reportExecutionError(name.c_str(),
                           fmt::format("dst_size {} and src_size {} (with their strides) do not match",
                                       shapeString(dSize), shapeString(sSize)));
      return;
    }
    std::vector<std::pair<int64_t, int64_t>> moves;  // (dst element, src element)
    bool inside = true;
    const int64_t count = dimProduct(dSize, 0, dSize.size());
    std::vector<int64_t> pos(dSize.size(), 0);
    for (int64_t e = 0; e < count && inside; ++e) {
      int64_t d = dOff[0], sIdx = sOff[0];
      for (size_t a = 0; a < pos.size(); ++a) {
        d += pos[a] * dStride[a];
        sIdx += pos[a] * sStride[a];
      }
      inside = d >= 0 && d < static_cast<int64_t>(y.size()) && sIdx >= 0 &&
               sIdx < static_cast<int64_t>(src.size());
      moves.emplace_back(d, sIdx);
      for (size_t a = pos.size(); a-- > 0;) {
        if (++pos[a] < dSize[a]) break;
        pos[a] = 0;
      }
    }
    if (!inside) {
      reportExecutionError(name.c_str(), "a view reaches outside its tensor");
      return;
    }
    for (const auto& [d, sIdx] : moves) y[static_cast<size_t>(d)] = src[static_cast<size_t>(sIdx)];
    storeDense(out[0], y.data());
  }
};

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnChannelShuffleGetWorkspaceSize(const aclTensor* self, int64_t groups,
                                                           aclTensor* out, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  const char* api = "aclnnChannelShuffleGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkMapArgs(api, kChannelShuffle, "self", self, "out", out);
  if (st != kSuccess || (st = checkShape(api, "out", out->desc.shape, self->desc.shape)) != kSuccess)
    return st;
  const std::vector<int64_t> s = self->desc.shape;
  if (s.size() < 3)
    return fail(api, kErrParamInvalid, fmt::format("self needs at least 3 dimensions, not {}", s.size()));
  if (groups <= 0 || s[1] % groups != 0)
    return fail(api, kErrParamInvalid,
                fmt::format("groups {} must be positive and divide the {} channels", groups, s[1]));
  const int64_t per = s[1] / groups;
  auto inst = newMap("aclnnChannelShuffle", {{"self", self}}, "out", out,
                     [s, groups, per](const std::vector<int64_t>& p) {
                       std::vector<int64_t> q = p;
                       q[1] = (p[1] % groups) * per + p[1] / groups;
                       return flatIndex(q, s);
                     });
  inst->attrs = fmt::format("groups={}", groups);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ChannelShuffle)

extern "C" aclnnStatus aclnnConfusionTransposeGetWorkspaceSize(const aclTensor* x, const aclIntArray* perm,
                                                               const aclIntArray* shape, bool transpose_first,
                                                               aclTensor* out, uint64_t* workspaceSize,
                                                               aclOpExecutor** executor) {
  const char* api = "aclnnConfusionTransposeGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"perm", perm}, {"shape", shape}});
  if (st != kSuccess || (st = checkMapArgs(api, kConfusionTranspose, "x", x, "out", out)) != kSuccess)
    return st;
  const std::vector<int64_t> xs = x->desc.shape, rs = shape->values, pv = perm->values;
  // The permuted tensor: x's shape (transpose first) or the reshaped one, reordered by perm.
  const std::vector<int64_t>& base = transpose_first ? xs : rs;
  std::vector<bool> seen(base.size(), false);
  bool ok = pv.size() == base.size() && dimProduct(rs, 0, rs.size()) == x->desc.numel();
  std::vector<int64_t> permuted(base.size());
  for (size_t i = 0; ok && i < pv.size(); ++i) {
    ok = pv[i] >= 0 && static_cast<size_t>(pv[i]) < base.size() && !seen[static_cast<size_t>(pv[i])];
    if (ok) {
      seen[static_cast<size_t>(pv[i])] = true;
      permuted[i] = base[static_cast<size_t>(pv[i])];
    }
  }
  if (!ok) {
    return fail(api, kErrParamInvalid,
                fmt::format("perm {} must permute the {} dimensions and shape {} must hold x's {} elements",
                            shapeString(pv), base.size(), shapeString(rs), x->desc.numel()));
  }
  if ((st = checkShape(api, "out", out->desc.shape, transpose_first ? rs : permuted)) != kSuccess) return st;
  auto inst = newMap("aclnnConfusionTranspose", {{"x", x}}, "out", out,
                     [base, permuted, pv, rs, transpose_first](const std::vector<int64_t>& p) {
                       // Coordinates in the permuted tensor: out's own (reshape after) or from out's flat
                       // index.
                       std::vector<int64_t> t(permuted.size());
                       if (transpose_first) {
                         int64_t f = flatIndex(p, rs);
                         for (size_t a = permuted.size(); a-- > 0;) {
                           t[a] = f % permuted[a];
                           f /= permuted[a];
                         }
                       } else {
                         t = p;
                       }
                       std::vector<int64_t> q(base.size());
                       for (size_t i = 0; i < pv.size(); ++i) q[static_cast<size_t>(pv[i])] = t[i];
                       return flatIndex(q, base);  // x's flat index (x and its reshape share it)
                     });
  inst->attrs =
      fmt::format("perm={} shape={} transpose_first={}", shapeString(pv), shapeString(rs), transpose_first);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ConfusionTranspose)

extern "C" aclnnStatus aclnnStridedSliceAssignV2GetWorkspaceSize(
    aclTensor* varRef, const aclTensor* inputValue, const aclIntArray* begin, const aclIntArray* end,
    const aclIntArray* strides, const aclIntArray* axesOptional, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  const char* api = "aclnnStridedSliceAssignV2GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"begin", begin}, {"end", end}, {"strides", strides}});
  if (st != kSuccess ||
      (st = checkMapArgs(api, kStridedSliceAssignV2, "inputValue", inputValue, "varRef", varRef)) != kSuccess)
    return st;
  const std::vector<int64_t> s = varRef->desc.shape;
  const size_t k = begin->values.size();
  std::vector<int64_t> axes(k);
  for (size_t i = 0; i < k; ++i)
    axes[i] = axesOptional != nullptr && i < axesOptional->values.size() ? axesOptional->values[i]
                                                                         : static_cast<int64_t>(i);
  if (end->values.size() != k || strides->values.size() != k ||
      (axesOptional != nullptr && axesOptional->values.size() != k))
    return fail(api, kErrParamInvalid, "begin, end, strides and axes must have the same number of values");
  std::vector<int64_t> start(s.size(), 0), step(s.size(), 1), shape = s;
  for (size_t i = 0; i < k; ++i) {
    const int64_t d = wrapDim(axes[i], s.size());
    if (d < 0 || strides->values[i] <= 0)
      return fail(api, kErrParamInvalid,
                  fmt::format("axis {} or stride {} is invalid", axes[i], strides->values[i]));
    const auto ud = static_cast<size_t>(d);
    start[ud] = clampBound(begin->values[i], s[ud]);
    step[ud] = strides->values[i];
    shape[ud] = sliceLength(start[ud], clampBound(end->values[i], s[ud]), step[ud]);
  }
  if ((st = checkShape(api, "inputValue", inputValue->desc.shape, shape)) != kSuccess) return st;
  const int64_t n = varRef->desc.numel();
  auto inst = newMap("aclnnStridedSliceAssignV2", {{"varRef", varRef}, {"inputValue", inputValue}}, "varRef",
                     varRef, [s, start, step, shape, n](const std::vector<int64_t>& p) {
                       std::vector<int64_t> q(s.size());
                       for (size_t a = 0; a < s.size(); ++a) {
                         const int64_t r = p[a] - start[a];
                         if (r < 0 || r % step[a] != 0 || r / step[a] >= shape[a]) return flatIndex(p, s);
                         q[a] = r / step[a];
                       }
                       return n + flatIndex(q, shape);  // element of inputValue
                     });
  inst->outputAlias = {0};
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(StridedSliceAssignV2)

extern "C" aclnnStatus aclnnAsStridedGetWorkspaceSize(const aclTensor* x, const aclIntArray* size,
                                                      const aclIntArray* stride,
                                                      const aclIntArray* storageOffset, const aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnAsStridedGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"size", size}, {"stride", stride}});
  if (st != kSuccess || (st = checkMapArgs(api, kAsStrided, "x", x, "out", out)) != kSuccess) return st;
  const std::vector<int64_t> sz = size->values, sd = stride->values;
  const int64_t offset =
      storageOffset != nullptr && !storageOffset->values.empty() ? storageOffset->values[0] : 0;
  if (sd.size() != sz.size()) return fail(api, kErrParamInvalid, "size and stride must have the same length");
  int64_t last = offset;
  for (size_t a = 0; a < sz.size(); ++a) {
    if (sz[a] < 0 || sd[a] < 0) return fail(api, kErrParamInvalid, "size and stride must not be negative");
    if (sz[a] > 0) last += (sz[a] - 1) * sd[a];
  }
  if (offset < 0 || (dimProduct(sz, 0, sz.size()) > 0 && last >= x->desc.numel())) {
    return fail(api, kErrParamInvalid,
                fmt::format("the view (offset {}, size {}, stride {}) reaches element {} of x's {}", offset,
                            shapeString(sz), shapeString(sd), last, x->desc.numel()));
  }
  if ((st = checkShape(api, "out", out->desc.shape, sz)) != kSuccess) return st;
  auto inst = newMap("aclnnAsStrided", {{"x", x}}, "out", out, [sd, offset](const std::vector<int64_t>& p) {
    int64_t f = offset;
    for (size_t a = 0; a < p.size(); ++a) f += p[a] * sd[a];
    return f;
  });
  inst->readElements = out->desc.numel();
  inst->attrs = fmt::format("size={} stride={} offset={}", shapeString(sz), shapeString(sd), offset);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(AsStrided)

extern "C" aclnnStatus aclnnStridedSliceGetWorkspaceSize(const aclTensor* x, int64_t start1, int64_t start2,
                                                         int64_t end1, int64_t end2, int64_t stride1,
                                                         int64_t stride2, const aclTensor* z,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnStridedSliceGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkMapArgs(api, kStridedSlice, "x", x, "z", z);
  if (st != kSuccess) return st;
  if (x->desc.rank() < 1 || stride1 <= 0 || stride2 <= 0)
    return fail(api, kErrParamInvalid, "x needs a dimension and the strides must be positive");
  const int64_t cols = x->desc.shape.back(), rows = x->desc.numel() / std::max<int64_t>(cols, 1);
  const int64_t r0 = clampBound(start1, rows), c0 = clampBound(start2, cols);
  const int64_t nr = sliceLength(r0, clampBound(end1, rows), stride1),
                nc = sliceLength(c0, clampBound(end2, cols), stride2);
  if (z->desc.numel() != nr * nc) {
    return fail(api, kErrParamInvalid,
                fmt::format("z has {} elements; the slice of x as [{}, {}] has {} x {}", z->desc.numel(),
                            rows, cols, nr, nc));
  }
  const std::vector<int64_t> zs = z->desc.shape;
  auto inst = newMap("aclnnStridedSlice", {{"x", x}}, "z", z, [=](const std::vector<int64_t>& p) {
    const int64_t f = flatIndex(p, zs);
    return (r0 + f / nc * stride1) * cols + c0 + f % nc * stride2;
  });
  inst->readElements = z->desc.numel();
  inst->attrs = fmt::format("rows {}:{}:{} cols {}:{}:{}", start1, end1, stride1, start2, end2, stride2);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(StridedSlice)

extern "C" aclnnStatus aclnnTransposevGetWorkspaceSize(const aclTensor* x, const aclTensor* perm,
                                                       const aclTensor* out, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
  const char* api = "aclnnTransposevGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"perm", perm}});
  if (st != kSuccess || (st = checkMapArgs(api, kTransposev, "x", x, "out", out)) != kSuccess) return st;
  if ((st = checkTensor(api, "perm", perm->desc)) != kSuccess) return st;
  if ((perm->desc.dtype != ACL_INT32 && perm->desc.dtype != ACL_INT64) || perm->desc.rank() != 1 ||
      perm->desc.numel() != static_cast<int64_t>(x->desc.rank())) {
    return fail(api, kErrParamInvalid,
                fmt::format("perm must be a 1-D int32/int64 tensor of {} values, not {}", x->desc.rank(),
                            perm->desc.brief()));
  }
  if (out->desc.rank() != x->desc.rank() || out->desc.numel() != x->desc.numel()) {
    return fail(api, kErrParamInvalid,
                fmt::format("out {} must hold x {} permuted", shapeString(out->desc.shape),
                            shapeString(x->desc.shape)));
  }
  auto inst = std::make_unique<PermTensorInstance>();
  inst->name = "aclnnTransposev";
  addInput(*inst, "x", x);
  addInput(*inst, "perm", perm);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Transposev)

extern "C" aclnnStatus aclnnViewCopyGetWorkspaceSize(const aclTensor* dst, const aclTensor* dstSize,
                                                     const aclTensor* dstStride,
                                                     const aclTensor* dstStorageOffset, const aclTensor* src,
                                                     const aclTensor* srcSize, const aclTensor* srcStride,
                                                     const aclTensor* srcStorageOffset,
                                                     const aclTensor* dstOut, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  const char* api = "aclnnViewCopyGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"dst_size", dstSize},
                                  {"dst_stride", dstStride},
                                  {"dst_storage_offset", dstStorageOffset},
                                  {"src", src},
                                  {"src_size", srcSize},
                                  {"src_stride", srcStride},
                                  {"src_storage_offset", srcStorageOffset}});
  if (st != kSuccess || (st = checkMapArgs(api, kViewCopy, "dst", dst, "dst_out", dstOut)) != kSuccess)
    return st;
  if ((st = checkShape(api, "dst_out", dstOut->desc.shape, dst->desc.shape)) != kSuccess) return st;
  if ((st = checkMapArgs(api, kViewCopy, "src", src, "dst", dst)) != kSuccess) return st;
  for (auto [name, t] : {std::pair{"dst_size", dstSize},
                         {"dst_stride", dstStride},
                         {"dst_storage_offset", dstStorageOffset},
                         {"src_size", srcSize},
                         {"src_stride", srcStride},
                         {"src_storage_offset", srcStorageOffset}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if (t->desc.dtype != ACL_INT32 && t->desc.dtype != ACL_INT64)
      return fail(api, kErrParamInvalid, fmt::format("{} type must be int32 or int64", name));
  }
  auto inst = std::make_unique<ViewCopyInstance>();
  inst->name = "aclnnViewCopy";
  addInput(*inst, "dst", dst);
  addInput(*inst, "dst_size", dstSize);
  addInput(*inst, "dst_stride", dstStride);
  addInput(*inst, "dst_storage_offset", dstStorageOffset);
  addInput(*inst, "src", src);
  addInput(*inst, "src_size", srcSize);
  addInput(*inst, "src_stride", srcStride);
  addInput(*inst, "src_storage_offset", srcStorageOffset);
  addOutput(*inst, "dst_out", dstOut);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ViewCopy)

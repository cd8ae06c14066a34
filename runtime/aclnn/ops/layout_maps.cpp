// Data movement operators that are one output-position -> input-element map on the gather-map
// engine (gather_map_op.h): Repeat (ops-math math/tile), Expand (math/expand), Roll
// (conversion/roll), Flip (ops-nn index/reverse_v2), Stack (conversion/pack), Flatten
// (conversion/flatten), SliceV2 (conversion/strided_slice_v3), ChunkCat (conversion/chunk_cat).
// Each entry: the checks its doc states, the output shape, and the map.
#include <fmt/format.h>

#include "aclnnop/aclnn_broadcast_v2.h"
#include "aclnnop/aclnn_chunk_cat.h"
#include "aclnnop/aclnn_expand.h"
#include "aclnnop/aclnn_expandv.h"
#include "aclnnop/aclnn_fill_v2.h"
#include "aclnnop/aclnn_flatten.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_pack_v2.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_slice_v2.h"
#include "aclnnop/aclnn_slice_v3.h"
#include "aclnnop/aclnn_split.h"
#include "aclnnop/aclnn_stack.h"
#include "aclnnop/aclnn_tensor_move.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/gather_map_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kAllTypes{ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                         ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL};

#define NPUSIM_MAP_INFO(Name, formula)                                        \
  const OpInfo k##Name{"aclnn" #Name, ExecUnit::kVector, kAllTypes, formula}; \
  const OpRegistrar k##Name##Registrar(k##Name);

NPUSIM_MAP_INFO(Repeat, "out[p] = self[p mod self.shape] (self's shape left-padded with 1s)")
NPUSIM_MAP_INFO(Expand, "out = self broadcast to size (-1 keeps a dimension)")
#undef NPUSIM_MAP_INFO
// aclnnRoll.md and aclnnFlip.md list complex types too.
const OpInfo kRoll{"aclnnRoll",
                   ExecUnit::kVector,
                   {ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_UINT8, ACL_INT32, ACL_INT64, ACL_UINT32,
                    ACL_BOOL, ACL_INT16, ACL_COMPLEX64},
                   "out[p] = x[p - shift along dims] (cyclic; no dims: over the flattened x)"};
const OpRegistrar kRollRegistrar(kRoll);
const OpInfo kFlip{"aclnnFlip",
                   ExecUnit::kVector,
                   {ACL_FLOAT16, ACL_FLOAT, ACL_INT32, ACL_INT16, ACL_INT64, ACL_BOOL, ACL_INT8, ACL_UINT8,
                    ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16},
                   "out[p] = self[p with p[d] -> n_d - 1 - p[d] for d in dims]"};
const OpRegistrar kFlipRegistrar(kFlip);
#define NPUSIM_MAP_INFO(Name, formula)                                        \
  const OpInfo k##Name{"aclnn" #Name, ExecUnit::kVector, kAllTypes, formula}; \
  const OpRegistrar k##Name##Registrar(k##Name);
NPUSIM_MAP_INFO(Stack, "out = tensors stacked along a new dimension dim")
NPUSIM_MAP_INFO(Flatten, "out = self as a 2D tensor [prod(shape[:axis]), prod(shape[axis:])]")
NPUSIM_MAP_INFO(SliceV2, "out = self[starts:ends:steps] along axes")
NPUSIM_MAP_INFO(ChunkCat,
                "each tensor cut into numChunks along dim (zero-padded), chunk c of all tensors joined")
#undef NPUSIM_MAP_INFO
// The experimental variants (ops-math experimental/...), with the types of their op definitions.
const OpInfo kExpandv{"aclnnExpandv",
                      ExecUnit::kVector,
                      {ACL_FLOAT16, ACL_FLOAT, ACL_BF16, ACL_INT8, ACL_UINT8, ACL_BOOL, ACL_INT16, ACL_UINT16,
                       ACL_INT32, ACL_UINT32},
                      "y = x broadcast to shape (experimental/math/expandv)"};
const OpRegistrar kExpandvRegistrar(kExpandv);
const OpInfo kSliceV3{"aclnnSliceV3",
                      ExecUnit::kVector,
                      {ACL_FLOAT16, ACL_FLOAT, ACL_INT16, ACL_INT32, ACL_BF16, ACL_INT8, ACL_UINT8},
                      "y = x[begin : begin + size] (experimental/conversion/slice_v3)"};
const OpRegistrar kSliceV3Registrar(kSliceV3);
const OpInfo kPackV2{"aclnnPackV2",
                     ExecUnit::kVector,
                     {ACL_FLOAT, ACL_FLOAT16},
                     "z = stack(x, y) along d (experimental/conversion/pack_v2)"};
const OpRegistrar kPackV2Registrar(kPackV2);
const OpInfo kTensorMove{"aclnnTensorMove",
                         ExecUnit::kVector,
                         {ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_UINT8, ACL_INT8, ACL_UINT16, ACL_INT16,
                          ACL_UINT32, ACL_INT32, ACL_UINT64, ACL_INT64, ACL_BOOL, ACL_DOUBLE},
                         "y = x (experimental/conversion/tensor_move)"};
const OpRegistrar kTensorMoveRegistrar(kTensorMove);
const OpInfo kFillV2{"aclnnFillV2",
                     ExecUnit::kVector,
                     {ACL_FLOAT16, ACL_FLOAT, ACL_INT16, ACL_INT32, ACL_BF16},
                     "x = fill_value[0] everywhere (experimental/conversion/fill_v2)"};
const OpRegistrar kFillV2Registrar(kFillV2);
const OpInfo kBroadcastV2{
    "aclnnBroadcastV2",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16},
    "y[.., i*num + r, ..] = x[.., i, ..] along axis (experimental/conversion/broadcast_v2)"};
const OpRegistrar kBroadcastV2Registrar(kBroadcastV2);
const OpInfo kSplit{"aclnnSplit",
                    ExecUnit::kVector,
                    {ACL_FLOAT, ACL_INT32},
                    "y[i] = x[split points i-1 : i] along axis (experimental/conversion/split)"};
const OpRegistrar kSplitRegistrar(kSplit);

int32_t launch(const char* api, std::unique_ptr<MapInstance> inst, std::string attrs, uint64_t* workspaceSize,
               aclOpExecutor** executor) {
  inst->attrs = std::move(attrs);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

// Checks every tensor of a list (non-null, valid, accepted type, same type as out).
int32_t checkTensorList(const char* api, const OpInfo& info, const aclTensorList* tensors,
                        const aclTensor* out, bool sameTypeAsOut) {
  int32_t st = checkNotNull(api, {{"tensors", tensors}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if (tensors->items.empty()) return fail(api, kErrParamInvalid, "tensors is empty");
  for (size_t i = 0; i < tensors->items.size(); ++i) {
    const aclTensor* t = tensors->items[i];
    const std::string name = fmt::format("tensors[{}]", i);
    if ((st = checkNotNull(api, {{name.c_str(), t}})) != kSuccess) return st;
    if ((st = checkTensor(api, name.c_str(), t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name.c_str(), t->desc.dtype, info)) != kSuccess) return st;
    if (sameTypeAsOut && t->desc.dtype != out->desc.dtype) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} type {} must equal out type {}", name, dtypeName(t->desc.dtype),
                              dtypeName(out->desc.dtype)));
    }
  }
  return checkDtype(api, "out", out->desc.dtype, info);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnRepeatGetWorkspaceSize(const aclTensor* self, const aclIntArray* repeats,
                                                   aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  const char* api = "aclnnRepeatGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"repeats", repeats}});
  if (st != kSuccess || (st = checkMapArgs(api, kRepeat, "self", self, "out", out)) != kSuccess) return st;
  const std::vector<int64_t>& rep = repeats->values;
  const size_t r = rep.size();
  if (r < self->desc.rank() || r > kMaxDims) {
    return fail(api, kErrParamInvalid,
                fmt::format("repeats has {} entries; it needs between self's rank {} and {}", r,
                            self->desc.rank(), kMaxDims));
  }
  std::vector<int64_t> in(r - self->desc.rank(), 1), shape(r);
  in.insert(in.end(), self->desc.shape.begin(), self->desc.shape.end());
  for (size_t a = 0; a < r; ++a) {
    if (rep[a] < 0)
      return fail(api, kErrParamInvalid, fmt::format("repeats[{}] = {} is negative", a, rep[a]));
    shape[a] = in[a] * rep[a];
  }
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  auto inst = newMap("aclnnRepeat", {{"self", self}}, "out", out, [in](const std::vector<int64_t>& p) {
    int64_t f = 0;
    for (size_t a = 0; a < in.size(); ++a) f = f * in[a] + p[a] % in[a];
    return f;
  });
  return launch(api, std::move(inst), "repeats=" + shapeString(rep), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Repeat)

namespace npusim::aclnn {
namespace {

// out = self broadcast to `sizes` (-1 keeps a dimension of self); aclnnExpand and aclnnExpandv.
int32_t expandTo(const char* api, const OpInfo& info, const aclTensor* self, const aclIntArray* size,
                 aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"size", size}});
  if (st != kSuccess || (st = checkMapArgs(api, info, "self", self, "out", out)) != kSuccess) return st;
  const size_t r = size->values.size(), lead = r - std::min(r, self->desc.rank());
  if (r < self->desc.rank() || r > kMaxDims) {
    return fail(api, kErrParamInvalid,
                fmt::format("size has {} entries; it needs between self's rank {} and {}", r,
                            self->desc.rank(), kMaxDims));
  }
  std::vector<int64_t> in(lead, 1), shape(r);
  in.insert(in.end(), self->desc.shape.begin(), self->desc.shape.end());
  for (size_t a = 0; a < r; ++a) {
    const int64_t want = size->values[a];
    shape[a] = want == -1 && a >= lead ? in[a] : want;
    if (shape[a] < 0 || (in[a] != 1 && in[a] != shape[a])) {
      return fail(api, kErrParamInvalid,
                  fmt::format("self shape {} cannot be expanded to size {}", shapeString(self->desc.shape),
                              shapeString(size->values)));
    }
  }
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  auto inst = newMap(info.name.c_str(), {{"self", self}}, "out", out, [in](const std::vector<int64_t>& p) {
    int64_t f = 0;
    for (size_t a = 0; a < in.size(); ++a) f = f * in[a] + (in[a] == 1 ? 0 : p[a]);
    return f;
  });
  inst->readElements = self->desc.numel();
  return launch(api, std::move(inst), "size=" + shapeString(size->values), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnExpandGetWorkspaceSize(const aclTensor* self, const aclIntArray* size,
                                                   aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return expandTo("aclnnExpandGetWorkspaceSize", kExpand, self, size, out, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Expand)

extern "C" aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor* x, const aclIntArray* shifts,
                                                 const aclIntArray* dims, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnRollGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"shifts", shifts}, {"dims", dims}});
  if (st != kSuccess || (st = checkMapArgs(api, kRoll, "x", x, "out", out)) != kSuccess) return st;
  if ((st = checkShape(api, "out", out->desc.shape, x->desc.shape)) != kSuccess) return st;
  const std::vector<int64_t> shape = x->desc.shape;
  const size_t r = shape.size();
  std::vector<int64_t> shift(r, 0);
  int64_t flatShift = 0;
  bool flat = dims->values.empty();
  if (flat) {
    if (shifts->values.size() != 1)
      return fail(api, kErrParamInvalid, "without dims, shifts must have exactly one value");
    flatShift = shifts->values[0];
  } else {
    if (shifts->values.size() != dims->values.size()) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("shifts has {} values but dims has {}", shifts->values.size(), dims->values.size()));
    }
    for (size_t i = 0; i < dims->values.size(); ++i) {
      const int64_t d = wrapDim(dims->values[i], r);
      if (d < 0)
        return fail(api, kErrParamInvalid, fmt::format("dims[{}] = {} is out of range", i, dims->values[i]));
      shift[static_cast<size_t>(d)] += shifts->values[i];
    }
  }
  const int64_t n = x->desc.numel();
  auto inst = newMap("aclnnRoll", {{"x", x}}, "out", out, [=](const std::vector<int64_t>& p) {
    if (flat) return ((flatIndex(p, shape) - flatShift) % n + n) % n;
    int64_t f = 0;
    for (size_t a = 0; a < r; ++a) f = f * shape[a] + ((p[a] - shift[a]) % shape[a] + shape[a]) % shape[a];
    return f;
  });
  return launch(api, std::move(inst),
                fmt::format("shifts={} dims={}", shapeString(shifts->values), shapeString(dims->values)),
                workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Roll)

extern "C" aclnnStatus aclnnFlipGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims,
                                                 aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  const char* api = "aclnnFlipGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"dims", dims}});
  if (st != kSuccess || (st = checkMapArgs(api, kFlip, "self", self, "out", out)) != kSuccess) return st;
  if ((st = checkShape(api, "out", out->desc.shape, self->desc.shape)) != kSuccess) return st;
  const std::vector<int64_t> shape = self->desc.shape;
  std::vector<bool> flip(shape.size(), false);
  for (int64_t d : dims->values) {
    const int64_t w = wrapDim(d, shape.size());
    if (w < 0 || flip[static_cast<size_t>(w)])
      return fail(
          api, kErrParamInvalid,
          fmt::format("dims {} has an invalid or repeated dimension {}", shapeString(dims->values), d));
    flip[static_cast<size_t>(w)] = true;
  }
  auto inst = newMap("aclnnFlip", {{"self", self}}, "out", out, [shape, flip](const std::vector<int64_t>& p) {
    int64_t f = 0;
    for (size_t a = 0; a < shape.size(); ++a) f = f * shape[a] + (flip[a] ? shape[a] - 1 - p[a] : p[a]);
    return f;
  });
  return launch(api, std::move(inst), "dims=" + shapeString(dims->values), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Flip)

extern "C" aclnnStatus aclnnStackGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnStackGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkTensorList(api, kStack, tensors, out, false);
  if (st != kSuccess) return st;
  const std::vector<int64_t> in = tensors->items[0]->desc.shape;
  for (const aclTensor* t : tensors->items) {
    if (t->desc.shape != in) {
      return fail(api, kErrParamInvalid,
                  fmt::format("every tensor must have shape {}, one has {}", shapeString(in),
                              shapeString(t->desc.shape)));
    }
  }
  const int64_t d = wrapDim(dim, in.size() + 1);
  if (d < 0)
    return fail(api, kErrParamInvalid,
                fmt::format("dim {} is out of range for {} dimensions", dim, in.size() + 1));
  std::vector<int64_t> shape = in;
  shape.insert(shape.begin() + d, static_cast<int64_t>(tensors->items.size()));
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  const int64_t each = tensors->items[0]->desc.numel();
  auto inst = newMap("aclnnStack", {}, "out", out, [in, d, each](const std::vector<int64_t>& p) {
    int64_t f = 0;
    for (size_t a = 0, b = 0; a < p.size(); ++a) {
      if (static_cast<int64_t>(a) != d) f = f * in[b++] + p[a];
    }
    return p[static_cast<size_t>(d)] * each + f;
  });
  for (size_t i = 0; i < tensors->items.size(); ++i) addInput(*inst, "tensors", tensors->items[i]);
  return launch(api, std::move(inst), fmt::format("dim={}", dim), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Stack)

extern "C" aclnnStatus aclnnFlattenGetWorkspaceSize(const aclTensor* self, int64_t axis, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnFlattenGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkMapArgs(api, kFlatten, "self", self, "out", out);
  if (st != kSuccess) return st;
  const size_t r = self->desc.rank();
  const int64_t a = axis < 0 ? axis + static_cast<int64_t>(r) : axis;
  if (a < 0 || a > static_cast<int64_t>(r))
    return fail(api, kErrParamInvalid,
                fmt::format("axis {} is out of range [{}, {}]", axis, -static_cast<int64_t>(r), r));
  const std::vector<int64_t> shape{dimProduct(self->desc.shape, 0, static_cast<size_t>(a)),
                                   dimProduct(self->desc.shape, static_cast<size_t>(a), r)};
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  const int64_t cols = shape[1];
  auto inst = newMap("aclnnFlatten", {{"self", self}}, "out", out,
                     [cols](const std::vector<int64_t>& p) { return p[0] * cols + p[1]; });
  return launch(api, std::move(inst), fmt::format("axis={}", axis), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Flatten)

extern "C" aclnnStatus aclnnSliceV2GetWorkspaceSize(const aclTensor* self, const aclIntArray* starts,
                                                    const aclIntArray* ends, const aclIntArray* axes,
                                                    const aclIntArray* steps, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnSliceV2GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"starts", starts}, {"ends", ends}, {"axes", axes}, {"steps", steps}});
  if (st != kSuccess || (st = checkMapArgs(api, kSliceV2, "self", self, "out", out)) != kSuccess) return st;
  const size_t k = starts->values.size();
  if (ends->values.size() != k || axes->values.size() != k || steps->values.size() != k)
    return fail(api, kErrParamInvalid, "starts, ends, axes and steps must have the same number of values");
  const std::vector<int64_t> in = self->desc.shape;
  std::vector<int64_t> begin(in.size(), 0), step(in.size(), 1), shape = in;
  for (size_t i = 0; i < k; ++i) {
    const int64_t d = wrapDim(axes->values[i], in.size());
    if (d < 0)
      return fail(api, kErrParamInvalid, fmt::format("axes[{}] = {} is out of range", i, axes->values[i]));
    if (steps->values[i] <= 0)
      return fail(api, kErrParamInvalid, fmt::format("steps[{}] must be positive", i));
    const int64_t n = in[static_cast<size_t>(d)];
    // The doc's rule: below -N -> 0, at or above N -> N, else (v + N) % N.
    auto clampIndex = [n](int64_t v) { return v < -n ? 0 : v >= n ? n : (v + n) % n; };
    const int64_t s = clampIndex(starts->values[i]), e = clampIndex(ends->values[i]);
    begin[static_cast<size_t>(d)] = s;
    step[static_cast<size_t>(d)] = steps->values[i];
    shape[static_cast<size_t>(d)] = e > s ? (e - s + steps->values[i] - 1) / steps->values[i] : 0;
  }
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  auto inst =
      newMap("aclnnSliceV2", {{"self", self}}, "out", out, [in, begin, step](const std::vector<int64_t>& p) {
        int64_t f = 0;
        for (size_t a = 0; a < in.size(); ++a) f = f * in[a] + begin[a] + p[a] * step[a];
        return f;
      });
  inst->readElements = out->desc.numel();
  return launch(api, std::move(inst),
                fmt::format("starts={} ends={} axes={} steps={}", shapeString(starts->values),
                            shapeString(ends->values), shapeString(axes->values), shapeString(steps->values)),
                workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(SliceV2)

extern "C" aclnnStatus aclnnChunkCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim,
                                                     int64_t numChunks, aclTensor* out,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnChunkCatGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkTensorList(api, kChunkCat, tensors, out, false);
  if (st != kSuccess) return st;
  if (numChunks < 1)
    return fail(api, kErrParamInvalid, fmt::format("numChunks {} must be at least 1", numChunks));
  const std::vector<int64_t>& first = tensors->items[0]->desc.shape;
  const int64_t d = wrapDim(dim, first.size());
  if (d < 0) return fail(api, kErrParamInvalid, fmt::format("dim {} is out of range", dim));
  const auto ud = static_cast<size_t>(d);
  // Per tensor: rows along dim, rows per chunk (rounded up), elements after dim, where it starts.
  struct Part {
    int64_t rows, chunkRows, inner, base, width;
  };
  std::vector<Part> parts;
  int64_t base = 0, width = 0;
  for (const aclTensor* t : tensors->items) {
    const std::vector<int64_t>& s = t->desc.shape;
    if (s.size() <= ud || !std::equal(first.begin(), first.begin() + d, s.begin())) {
      return fail(api, kErrParamInvalid,
                  fmt::format("every tensor must share the dimensions before dim {}: {} vs {}", d,
                              shapeString(first), shapeString(s)));
    }
    const int64_t rows = s[ud], chunkRows = (rows + numChunks - 1) / numChunks,
                  inner = dimProduct(s, ud + 1, s.size());
    parts.push_back({rows, chunkRows, inner, base, chunkRows * inner});
    base += t->desc.numel();
    width += chunkRows * inner;
  }
  std::vector<int64_t> shape(first.begin(), first.begin() + d);
  shape.push_back(numChunks);
  shape.push_back(width);
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  const int64_t lead = d;
  auto inst = newMap("aclnnChunkCat", {}, "out", out, [parts, lead, shape](const std::vector<int64_t>& p) {
    int64_t outer = 0;
    for (int64_t a = 0; a < lead; ++a)
      outer = outer * shape[static_cast<size_t>(a)] + p[static_cast<size_t>(a)];
    const int64_t c = p[static_cast<size_t>(lead)];
    int64_t j = p[static_cast<size_t>(lead) + 1];
    for (const Part& t : parts) {
      if (j >= t.width) {
        j -= t.width;
        continue;
      }
      const int64_t row = c * t.chunkRows + j / t.inner;
      if (row >= t.rows) return int64_t{-1};  // the zero padding of the last chunk
      return t.base + (outer * t.rows + row) * t.inner + j % t.inner;
    }
    return int64_t{-1};
  });
  for (const aclTensor* t : tensors->items) addInput(*inst, "tensors", t);
  return launch(api, std::move(inst), fmt::format("dim={} numChunks={}", dim, numChunks), workspaceSize,
                executor);
}
NPUSIM_ACLNN_PHASE2(ChunkCat)

extern "C" aclnnStatus aclnnExpandvGetWorkspaceSize(const aclTensor* x, const aclIntArray* shape,
                                                    const aclTensor* y, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return expandTo("aclnnExpandvGetWorkspaceSize", kExpandv, x, shape, const_cast<aclTensor*>(y),
                  workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Expandv)

extern "C" aclnnStatus aclnnSliceV3GetWorkspaceSize(const aclTensor* x, const aclIntArray* begin,
                                                    const aclIntArray* size, const aclTensor* y,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnSliceV3GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"begin", begin}, {"size", size}});
  if (st != kSuccess || (st = checkMapArgs(api, kSliceV3, "x", x, "y", y)) != kSuccess) return st;
  const std::vector<int64_t> in = x->desc.shape;
  if (begin->values.size() != in.size() || size->values.size() != in.size())
    return fail(api, kErrParamInvalid, fmt::format("begin and size need {} values (x's rank)", in.size()));
  std::vector<int64_t> shape(in.size());
  for (size_t a = 0; a < in.size(); ++a) {
    const int64_t b = begin->values[a];
    shape[a] = size->values[a] == -1 ? in[a] - b : size->values[a];  // -1: to the end
    if (b < 0 || shape[a] < 0 || b + shape[a] > in[a]) {
      return fail(api, kErrParamInvalid,
                  fmt::format("begin {} and size {} leave x's dimension {} of size {}", b, size->values[a], a,
                              in[a]));
    }
  }
  if ((st = checkShape(api, "y", y->desc.shape, shape)) != kSuccess) return st;
  const std::vector<int64_t> start = begin->values;
  auto inst = newMap("aclnnSliceV3", {{"x", x}}, "y", y, [in, start](const std::vector<int64_t>& p) {
    int64_t f = 0;
    for (size_t a = 0; a < in.size(); ++a) f = f * in[a] + start[a] + p[a];
    return f;
  });
  inst->readElements = y->desc.numel();
  return launch(api, std::move(inst),
                fmt::format("begin={} size={}", shapeString(begin->values), shapeString(size->values)),
                workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(SliceV3)

// z = stack(x, y) along d. The op's shape inference gives z x's shape with its last dimension
// doubled; z may have that shape or the stacked one (the same elements in row-major order).
extern "C" aclnnStatus aclnnPackV2GetWorkspaceSize(const aclTensor* x, const aclTensor* y, int64_t d,
                                                   const aclTensor* z, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  const char* api = "aclnnPackV2GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"y", y}});
  if (st != kSuccess || (st = checkMapArgs(api, kPackV2, "x", x, "z", z)) != kSuccess) return st;
  if ((st = checkMapArgs(api, kPackV2, "y", y, "z", z)) != kSuccess) return st;
  const std::vector<int64_t> in = x->desc.shape;
  if ((st = checkShape(api, "y", y->desc.shape, in)) != kSuccess) return st;
  const int64_t axis = wrapDim(d, in.size() + 1);
  if (axis < 0 || in.empty()) return fail(api, kErrParamInvalid, fmt::format("d {} is out of range", d));
  std::vector<int64_t> stacked = in, doubled = in;
  stacked.insert(stacked.begin() + axis, 2);
  doubled.back() *= 2;
  if (z->desc.shape != doubled && (st = checkShape(api, "z", z->desc.shape, stacked)) != kSuccess) return st;
  const int64_t each = x->desc.numel();
  // z is addressed through its own shape; its flat index is converted to the stacked coordinates.
  const std::vector<int64_t> zs = z->desc.shape;
  auto inst = newMap("aclnnPackV2", {{"x", x}, {"y", y}}, "z", z,
                     [zs, stacked, in, axis, each](const std::vector<int64_t>& p) {
                       int64_t f = flatIndex(p, zs);
                       std::vector<int64_t> q(stacked.size());
                       for (size_t a = stacked.size(); a-- > 0;) {
                         q[a] = f % stacked[a];
                         f /= stacked[a];
                       }
                       int64_t src = 0;
                       for (size_t a = 0, b = 0; a < q.size(); ++a) {
                         if (static_cast<int64_t>(a) != axis) src = src * in[b++] + q[a];
                       }
                       return q[static_cast<size_t>(axis)] * each + src;
                     });
  return launch(api, std::move(inst), fmt::format("d={}", d), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(PackV2)

extern "C" aclnnStatus aclnnTensorMoveGetWorkspaceSize(const aclTensor* x, const aclTensor* y,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnTensorMoveGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkMapArgs(api, kTensorMove, "x", x, "y", y);
  if (st != kSuccess || (st = checkShape(api, "y", y->desc.shape, x->desc.shape)) != kSuccess) return st;
  auto inst = std::make_unique<CopyInstance>();
  inst->name = "aclnnTensorMove";
  addInput(*inst, "x", x);
  addOutput(*inst, "y", y);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(TensorMove)

extern "C" aclnnStatus aclnnFillV2GetWorkspaceSize(aclTensor* x, const aclTensor* fillValue,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnFillV2GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"fill_value", fillValue}});
  if (st != kSuccess || (st = checkMapArgs(api, kFillV2, "fill_value", fillValue, "x", x)) != kSuccess)
    return st;
  if (fillValue->desc.numel() != 1)
    return fail(api, kErrParamInvalid,
                fmt::format("fill_value must hold one element, not {}", fillValue->desc.numel()));
  auto inst = newMap("aclnnFillV2", {{"fill_value", fillValue}}, "x", x,
                     [](const std::vector<int64_t>&) { return int64_t{0}; });
  return launch(api, std::move(inst), "", workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(FillV2)

// bufferMode, dim and isReuseSource choose the device kernel's buffers; they do not change y.
extern "C" aclnnStatus aclnnBroadcastV2GetWorkspaceSize(const aclTensor* x, int64_t bufferMode, int64_t dim,
                                                        int64_t isReuseSource, int64_t axis, int64_t num,
                                                        const aclTensor* y, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  const char* api = "aclnnBroadcastV2GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkMapArgs(api, kBroadcastV2, "x", x, "y", y);
  if (st != kSuccess) return st;
  const std::vector<int64_t> xs = x->desc.shape;
  const int64_t a = wrapDim(axis, xs.size());
  if (a < 0 || num < 1 || xs.empty())
    return fail(api, kErrParamInvalid,
                fmt::format("axis {} and num {} do not fit x {}", axis, num, shapeString(xs)));
  std::vector<int64_t> shape = xs;
  shape[static_cast<size_t>(a)] *= num;
  if ((st = checkShape(api, "y", y->desc.shape, shape)) != kSuccess) return st;
  auto inst = newMap("aclnnBroadcastV2", {{"x", x}}, "y", y, [xs, a, num](const std::vector<int64_t>& p) {
    std::vector<int64_t> q = p;
    q[static_cast<size_t>(a)] /= num;
    return flatIndex(q, xs);
  });
  return launch(api, std::move(inst),
                fmt::format("axis={} num={} bufferMode={} dim={} isReuseSource={}", axis, num, bufferMode,
                            dim, isReuseSource),
                workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(BroadcastV2)

// indices_or_sections are split points along axis (as numpy.split with a list): y[i] holds x
// between point i-1 and point i (0 and the axis' size at the ends).
extern "C" aclnnStatus aclnnSplitGetWorkspaceSize(const aclTensor* x, const aclIntArray* indicesOrSections,
                                                  int64_t axis, const aclTensorList* y,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnSplitGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x", x}, {"indices_or_sections", indicesOrSections}, {"y", y}});
  if (st != kSuccess || (st = checkTensor(api, "x", x->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "x", x->desc.dtype, kSplit)) != kSuccess) return st;
  const int64_t a = wrapDim(axis, x->desc.rank());
  if (a < 0 || x->desc.rank() == 0)
    return fail(api, kErrParamInvalid, fmt::format("axis {} is out of range", axis));
  const int64_t n = x->desc.shape[static_cast<size_t>(a)];
  std::vector<int64_t> points{0};
  for (int64_t v : indicesOrSections->values) points.push_back(std::clamp<int64_t>(v, points.back(), n));
  points.push_back(n);
  if (y->items.size() != points.size() - 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("y has {} tensors; {} split points make {}", y->items.size(), points.size() - 2,
                            points.size() - 1));
  }
  auto inst = std::make_unique<CopyInstance>();
  inst->name = "aclnnSplit";
  for (size_t i = 0; i < y->items.size(); ++i) {
    const aclTensor* part = y->items[i];
    const std::string name = fmt::format("y[{}]", i);
    if ((st = checkMapArgs(api, kSplit, "x", x, name.c_str(), part)) != kSuccess) return st;
    const TensorDesc view = sliceView(x->desc, a, points[i], points[i + 1] - points[i]);
    if ((st = checkShape(api, name.c_str(), part->desc.shape, view.shape)) != kSuccess) return st;
    inst->inputs.push_back(view);
    inst->inputNames.emplace_back("x");
    addOutput(*inst, "y", part);
  }
  inst->attrs = fmt::format("indices_or_sections={} axis={}", shapeString(indicesOrSections->values), axis);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Split)

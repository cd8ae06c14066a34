// aclnnSplitTensor and aclnnSplitWithSize (ops-math conversion/split_v/docs/aclnnSplitTensor.md,
// aclnnSplitWithSize.md): self cut along `dim` into consecutive pieces, written to the tensors
// of `out` (one per piece, self's type, self's shape but the piece's length along dim).
// SplitTensor's pieces have splitSections elements along dim, the last one possibly fewer;
// SplitWithSize's have the lengths in splitSize, which must sum to self's length along dim.
#include <fmt/format.h>

#include "aclnnop/aclnn_split_tensor.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnSplitWithSize",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "out[i] = self[offset_i : offset_i + splitSize[i]] along dim"};
const OpRegistrar kRegistrar(kInfo);
const OpInfo kTensorInfo{"aclnnSplitTensor", ExecUnit::kVector, kInfo.dtypes,
                         "out[i] = self[i * splitSections : (i + 1) * splitSections] along dim"};
const OpRegistrar kTensorRegistrar(kTensorInfo);

// Checks self, dim and out, then one copy per piece. `sizes` null: pieces of `sections`.
int32_t buildSplit(const char* api, const char* opName, const OpInfo& info, const aclTensor* self,
                   const std::vector<int64_t>* sizes, uint64_t sections, int64_t dim,
                   const aclTensorList* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "self", self->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "self", self->desc.dtype, info)) != kSuccess) return st;
  const int64_t d = wrapDim(dim, self->desc.rank());
  if (self->desc.rank() == 0 || d < 0) {
    return fail(api, kErrParamInvalid,
                fmt::format("dim {} is out of range for self of {} dimensions", dim, self->desc.rank()));
  }
  const int64_t len = self->desc.shape[static_cast<size_t>(d)];
  std::vector<int64_t> pieces;
  if (sizes != nullptr) {
    int64_t sum = 0;
    for (int64_t s : *sizes) {
      if (s < 0) return fail(api, kErrParamInvalid, fmt::format("splitSize has a negative length {}", s));
      sum += s;
    }
    if (sum != len) {
      return fail(api, kErrParamInvalid,
                  fmt::format("splitSize {} sums to {} but self has {} along dim {}", shapeString(*sizes),
                              sum, len, d));
    }
    pieces = *sizes;
  } else {
    if (sections == 0 && len != 0) return fail(api, kErrParamInvalid, "splitSections must be positive");
    const auto sec = static_cast<int64_t>(sections);
    for (int64_t at = 0; at < len; at += sec) pieces.push_back(std::min(sec, len - at));
    if (pieces.empty()) pieces.push_back(0);
  }
  if (out->items.size() != pieces.size()) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("out holds {} tensors but self splits into {}", out->items.size(), pieces.size()));
  }
  auto inst = std::make_unique<CopyInstance>();
  inst->name = opName;
  int64_t at = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const aclTensor* t = out->items[i];
    const std::string name = fmt::format("out[{}]", i);
    if ((st = checkNotNull(api, {{name.c_str(), t}})) != kSuccess) return st;
    if ((st = checkTensor(api, name.c_str(), t->desc)) != kSuccess) return st;
    if (t->desc.dtype != self->desc.dtype) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} type {} must equal self type {}", name, dtypeName(t->desc.dtype),
                              dtypeName(self->desc.dtype)));
    }
    std::vector<int64_t> shape = self->desc.shape;
    shape[static_cast<size_t>(d)] = pieces[i];
    if ((st = checkShape(api, name.c_str(), t->desc.shape, shape)) != kSuccess) return st;
    inst->inputs.push_back(sliceView(self->desc, d, at, pieces[i]));
    inst->inputNames.emplace_back("self");
    addOutput(*inst, "out", t);
    at += pieces[i];
  }
  inst->attrs = sizes != nullptr ? fmt::format("splitSize={}, dim={}", shapeString(*sizes), dim)
                                 : fmt::format("splitSections={}, dim={}", sections, dim);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" {

aclnnStatus aclnnSplitTensorGetWorkspaceSize(const aclTensor* self, uint64_t splitSections, int64_t dim,
                                             aclTensorList* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  return buildSplit("aclnnSplitTensorGetWorkspaceSize", "aclnnSplitTensor", kTensorInfo, self, nullptr,
                    splitSections, dim, out, workspaceSize, executor);
}

aclnnStatus aclnnSplitWithSizeGetWorkspaceSize(const aclTensor* self, const aclIntArray* splitSize,
                                               int64_t dim, aclTensorList* out, uint64_t* workspaceSize,
                                               aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  if (splitSize == nullptr)
    return checkNotNull("aclnnSplitWithSizeGetWorkspaceSize", {{"splitSize", splitSize}});
  return buildSplit("aclnnSplitWithSizeGetWorkspaceSize", "aclnnSplitWithSize", kInfo, self,
                    &splitSize->values, 0, dim, out, workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(SplitTensor)
NPUSIM_ACLNN_PHASE2(SplitWithSize)

// aclnnSlice (ops-math conversion/slice/docs/aclnnSlice.md): out = self[start:end:step] along
// `dim`, with Python's clamping of start and end; step >= 1.
#include <fmt/format.h>

#include <algorithm>

#include "aclnnop/aclnn_slice.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnSlice",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "out = self[start:end:step] along dim"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnSliceGetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t start, int64_t end,
                                                  int64_t step, aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnSliceGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "self", self->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "self", self->desc.dtype, kInfo)) != kSuccess) return st;
  if (out->desc.dtype != self->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("out type {} must equal self type {}", dtypeName(out->desc.dtype),
                            dtypeName(self->desc.dtype)));
  }
  const int64_t d = wrapDim(dim, self->desc.rank());
  if (self->desc.rank() == 0 || d < 0) {
    return fail(api, kErrParamInvalid,
                fmt::format("dim {} is out of range for self of {} dimensions", dim, self->desc.rank()));
  }
  if (step < 1) return fail(api, kErrParamInvalid, fmt::format("step must be positive, but is {}", step));
  const int64_t size = self->desc.shape[static_cast<size_t>(d)];
  auto clampIdx = [size](int64_t i) { return std::clamp(i < 0 ? i + size : i, int64_t{0}, size); };
  const int64_t s = clampIdx(start), e = std::max(clampIdx(end), s);
  const int64_t len = (e - s + step - 1) / step;
  std::vector<int64_t> shape = self->desc.shape;
  shape[static_cast<size_t>(d)] = len;
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  auto inst = std::make_unique<CopyInstance>();
  inst->name = "aclnnSlice";
  inst->inputs = {sliceView(self->desc, d, s, len, step)};
  inst->inputNames = {"self"};
  addOutput(*inst, "out", out);
  inst->attrs = fmt::format("dim={}, start={}, end={}, step={}", dim, start, end, step);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(Slice)

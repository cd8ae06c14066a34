// aclnnPermute (ops-math conversion/transpose/docs/aclnnPermute.md): out = self with its
// dimensions reordered by `dims` (a permutation, negative indices allowed).
#include <fmt/format.h>

#include "aclnnop/aclnn_permute.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnPermute",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "out = self.permute(dims)"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnPermuteGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"dims", dims}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "self", self->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "self", self->desc.dtype, kInfo)) != kSuccess) return st;
  if (out->desc.dtype != self->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("out type {} must equal self type {}", dtypeName(out->desc.dtype),
                            dtypeName(self->desc.dtype)));
  }
  const size_t r = self->desc.rank();
  if (dims->values.size() != r) {
    return fail(api, kErrParamInvalid,
                fmt::format("dims has {} entries but self has {} dimensions", dims->values.size(), r));
  }
  TensorDesc view = self->desc;
  std::vector<bool> seen(r, false);
  for (size_t i = 0; i < r; ++i) {
    const int64_t d = wrapDim(dims->values[i], r);
    if (d < 0 || seen[static_cast<size_t>(d)]) {
      return fail(api, kErrParamInvalid,
                  fmt::format("dims {} is not a permutation of {} dimensions", shapeString(dims->values), r));
    }
    seen[static_cast<size_t>(d)] = true;
    view.shape[i] = self->desc.shape[static_cast<size_t>(d)];
    view.strides[i] = self->desc.strides[static_cast<size_t>(d)];
  }
  if ((st = checkShape(api, "out", out->desc.shape, view.shape)) != kSuccess) return st;
  auto inst = std::make_unique<CopyInstance>();
  inst->name = "aclnnPermute";
  inst->inputs = {view};
  inst->inputNames = {"self"};
  addOutput(*inst, "out", out);
  inst->attrs = "dims=" + shapeString(dims->values);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(Permute)

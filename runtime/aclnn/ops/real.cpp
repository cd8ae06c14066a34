// aclnnReal (ops-math math/real/docs/aclnnReal.md): the real part of each element. For the real
// types the doc lists (fp32, fp16) that is self itself, copied into out of the same type by the
// copy engine (copy_op.h); the complex types are 161002, as the simulator computes no complex
// values.
#include <fmt/format.h>

#include "aclnnop/aclnn_real.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{
    "aclnnReal", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16}, "out = re(self) = self for real self"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnRealGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnRealGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "self", self->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if (isComplex(self->desc.dtype)) {
    return fail(api, kErrParamInvalid,
                fmt::format("self of type {}: complex tensors are not supported by the simulator",
                            dtypeName(self->desc.dtype)));
  }
  if ((st = checkDtype(api, "self", self->desc.dtype, kInfo)) != kSuccess) return st;
  if (out->desc.dtype != self->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("out type {} must equal self type {}", dtypeName(out->desc.dtype),
                            dtypeName(self->desc.dtype)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, self->desc.shape)) != kSuccess) return st;
  auto inst = std::make_unique<CopyInstance>();
  inst->name = "aclnnReal";
  addInput(*inst, "self", self);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(Real)

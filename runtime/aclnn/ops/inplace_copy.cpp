// aclnnInplaceCopy (ops-math conversion/view_copy/docs/aclnnInplaceCopy.md): selfRef = src,
// src broadcast to selfRef's shape and converted to its type. selfRef may be any strided view
// (e.g. one position of a KV cache).
#include <fmt/format.h>

#include "aclnnop/aclnn_copy.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnInplaceCopy",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_UINT16,
                    ACL_INT32, ACL_UINT32, ACL_INT64, ACL_UINT64, ACL_BOOL},
                   "selfRef = src"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor* selfRef, const aclTensor* src,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnInplaceCopyGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"selfRef", selfRef}, {"src", src}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "selfRef", selfRef->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "src", src->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "selfRef", selfRef->desc.dtype, kInfo)) != kSuccess) return st;
  if ((st = checkDtype(api, "src", src->desc.dtype, kInfo)) != kSuccess) return st;
  std::vector<int64_t> shape;
  if (!broadcastShapes(selfRef->desc.shape, src->desc.shape, &shape) || shape != selfRef->desc.shape) {
    return fail(api, kErrParamInvalid,
                fmt::format("src shape {} cannot be broadcast to selfRef shape {}", shapeString(src->desc.shape),
                            shapeString(selfRef->desc.shape)));
  }
  auto inst = std::make_unique<CopyInstance>();
  inst->name = "aclnnInplaceCopy";
  addInput(*inst, "src", src);
  addOutput(*inst, "selfRef", selfRef);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(InplaceCopy)

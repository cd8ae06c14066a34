// aclnnMv (ops-nn matmul/mv/docs/aclnnMv.md): out = self @ vec for a 2-D self (n x m) and a 1-D
// vec (m); fp32, fp16, bf16; cubeMathType as aclnnMatmul. Runs on the matmul engine (N = 1).
#include <fmt/format.h>

#include "aclnnop/aclnn_mv.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/base/tensor.h"
#include "runtime/aclnn/ops/matmul.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{
    "aclnnMv", ExecUnit::kCube, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, "out = self @ vec (2-D by 1-D)"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnMvGetWorkspaceSize(const aclTensor* self, const aclTensor* vec, aclTensor* out,
                                               int8_t cubeMathType, uint64_t* workspaceSize,
                                               aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnMvGetWorkspaceSize";
  const int32_t st = checkNotNull(api, {{"self", self}, {"vec", vec}, {"out", out}});
  if (st != kSuccess) return st;
  if (self->desc.rank() != 2 || vec->desc.rank() != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("self must be 2-dimensional and vec 1-dimensional, but are {} and {}",
                            shapeString(self->desc.shape), shapeString(vec->desc.shape)));
  }
  return buildMatmul({api, "aclnnMv", &kInfo, 0}, self, vec, out, cubeMathType, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(Mv)

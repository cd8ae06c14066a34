// aclnnAddmm / aclnnInplaceAddmm (ops-nn matmul/mat_mul_v3/docs/aclnnAddmm&aclnnInplaceAddmm.md):
// out = beta * self + alpha * (mat1 @ mat2) with 2-D mat1, mat2 and self broadcast to the
// product's shape; fp32, fp16, bf16; cubeMathType as aclnnMatmul. beta = 0 ignores self.
#include "aclnnop/aclnn_addmm.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/matmul.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnAddmm",
                   ExecUnit::kCube,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                   "out = beta * self + alpha * (mat1 @ mat2)"};
const OpRegistrar kRegistrar(kInfo);

int32_t build(const char* api, const char* opName, const aclTensor* self, const aclTensor* mat1,
              const aclTensor* mat2, const aclScalar* beta, const aclScalar* alpha, const aclTensor* out,
              int8_t cubeMathType, bool inplace, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const int32_t st =
      checkNotNull(api, {{inplace ? "selfRef" : "self", self}, {"beta", beta}, {"alpha", alpha}});
  if (st != kSuccess) return st;
  const AddTerm add{self, beta->value.toDouble(), alpha->value.toDouble(), inplace};
  return buildMatmul({api, opName, &kInfo, 2}, mat1, mat2, out, cubeMathType, workspaceSize, executor, &add);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" {

aclnnStatus aclnnAddmmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat1, const aclTensor* mat2,
                                       const aclScalar* beta, const aclScalar* alpha, aclTensor* out,
                                       int8_t cubeMathType, uint64_t* workspaceSize,
                                       aclOpExecutor** executor) {
  return npusim::aclnn::build("aclnnAddmmGetWorkspaceSize", "aclnnAddmm", self, mat1, mat2, beta, alpha, out,
                              cubeMathType, false, workspaceSize, executor);
}

aclnnStatus aclnnInplaceAddmmGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* mat1,
                                              const aclTensor* mat2, const aclScalar* beta,
                                              const aclScalar* alpha, int8_t cubeMathType,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build("aclnnInplaceAddmmGetWorkspaceSize", "aclnnInplaceAddmm", selfRef, mat1, mat2,
                              beta, alpha, selfRef, cubeMathType, true, workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(Addmm)
NPUSIM_ACLNN_PHASE2(InplaceAddmm)

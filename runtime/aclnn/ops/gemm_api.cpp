// aclnnGemm (ops-nn matmul/gemm/docs/aclnnGemm.md): out = alpha * (op(A) @ op(B)) + beta * C
// for 2-D A and B, op transposing when transA / transB is non-zero, C broadcast to the
// product; fp32, fp16, bf16; cubeMathType as aclnnMatmul. A transpose is a strided view.
#include <fmt/format.h>

#include "aclnnop/aclnn_gemm.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/base/tensor.h"
#include "runtime/aclnn/ops/matmul.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnGemm",
                   ExecUnit::kCube,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                   "out = alpha * (op(A) @ op(B)) + beta * C"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnGemmGetWorkspaceSize(const aclTensor* A, const aclTensor* B, const aclTensor* C,
                                                 float alpha, float beta, int64_t transA, int64_t transB,
                                                 aclTensor* out, int8_t cubeMathType, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnGemmGetWorkspaceSize";
  const int32_t st = checkNotNull(api, {{"A", A}, {"B", B}, {"C", C}, {"out", out}});
  if (st != kSuccess) return st;
  if (A->desc.rank() != 2 || B->desc.rank() != 2) {
    return fail(api, kErrParamInvalid,
                fmt::format("A and B must be 2-dimensional, but are {} and {}", shapeString(A->desc.shape),
                            shapeString(B->desc.shape)));
  }
  const aclTensor a = transA != 0 ? transposedView(*A) : *A;
  const aclTensor b = transB != 0 ? transposedView(*B) : *B;
  const AddTerm add{C, beta, alpha, false};
  return buildMatmul({api, "aclnnGemm", &kInfo, 2}, &a, &b, out, cubeMathType, workspaceSize, executor, &add);
}

NPUSIM_ACLNN_PHASE2(Gemm)

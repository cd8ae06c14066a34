// The batched Addmm forms of ops-nn matmul/batch_mat_mul_v3 on the matmul engine, fp32/fp16/bf16,
// cubeMathType as aclnnMatmul, beta = 0 ignores self:
// - aclnnBaddbmm / aclnnInplaceBaddbmm (docs/aclnnBaddbmm&aclnnInplaceBaddbmm.md):
//   out = beta * self + alpha * (batch1 @ batch2), 3-D batch1 and batch2 (their batches broadcast,
//   except in place), self broadcast to the product's shape;
// - aclnnAddbmm / aclnnInplaceAddbmm (docs/aclnnAddbmm&aclnnInplaceAddbmm.md):
//   out = beta * self + alpha * sum_b(batch1[b] @ batch2[b]), out 2-D [M, N].
#include <fmt/format.h>

#include "aclnnop/aclnn_addbmm.h"
#include "aclnnop/aclnn_baddbmm.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/matmul.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kBaddbmm{"aclnnBaddbmm",
                      ExecUnit::kCube,
                      {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                      "out = beta * self + alpha * (batch1 @ batch2)"};
const OpInfo kAddbmm{"aclnnAddbmm",
                     ExecUnit::kCube,
                     {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                     "out = beta * self + alpha * sum_b(batch1[b] @ batch2[b])"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kBaddbmm), OpRegistrar(kAddbmm)};

int32_t build(const OpInfo& info, const char* opName, bool sumBatch, const aclTensor* self,
              const aclTensor* batch1, const aclTensor* batch2, const aclScalar* beta, const aclScalar* alpha,
              const aclTensor* out, int8_t cubeMathType, bool inplace, uint64_t* workspaceSize,
              aclOpExecutor** executor) {
  const std::string apiName = std::string(opName) + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  int32_t st = checkNotNull(api, {{inplace ? "selfRef" : "self", self},
                                  {"batch1", batch1},
                                  {"batch2", batch2},
                                  {"beta", beta},
                                  {"alpha", alpha}});
  if (st != kSuccess) return st;
  if (inplace && !sumBatch && batch1->desc.rank() == 3 && batch2->desc.rank() == 3 &&
      batch1->desc.shape[0] != batch2->desc.shape[0]) {
    return fail(api, kErrParamInvalid,
                fmt::format("in place, batch1 {} and batch2 {} must have the same batch (no broadcast)",
                            shapeString(batch1->desc.shape), shapeString(batch2->desc.shape)));
  }
  const AddTerm add{self, beta->value.toDouble(), alpha->value.toDouble(), inplace};
  MatmulApi a{api, opName, &info, 3};
  a.sumBatch = sumBatch;
  return buildMatmul(a, batch1, batch2, out, cubeMathType, workspaceSize, executor, &add);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" {

aclnnStatus aclnnBaddbmmGetWorkspaceSize(const aclTensor* self, const aclTensor* batch1,
                                         const aclTensor* batch2, const aclScalar* beta,
                                         const aclScalar* alpha, aclTensor* out, int8_t cubeMathType,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build(npusim::aclnn::kBaddbmm, "aclnnBaddbmm", false, self, batch1, batch2, beta,
                              alpha, out, cubeMathType, false, workspaceSize, executor);
}

aclnnStatus aclnnInplaceBaddbmmGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* batch1,
                                                const aclTensor* batch2, const aclScalar* beta,
                                                const aclScalar* alpha, int8_t cubeMathType,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build(npusim::aclnn::kBaddbmm, "aclnnInplaceBaddbmm", false, selfRef, batch1, batch2,
                              beta, alpha, selfRef, cubeMathType, true, workspaceSize, executor);
}

aclnnStatus aclnnAddbmmGetWorkspaceSize(const aclTensor* self, const aclTensor* batch1,
                                        const aclTensor* batch2, const aclScalar* beta,
                                        const aclScalar* alpha, aclTensor* out, int8_t cubeMathType,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build(npusim::aclnn::kAddbmm, "aclnnAddbmm", true, self, batch1, batch2, beta, alpha,
                              out, cubeMathType, false, workspaceSize, executor);
}

aclnnStatus aclnnInplaceAddbmmGetWorkspaceSize(aclTensor* selfRef, const aclTensor* batch1,
                                               const aclTensor* batch2, const aclScalar* beta,
                                               const aclScalar* alpha, int8_t cubeMathType,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build(npusim::aclnn::kAddbmm, "aclnnInplaceAddbmm", true, selfRef, batch1, batch2,
                              beta, alpha, selfRef, cubeMathType, true, workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(Baddbmm)
NPUSIM_ACLNN_PHASE2(InplaceBaddbmm)
NPUSIM_ACLNN_PHASE2(Addbmm)
NPUSIM_ACLNN_PHASE2(InplaceAddbmm)

// The matmuls whose weight is in FRACTAL_NZ (weight_nz.h), converted by aclnnTransMatmulWeight:
// aclnnMatmulWeightNz (ops-nn matmul/mat_mul_v3/docs/aclnnMatmulWeightNz.md), out = self @ mat2
// with self [m, k], the weight's view [k, n] (its NZ storage 4-D), out [m, n]; fp32, fp16,
// bf16; cubeMathType as aclnnMatmul; aclnnBatchMatMulWeightNz (ops-nn
// matmul/batch_mat_mul_v3/docs/aclnnBatchMatMulWeightNz.md), the same for 3-D self, mat2, out.
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "runtime/aclnn/ops/matmul.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kMatmulNz{"aclnnMatmulWeightNz",
                       ExecUnit::kCube,
                       {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                       "out = self @ mat2 (mat2 in FRACTAL_NZ)"};
const OpInfo kBatchMatMulNz{"aclnnBatchMatMulWeightNz",
                            ExecUnit::kCube,
                            {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                            "out[b] = self[b] @ mat2[b] (mat2 in FRACTAL_NZ)"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kMatmulNz), OpRegistrar(kBatchMatMulNz)};

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnMatmulWeightNzGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2,
                                                           aclTensor* out, int8_t cubeMathType,
                                                           uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  return npusim::aclnn::buildMatmul(
      {"aclnnMatmulWeightNzGetWorkspaceSize", "aclnnMatmulWeightNz", &npusim::aclnn::kMatmulNz, 2, true},
      self, mat2, out, cubeMathType, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(MatmulWeightNz)

extern "C" aclnnStatus aclnnBatchMatMulWeightNzGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2,
                                                                aclTensor* out, int8_t cubeMathType,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor) {
  return npusim::aclnn::buildMatmul({"aclnnBatchMatMulWeightNzGetWorkspaceSize", "aclnnBatchMatMulWeightNz",
                                     &npusim::aclnn::kBatchMatMulNz, 3, true},
                                    self, mat2, out, cubeMathType, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(BatchMatMulWeightNz)

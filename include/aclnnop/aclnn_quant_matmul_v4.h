/*
 * npusim: aclnnQuantMatmulV4: aclnnQuantMatmulV3 plus a per-token scale, out = x1 @ x2 · scale ·
 * pertokenScale (+ bias) for int8 x1 and x2 (x2 in ND or FRACTAL_NZ).
 * Declarations as in hicann/ops-nn matmul/quant_batch_matmul_v3 (docs/aclnnQuantMatmulV4.md).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_MATMUL_V4_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_MATMUL_V4_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnQuantMatmulV4GetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                         const aclTensor* scale, const aclTensor* offset,
                                                         const aclTensor* pertokenScaleOptional,
                                                         const aclTensor* bias, bool transposeX1,
                                                         bool transposeX2, const aclTensor* out,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnQuantMatmulV4(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_MATMUL_V4_H_ */

/*
 * npusim: aclnnFusedPatchMlp: numLayers Linear layers (GELU-tanh between them) in one operator.
 * Declarations as in hicann/ops-nn experimental/matmul/fused_patch_mlp/docs/aclnnFusedPatchMlp.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_PATCH_MLP_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_PATCH_MLP_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFusedPatchMlpGetWorkspaceSize(const aclTensor* x, const aclTensor* weights,
                                                         const aclTensor* biases, int64_t numLayers,
                                                         const aclTensor* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFusedPatchMlp(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_PATCH_MLP_H_ */

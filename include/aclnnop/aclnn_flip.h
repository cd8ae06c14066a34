/*
 * npusim: aclnnFlip: reverses dimensions.
 * Declarations as in hicann/ops-nn index/reverse_v2/op_api/aclnn_flip.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FLIP_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FLIP_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFlipGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFlip(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FLIP_H_ */

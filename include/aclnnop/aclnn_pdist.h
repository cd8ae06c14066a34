/*
 * npusim: aclnnPdist, p-norm distances between the rows of self.
 * Declarations as in hicann/ops-math experimental/math/pdist/op_api/aclnn_pdist.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_PDIST_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_PDIST_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPdistGetWorkspaceSize(const aclTensor* self, float p, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnPdist(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_PDIST_H_ */

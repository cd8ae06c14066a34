/*
 * npusim: aclnnLogdet (runtime/aclnn/ops/small_linalg.cpp).
 * Declarations as in hicann/ops-math math/logdet.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGDET_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGDET_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLogdetGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLogdet(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGDET_H_ */

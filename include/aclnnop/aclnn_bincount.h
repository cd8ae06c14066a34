/*
 * npusim: aclnnBincount (runtime/aclnn/ops/histograms.cpp).
 * Declarations as in hicann/ops-math math/bincount.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BINCOUNT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BINCOUNT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBincountGetWorkspaceSize(const aclTensor* self, const aclTensor* weights, int64_t minlength, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBincount(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BINCOUNT_H_ */

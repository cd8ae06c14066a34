/*
 * npusim: aclnnHistc (runtime/aclnn/ops/histograms.cpp).
 * Declarations as in hicann/ops-math math/histogram_v2.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_HISTC_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_HISTC_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHistcGetWorkspaceSize(const aclTensor* self, int64_t bins, const aclScalar* min, const aclScalar* max, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnHistc(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_HISTC_H_ */

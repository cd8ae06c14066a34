/*
 * npusim: aclnnSimThreadExponential (runtime/aclnn/ops/random_ops.cpp).
 * Declarations as in hicann/ops-math random/sim_thread_exponential/docs/aclnnSimThreadExponential.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SIM_THREAD_EXPONENTIAL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SIM_THREAD_EXPONENTIAL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSimThreadExponentialGetWorkspaceSize(aclTensor* selfRef, int64_t count, double lambda, int64_t seed, int64_t offset, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSimThreadExponential(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SIM_THREAD_EXPONENTIAL_H_ */

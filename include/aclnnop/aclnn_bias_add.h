/*
 * npusim: aclnnBiasAdd (runtime/aclnn/ops/ternary_math.cpp).
 * Declarations as in hicann/ops-math experimental/math/bias_add.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BIAS_ADD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BIAS_ADD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBiasAddGetWorkspaceSize(const aclTensor* x, const aclTensor* bias, char* dataFormatOptional, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBiasAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BIAS_ADD_H_ */

/*
 * npusim: aclnnComplexV3 (runtime/aclnn/ops/complex.cpp).
 * Declarations as in hicann/ops-math experimental/math/complex_v3.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_COMPLEX_V3_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_COMPLEX_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnComplexV3GetWorkspaceSize(const aclTensor* real, const aclTensor* imag, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnComplexV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_COMPLEX_V3_H_ */

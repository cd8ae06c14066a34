/*
 * npusim: aclnnComplex (runtime/aclnn/ops/complex.cpp).
 * Declarations as in hicann/ops-math math/complex.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_COMPLEX_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_COMPLEX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnComplexGetWorkspaceSize(const aclTensor* real, const aclTensor* imag, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnComplex(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_COMPLEX_H_ */

/*
 * npusim: aclnnPowTensorScalar / aclnnInplacePowTensorScalar: out = self ^ exponent (scalar).
 * Declarations as in hicann/ops-math math/pow/op_api/aclnn_pow.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_POW_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_POW_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* exponent, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnPowTensorScalar(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplacePowTensorScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* exponent, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplacePowTensorScalar(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
/* ops-math's experimental/math/pow declares its tensor-tensor aclnnPow under this header's name
 * (x ^ exponent with broadcasting; runtime/aclnn/ops/math_variants.cpp). */
ACLNN_API aclnnStatus aclnnPowGetWorkspaceSize(const aclTensor* x, const aclTensor* exponent, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnPow(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_POW_H_ */

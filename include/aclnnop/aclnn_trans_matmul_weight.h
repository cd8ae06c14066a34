/*
 * npusim: aclnnTransMatmulWeight rewrites a matmul weight in place into the cube-friendly
 * FRACTAL_NZ layout; aclnnCalculateMatmulWeightSize(V2) give the elements that layout needs.
 * Declarations as in hicann/ops-math conversion/trans_data/op_api/aclnn_trans_matmul_weight.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANS_MATMUL_WEIGHT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANS_MATMUL_WEIGHT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCalculateMatmulWeightSizeV2(const aclIntArray* tensorShape, aclDataType dataType,
                                                       uint64_t* weightTensorSize);
ACLNN_API aclnnStatus aclnnCalculateMatmulWeightSize(const aclIntArray* tensorShape,
                                                     uint64_t* weightTensorSize);
ACLNN_API aclnnStatus aclnnTransMatmulWeightGetWorkspaceSize(aclTensor* mmWeightRef, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTransMatmulWeight(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANS_MATMUL_WEIGHT_H_ */

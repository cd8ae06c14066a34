/*
 * npusim: aclnnBnInferGrad: xBackprop = grads * scale / sqrt(batchVariance + epsilon)
 * Declarations as in hicann/ops-nn experimental/norm/bn_infer_grad (op_host/bn_infer_grad_def.cpp).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BN_INFER_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BN_INFER_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBnInferGradGetWorkspaceSize(const aclTensor* grads, const aclTensor* scale, const aclTensor* batchVariance, float epsilon, int64_t formatMode, const aclTensor* xBackprop, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBnInferGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BN_INFER_GRAD_H_ */

/*
 * npusim: aclnnFakeQuantPerTensorAffineCachemask: quantise-dequantise with one scale, with the in-range mask.
 * Declarations as in hicann/ops-nn quant/fake_quant_affine_cachemask
 * docs/aclnnFakeQuantPerTensorAffineCachemask.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FAKE_QUANT_PER_TENSOR_AFFINE_CACHEMASK_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FAKE_QUANT_PER_TENSOR_AFFINE_CACHEMASK_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFakeQuantPerTensorAffineCachemaskGetWorkspaceSize(
    const aclTensor* self, const aclTensor* scale, const aclTensor* zeroPoint, float fakeQuantEnabled,
    int64_t quantMin, int64_t quantMax, aclTensor* out, aclTensor* mask, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFakeQuantPerTensorAffineCachemask(void* workspace, uint64_t workspaceSize,
                                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FAKE_QUANT_PER_TENSOR_AFFINE_CACHEMASK_H_ */

/*
 * npusim: aclnnQuantize: out = round(x / scales + zeroPoints) along an axis.
 * Declarations as in hicann/ops-nn quant/quantize docs/aclnnQuantize.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANTIZE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANTIZE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnQuantizeGetWorkspaceSize(const aclTensor* x, const aclTensor* scales,
                                                    const aclTensor* zeroPoints, aclDataType dtype, int32_t axis,
                                                    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnQuantize(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANTIZE_H_ */

/*
 * npusim: aclnnTransQuantParamV3: TransQuantParamV2 with the scale's rounding mode.
 * Declarations as in hicann/ops-nn quant/trans_quant_param_v2 docs/aclnnTransQuantParamV3.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_V3_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTransQuantParamV3GetWorkspaceSize(const aclTensor* scale, const aclTensor* offset,
                                                             int64_t roundMode, const aclTensor* out,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTransQuantParamV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_V3_H_ */

/*
 * npusim: aclnnTransQuantParamV2: the 64-bit quantisation parameters of a scale (and offset) tensor.
 * Declarations as in hicann/ops-nn quant/trans_quant_param_v2 docs/aclnnTransQuantParamV2.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTransQuantParamV2GetWorkspaceSize(const aclTensor* scale, const aclTensor* offset,
                                                             const aclTensor* out, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTransQuantParamV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_V2_H_ */

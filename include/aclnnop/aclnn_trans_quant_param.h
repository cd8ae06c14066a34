/*
 * npusim: aclnnTransQuantParam: float scales (and offsets) packed into the 64-bit quantisation parameter,
 * on the host. Declarations as in hicann/ops-nn quant/trans_quant_param docs/aclnnTransQuantParam.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTransQuantParam(const float* scaleArray, uint64_t scaleSize,
                                           const float* offsetArray, uint64_t offsetSize,
                                           uint64_t** quantParam, uint64_t* quantParamSize);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_H_ */

/*
 * npusim: aclnnRotateQuant: y = per-token int8 (or int4) quantisation of x rotated block by block,
 * Y = (x.reshape(*, k) @ rotation).reshape(m, n), with an optional clamp.
 * Declarations as in hicann/ops-nn matmul/rotate_quant (op_api/aclnn_rotate_quant.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ROTATE_QUANT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ROTATE_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRotateQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* rotation,
                                                       const aclTensor* alpha, int64_t axis, char* roundMode,
                                                       int64_t scaleAlg, double dstTypeMax, bool trans,
                                                       aclTensor* yOut, aclTensor* scaleOut,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRotateQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ROTATE_QUANT_H_ */

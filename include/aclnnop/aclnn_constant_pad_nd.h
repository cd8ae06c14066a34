/*
 * npusim: aclnnConstantPadNd: pads with a constant.
 * Declarations as in hicann/ops-math conversion/pad_v3/op_api/aclnn_constant_pad_nd.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor* self, const aclIntArray* pad, const aclScalar* value, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnConstantPadNd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H_ */

/*
 * npusim: aclnnCast: element type conversion.
 * Declarations as in hicann/ops-math math/cast/op_api/aclnn_cast.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CAST_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CAST_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor* self, const aclDataType dtype, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCast(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CAST_H_ */

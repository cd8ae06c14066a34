/*
 * npusim: aclnnRepeat: tiles self.
 * Declarations as in hicann/ops-math math/tile/op_api/aclnn_repeat.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_REPEAT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_REPEAT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRepeatGetWorkspaceSize(const aclTensor* self, const aclIntArray* repeats, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRepeat(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_REPEAT_H_ */

/*
 * npusim: aclnnXLogYScalarSelf, self * ln(other) with a host scalar self.
 * Declarations as in hicann/ops-math math/xlogy/op_api/aclnn_x_log_y_scalar_self.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_X_LOG_Y_SCALAR_SELF_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_X_LOG_Y_SCALAR_SELF_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnXLogYScalarSelfGetWorkspaceSize(const aclScalar* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnXLogYScalarSelf(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_X_LOG_Y_SCALAR_SELF_H_ */

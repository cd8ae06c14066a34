/*
 * npusim: aclnnCircularPad2d: wrap-around padding of the last 2 dimensions.
 * Declarations as in hicann/ops-math conversion/circular_pad/op_host/op_api/aclnn_circular_pad2d.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CIRCULAR_PAD2D_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CIRCULAR_PAD2D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCircularPad2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* padding, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCircularPad2d(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CIRCULAR_PAD2D_H_ */

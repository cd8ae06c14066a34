/*
 * npusim: aclnnModulate (runtime/aclnn/ops/vfusion.cpp).
 * Declarations as in hicann/ops-nn vfusion/modulate (docs/aclnnModulate.md).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MODULATE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MODULATE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnModulateGetWorkspaceSize(const aclTensor* self, const aclTensor* scaleOptional,
                                                    const aclTensor* shiftOptional, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnModulate(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MODULATE_H_ */

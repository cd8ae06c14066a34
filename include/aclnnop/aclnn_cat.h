/*
 * npusim: aclnnCat: concatenation along dim.
 * Declarations as in hicann/ops-math conversion/concat_d/op_api/aclnn_cat.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CAT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CAT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCat(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CAT_H_ */

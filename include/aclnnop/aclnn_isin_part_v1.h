/*
 * npusim: aclnnIsinPartV1 (runtime/aclnn/ops/isin.cpp).
 * Declarations as in hicann/ops-math experimental/math/isin_part_v1.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ISIN_PART_V1_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ISIN_PART_V1_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIsinPartV1GetWorkspaceSize(const aclTensor* value, const aclTensor* index, const aclTensor* elementsNum, aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIsinPartV1(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ISIN_PART_V1_H_ */

/*
 * npusim: aclnnMaxPool3D, a pooling operator (runtime/aclnn/ops/pooling.cpp).
 * Declarations as in hicann/ops-nn experimental/pooling/max_pool3_d (op_host/op_api/aclnn_max_pool3_d.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOL3_D_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOL3_D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxPool3DGetWorkspaceSize(const aclTensor* x, const aclIntArray* ksize, const aclIntArray* strides, const char* padding, const aclIntArray* padsOptional, const aclIntArray* dilationOptional, int64_t ceilMode, const char* dataFormatOptional, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxPool3D(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOL3_D_H_ */

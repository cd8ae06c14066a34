/*
 * npusim: aclnnChunkCat: chunks tensors and joins the chunks.
 * Declarations as in hicann/ops-math conversion/chunk_cat/op_api/aclnn_chunk_cat.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CHUNK_CAT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CHUNK_CAT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnChunkCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, int64_t numChunks, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnChunkCat(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CHUNK_CAT_H_ */

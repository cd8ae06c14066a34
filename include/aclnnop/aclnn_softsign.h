/*
 * npusim: aclnnSoftsign, elementwise (runtime/aclnn/ops/unary_math.cpp).
 * Declarations as in hicann/ops-nn experimental/activation/softsign/op_api/aclnn_softsign.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTSIGN_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTSIGN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftsignGetWorkspaceSize(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSoftsign(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTSIGN_H_ */

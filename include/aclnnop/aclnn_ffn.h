/*
 * npusim: aclnnFFN: y = act(x · W1 + b1) · W2 + b2, the rows of x split over the experts by the
 * host array expertTokens (counts). Declarations as in hicann/ops-transformer ffn/ffn
 * op_host/op_api/aclnn_ffn.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FFN_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FFN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFFNGetWorkspaceSize(
    const aclTensor* x, const aclTensor* weight1, const aclTensor* weight2, const aclIntArray* expertTokens,
    const aclTensor* bias1, const aclTensor* bias2, const aclTensor* scale, const aclTensor* offset,
    const aclTensor* deqScale1, const aclTensor* deqScale2, const aclTensor* antiquantScale1,
    const aclTensor* antiquantScale2, const aclTensor* antiquantOffset1, const aclTensor* antiquantOffset2,
    const char* activation, int64_t innerPrecise, const aclTensor* y, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFFN(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // NPUSIM_INCLUDE_ACLNNOP_ACLNN_FFN_H_

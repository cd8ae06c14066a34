/*
 * npusim: aclnnMoeTokenUnpermuteWithRoutingMapGrad: the gradient of
 * aclnnMoeTokenUnpermuteWithRoutingMap for the permuted tokens and the probabilities. The public
 * repository (hicann/ops-transformer moe/moe_token_unpermute_with_routing_map_grad) generates this
 * header from its op definition: inputs, then attributes, then outputs in definition order, as
 * its example calls it.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_WITH_ROUTING_MAP_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_WITH_ROUTING_MAP_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeTokenUnpermuteWithRoutingMapGradGetWorkspaceSize(
    const aclTensor* unpermutedTokensGrad, const aclTensor* outIndex, const aclTensor* permuteTokenId,
    const aclTensor* routingMapOptional, const aclTensor* permutedTokensOptional, const aclTensor* probsOptional,
    bool dropAndPad, const aclIntArray* restoreShapeOptional, const aclTensor* permutedTokensGradOut,
    const aclTensor* probsGradOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnMoeTokenUnpermuteWithRoutingMapGrad(void* workspace, uint64_t workspaceSize,
                                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_WITH_ROUTING_MAP_GRAD_H_ */

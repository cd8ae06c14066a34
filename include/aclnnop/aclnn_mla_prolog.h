/*
 * npusim: aclnnMlaProlog: the query, query-rope and key/value-cache preparation of multi-head
 * latent attention (down projections, RmsNorm, up projections, rope, cache scatter).
 * Declarations as in hicann/ops-transformer attention/mla_prolog docs/aclnnMlaProlog.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MLA_PROLOG_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MLA_PROLOG_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMlaPrologGetWorkspaceSize(
    const aclTensor* tokenX, const aclTensor* weightDq, const aclTensor* weightUqQr,
    const aclTensor* weightUk, const aclTensor* weightDkvKr, const aclTensor* rmsnormGammaCq,
    const aclTensor* rmsnormGammaCkv, const aclTensor* ropeSin, const aclTensor* ropeCos,
    const aclTensor* cacheIndex, const aclTensor* kvCacheRef, const aclTensor* krCacheRef,
    const aclTensor* dequantScaleXOptional, const aclTensor* dequantScaleWDqOptional,
    const aclTensor* dequantScaleWUqQrOptional, const aclTensor* dequantScaleWDkvKrOptional,
    const aclTensor* quantScaleCkvOptional, const aclTensor* quantScaleCkrOptional,
    const aclTensor* smoothScalesCqOptional, double rmsnormEpsilonCq, double rmsnormEpsilonCkv,
    char* cacheModeOptional, const aclTensor* queryOut, const aclTensor* queryRopeOut,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMlaProlog(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // NPUSIM_INCLUDE_ACLNNOP_ACLNN_MLA_PROLOG_H_

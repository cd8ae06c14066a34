/*
 * npusim: aclnnNsaCompressWithCache: at inference, compresses the last compressBlockSize tokens
 * of every batch whose length has just completed a window into its slot of a compressed KV cache.
 * Declarations as in hicann/ops-transformer
 * attention/nsa_compress_with_cache/docs/aclnnNsaCompressWithCache.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_COMPRESS_WITH_CACHE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_COMPRESS_WITH_CACHE_H_

#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) aclnnStatus aclnnNsaCompressWithCacheGetWorkspaceSize(
    const aclTensor* input, const aclTensor* weight, const aclTensor* slotMapping,
    const aclIntArray* actSeqLenOptional, const aclTensor* blockTableOptional, char* layoutOptional,
    int64_t compressBlockSize, int64_t compressStride, int64_t actSeqLenType, int64_t pageBlockSize,
    aclTensor* outputCache, uint64_t* workspaceSize, aclOpExecutor** executor);

__attribute__((visibility("default"))) aclnnStatus aclnnNsaCompressWithCache(void* workspace,
                                                                             uint64_t workspaceSize,
                                                                             aclOpExecutor* executor,
                                                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_COMPRESS_WITH_CACHE_H_ */

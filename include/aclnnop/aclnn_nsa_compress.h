/*
 * npusim: aclnnNsaCompress: block-wise weighted compression of a TND key/value sequence.
 * Declarations as in hicann/ops-transformer attention/nsa_compress/docs/aclnnNsaCompress.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_COMPRESS_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_COMPRESS_H_

#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) aclnnStatus aclnnNsaCompressGetWorkspaceSize(
    const aclTensor* input, const aclTensor* weight, const aclIntArray* actSeqLenOptional,
    char* layoutOptional, int64_t compressBlockSize, int64_t compressStride, int64_t actSeqLenType,
    aclTensor* output, uint64_t* workspaceSize, aclOpExecutor** executor);

__attribute__((visibility("default"))) aclnnStatus aclnnNsaCompress(void* workspace, uint64_t workspaceSize,
                                                                    aclOpExecutor* executor,
                                                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_COMPRESS_H_ */

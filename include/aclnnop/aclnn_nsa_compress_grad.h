/*
 * npusim: aclnnNsaCompressGrad: gradients of aclnnNsaCompress for input and weight.
 * Declarations as in hicann/ops-transformer attention/nsa_compress_grad/docs/aclnnNsaCompressGrad.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_COMPRESS_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_COMPRESS_GRAD_H_

#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) aclnnStatus aclnnNsaCompressGradGetWorkspaceSize(
    const aclTensor* outputGrad, const aclTensor* input, const aclTensor* weight,
    const aclIntArray* actSeqLenOptionalOptional, int64_t compressBlockSize, int64_t compressStride,
    int64_t actSeqLenType, char* layoutOptionalOptional, const aclTensor* inputGradOut,
    const aclTensor* weightGradOut, uint64_t* workspaceSize, aclOpExecutor** executor);

__attribute__((visibility("default"))) aclnnStatus aclnnNsaCompressGrad(void* workspace,
                                                                        uint64_t workspaceSize,
                                                                        aclOpExecutor* executor,
                                                                        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_COMPRESS_GRAD_H_ */

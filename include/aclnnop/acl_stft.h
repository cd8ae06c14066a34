/*
 * npusim: aclStft, the short-time Fourier transform of real signals.
 * Declarations as in hicann/ops-math math/stft/docs/aclStft.md (the operator's names have no
 * "aclnn" prefix).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACL_STFT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACL_STFT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclStftGetWorkspaceSize(const aclTensor* self, const aclTensor* windowOptional, aclTensor* out, int64_t nFft, int64_t hopLength, int64_t winLength, bool normalized, bool onesided, bool returnComplex, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclStft(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACL_STFT_H_ */

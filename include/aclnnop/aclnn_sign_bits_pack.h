/*
 * npusim: aclnnSignBitsPack, the signs of self packed 8 per uint8.
 * Declarations as in hicann/ops-math math/sign_bits_pack/op_api/aclnn_sign_bits_pack.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SIGN_BITS_PACK_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SIGN_BITS_PACK_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSignBitsPackGetWorkspaceSize(const aclTensor* self, int64_t size, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSignBitsPack(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SIGN_BITS_PACK_H_ */

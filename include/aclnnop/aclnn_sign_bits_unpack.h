/*
 * npusim: aclnnSignBitsUnpack, uint8 bits unpacked into +1 / -1.
 * Declarations as in hicann/ops-math math/sign_bits_unpack/op_api/aclnn_sign_bits_unpack.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SIGN_BITS_UNPACK_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SIGN_BITS_UNPACK_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSignBitsUnpackGetWorkspaceSize(const aclTensor* self, int64_t size, aclDataType dtype, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSignBitsUnpack(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SIGN_BITS_UNPACK_H_ */

/*
 * npusim: aclnnQr, the QR factorisation of matrices (reduced when some).
 * Declarations as in hicann/ops-math math/qr/op_api/aclnn_qr.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_QR_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_QR_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnQrGetWorkspaceSize(const aclTensor* self, bool some, aclTensor* Q, aclTensor* R, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnQr(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_QR_H_ */

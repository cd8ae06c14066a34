/*
 * npusim: aclnnLinalgQr, the QR factorisation of matrices (mode 0 reduced, 1 complete, 2 R only).
 * Declarations as in hicann/ops-math math/qr/op_api/aclnn_linalg_qr.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LINALG_QR_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LINALG_QR_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLinalgQrGetWorkspaceSize(const aclTensor* self, int64_t mode, aclTensor* Q, aclTensor* R, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLinalgQr(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LINALG_QR_H_ */

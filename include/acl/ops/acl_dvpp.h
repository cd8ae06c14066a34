/*
 * npusim: media-processing (DVPP) memory helpers. Only the allocation pair is provided; in CANN this
 * header belongs to the DVPP package (signatures from the torch_npu copy of acl/ops/acl_dvpp.h, @c4840e3).
 */
#ifndef NPUSIM_INCLUDE_ACL_OPS_ACL_DVPP_H_
#define NPUSIM_INCLUDE_ACL_OPS_ACL_DVPP_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Device memory for media data: 128-byte aligned start, size rounded up to 32 bytes plus 32 bytes. */
ACL_FUNC_VISIBILITY aclError acldvppMalloc(void** devPtr, size_t size);
ACL_FUNC_VISIBILITY aclError acldvppFree(void* devPtr);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACL_OPS_ACL_DVPP_H_ */

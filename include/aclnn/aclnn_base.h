/*
 * npusim: aclnn library init/finalize (hicann/opbase include/nnopbase/aclnn/aclnn_base.h).
 * Per-operator headers include this file as "aclnn/aclnn_base.h".
 */
#ifndef NPUSIM_INCLUDE_ACLNN_ACLNN_BASE_H_
#define NPUSIM_INCLUDE_ACLNN_ACLNN_BASE_H_

#include <cstdint>
#include <cstdlib>

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Optional: operators work without it. configPath may be NULL. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char* configPath);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize();

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNN_ACLNN_BASE_H_ */

/*
 * npusim: mstx, the tools-extension markers of CANN (libms_tools_ext). Marks and ranges are written
 * into npusim's trace on the calling thread's host track (runtime/api_prof.cpp); with a stream they
 * also appear on that stream's track when the device reaches them.
 */
#ifndef NPUSIM_INCLUDE_MSTX_MS_TOOLS_EXT_H_
#define NPUSIM_INCLUDE_MSTX_MS_TOOLS_EXT_H_

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MSTX_INVALID_ID 0 /* never a valid range id */

typedef uint64_t mstxRangeId;
struct mstxDomainRegistration_st;
typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
typedef mstxDomainRegistration_t* mstxDomainHandle_t;
typedef mstxDomainRegistration_t* mstxDomainhandle_t; /* the spelling of older packages */

ACL_FUNC_VISIBILITY void mstxMarkA(const char* message, aclrtStream stream);
ACL_FUNC_VISIBILITY mstxRangeId mstxRangeStartA(const char* message, aclrtStream stream);
ACL_FUNC_VISIBILITY void mstxRangeEnd(mstxRangeId id);
ACL_FUNC_VISIBILITY mstxDomainHandle_t mstxDomainCreateA(const char* name);
ACL_FUNC_VISIBILITY void mstxDomainDestroy(mstxDomainHandle_t domain);
ACL_FUNC_VISIBILITY void mstxDomainMarkA(mstxDomainHandle_t domain, const char* message, aclrtStream stream);
ACL_FUNC_VISIBILITY mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char* message,
                                                      aclrtStream stream);
ACL_FUNC_VISIBILITY void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_MSTX_MS_TOOLS_EXT_H_ */

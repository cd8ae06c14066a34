/*
 * npusim: model header. In the current CANN runtime package acl_mdl.h is an empty placeholder and all
 * aclmdlRI* (captured model) declarations live in acl_rt.h; older packages declared them here. Including
 * acl_rt.h keeps programs written for either layout compiling. The offline-model API (aclmdlLoad*, ...) is
 * not provided.
 */
#ifndef NPUSIM_INCLUDE_ACL_ACL_MDL_H_
#define NPUSIM_INCLUDE_ACL_ACL_MDL_H_

#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Model dump (runtime/api_dump.cpp): InitDump, then SetDump with a JSON file whose "dump" section
 * gives dump_path and dump_op_switch/dump_list; FinalizeDump ends it. */
ACL_FUNC_VISIBILITY aclError aclmdlInitDump(void);
ACL_FUNC_VISIBILITY aclError aclmdlSetDump(const char* dumpCfgPath);
ACL_FUNC_VISIBILITY aclError aclmdlFinalizeDump(void);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACL_ACL_MDL_H_ */

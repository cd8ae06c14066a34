/*
 * npusim: AscendCL umbrella header, the one user programs include. As in CANN it only includes the
 * runtime, single-operator and model headers; everything (init/finalize, devices, contexts, streams,
 * events, memory, callbacks, captured models) is declared in acl_rt.h.
 */
#ifndef NPUSIM_INCLUDE_ACL_ACL_H_
#define NPUSIM_INCLUDE_ACL_ACL_H_

/* Same include order as CANN. */
/* clang-format off */
#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"
/* clang-format on */

#endif /* NPUSIM_INCLUDE_ACL_ACL_H_ */

/*
 * npusim: AscendCL base header. Same layout as the current CANN runtime package: it only pulls in the
 * base runtime types, the (empty) model base header and the two error-code headers.
 */
#ifndef NPUSIM_INCLUDE_ACL_ACL_BASE_H_
#define NPUSIM_INCLUDE_ACL_ACL_BASE_H_

#include "acl_base_mdl.h"
#include "acl_base_rt.h"
#include "error_codes/ge_error_codes.h"
#include "error_codes/rt_error_codes.h"

#endif /* NPUSIM_INCLUDE_ACL_ACL_BASE_H_ */

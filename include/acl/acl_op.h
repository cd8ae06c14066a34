/*
 * npusim: single-operator header. In the current CANN runtime package this is an empty placeholder (the
 * aclop* API ships with a separate package); npusim offers operators through aclnn instead.
 */
#ifndef NPUSIM_INCLUDE_ACL_ACL_OP_H_
#define NPUSIM_INCLUDE_ACL_ACL_OP_H_

#include "acl_base.h"

#endif /* NPUSIM_INCLUDE_ACL_ACL_OP_H_ */

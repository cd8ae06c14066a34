/*
 * npusim: placeholder, as in the current CANN runtime package, where acl_base_mdl.h is empty unless the
 * model (aclmdl*) package is installed. npusim does not provide the offline-model API; the captured-model
 * API (aclmdlRI*) lives in acl_rt.h.
 */
#ifndef NPUSIM_INCLUDE_ACL_ACL_BASE_MDL_H_
#define NPUSIM_INCLUDE_ACL_ACL_BASE_MDL_H_
#endif /* NPUSIM_INCLUDE_ACL_ACL_BASE_MDL_H_ */

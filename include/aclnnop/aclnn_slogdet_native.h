/*
 * npusim: aclnnSlogdet under the header name ops-math's experimental/math/slogdet gives it
 * (hicann/ops-math experimental/math/slogdet/op_api/aclnn_slogdet_native.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SLOGDET_NATIVE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SLOGDET_NATIVE_H_

#include "aclnn_slogdet.h"

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SLOGDET_NATIVE_H_ */

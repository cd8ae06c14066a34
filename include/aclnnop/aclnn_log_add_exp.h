/*
 * npusim: aclnnLogAddExp under the name hicann/ops-math's experimental/math/log_add_exp example
 * includes (the built-in operator names its header aclnn_logaddexp.h); the example calls the
 * same two functions, so this name includes that one.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOG_ADD_EXP_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOG_ADD_EXP_H_

#include "aclnn_logaddexp.h"

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOG_ADD_EXP_H_ */

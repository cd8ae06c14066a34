/*
 * npusim: aclnnLogSoftmax under the name hicann/ops-nn's experimental/activation/log_softmax_v2
 * gives its header (the built-in operator names it aclnn_logsoftmax.h); both declare the same
 * two calls, so this name includes that one.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOG_SOFTMAX_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOG_SOFTMAX_H_

#include "aclnn_logsoftmax.h"

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOG_SOFTMAX_H_ */

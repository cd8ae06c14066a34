/*
 * npusim: the name ops-math experimental/math/is_neg_inf's example includes for
 * aclnnIsNegInf, declared in aclnn_isneginf.h (runtime/aclnn/ops/unary_math.cpp).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_IS_NEG_INF_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_IS_NEG_INF_H_

#include "aclnn_isneginf.h"

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_IS_NEG_INF_H_ */

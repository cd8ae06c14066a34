/*
 * npusim: the name ops-math experimental/math/is_pos_inf's example includes for
 * aclnnIsPosInf, declared in aclnn_isposinf.h (runtime/aclnn/ops/unary_math.cpp).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_IS_POS_INF_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_IS_POS_INF_H_

#include "aclnn_isposinf.h"

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_IS_POS_INF_H_ */

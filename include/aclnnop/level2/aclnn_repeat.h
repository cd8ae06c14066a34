/*
 * npusim: aclnnRepeat under the level2/ path that ops-math's experimental/math/tile example
 * includes; the declarations are those of aclnnop/aclnn_repeat.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_LEVEL2_ACLNN_REPEAT_H_
#define NPUSIM_INCLUDE_ACLNNOP_LEVEL2_ACLNN_REPEAT_H_

#include "aclnnop/aclnn_repeat.h"

#endif /* NPUSIM_INCLUDE_ACLNNOP_LEVEL2_ACLNN_REPEAT_H_ */

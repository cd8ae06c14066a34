/* npusim: export macro of the per-operator headers (hicann/opbase include/aclnnop/aclnn_util.h). */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_UTIL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_UTIL_H_

#define ACLNN_API __attribute__((visibility("default")))

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_UTIL_H_ */

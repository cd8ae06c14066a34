/*
 * npusim: the name the public nsa_selected_attention_infer example includes
 * (ops-transformer attention/nsa_selected_attention_infer/examples/); the declarations are
 * aclnn_nsa_selected_attention_infer.h's.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_SELECT_ATTENTION_INFER_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_SELECT_ATTENTION_INFER_H_

#include "aclnn_nsa_selected_attention_infer.h"  // next to this file

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_SELECT_ATTENTION_INFER_H_ */

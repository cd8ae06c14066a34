#pragma once
// aclnn status codes (CANN opdev/op_errno.h values; ops-math docs/context/aclnn_return_code.md).
// CANN keeps these in an internal header; so do we.
#include <cstdint>

namespace npusim::aclnn {

constexpr int32_t kSuccess = 0;
constexpr int32_t kErrParamNullptr = 161001;  // ACLNN_ERR_PARAM_NULLPTR
constexpr int32_t kErrParamInvalid = 161002;  // ACLNN_ERR_PARAM_INVALID
constexpr int32_t kErrRuntimeError = 361001;  // ACLNN_ERR_RUNTIME_ERROR
constexpr int32_t kErrInner = 561000;         // ACLNN_ERR_INNER
constexpr int32_t kErrInnerNullptr = 561103;  // ACLNN_ERR_INNER_NULLPTR

}  // namespace npusim::aclnn

#pragma once
// What the RNN operators (lstm.cpp, lstm_cell.cpp) share: their argument checks (every tensor of
// one call has the same type, fp32 or fp16, and a shape fixed by the others; list lengths) and the
// gate sigmoid.
#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {

// `t` (named `name`): not null (161001), fp32/fp16 of type `dtype` and of shape `shape` (161002).
inline int32_t checkRnnArg(const char* api, const std::string& name, const aclTensor* t, aclDataType dtype,
                           const std::vector<int64_t>& shape) {
  int32_t st = checkArg(api, name.c_str(), t, {ACL_FLOAT, ACL_FLOAT16});
  if (st != kSuccess) return st;
  if ((st = require(api, t->desc.dtype == dtype,
                    fmt::format("{} has type {}; all tensors must have type {}", name,
                                dtypeName(t->desc.dtype), dtypeName(dtype)))) != kSuccess) {
    return st;
  }
  return checkShape(api, name.c_str(), t->desc.shape, shape);
}

// A tensor list of `count` tensors: not null (161001), that many (161002).
inline int32_t checkRnnList(const char* api, const char* name, const aclTensorList* list, size_t count) {
  if (list == nullptr) return fail(api, kErrParamNullptr, fmt::format("{} is null", name));
  return require(api, list->items.size() == count,
                 fmt::format("{} holds {} tensors; {} expected", name, list->items.size(), count));
}

inline float gateSigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

}  // namespace npusim::aclnn

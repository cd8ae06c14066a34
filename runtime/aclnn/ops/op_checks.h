#pragma once
// Argument checks shared by the operators' phase 1. Each returns an aclnn status and records
// the reason (aclGetRecentErrMsg) when it fails.
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "runtime/aclnn/base/tensor.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

constexpr size_t kMaxDims = 8;  // aclnn operators accept at most 8 dimensions

// 161001 naming the first null pointer in `args` ({"self", self}, ...).
int32_t checkNotNull(const char* api, std::initializer_list<std::pair<const char*, const void*>> args);

// Known element type, shape >= 0, rank <= maxDims, offset >= 0, view inside its storage shape.
int32_t checkTensor(const char* api, const char* name, const TensorDesc& t, size_t maxDims = kMaxDims);

// Element type accepted by the operator (its registry entry).
int32_t checkDtype(const char* api, const char* name, aclDataType dt, const OpInfo& info);

// NumPy-style broadcast of two shapes; false if they are not broadcastable.
bool broadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b, std::vector<int64_t>* out);

// 161002 unless `actual` equals `expected`.
int32_t checkShape(const char* api, const char* name, const std::vector<int64_t>& actual,
                   const std::vector<int64_t>& expected);

}  // namespace npusim::aclnn

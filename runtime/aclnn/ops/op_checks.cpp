#include "runtime/aclnn/ops/op_checks.h"

#include <fmt/format.h>

#include <algorithm>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"

namespace npusim::aclnn {

int32_t checkNotNull(const char* api, std::initializer_list<std::pair<const char*, const void*>> args) {
  for (const auto& a : args) {
    if (a.second == nullptr)
      return fail(api, kErrParamNullptr, fmt::format("{} must not be nullptr", a.first));
  }
  return kSuccess;
}

int32_t checkTensor(const char* api, const char* name, const TensorDesc& t, size_t maxDims) {
  if (dtypeSize(t.dtype) == 0) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} has an unusable data type ({})", name, dtypeName(t.dtype)));
  }
  if (t.rank() > maxDims) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} has {} dimensions, more than the {} supported", name, t.rank(), maxDims));
  }
  for (int64_t d : t.shape) {
    if (d < 0)
      return fail(api, kErrParamInvalid,
                  fmt::format("{} has a negative dimension {}", name, shapeString(t.shape)));
  }
  if (t.offset < 0)
    return fail(api, kErrParamInvalid, fmt::format("{} has a negative view offset {}", name, t.offset));
  if (t.numel() > 0 && !t.storageShape.empty()) {
    int64_t lo = 0, hi = 0;
    t.elementSpan(&lo, &hi);
    if (lo < 0 || static_cast<uint64_t>(hi) >= t.storageNumel()) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("{} view (shape {}, strides {}, offset {}) reaches outside its storage shape {}", name,
                      shapeString(t.shape), shapeString(t.strides), t.offset, shapeString(t.storageShape)));
    }
  }
  return kSuccess;
}

int32_t checkDtype(const char* api, const char* name, aclDataType dt, const OpInfo& info) {
  if (info.accepts(dt)) return kSuccess;
  return fail(api, kErrParamInvalid,
              fmt::format("{} data type {} is not supported; expected one of: {}", name, dtypeName(dt),
                          info.dtypeList()));
}

bool broadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                     std::vector<int64_t>* out) {
  const size_t r = std::max(a.size(), b.size());
  std::vector<int64_t> s(r, 1);
  for (size_t i = 0; i < r; ++i) {
    const int64_t da = i < r - a.size() ? 1 : a[i - (r - a.size())];
    const int64_t db = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    s[i] = da == 1 ? db : da;
  }
  *out = std::move(s);
  return true;
}

int32_t checkShape(const char* api, const char* name, const std::vector<int64_t>& actual,
                   const std::vector<int64_t>& expected) {
  if (actual == expected) return kSuccess;
  return fail(
      api, kErrParamInvalid,
      fmt::format("{} shape should be {}, but is {}", name, shapeString(expected), shapeString(actual)));
}

}  // namespace npusim::aclnn

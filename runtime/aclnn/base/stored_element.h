#pragma once
// One stored element of any element type read as a number: shared by the kernels' row
// conversions (ops/element_convert.cpp) and host scalars (scalar.cpp), so that a value means
// the same in a tensor and in an aclScalar.
#include <cstdint>
#include <cstring>
#include <limits>

#include "acl/acl_base.h"
#include "runtime/aclnn/base/float_bits.h"

namespace npusim::aclnn {

template <typename T>
inline T loadBytes(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// d truncated toward zero into I, saturating at I's range; NaN gives 0.
template <typename I>
inline I truncSaturate(double d) {
  if (d != d) return 0;
  if (d <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (d >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(d);
}

// The element of an integer or bool type exactly (uint64 beyond int64 wraps); false for the
// other types, whose callers convert their double value.
inline bool storedAsInt64(aclDataType dt, const void* p, int64_t* v) {
  switch (dt) {
    case ACL_INT8:
      *v = loadBytes<int8_t>(p);
      return true;
    case ACL_UINT8:
      *v = loadBytes<uint8_t>(p);
      return true;
    case ACL_INT16:
      *v = loadBytes<int16_t>(p);
      return true;
    case ACL_UINT16:
      *v = loadBytes<uint16_t>(p);
      return true;
    case ACL_INT32:
      *v = loadBytes<int32_t>(p);
      return true;
    case ACL_UINT32:
      *v = loadBytes<uint32_t>(p);
      return true;
    case ACL_INT64:
      *v = loadBytes<int64_t>(p);
      return true;
    case ACL_UINT64:
      *v = static_cast<int64_t>(loadBytes<uint64_t>(p));
      return true;
    case ACL_BOOL:
      *v = loadBytes<uint8_t>(p) != 0 ? 1 : 0;
      return true;
    default:
      return false;
  }
}

// The element's value: exact for every type but 64-bit integers beyond 2^53; 0 for types with
// no real value of their own (complex, undefined), which callers handle first if they need to.
inline double storedAsDouble(aclDataType dt, const void* p) {
  switch (dt) {
    case ACL_FLOAT:
      return loadBytes<float>(p);
    case ACL_FLOAT16:
      return halfToFloat(loadBytes<uint16_t>(p));
    case ACL_BF16:
      return bf16ToFloat(loadBytes<uint16_t>(p));
    case ACL_DOUBLE:
      return loadBytes<double>(p);
    case ACL_UINT64:  // not through int64, which would wrap it
      return static_cast<double>(loadBytes<uint64_t>(p));
    default:
      break;
  }
  int64_t v;
  return storedAsInt64(dt, p, &v) ? static_cast<double>(v) : 0.0;
}

}  // namespace npusim::aclnn

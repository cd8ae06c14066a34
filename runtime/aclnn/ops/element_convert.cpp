#include "runtime/aclnn/ops/element_convert.h"

#include <cstring>

#include "runtime/aclnn/base/float_bits.h"
#include "runtime/aclnn/base/stored_element.h"

namespace npusim::aclnn {

namespace {

template <typename T>
inline void wr(char* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

inline int64_t elemToInt(aclDataType dt, const char* p) {
  int64_t v;
  return storedAsInt64(dt, p, &v) ? v : truncSaturate<int64_t>(storedAsDouble(dt, p));
}

// Integer value wrapped to the width of dt.
inline int64_t wrapInt(aclDataType dt, int64_t v) {
  switch (dt) {
    case ACL_INT8:
      return static_cast<int8_t>(static_cast<uint8_t>(v));
    case ACL_UINT8:
      return static_cast<uint8_t>(v);
    case ACL_INT16:
      return static_cast<int16_t>(static_cast<uint16_t>(v));
    case ACL_UINT16:
      return static_cast<uint16_t>(v);
    case ACL_INT32:
      return static_cast<int32_t>(static_cast<uint32_t>(v));
    case ACL_UINT32:
      return static_cast<uint32_t>(v);
    case ACL_BOOL:
      return v != 0 ? 1 : 0;
    default:
      return v;
  }
}

inline void storeDouble(aclDataType dt, char* p, double v) {
  switch (dt) {
    case ACL_FLOAT:
      wr<float>(p, static_cast<float>(v));
      break;
    case ACL_FLOAT16:
      wr<uint16_t>(p, doubleToHalf(v));
      break;
    case ACL_BF16:
      wr<uint16_t>(p, doubleToBf16(v));
      break;
    case ACL_DOUBLE:
      wr<double>(p, v);
      break;
    case ACL_INT8:
      wr<int8_t>(p, truncSaturate<int8_t>(v));
      break;
    case ACL_UINT8:
      wr<uint8_t>(p, truncSaturate<uint8_t>(v));
      break;
    case ACL_INT16:
      wr<int16_t>(p, truncSaturate<int16_t>(v));
      break;
    case ACL_UINT16:
      wr<uint16_t>(p, truncSaturate<uint16_t>(v));
      break;
    case ACL_INT32:
      wr<int32_t>(p, truncSaturate<int32_t>(v));
      break;
    case ACL_UINT32:
      wr<uint32_t>(p, truncSaturate<uint32_t>(v));
      break;
    case ACL_INT64:
      wr<int64_t>(p, truncSaturate<int64_t>(v));
      break;
    case ACL_UINT64:
      wr<uint64_t>(p, truncSaturate<uint64_t>(v));
      break;
    case ACL_BOOL:
      wr<uint8_t>(p, v != 0.0 ? 1 : 0);
      break;
    default:
      break;
  }
}

inline void storeInt(aclDataType dt, char* p, int64_t v) {
  switch (dt) {
    case ACL_FLOAT:
      wr<float>(p, static_cast<float>(v));
      break;
    case ACL_FLOAT16:
      wr<uint16_t>(p, doubleToHalf(static_cast<double>(v)));
      break;
    case ACL_BF16:
      wr<uint16_t>(p, doubleToBf16(static_cast<double>(v)));
      break;
    case ACL_DOUBLE:
      wr<double>(p, static_cast<double>(v));
      break;
    case ACL_INT8:
      wr<uint8_t>(p, static_cast<uint8_t>(v));
      break;
    case ACL_UINT8:
      wr<uint8_t>(p, static_cast<uint8_t>(v));
      break;
    case ACL_INT16:
      wr<uint16_t>(p, static_cast<uint16_t>(v));
      break;
    case ACL_UINT16:
      wr<uint16_t>(p, static_cast<uint16_t>(v));
      break;
    case ACL_INT32:
      wr<uint32_t>(p, static_cast<uint32_t>(v));
      break;
    case ACL_UINT32:
      wr<uint32_t>(p, static_cast<uint32_t>(v));
      break;
    case ACL_INT64:
      wr<int64_t>(p, v);
      break;
    case ACL_UINT64:
      wr<uint64_t>(p, static_cast<uint64_t>(v));
      break;
    case ACL_BOOL:
      wr<uint8_t>(p, v != 0 ? 1 : 0);
      break;
    default:
      break;
  }
}

}  // namespace

Calc calcFor(aclDataType dt) {
  switch (dt) {
    case ACL_FLOAT:
    case ACL_FLOAT16:
    case ACL_BF16:
      return Calc::kF32;
    case ACL_DOUBLE:
      return Calc::kF64;
    default:
      return Calc::kI64;
  }
}

// The common element types get tight typed loops; everything else goes through the
// per-element switch.
void loadRow(aclDataType dt, const char* src, int64_t stride, int64_t n, float* dst) {
  switch (dt) {
    case ACL_FLOAT:
      if (stride == 4) {
        std::memcpy(dst, src, static_cast<size_t>(n) * 4);
      } else {
        for (int64_t i = 0; i < n; ++i) dst[i] = loadBytes<float>(src + i * stride);
      }
      return;
    case ACL_FLOAT16:
      for (int64_t i = 0; i < n; ++i) dst[i] = halfToFloat(loadBytes<uint16_t>(src + i * stride));
      return;
    case ACL_BF16:
      for (int64_t i = 0; i < n; ++i) dst[i] = bf16ToFloat(loadBytes<uint16_t>(src + i * stride));
      return;
    case ACL_INT32:
      for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<float>(loadBytes<int32_t>(src + i * stride));
      return;
    case ACL_INT64:
      for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<float>(loadBytes<int64_t>(src + i * stride));
      return;
    case ACL_DOUBLE:
      for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<float>(loadBytes<double>(src + i * stride));
      return;
    default:
      for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<float>(storedAsDouble(dt, src + i * stride));
      return;
  }
}

void loadRow(aclDataType dt, const char* src, int64_t stride, int64_t n, double* dst) {
  for (int64_t i = 0; i < n; ++i) dst[i] = storedAsDouble(dt, src + i * stride);
}

void loadRow(aclDataType dt, const char* src, int64_t stride, int64_t n, int64_t* dst) {
  switch (dt) {
    case ACL_INT32:
      for (int64_t i = 0; i < n; ++i) dst[i] = loadBytes<int32_t>(src + i * stride);
      return;
    case ACL_INT8:
      for (int64_t i = 0; i < n; ++i) dst[i] = loadBytes<int8_t>(src + i * stride);
      return;
    default:
      for (int64_t i = 0; i < n; ++i) dst[i] = elemToInt(dt, src + i * stride);
      return;
  }
}

void storeRow(aclDataType dt, char* dst, int64_t stride, int64_t n, const float* src) {
  switch (dt) {
    case ACL_FLOAT:
      if (stride == 4) {
        std::memcpy(dst, src, static_cast<size_t>(n) * 4);
      } else {
        for (int64_t i = 0; i < n; ++i) wr<float>(dst + i * stride, src[i]);
      }
      return;
    case ACL_FLOAT16:
      for (int64_t i = 0; i < n; ++i) wr<uint16_t>(dst + i * stride, floatToHalf(src[i]));
      return;
    case ACL_BF16:
      for (int64_t i = 0; i < n; ++i) wr<uint16_t>(dst + i * stride, floatToBf16(src[i]));
      return;
    default:
      for (int64_t i = 0; i < n; ++i) storeDouble(dt, dst + i * stride, src[i]);
      return;
  }
}

void storeRow(aclDataType dt, char* dst, int64_t stride, int64_t n, const double* src) {
  for (int64_t i = 0; i < n; ++i) storeDouble(dt, dst + i * stride, src[i]);
}

void storeRow(aclDataType dt, char* dst, int64_t stride, int64_t n, const int64_t* src) {
  if (dt == ACL_INT32) {
    for (int64_t i = 0; i < n; ++i) wr<uint32_t>(dst + i * stride, static_cast<uint32_t>(src[i]));
    return;
  }
  for (int64_t i = 0; i < n; ++i) storeInt(dt, dst + i * stride, src[i]);
}

void quantizeRow(aclDataType dt, float* v, int64_t n) {
  if (dt == ACL_FLOAT16) {
    for (int64_t i = 0; i < n; ++i) v[i] = halfToFloat(floatToHalf(v[i]));
  } else if (dt == ACL_BF16) {
    for (int64_t i = 0; i < n; ++i) v[i] = bf16ToFloat(floatToBf16(v[i]));
  } else if (dt == ACL_BOOL) {
    for (int64_t i = 0; i < n; ++i) v[i] = v[i] != 0.0f ? 1.0f : 0.0f;
  }
}

void quantizeRow(aclDataType dt, double* v, int64_t n) {
  if (dt == ACL_FLOAT) {
    for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(v[i]);
  } else if (dt == ACL_FLOAT16) {
    for (int64_t i = 0; i < n; ++i) v[i] = halfToFloat(doubleToHalf(v[i]));
  } else if (dt == ACL_BF16) {
    for (int64_t i = 0; i < n; ++i) v[i] = bf16ToFloat(doubleToBf16(v[i]));
  } else if (dt == ACL_BOOL) {
    for (int64_t i = 0; i < n; ++i) v[i] = v[i] != 0.0 ? 1.0 : 0.0;
  }
}

void quantizeRow(aclDataType dt, int64_t* v, int64_t n) {
  if (dt == ACL_INT64) return;
  for (int64_t i = 0; i < n; ++i) v[i] = wrapInt(dt, v[i]);
}

}  // namespace npusim::aclnn

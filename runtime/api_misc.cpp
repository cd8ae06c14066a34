// Device-independent ACL helpers: fp16 conversion, data-type sizes, aclDataBuffer descriptors, version
// and SoC name. None of them touches the simulated platform.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>

#include "acl/acl.h"

// Host-side descriptor created by aclCreateDataBuffer (opaque in the public header).
struct aclDataBuffer {
  void* data;
  size_t length;
};

namespace {

uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

float bitsToFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

// Shifts `value` right by `shift` (1..31) bits, rounding to nearest with ties to even.
uint32_t shiftRoundEven(uint32_t value, uint32_t shift) {
  const uint32_t kept = value >> shift;
  const uint32_t rest = value & ((1U << shift) - 1U);
  const uint32_t half = 1U << (shift - 1U);
  return (rest > half || (rest == half && (kept & 1U) != 0U)) ? kept + 1U : kept;
}

}  // namespace

extern "C" {

// binary16 layout: 1 sign bit, 5 exponent bits (bias 15), 10 mantissa bits.
float aclFloat16ToFloat(aclFloat16 value) {
  const uint32_t sign = (static_cast<uint32_t>(value) & 0x8000U) << 16;
  const uint32_t exponent = (static_cast<uint32_t>(value) >> 10) & 0x1FU;
  const uint32_t mantissa = static_cast<uint32_t>(value) & 0x3FFU;
  if (exponent == 0x1FU) {  // Inf or NaN; the NaN payload moves to the top of the float mantissa.
    return bitsToFloat(sign | 0x7F800000U | (mantissa << 13));
  }
  if (exponent == 0U) {  // Zero or subnormal: mantissa * 2^-24, exact in binary32.
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign != 0U ? -magnitude : magnitude;
  }
  return bitsToFloat(sign | ((exponent + (127U - 15U)) << 23) | (mantissa << 13));
}

aclFloat16 aclFloatToFloat16(float value) {
  const uint32_t bits = floatBits(value);
  const uint32_t sign = (bits >> 16) & 0x8000U;
  const uint32_t magnitude = bits & 0x7FFFFFFFU;
  uint32_t half;
  if (magnitude > 0x7F800000U) {  // NaN: keep it quiet and keep the top payload bits.
    half = 0x7E00U | ((magnitude >> 13) & 0x3FFU);
  } else if (magnitude >= 0x477FF000U) {  // >= 65520 (halfway above 65504) rounds to infinity.
    half = 0x7C00U;
  } else if (magnitude >= 0x38800000U) {  // >= 2^-14: normal half.
    const uint32_t exponent = (magnitude >> 23) - (127U - 15U);
    // Rounding may carry into the exponent, which is exactly the right next value.
    half = shiftRoundEven(((exponent << 23) | (magnitude & 0x7FFFFFU)), 13);
  } else if (magnitude > 0x33000000U) {         // (2^-25, 2^-14): subnormal half in units of 2^-24.
    const uint32_t exponent = magnitude >> 23;  // biased binary32 exponent, 102..112
    const uint32_t mantissa = (magnitude & 0x7FFFFFU) | 0x800000U;
    half = shiftRoundEven(mantissa, 126U - exponent);
  } else {  // <= 2^-25 (a tie at exactly 2^-25) rounds to zero.
    half = 0U;
  }
  return static_cast<aclFloat16>(sign | half);
}

// Sizes as returned by the CANN implementation (hicann/runtime src/acl, aclDataTypeSizeImpl): sub-byte
// integer types report 1, and types it does not list (including the fp6/fp4 formats) fall back to 8.
size_t aclDataTypeSize(aclDataType dataType) {
  switch (dataType) {
    case ACL_STRING:
    case ACL_DT_UNDEFINED:
      return 0;
    case ACL_UINT1:
    case ACL_INT4:
    case ACL_BOOL:
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
      return 1;
    case ACL_FLOAT16:
    case ACL_INT16:
    case ACL_UINT16:
    case ACL_BF16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32:
      return 4;
    case ACL_COMPLEX128:
      return 16;
    default:  // INT64, UINT64, DOUBLE, COMPLEX64 and anything unlisted
      return 8;
  }
}

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
  return new (std::nothrow) aclDataBuffer{data, size};
}

aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
  if (dataBuffer == nullptr) {
    return ACL_ERROR_INVALID_PARAM;
  }
  delete dataBuffer;
  return ACL_SUCCESS;
}

aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) {
  if (dataBuffer == nullptr) {
    return ACL_ERROR_INVALID_PARAM;
  }
  dataBuffer->data = data;
  dataBuffer->length = size;
  return ACL_SUCCESS;
}

void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
  return dataBuffer == nullptr ? nullptr : dataBuffer->data;
}

uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer) {
  return dataBuffer == nullptr ? 0U : static_cast<uint32_t>(dataBuffer->length);
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
  return dataBuffer == nullptr ? 0U : dataBuffer->length;
}

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
  if (majorVersion == nullptr || minorVersion == nullptr || patchVersion == nullptr) {
    return ACL_ERROR_INVALID_PARAM;
  }
  *majorVersion = ACL_MAJOR_VERSION;
  *minorVersion = ACL_MINOR_VERSION;
  *patchVersion = ACL_PATCH_VERSION;
  return ACL_SUCCESS;
}

// The default preset models a 910B-class part; its SoC name is fixed here rather than read from the
// configuration so this helper stays device-independent.
const char* aclrtGetSocName(void) { return "Ascend910B2"; }

}  // extern "C"

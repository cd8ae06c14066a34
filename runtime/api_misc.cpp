// Device-independent ACL helpers: fp16 conversion, data-type sizes, aclDataBuffer descriptors, version
// and SoC name. None of them touches the simulated platform.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>

#include "acl/acl.h"
#include "runtime/aclnn/base/float_bits.h"

// Host-side descriptor created by aclCreateDataBuffer (opaque in the public header).
struct aclDataBuffer {
  void* data;
  size_t length;
};

extern "C" {

// binary16 <-> binary32, round to nearest even (the same conversions the operators use).
float aclFloat16ToFloat(aclFloat16 value) { return npusim::aclnn::halfToFloat(value); }

aclFloat16 aclFloatToFloat16(float value) { return npusim::aclnn::floatToHalf(value); }

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

}  // extern "C"

#include "runtime/aclnn/base/scalar.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <new>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/float_bits.h"

namespace npusim::aclnn {

namespace {

template <typename T>
T read(const unsigned char* b) {
  T v;
  std::memcpy(&v, b, sizeof v);
  return v;
}

}  // namespace

double ScalarValue::toDouble() const {
  switch (dtype) {
    case ACL_FLOAT:
      return read<float>(bytes);
    case ACL_FLOAT16:
      return halfToFloat(read<uint16_t>(bytes));
    case ACL_BF16:
      return bf16ToFloat(read<uint16_t>(bytes));
    case ACL_DOUBLE:
      return read<double>(bytes);
    case ACL_INT8:
      return read<int8_t>(bytes);
    case ACL_UINT8:
      return read<uint8_t>(bytes);
    case ACL_INT16:
      return read<int16_t>(bytes);
    case ACL_UINT16:
      return read<uint16_t>(bytes);
    case ACL_INT32:
      return read<int32_t>(bytes);
    case ACL_UINT32:
      return read<uint32_t>(bytes);
    case ACL_INT64:
      return static_cast<double>(read<int64_t>(bytes));
    case ACL_UINT64:
      return static_cast<double>(read<uint64_t>(bytes));
    case ACL_BOOL:
      return read<uint8_t>(bytes) != 0 ? 1.0 : 0.0;
    case ACL_COMPLEX64:
      return read<float>(bytes);  // real part
    case ACL_COMPLEX128:
      return read<double>(bytes);
    default:
      return 0.0;
  }
}

int64_t ScalarValue::toInt64() const {
  switch (dtype) {
    case ACL_INT8:
      return read<int8_t>(bytes);
    case ACL_UINT8:
      return read<uint8_t>(bytes);
    case ACL_INT16:
      return read<int16_t>(bytes);
    case ACL_UINT16:
      return read<uint16_t>(bytes);
    case ACL_INT32:
      return read<int32_t>(bytes);
    case ACL_UINT32:
      return read<uint32_t>(bytes);
    case ACL_INT64:
      return read<int64_t>(bytes);
    case ACL_UINT64:
      return static_cast<int64_t>(read<uint64_t>(bytes));
    case ACL_BOOL:
      return read<uint8_t>(bytes) != 0 ? 1 : 0;
    default: {
      const double d = toDouble();
      if (std::isnan(d)) return 0;
      if (d >= 9.2233720368547758e18) return std::numeric_limits<int64_t>::max();
      if (d <= -9.2233720368547758e18) return std::numeric_limits<int64_t>::min();
      return static_cast<int64_t>(d);
    }
  }
}

bool ScalarValue::isZero() const { return isIntegral(dtype, true) ? toInt64() == 0 : toDouble() == 0.0; }

std::string ScalarValue::str() const {
  if (isIntegral(dtype, true)) return fmt::format("{} {}", toInt64(), dtypeName(dtype));
  // Narrow float types print their shortest float form ("1.1", not 1.100000023841858).
  if (dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16) {
    return fmt::format("{} {}", static_cast<float>(toDouble()), dtypeName(dtype));
  }
  return fmt::format("{} {}", toDouble(), dtypeName(dtype));
}

}  // namespace npusim::aclnn

extern "C" {

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  const size_t size = npusim::aclnn::dtypeSize(dataType);
  if (value == nullptr || size == 0) return nullptr;
  auto* s = new (std::nothrow) aclScalar;
  if (s == nullptr) return nullptr;
  s->value.dtype = dataType;
  std::memcpy(s->value.bytes, value, size);
  return s;
}

aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
  delete scalar;
  return OK;
}

}  // extern "C"

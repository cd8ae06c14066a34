#include "runtime/aclnn/base/scalar.h"

#include <fmt/format.h>

#include <cstring>
#include <new>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/stored_element.h"

namespace npusim::aclnn {

double ScalarValue::toDouble() const {
  if (dtype == ACL_COMPLEX64) return loadBytes<float>(bytes);  // the real part
  if (dtype == ACL_COMPLEX128) return loadBytes<double>(bytes);
  return storedAsDouble(dtype, bytes);
}

int64_t ScalarValue::toInt64() const {
  int64_t v;
  return storedAsInt64(dtype, bytes, &v) ? v : truncSaturate<int64_t>(toDouble());
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

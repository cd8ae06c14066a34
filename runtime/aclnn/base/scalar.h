#pragma once
// aclScalar: a host value with an element type (alpha of aclnnAdd, the scalar of aclnnAdds...).
#include <cstdint>
#include <string>

#include "aclnn/acl_meta.h"

namespace npusim::aclnn {

struct ScalarValue {
  aclDataType dtype = ACL_DT_UNDEFINED;
  unsigned char bytes[16] = {};  // the value as given, in its own type

  double toDouble() const;  // exact for every integer up to 2^53 and every float type
  int64_t toInt64() const;  // floats truncate toward zero (saturating); NaN gives 0
  bool isZero() const;
  std::string str() const;  // "1.1 fp32"
};

}  // namespace npusim::aclnn

struct aclScalar {
  npusim::aclnn::ScalarValue value;
};

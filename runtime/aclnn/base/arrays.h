#pragma once
// Host arrays passed to operators: aclIntArray (dims, shapes), aclFloatArray, aclBoolArray,
// and lists of tensors/scalars (which own their elements, as in CANN).
#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"

struct aclIntArray {
  std::vector<int64_t> values;
};

struct aclFloatArray {
  std::vector<float> values;
};

struct aclBoolArray {
  std::vector<bool> values;
};

struct aclTensorList {
  std::vector<const aclTensor*> items;
};

struct aclScalarList {
  std::vector<const aclScalar*> items;
};

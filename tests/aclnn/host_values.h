#pragma once
// The values of a test tensor in row-major order, as doubles (the optimiser and random tests).
#include <cstdint>
#include <vector>

#include "aclnn_test_util.h"

namespace aclnn_test {

inline std::vector<double> values(HostTensorBuf& t) {
  std::vector<double> v;
  for (int64_t i = 0; i < t.numel(); ++i) v.push_back(t.get(i));
  return v;
}

}  // namespace aclnn_test

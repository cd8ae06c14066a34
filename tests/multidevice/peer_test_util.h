#pragma once
// Helpers of the multi-device tests: device buffers peer copies can use, a stream on a device,
// and the simulated time of copies issued together.
#include <gtest/gtest.h>

#include <vector>

#include "tests/runtime/sim_test_util.h"

namespace npusim::test {

inline void* dmalloc(size_t n) {
  void* p = nullptr;
  EXPECT_EQ(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST_P2P), ACL_SUCCESS);
  return p;
}

inline aclrtStream streamOn(int dev) {
  aclrtStream s = nullptr;
  EXPECT_EQ(aclrtSetDevice(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  return s;
}

struct Copy {
  void* dst;
  const void* src;
  size_t n;
  aclrtStream s;
  aclrtMemcpyKind kind = ACL_MEMCPY_DEVICE_TO_DEVICE;
};

// Simulated host time (ns) for `copies` issued together, each on its stream, until all are done.
inline double together(const std::vector<Copy>& copies) {
  return hostNs([&] {
    for (const auto& c : copies)
      ASSERT_EQ(aclrtMemcpyAsync(c.dst, c.n, c.src, c.n, c.kind, c.s), ACL_SUCCESS);
    for (const auto& c : copies) ASSERT_EQ(aclrtSynchronizeStream(c.s), ACL_SUCCESS);
  });
}

}  // namespace npusim::test

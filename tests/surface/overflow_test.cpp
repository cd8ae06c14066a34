// Floating-point overflow detection: an operator on a stream with the overflow switch on that
// leaves an Inf or NaN in its output sets the device's overflow status, which
// aclrtGetOverflowStatus writes to device memory in stream order and aclrtResetOverflowStatus
// clears; streams without the switch, and finite results, leave it clear.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "acl/acl.h"
#include "surface_test_util.h"

namespace {

// The status as aclrtGetOverflowStatus writes it into a 64-byte buffer (the CANN sample's size).
uint64_t overflowStatus(aclrtStream s, void* buf) {
  std::vector<uint64_t> h(8, 99);
  EXPECT_EQ(aclrtMemset(buf, 64, 0xFF, 64), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetOverflowStatus(buf, 64, s), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(h.data(), 64, buf, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (size_t i = 1; i < h.size(); ++i) EXPECT_EQ(h[i], 0u);  // the rest is zeroed
  return h[0];
}

}  // namespace

TEST(Overflow, CheckedOperatorsSetTheStatusAndResetClearsIt) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream checked = nullptr, plain = nullptr;
  ASSERT_EQ(aclrtCreateStream(&checked), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&plain), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamOverflowSwitch(checked, 1), ACL_SUCCESS);
  void* buf = nullptr;
  ASSERT_EQ(aclrtMalloc(&buf, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const float big = 3.0e38f, nan = std::numeric_limits<float>::quiet_NaN();

  EXPECT_EQ(overflowStatus(checked, buf), 0u);
  surface_test::runAdd(checked, {1, 2, 3, 4}, {5, 6, 7, 8});  // finite
  EXPECT_EQ(overflowStatus(checked, buf), 0u);
  surface_test::runAdd(plain, {big, 0, 0, 0}, {big, 0, 0, 0});  // overflows, but unchecked
  EXPECT_EQ(overflowStatus(checked, buf), 0u);
  surface_test::runAdd(checked, {1, big, 3, 4}, {1, big, 3, 4});  // 6e38: Inf in fp32
  EXPECT_EQ(overflowStatus(checked, buf), 1u);
  EXPECT_EQ(overflowStatus(plain, buf), 1u);  // the status is the device's
  ASSERT_EQ(aclrtResetOverflowStatus(plain), ACL_SUCCESS);
  EXPECT_EQ(overflowStatus(checked, buf), 0u);
  surface_test::runAdd(checked, {0, 0, 0, nan}, {0, 0, 0, 1});  // NaN counts too
  EXPECT_EQ(overflowStatus(checked, buf), 1u);

  EXPECT_EQ(aclrtGetOverflowStatus(buf, 4, checked), ACL_ERROR_INVALID_PARAM);  // below 8 bytes
  uint64_t host[8];
  EXPECT_EQ(aclrtGetOverflowStatus(host, sizeof host, checked), ACL_ERROR_INVALID_PARAM);  // host memory
  EXPECT_EQ(aclrtGetOverflowStatus(buf, 128, checked), ACL_ERROR_INVALID_PARAM);  // past the allocation
  aclrtFree(buf);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

// Managed memory, from the documented behaviour: aclrtMemAllocManaged gives one pointer that host
// code and device work both use (zeroed, ACL_RT_MEM_ATTACH_GLOBAL only), copies move it like pinned
// host memory, and it is freed with aclrtFree (aclrtFreeHost refuses it).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "tests/runtime_surface/surface_test_util.h"

using npusim::test::configure;

TEST(ManagedMemory, ArgumentsAreChecked) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* p = nullptr;
  EXPECT_EQ(aclrtMemAllocManaged(nullptr, 1024, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemAllocManaged(&p, 0, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemAllocManaged(&p, 1024, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(std::strstr(aclGetRecentErrMsg(), "ACL_RT_MEM_ATTACH_GLOBAL"), nullptr);
  EXPECT_EQ(p, nullptr);
}

TEST(ManagedMemory, HostAndCopiesShareOnePointerAndAclrtFreeReleasesIt) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const size_t n = 1 << 20;
  unsigned char* m = nullptr;
  ASSERT_EQ(aclrtMemAllocManaged(reinterpret_cast<void**>(&m), n, ACL_RT_MEM_ATTACH_GLOBAL), ACL_SUCCESS);
  ASSERT_NE(m, nullptr);
  for (size_t i = 0; i < n; i += 4093) EXPECT_EQ(m[i], 0) << i;  // zeroed
  for (size_t i = 0; i < n; ++i) m[i] = static_cast<unsigned char>(i * 7);
  // Device memory filled from it and copied back into it.
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(dev, n, m, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  std::memset(m, 0, n);
  ASSERT_EQ(aclrtMemcpy(m, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (size_t i = 0; i < n; i += 97) EXPECT_EQ(m[i], static_cast<unsigned char>(i * 7)) << i;
  // Asynchronous copies may use it directly (it is pinned).
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpyAsync(dev, n, m, n, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(m), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(std::strstr(aclGetRecentErrMsg(), "aclrtFree"), nullptr);
  EXPECT_EQ(aclrtFree(m), ACL_SUCCESS);
  EXPECT_NE(aclrtFree(m), ACL_SUCCESS);  // freed once
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
}

// Generated aclrtlaunch_<kernel>.h take a struct parameter by pointer to host memory, as CANN
// generates them, and the kernel gets its value.
#include <gtest/gtest.h>

#include <type_traits>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_tiling_scale.h"
#include "device/tiling_kernel.h"
#include "tests/aicore/aicore_test_util.h"

static_assert(std::is_same<decltype(&aclrtlaunch_k_tiling_scale),
                           uint32_t (*)(uint32_t, aclrtStream, void*, void*, ScaleTiling*)>::value,
              "the tiling struct is taken by pointer");

TEST(KernelLaunchHeader, TilingStructIsPassedByPointerAndReachesTheKernelByValue) {
  aicore_test::Session s;
  const uint32_t n = 1000;
  std::vector<float> x(n), z(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = static_cast<float>(i) - 300.0f;
  void *dx = nullptr, *dz = nullptr;
  ASSERT_EQ(aclrtMalloc(&dx, n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dz, n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ScaleTiling tiling{n, -2.5f};
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_tiling_scale)(4, s.stream, dx, dz, &tiling), 0u);
  tiling.factor = 100.0f;  // the launch took the value: a later change does not reach the kernel
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(z.data(), n * 4, dz, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(z[i], -2.5f * x[i]) << i;
  aclrtFree(dx);
  aclrtFree(dz);
}

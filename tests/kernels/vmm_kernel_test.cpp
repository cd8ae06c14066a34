// Kernels on virtual memory: a kernel's __gm__ pointer into physical chunks mapped back to back
// in one reserved range reads and writes across the chunks' boundary as one range, and an access
// that runs on into an unmapped page of the range is a kernel fault.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_stream_add.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/runtime_surface/vmm_test_util.h"

uint32_t LaunchOutOfBounds(void* stream, float* p);

using aicore_test::Session;

TEST(KernelVirtualMemory, KernelSeesBackToBackMappingsAsOneRange) {
  Session s;
  const size_t g = 2u << 20;
  npusim::test::TwoChunkRange r;
  uint8_t* base = r.base;

  // z = x + y with x straddling the boundary between the chunks.
  const uint32_t n = 1024;
  std::vector<float> hx(n), hy(n), hz(n, 0.0f);
  for (uint32_t i = 0; i < n; ++i) {
    hx[i] = 0.5f * static_cast<float>(i);
    hy[i] = 1000.0f - static_cast<float>(i);
  }
  void* x = base + g - 2048;
  void *y = nullptr, *z = nullptr;
  ASSERT_EQ(aclrtMalloc(&y, n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&z, n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(x, n * 4, hx.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(y, n * 4, hy.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_stream_add)(1, s.stream, x, y, z, n, 256), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtMemcpy(hz.data(), n * 4, z, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(hz[i], hx[i] + hy[i]) << i;

  // The same with the output straddling it.
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_stream_add)(1, s.stream, y, y, x, n, 256), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(hz.data(), n * 4, x, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(hz[i], 2 * hy[i]) << i;

  // A kernel that runs into the reservation's unmapped pages faults.
  ASSERT_EQ(LaunchOutOfBounds(s.stream, reinterpret_cast<float*>(base)), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);

  aclrtFree(y);
  aclrtFree(z);
}

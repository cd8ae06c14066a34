// The first Ascend C samples' kernel calls (kernel_invocation/Add_tile, docs/kernels.md): the
// tiling struct read into the unified buffer with get_imm(0) + copy_gm_to_ubuf, the workspace
// split with SetSysWorkspace/GetUserWorkspace, and ASSERT ending the kernel when it fails.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_ub_load.h"
#include "aclrtlaunch_k_workspace.h"
#include "tests/aicore/aicore_test_util.h"

using aicore_test::Session;

namespace {

constexpr uint64_t kReserved = 16ull << 20;  // CANN's system workspace before the user's part

struct Tiling {
  uint32_t n, scale;
  uint32_t pad[6];  // copy_gm_to_ubuf moves whole 32-byte blocks
};

void* devCopy(const void* host, size_t bytes) {
  void* dev = nullptr;
  EXPECT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  return dev;
}

}  // namespace

TEST(KernelWorkspace, TilingFromUnifiedBufferAndUserWorkspaceAfterTheSystemPart) {
  Session s;
  const uint32_t blocks = 4, n = 1024;
  std::vector<float> x(n), z(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 37) - 18.0f;
  Tiling t{n, 3, {}};
  void* dx = devCopy(x.data(), n * 4);
  void* dz = devCopy(z.data(), n * 4);
  void* dt = devCopy(&t, sizeof t);
  std::vector<uint32_t> ws(2 * blocks, 0xdeadbeefu);
  void* dw = nullptr;
  ASSERT_EQ(aclrtMalloc(&dw, kReserved + 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(static_cast<uint8_t*>(dw) + kReserved, ws.size() * 4, ws.data(), ws.size() * 4,
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_workspace)(blocks, s.stream, dx, dz, dw, dt), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtMemcpy(z.data(), n * 4, dz, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(z[i], 3.0f * x[i]) << i;
  ASSERT_EQ(aclrtMemcpy(ws.data(), ws.size() * 4, static_cast<uint8_t*>(dw) + kReserved, ws.size() * 4,
                        ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  for (uint32_t b = 0; b < blocks; ++b) {
    EXPECT_EQ(ws[2 * b], b);
    EXPECT_EQ(ws[2 * b + 1], n / blocks);
  }

  // A failed ASSERT ends the kernel as a vector-core exception naming the condition.
  t.n = n + 2;
  ASSERT_EQ(aclrtMemcpy(dt, sizeof t, &t, sizeof t, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_workspace)(blocks, s.stream, dx, dz, dw, dt), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  const std::string why = aclGetRecentErrMsg();
  EXPECT_NE(why.find("k_workspace (block 0)"), std::string::npos) << why;
  EXPECT_NE(why.find("ASSERT failed: t.n % GetBlockNum() == 0"), std::string::npos) << why;
  for (void* p : {dx, dz, dt, dw}) aclrtFree(p);
}

// copy_gm_to_ubuf is an MTE2 load like DataCopy: the same bytes take the same time, and the data
// lands at unified-buffer address 0. A destination past the unified buffer ends the kernel.
TEST(KernelWorkspace, CopyGmToUbufIsTimedAsALoad) {
  Session s;
  const uint32_t blocks = 8, bursts = 64, burstBlocks = 256, floats = burstBlocks * 8;
  const size_t n = size_t{blocks} * bursts * floats;
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1009);
  void* dx = devCopy(x.data(), n * 4);
  std::vector<float> z(blocks, -1.0f);
  void* dz = devCopy(z.data(), blocks * 4);
  auto timed = [&](uint32_t loads, uint32_t viaIntrinsic) {
    auto k = [&] {
      ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_ub_load)(blocks, s.stream, dx, dz, loads, burstBlocks, viaIntrinsic),
                0u);
    };
    const double ms = aicore_test::deviceMs(s.stream, k, k);
    EXPECT_EQ(aclrtMemcpy(z.data(), blocks * 4, dz, blocks * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (uint32_t b = 0; b < blocks; ++b) EXPECT_EQ(z[b], x[(size_t{b} * loads + loads - 1) * floats]) << b;
    return ms;
  };
  const double intrinsic = timed(bursts, 1), dataCopy = timed(bursts, 0), quarter = timed(bursts / 4, 1);
  std::printf("k_ub_load: copy_gm_to_ubuf %.2f us, DataCopy %.2f us, a quarter of the loads %.2f us\n",
              intrinsic * 1e3, dataCopy * 1e3, quarter * 1e3);
  EXPECT_NEAR(intrinsic, dataCopy, 0.03 * dataCopy);
  // The three quarters more bytes (3 MiB) take at least their time at the HBM's peak (1.6 TB/s).
  EXPECT_GT((intrinsic - quarter) * 1e-3, 0.75 * n * 4.0 / 1.6e12);

  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_ub_load)(1, s.stream, dx, dz, 1, 192 * 1024 / 32 + 1, 1), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("copy_gm_to_ubuf: destination outside the unified buffer"),
            std::string::npos)
      << aclGetRecentErrMsg();
  aclrtFree(dx);
  aclrtFree(dz);
}

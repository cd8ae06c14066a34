// CANN's CPU debug mode (tikicpulib.h): ICPU_RUN_KF runs a kernel's blocks on the host over
// GmAlloc memory, with no device and no ACL initialisation; a faulting block is reported.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "ascendc/tikicpulib.h"

extern "C" __global__ __aicore__ void k_scalar_spin(GM_ADDR out, uint64_t iterations);
extern "C" __global__ __aicore__ void k_trap();
extern "C" __global__ __aicore__ void k_ib_chain(GM_ADDR x, GM_ADDR mid, GM_ADDR out, GM_ADDR sync,
                                                 uint32_t n, uint32_t passes, uint32_t wait);
extern "C" __global__ __aicore__ void k_ib_orphan(GM_ADDR sync, uint32_t from);
extern "C" __global__ __aicore__ void k_sync_some(GM_ADDR flags, GM_ADDR out, uint32_t used, uint32_t skip);

TEST(KernelCpuDebug, IcpuRunKfRunsEveryBlockOverHostMemory) {
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  auto* out = static_cast<uint64_t*>(AscendC::GmAlloc(3 * sizeof(uint64_t)));
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(out) % 4096, 0u);
  ASSERT_EQ(ICPU_RUN_KF(k_scalar_spin, 3, reinterpret_cast<uint8_t*>(out), uint64_t{5}), 0);
  uint64_t acc = 1;
  for (uint64_t i = 0; i < 5; ++i) acc = acc * 3 + i;
  for (int b = 0; b < 3; ++b) EXPECT_EQ(out[b], acc) << b;  // every block ran
  AscendC::GmFree(out);
}

TEST(KernelCpuDebug, AFaultingBlockIsReportedAndFailsTheRun) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(ICPU_RUN_KF(k_trap, 2), -1);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("CPU debug run of kernel k_trap: block 0 faulted: trap instruction"), std::string::npos)
      << err;
}

// Blocks wait for each other in the CPU debug mode as in a launch (docs/kernels.md, "Blocks that
// wait for each other"): block 0 gets block 1's data; a wait nobody satisfies fails the run.
TEST(KernelCpuDebug, BlocksWaitForEachOthersFlags) {
  const uint32_t n = 64;
  auto* x = static_cast<float*>(AscendC::GmAlloc(n * sizeof(float)));
  auto* mid = static_cast<float*>(AscendC::GmAlloc(n * sizeof(float)));
  auto* out = static_cast<float*>(AscendC::GmAlloc(n * sizeof(float)));
  auto* sync = static_cast<int32_t*>(AscendC::GmAlloc(64 * sizeof(int32_t)));
  for (uint32_t i = 0; i < n; ++i) x[i] = static_cast<float>(i);
  for (uint32_t i = 0; i < 64; ++i) sync[i] = 0;
  auto gm = [](void* p) { return static_cast<uint8_t*>(p); };
  ASSERT_EQ(ICPU_RUN_KF(k_ib_chain, 2, gm(x), gm(mid), gm(out), gm(sync), n, uint32_t{2}, uint32_t{1}), 0);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(out[i], 16.0f * static_cast<float>(i)) << i;
  testing::internal::CaptureStderr();
  EXPECT_EQ(ICPU_RUN_KF(k_ib_orphan, 2, gm(sync), uint32_t{1}), -1);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("block 0 faulted: IBSet/IBWait waits for a flag no block will change"),
            std::string::npos)
      << err;
  for (void* p :
       {static_cast<void*>(x), static_cast<void*>(mid), static_cast<void*>(out), static_cast<void*>(sync)})
    AscendC::GmFree(p);
}

// SyncAll in the CPU debug mode as in a launch: every block sees all flags set after the barrier;
// a block that never reaches it fails the run.
TEST(KernelCpuDebug, BlocksMeetAtSyncAll) {
  const uint32_t blocks = 6;
  auto* flags = static_cast<int32_t*>(AscendC::GmAlloc(8 * blocks * sizeof(int32_t)));
  auto* out = static_cast<int32_t*>(AscendC::GmAlloc(blocks * sizeof(int32_t)));
  auto gm = [](void* p) { return static_cast<uint8_t*>(p); };
  for (uint32_t i = 0; i < 8 * blocks; ++i) flags[i] = 0;
  ASSERT_EQ(ICPU_RUN_KF(k_sync_some, blocks, gm(flags), gm(out), uint32_t{0}, blocks), 0);
  for (uint32_t b = 0; b < blocks; ++b) EXPECT_EQ(out[b], static_cast<int32_t>(blocks)) << b;
  for (uint32_t i = 0; i < 8 * blocks; ++i) flags[i] = 0;
  testing::internal::CaptureStderr();
  EXPECT_EQ(ICPU_RUN_KF(k_sync_some, blocks, gm(flags), gm(out), uint32_t{0}, uint32_t{4}), -1);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("SyncAll waits for a block that never reaches it"), std::string::npos) << err;
  AscendC::GmFree(flags);
  AscendC::GmFree(out);
}

// CANN's CPU debug mode (tikicpulib.h): ICPU_RUN_KF runs a kernel's blocks on the host over
// GmAlloc memory, with no device and no ACL initialisation; a faulting block is reported.
#include <gtest/gtest.h>

#include <cstdint>

#include "ascendc/tikicpulib.h"

extern "C" __global__ __aicore__ void k_scalar_spin(GM_ADDR out, uint64_t iterations);
extern "C" __global__ __aicore__ void k_trap();

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

// Runs scale_kernel (scale_kernel.cpp) the way the route it was built by expects: CPU debug mode
// (tikicpulib: GmAlloc + ICPU_RUN_KF) or on the simulated device (a <<<>>> launch), checks every
// output and prints "<route>: ok" and, on the device, the kernel's time in microseconds.
#include <cstdint>
#include <cstdio>
#include <vector>

#ifdef __CCE_KT_TEST__
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void scale_kernel(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t spin);
#else
#include "acl/acl.h"
void scale_kernel_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* z, uint32_t n, uint32_t spin);
#endif

#ifndef ROUTE
#define ROUTE "kernel"
#endif

namespace {
constexpr uint32_t kBlocks = 8, kN = kBlocks * 4 * 256, kSpin = 1000000;

int check(const float* x, const float* z) {
  for (uint32_t i = 0; i < kN; ++i) {
    if (z[i] != 2.0f * x[i] + 1.0f) {
      std::printf("%s: z[%u] = %g, expected %g\n", ROUTE, i, z[i], 2.0f * x[i] + 1.0f);
      return 1;
    }
  }
  return 0;
}
}  // namespace

int main() {
  std::vector<float> x(kN), z(kN);
  for (uint32_t i = 0; i < kN; ++i) x[i] = static_cast<float>(i % 101) - 50.0f;
  const size_t bytes = kN * sizeof(float);
#ifdef __CCE_KT_TEST__
  AscendC::SetKernelMode(AscendC::KernelMode::AIV_MODE);
  auto* gx = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  auto* gz = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  std::copy(x.begin(), x.end(), reinterpret_cast<float*>(gx));
  if (ICPU_RUN_KF(scale_kernel, kBlocks, gx, gz, kN, kSpin) != 0) return 1;
  std::copy(reinterpret_cast<float*>(gz), reinterpret_cast<float*>(gz) + kN, z.begin());
  AscendC::GmFree(gx);
  AscendC::GmFree(gz);
  if (check(x.data(), z.data())) return 1;
  std::printf("%s: ok\n", ROUTE);
#else
  aclrtStream stream = nullptr;
  void *dx = nullptr, *dz = nullptr;
  aclrtEvent start = nullptr, end = nullptr;
  if (aclInit(nullptr) || aclrtSetDevice(0) || aclrtCreateStream(&stream) || aclrtCreateEvent(&start) ||
      aclrtCreateEvent(&end) || aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST) ||
      aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST) ||
      aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE)) {
    std::printf("%s: setup failed: %s\n", ROUTE, aclGetRecentErrMsg());
    return 1;
  }
  aclrtRecordEvent(start, stream);
  scale_kernel_do(kBlocks, stream, static_cast<uint8_t*>(dx), static_cast<uint8_t*>(dz), kN, kSpin);
  aclrtRecordEvent(end, stream);
  float ms = 0;
  if (aclrtSynchronizeStream(stream) || aclrtEventElapsedTime(&ms, start, end) ||
      aclrtMemcpy(z.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST)) {
    std::printf("%s: run failed: %s\n", ROUTE, aclGetRecentErrMsg());
    return 1;
  }
  if (check(x.data(), z.data())) return 1;
  std::printf("%s: ok %.1f us\n", ROUTE, ms * 1e3);
  aclrtFree(dx);
  aclrtFree(dz);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
#endif
  return 0;
}

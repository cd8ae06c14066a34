// Runs leaky_launch (launch_kernel.cpp) as the KernelLaunch tiling samples' main.cpp runs theirs:
// in the CPU debug mode through ICPU_RUN_KF with the tiling struct's value, on the simulated
// device through the generated ACLRT_LAUNCH_KERNEL with a pointer to the struct in host memory.
// Checks every element and prints "launch-<mode>: ok"; on the device also the kernel's time
// between two events, which must cover its bytes at the HBM's peak (1.6384 TB/s): the kernel ran
// on the AI-core model with its time.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "launch_tiling.h"
#ifdef __CCE_KT_TEST__
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void leaky_launch(GM_ADDR x, GM_ADDR z, GM_ADDR workspace,
                                                   LeakyTiling tiling);
#else
#include "acl/acl.h"
#include "aclrtlaunch_leaky_launch.h"
#endif

namespace {
constexpr uint32_t kBlocks = 48, kTile = 4096, kN = kBlocks * 64 * kTile;  // 48 MiB in, 48 MiB out
constexpr size_t kBytes = size_t{kN} * sizeof(float);
}  // namespace

int main() {
  std::vector<float> x(kN), z(kN);
  for (uint32_t i = 0; i < kN; ++i) x[i] = static_cast<float>(i % 1001) * 0.5f - 250.0f;
  const LeakyTiling host{kN, kTile, 0.0625f};
#ifdef __CCE_KT_TEST__
  const char* mode = "cpu";
  auto* gx = static_cast<uint8_t*>(AscendC::GmAlloc(kBytes));
  auto* gz = static_cast<uint8_t*>(AscendC::GmAlloc(kBytes));
  auto* gw = static_cast<uint8_t*>(AscendC::GmAlloc(32));
  std::memcpy(gx, x.data(), kBytes);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  if (ICPU_RUN_KF(leaky_launch, kBlocks, gx, gz, gw, host) != 0) return 1;
  std::memcpy(z.data(), gz, kBytes);
  for (uint8_t* p : {gx, gz, gw}) AscendC::GmFree(p);
  float us = 0;
#else
  const char* mode = "npu";
  aclrtStream stream = nullptr;
  aclrtEvent start = nullptr, end = nullptr;
  void *dx = nullptr, *dz = nullptr, *dw = nullptr;
  LeakyTiling* tiling = nullptr;
  if (aclInit(nullptr) || aclrtSetDevice(0) || aclrtCreateStream(&stream) || aclrtCreateEvent(&start) ||
      aclrtCreateEvent(&end) || aclrtMallocHost(reinterpret_cast<void**>(&tiling), sizeof *tiling) ||
      aclrtMalloc(&dx, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) ||
      aclrtMalloc(&dz, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) ||
      aclrtMalloc(&dw, 32, ACL_MEM_MALLOC_HUGE_FIRST) ||
      aclrtMemcpy(dx, kBytes, x.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE)) {
    std::printf("launch-npu: setup failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  *tiling = host;
  float us = 0;
  if (aclrtRecordEvent(start, stream) ||
      ACLRT_LAUNCH_KERNEL(leaky_launch)(kBlocks, stream, dx, dz, dw, tiling) != 0 ||
      aclrtRecordEvent(end, stream) || aclrtSynchronizeStream(stream) ||
      aclrtEventElapsedTime(&us, start, end) ||
      aclrtMemcpy(z.data(), kBytes, dz, kBytes, ACL_MEMCPY_DEVICE_TO_HOST)) {
    std::printf("launch-npu: run failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  us *= 1000.0f;  // the events give ms
  for (void* p : {dx, dz, dw}) aclrtFree(p);
  aclrtFreeHost(tiling);
  aclrtDestroyEvent(start);
  aclrtDestroyEvent(end);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  const double floorUs = 2.0 * kBytes / 1.6384e12 * 1e6;
  if (us < floorUs) {
    std::printf("launch-npu: the kernel took %.2f us, less than its bytes at the HBM's peak (%.2f us)\n", us,
                floorUs);
    return 1;
  }
#endif
  for (uint32_t i = 0; i < kN; ++i) {
    const float want = x[i] > 0 ? x[i] : x[i] * host.slope;
    if (z[i] != want) {
      std::printf("launch-%s: z[%u] = %g, expected %g\n", mode, i, z[i], want);
      return 1;
    }
  }
  if (us > 0)
    std::printf("launch-%s: ok %.2f us\n", mode, us);
  else
    std::printf("launch-%s: ok\n", mode);
  return 0;
}

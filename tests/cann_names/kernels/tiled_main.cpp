// Runs tiled_kernel (tiled_kernel.cpp) as Add_tile's main.cpp runs its kernel: in the CPU debug
// mode over GmAlloc memory (the user workspace is the whole workspace) or on the simulated device
// (the user workspace follows CANN's 16 MiB system part); checks z and the workspace and prints
// "tiled-<route>: ok".
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

// The tiling header, with its device-compiler [aicore] spelling, in the host source too (as
// kernel_invocation's LeakyReLU and kernel_template samples' main.cpp include theirs): ccec
// compiles it through the same attribute-free copies as the kernel's.
#include "tiled_tiling.h"

#ifdef __CCE_KT_TEST__
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void tiled_kernel(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling);
#else
#include "acl/acl.h"
void tiled_kernel_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* z, uint8_t* workspace,
                     uint8_t* tiling);
#endif

#ifndef ROUTE
#define ROUTE "kernel"
#endif

namespace {
constexpr uint32_t kBlocks = 4, kTile = 512, kN = kBlocks * 3 * kTile;
#ifdef __CCE_KT_TEST__
constexpr size_t kSystem = 0;
#else
constexpr size_t kSystem = 16u << 20;
#endif
constexpr size_t kWorkspace = kSystem + 4096;

int check(const std::vector<float>& x, const std::vector<float>& z, const uint32_t* usr) {
  for (uint32_t i = 0; i < kN; ++i) {
    if (z[i] != 3.0f * x[i]) {
      std::printf("tiled-%s: z[%u] = %g, expected %g\n", ROUTE, i, z[i], 3.0f * x[i]);
      return 1;
    }
  }
  for (uint32_t b = 0; b < kBlocks; ++b) {
    if (usr[b] != kN / kBlocks) {
      std::printf("tiled-%s: user workspace[%u] = %u, expected %u\n", ROUTE, b, usr[b], kN / kBlocks);
      return 1;
    }
  }
  return 0;
}
}  // namespace

int main() {
  std::vector<float> x(kN), z(kN);
  for (uint32_t i = 0; i < kN; ++i) x[i] = static_cast<float>(i % 89) - 44.0f;
  const uint32_t tiling[8] = {kN, kTile};  // a TiledTiling padded to the 32-byte block the device copies
  static_assert(sizeof(TiledTiling) <= sizeof tiling, "the tiling struct fits its block");
  const size_t bytes = kN * sizeof(float);
  std::vector<uint32_t> usr(kBlocks);
#ifdef __CCE_KT_TEST__
  auto* gx = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  auto* gz = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  auto* gw = static_cast<uint8_t*>(AscendC::GmAlloc(kWorkspace));
  auto* gt = static_cast<uint8_t*>(AscendC::GmAlloc(sizeof tiling));
  std::memcpy(gx, x.data(), bytes);
  std::memcpy(gt, tiling, sizeof tiling);
  if (ICPU_RUN_KF(tiled_kernel, kBlocks, gx, gz, gw, gt) != 0) return 1;
  std::memcpy(z.data(), gz, bytes);
  std::memcpy(usr.data(), gw + kSystem, kBlocks * sizeof(uint32_t));
  for (uint8_t* p : {gx, gz, gw, gt}) AscendC::GmFree(p);
#else
  aclrtStream stream = nullptr;
  void *dx = nullptr, *dz = nullptr, *dw = nullptr, *dt = nullptr;
  if (aclInit(nullptr) || aclrtSetDevice(0) || aclrtCreateStream(&stream) ||
      aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST) ||
      aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST) ||
      aclrtMalloc(&dw, kWorkspace, ACL_MEM_MALLOC_HUGE_FIRST) ||
      aclrtMalloc(&dt, sizeof tiling, ACL_MEM_MALLOC_HUGE_FIRST) ||
      aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) ||
      aclrtMemcpy(dt, sizeof tiling, tiling, sizeof tiling, ACL_MEMCPY_HOST_TO_DEVICE)) {
    std::printf("tiled-%s: setup failed: %s\n", ROUTE, aclGetRecentErrMsg());
    return 1;
  }
  tiled_kernel_do(kBlocks, stream, static_cast<uint8_t*>(dx), static_cast<uint8_t*>(dz),
                  static_cast<uint8_t*>(dw), static_cast<uint8_t*>(dt));
  if (aclrtSynchronizeStream(stream) || aclrtMemcpy(z.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST) ||
      aclrtMemcpy(usr.data(), kBlocks * sizeof(uint32_t), static_cast<uint8_t*>(dw) + kSystem,
                  kBlocks * sizeof(uint32_t), ACL_MEMCPY_DEVICE_TO_HOST)) {
    std::printf("tiled-%s: run failed: %s\n", ROUTE, aclGetRecentErrMsg());
    return 1;
  }
  for (void* p : {dx, dz, dw, dt}) aclrtFree(p);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
#endif
  if (check(x, z, usr.data())) return 1;
  std::printf("tiled-%s: ok\n", ROUTE);
  return 0;
}

#ifndef NPUSIM_TIKICPULIB_H_
#define NPUSIM_TIKICPULIB_H_
// CANN's CPU debug mode (the tikicpulib CMake package, docs/kernels.md "CPU debug mode"): a
// program built with -D__CCE_KT_TEST__ calls its kernel directly with ICPU_RUN_KF over memory
// from GmAlloc. npusim runs the blocks one at a time on the host, as a launch does, but with
// no device, no stream and no simulated time; the kernel's printf output follows the run.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <tuple>
#include <type_traits>

#include "kernel_operator.h"
#include "securec.h"  // memcpy_s and friends, which CANN's CPU debug header brings along
#include "npusim_kernel_launch.h"

// Global, as CANN's samples name it (KernelMode::AIV_MODE) without AscendC::.
enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1 };

namespace AscendC {

using ::KernelMode;
// npusim runs vector kernels only: every mode runs the blocks the same way.
inline void SetKernelMode(KernelMode) {}

// Global memory for a CPU debug run: host memory, 4 KiB aligned as CANN's shared-memory pages are.
inline void* GmAlloc(size_t size) { return std::aligned_alloc(4096, (size + 4095) / 4096 * 4096); }
inline void GmFree(void* ptr) { std::free(ptr); }

}  // namespace AscendC

namespace npusim::kernel {

template <class... P, class... A>
int cpuRun(void (*fn)(P...), const char* name, uint32_t blockDim, A&&... args) {
  static_assert(sizeof...(A) == sizeof...(P), "kernel run with the wrong number of arguments");
  auto* b = new Bound<P...>{fn, std::tuple<std::decay_t<P>...>(convertArg<std::decay_t<P>>(args)...)};
  return npusimKernelRunOnCpu(name, blockDim, &Bound<P...>::run, b, &Bound<P...>::release);
}

}  // namespace npusim::kernel

// ICPU_RUN_KF(kernel, blockDim, args...): runs `kernel` on `blockDim` blocks now.
#define ICPU_RUN_KF(func, blockDim, ...) ::npusim::kernel::cpuRun(func, #func, blockDim, ##__VA_ARGS__)
// Tiling keys select a kernel's branch on CANN's CPU model; npusim kernels have no tiling keys.
#define ICPU_SET_TILING_KEY(key)

#endif  // NPUSIM_TIKICPULIB_H_

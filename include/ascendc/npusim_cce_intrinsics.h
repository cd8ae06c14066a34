#ifndef NPUSIM_CCE_INTRINSICS_H_
#define NPUSIM_CCE_INTRINSICS_H_
// The few CCE compiler intrinsics that the first Ascend C samples call directly, below Ascend C:
// kernel_invocation/Add_tile reads its tiling struct into the unified buffer with get_imm(0) and
// copy_gm_to_ubuf, then waits with pipe_barrier(PIPE_ALL). Each does its work on the host and
// records what it costs on the AI core, as the Ascend C calls do (docs/kernels.md).
#include <cstdint>
#include <cstring>

#include "npusim_kernel_abi.h"

enum pipe_t {
  PIPE_S = 0,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
  PIPE_MTE4,
  PIPE_MTE5,
  PIPE_V2,
  PIPE_FIX
};

namespace npusim::kernel {
// get_imm's value: an immediate that a kernel casts to a unified-buffer address, where address 0
// is the start of the block's unified buffer.
struct UbImmediate {
  uint64_t value;
  template <class T>
  operator T*() const {  // NOLINT: converts on the cast, as the device's integer does
    return reinterpret_cast<T*>(static_cast<uint8_t*>(npusimKernelUbBase(nullptr)) + value);
  }
  operator uint64_t() const { return value; }  // NOLINT
};
}  // namespace npusim::kernel

inline ::npusim::kernel::UbImmediate get_imm(uint64_t value) { return {value}; }

// Blocks run their instructions in program order: every pipe has finished when this is reached.
inline void pipe_barrier(pipe_t) {}
// Likewise a flag between two pipes is already set when the waiting pipe reaches it.
inline void set_flag(pipe_t, pipe_t, int32_t) {}
inline void wait_flag(pipe_t, pipe_t, int32_t) {}

// GM -> UB: nBurst bursts of lenBurst 32-byte blocks, srcStride / dstStride blocks between them
// (an MTE2 copy). A destination outside the block's unified buffer ends the kernel.
inline void copy_gm_to_ubuf(void* dst, const void* src, uint8_t /*sid*/, uint16_t nBurst, uint16_t lenBurst,
                            uint16_t srcStride, uint16_t dstStride) {
  uint64_t ubBytes = 0;
  const auto* ub = static_cast<const uint8_t*>(npusimKernelUbBase(&ubBytes));
  const uint64_t len = uint64_t{lenBurst} * 32, sstep = (uint64_t{lenBurst} + srcStride) * 32;
  const uint64_t dstep = (uint64_t{lenBurst} + dstStride) * 32;
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  if (nBurst == 0 || lenBurst == 0) return;
  if (d < ub || static_cast<uint64_t>(d - ub) + (nBurst - 1) * dstep + len > ubBytes)
    npusimKernelFault(0, "copy_gm_to_ubuf: destination outside the unified buffer");
  for (uint16_t i = 0; i < nBurst; ++i) std::memcpy(d + i * dstep, s + i * sstep, len);
  npusimKernelRecord(NPUSIM_KERNEL_COPY_IN, len * nBurst, src);
}

#endif  // NPUSIM_CCE_INTRINSICS_H_

#ifndef NPUSIM_C_API_ASC_SIMD_H_
#define NPUSIM_C_API_ASC_SIMD_H_
// The Ascend C C API's few calls that hicann/cann-samples' vector_add_c_api uses (docs/kernels.md):
// block ids, copies between GM and unified-buffer arrays, and an element-wise add, each doing its
// work on the host and recording its cost for the AI-core model as kernel_operator.h's calls do.
// The "_sync" forms wait for their pipe; a block runs its calls in program order, so every call is.
#include <cstdint>
#include <cstring>

#include "kernel_operator.h"

// Resets the vector core's mask and atomic mode: npusim's vector calls have neither.
inline void asc_init() {}
inline int64_t asc_get_block_idx() { return AscendC::GetBlockIdx(); }
inline int64_t asc_get_block_num() { return AscendC::GetBlockNum(); }

// `bytes` from GM into the unified buffer (MTE2) / out of it (MTE3).
inline void asc_copy_gm2ub_sync(void* dst, const void* src, uint64_t bytes) {
  std::memcpy(dst, src, bytes);
  npusimKernelRecord(NPUSIM_KERNEL_COPY_IN, bytes, src);
}
inline void asc_copy_ub2gm_sync(void* dst, const void* src, uint64_t bytes) {
  std::memcpy(dst, src, bytes);
  npusimKernelRecord(NPUSIM_KERNEL_COPY_OUT, bytes, dst);
}

// dst[i] = src0[i] + src1[i] for `count` elements, rounded to T (half results to half).
template <class T>
inline void asc_add_sync(T* dst, const T* src0, const T* src1, uint64_t count) {
  using W = AscendC::detail::Wide<T>;
  for (uint64_t i = 0; i < count; ++i)
    dst[i] = static_cast<T>(static_cast<W>(src0[i]) + static_cast<W>(src1[i]));
  npusimKernelRecord(NPUSIM_KERNEL_VECTOR, count * sizeof(T), nullptr);
}

#endif  // NPUSIM_C_API_ASC_SIMD_H_

// A kernel binary (ascendc_fatbin_library) for aclrtBinaryLoadFromFile: out = x * factor,
// with the factor and the count passed through placeholder arguments (device memory).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void bin_scale(GM_ADDR x, GM_ADDR out, __gm__ float* factor,
                                                __gm__ uint32_t* count) {
  const uint32_t n = *count, per = n / block_num, first = per * block_idx;
  const float f = *factor;
  auto* in = reinterpret_cast<__gm__ float*>(x);
  auto* o = reinterpret_cast<__gm__ float*>(out);
  for (uint32_t i = first; i < first + per; ++i) o[i] = in[i] * f;
}

// The same with plain arguments, for aclrtLaunchKernel's packed argument buffer.
extern "C" __global__ __aicore__ void bin_fill(__gm__ int32_t* out, int32_t value, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) out[block_idx * n + i] = value + static_cast<int32_t>(block_idx);
}

// bin_fill's arguments, negated values: the kernel aclrtTaskUpdateAsync switches a task to.
extern "C" __global__ __aicore__ void bin_fill_negated(__gm__ int32_t* out, int32_t value, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) out[block_idx * n + i] = -(value + static_cast<int32_t>(block_idx));
}

// A device variable of the binary (aclrtBinaryGetGlobal): out[i] = bin_offset + i.
__gm__ int32_t bin_offset = 7;
extern "C" __global__ __aicore__ void bin_add_global(__gm__ int32_t* out, uint32_t n) {
  if (block_idx != 0) return;
  for (uint32_t i = 0; i < n; ++i) out[i] = bin_offset + static_cast<int32_t>(i);
}

// Raises an AI-core exception (aclrtBinarySetExceptionCallback).
extern "C" __global__ __aicore__ void bin_trap() { asm("trap"); }

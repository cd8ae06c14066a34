// Kernels that use file-scope __gm__ variables (device variables) and parameters of mixed sizes,
// for aclrtGetFuncBySymbol, aclrtLaunchKernelWithArgsArray and the symbol copies.
#include "kernel_operator.h"

__gm__ float g_bias = 1.5f;
__gm__ int32_t g_hits[8];

// x[i] += g_bias over each block's share; each block counts its runs in g_hits[block].
extern "C" __global__ __aicore__ void k_add_bias(GM_ADDR x, uint32_t n) {
  const uint32_t per = n / block_num, first = per * block_idx;
  auto* p = reinterpret_cast<__gm__ float*>(x);
  for (uint32_t i = first; i < first + per; ++i) p[i] += g_bias;
  g_hits[block_idx % 8] += 1;
}

// out[0..3] = a, b, c, d widened to 64 bits: parameters at 0, 8, 16 and 24 of the packed buffer.
extern "C" __global__ __aicore__ void k_mixed(GM_ADDR out, uint8_t a, uint64_t b, uint16_t c) {
  if (block_idx != 0) return;
  auto* o = reinterpret_cast<__gm__ uint64_t*>(out);
  o[0] = a;
  o[1] = b;
  o[2] = c;
}

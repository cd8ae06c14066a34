// The Ascend C C API (c_api/asc_simd.h), as hicann/cann-samples' vector_add_c_api uses it:
// z = x + y in tiles of unified-buffer arrays, each block its share, `passes` times over.
#include "c_api/asc_simd.h"

constexpr uint32_t kCApiTile = 2048;

extern "C" __vector__ __global__ __aicore__ void k_c_api_add(__gm__ float* x, __gm__ float* y,
                                                             __gm__ float* z, uint32_t share,
                                                             uint32_t passes) {
  asc_init();
  __ubuf__ float a[kCApiTile];
  __ubuf__ float b[kCApiTile];
  __ubuf__ float c[kCApiTile];
  const int64_t base = asc_get_block_idx() * share;
  for (uint32_t p = 0; p < passes; ++p) {
    for (uint32_t i = 0; i < share; i += kCApiTile) {
      const uint32_t n = share - i < kCApiTile ? share - i : kCApiTile;
      asc_copy_gm2ub_sync(a, x + base + i, n * sizeof(float));
      asc_copy_gm2ub_sync(b, y + base + i, n * sizeof(float));
      asc_add_sync(c, a, b, n);
      asc_copy_ub2gm_sync(z + base + i, c, n * sizeof(float));
    }
  }
}

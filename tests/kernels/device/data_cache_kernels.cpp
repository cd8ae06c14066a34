// Data-cache kernels of the tests (docs/kernels.md, "Cube kernels"): n data-cache preloads, or n
// calls of an empty function in their place, then a value written to GM by the scalar unit and
// its cache line written back and invalidated.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
__aicore__ inline void NoPreload(const GlobalTensor<uint64_t>&, int64_t) {}
}  // namespace

extern "C" __global__ __aicore__ void k_data_cache(GM_ADDR flags, uint32_t n, uint32_t preload) {
  GlobalTensor<uint64_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(flags));
  for (uint32_t i = 0; i < n; ++i) {
    if (preload) {
      DataCachePreload(g, static_cast<int64_t>(i) * 64);
    } else {
      NoPreload(g, static_cast<int64_t>(i) * 64);
    }
  }
  g.SetValue(0, n + preload);
  DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(g);
  DataCacheCleanAndInvalid<uint64_t, CacheLine::ENTIRE_DATA_CACHE>(g);
}

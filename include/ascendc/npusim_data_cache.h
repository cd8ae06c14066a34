#ifndef NPUSIM_DATA_CACHE_H_
#define NPUSIM_DATA_CACHE_H_
// The scalar data-cache calls of Ascend C (docs/kernels.md, "Cube kernels"). A kernel's scalar
// code reads and writes device memory directly (one coherent mapping: docs/kernels.md), and the
// scalar unit's data cache is not modelled, so there is nothing to preload, write back or
// invalidate: the calls change no data and cost nothing beyond the one scalar operation the
// source filter counts for any call. Included by npusim_ascendc_cube.h.
#include <cstdint>
#include <type_traits>

namespace AscendC {

enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

// A hint: preload the cache line at src + cacheOffset bytes (documented for int16_t and int64_t
// offsets; any integer is taken).
template <typename T>
__aicore__ inline void DataCachePreload(const GlobalTensor<uint64_t>& src, const T cacheOffset) {
  static_assert(std::is_integral<T>::value,
                "DataCachePreload: cacheOffset is an integer (int16_t or int64_t)");
  (void)src;
  (void)cacheOffset;
}

// Write back and invalidate one cache line of `dst` (or the whole data cache).
template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
  (void)dst;
}
template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const LocalTensor<T>& dst) {
  (void)dst;
}
template <typename T, CacheLine entireType>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
  (void)dst;
}

}  // namespace AscendC

#endif  // NPUSIM_DATA_CACHE_H_

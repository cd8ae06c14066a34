#ifndef NPUSIM_SORT32_H_
#define NPUSIM_SORT32_H_
// Sort32 of the A2-generation Ascend C API (docs/kernels.md, "Sort32"): each repeat sorts 32
// scores, largest first, and writes them with their uint32 indices as 32 (score, index) pairs of
// 8 bytes: the score in the low bytes (a half score in the lowest 2, then 2 reserved bytes), the
// index in the high 4. Equal scores keep their order (the documented tie rule: of score[i] and
// score[j] with i > j, score[j] comes first). The next repeat reads 32 scores and indices further
// and writes 256 bytes further. Costs aicore.sort32_cycles_per_repeat vector cycles a repeat.
// Included by kernel_operator.h.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "npusim_kernel_abi.h"

namespace AscendC {

namespace detail {
constexpr uint32_t kSort32PerRepeat = 32;
constexpr uint32_t kSort32PairBytes = 8;
}  // namespace detail

template <class T>
__aicore__ inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                              const LocalTensor<uint32_t>& src1, const int32_t repeatTimes) {
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
                "Sort32 sorts half or float scores");
  constexpr uint32_t kPairBytes = detail::kSort32PairBytes;
  constexpr uint32_t kPerRepeat = detail::kSort32PerRepeat;
  if (repeatTimes < 0 || repeatTimes > 255) detail::fault("Sort32: repeatTimes outside 0..255");
  const uint64_t n = uint64_t{kPerRepeat} * static_cast<uint64_t>(repeatTimes);
  detail::checkCount(n, src0.GetSize(), "Sort32 beyond the scores' LocalTensor");
  detail::checkCount(n, src1.GetSize(), "Sort32 beyond the indices' LocalTensor");
  detail::checkCount(n * kPairBytes, uint64_t{dst.GetSize()} * sizeof(T),
                     "Sort32 beyond the destination LocalTensor");
  npusimKernelRecord(NPUSIM_KERNEL_SORT32, static_cast<uint64_t>(repeatTimes), nullptr);
  struct Pair {
    T score;
    uint32_t index;
  };
  Pair pairs[kPerRepeat];
  for (uint32_t r = 0; r < static_cast<uint32_t>(repeatTimes); ++r) {
    for (uint32_t i = 0; i < kPerRepeat; ++i)
      pairs[i] = {src0.GetPhyAddr()[r * kPerRepeat + i], src1.GetPhyAddr()[r * kPerRepeat + i]};
    std::stable_sort(pairs, pairs + kPerRepeat, [](const Pair& a, const Pair& b) {
      return static_cast<float>(a.score) > static_cast<float>(b.score);
    });
    auto* out = reinterpret_cast<uint8_t*>(dst.GetPhyAddr()) + uint64_t{r} * kPerRepeat * kPairBytes;
    for (uint32_t i = 0; i < kPerRepeat; ++i) {
      uint8_t* pair = out + i * kPairBytes;
      std::memset(pair, 0, 4);
      std::memcpy(pair, &pairs[i].score, sizeof(T));
      std::memcpy(pair + 4, &pairs[i].index, 4);
    }
  }
}

}  // namespace AscendC

#endif  // NPUSIM_SORT32_H_

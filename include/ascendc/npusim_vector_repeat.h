#ifndef NPUSIM_VECTOR_REPEAT_H_
#define NPUSIM_VECTOR_REPEAT_H_
// Vector instructions addressed by repeats (docs/kernels.md, "Instructions by repeats"): Copy,
// WholeReduceSum and GatherMask. One repeat is what the vector unit reads in one pass, eight
// 32-byte data blocks (256 bytes); a mask says which of the repeat's elements take part, either
// the first `mask` of them (contiguous mode) or those whose bit is set in mask[] (bit mode: two
// 64-bit words for 16-bit elements, one for 32-bit). Element e of repeat r is at block
// e / (32 / sizeof(T)) of the repeat; blocks are blockStride blocks apart, repeats repeatStride
// blocks apart. Each repeat costs one pass of the vector unit (256 bytes at
// aicore.vector_bytes_per_cycle), whatever its mask. Included by kernel_operator.h.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "npusim_kernel_abi.h"

namespace AscendC {

// Copy's strides: between the data blocks of one repeat and between repeats, in 32-byte blocks.
struct CopyRepeatParams {
  uint16_t dstStride = 1;
  uint16_t srcStride = 1;
  uint16_t dstRepeatSize = 8;
  uint16_t srcRepeatSize = 8;
  CopyRepeatParams() = default;
  CopyRepeatParams(uint16_t dstBlock, uint16_t srcBlock, uint16_t dstRepeat, uint16_t srcRepeat)
      : dstStride(dstBlock), srcStride(srcBlock), dstRepeatSize(dstRepeat), srcRepeatSize(srcRepeat) {}
};

// GatherMask's strides: src0 blocks within a repeat and repeats apart, in 32-byte blocks; the
// pattern of repeat r starts src1RepeatStride x 32 bytes after repeat r-1's (0: the same pattern).
struct GatherMaskParams {
  uint8_t src0BlockStride = 1;
  uint16_t repeatTimes = 0;
  uint16_t src0RepeatStride = 0;
  uint8_t src1RepeatStride = 0;
  GatherMaskParams() = default;
  GatherMaskParams(uint8_t blockStride, uint16_t repeats, uint16_t repeatStride, uint8_t patternStride)
      : src0BlockStride(blockStride),
        repeatTimes(repeats),
        src0RepeatStride(repeatStride),
        src1RepeatStride(patternStride) {}
};
enum class GatherMaskMode { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;

namespace repeat_detail {
constexpr uint32_t kRepeatBytes = 256;

template <class T>
constexpr uint32_t perRepeat() {
  return kRepeatBytes / sizeof(T);
}
template <class T>
constexpr uint32_t perBlock() {
  return ONE_BLK_SIZE / sizeof(T);
}
// The offset in elements of element e of repeat r.
template <class T>
uint64_t offset(uint32_t r, uint32_t e, uint32_t blockStride, uint32_t repeatStride) {
  return uint64_t{r} * repeatStride * perBlock<T>() +
         uint64_t{e / perBlock<T>()} * blockStride * perBlock<T>() + e % perBlock<T>();
}
inline void checkRepeats(int32_t repeatTimes, const char* call) {
  if (repeatTimes < 0 || repeatTimes > 255) detail::fault(call);
}
// The elements of one repeat that take part: the first `count` (contiguous mask) or the set bits
// of bits[] (bit mask).
template <class T>
struct Mask {
  uint64_t bits[2] = {0, 0};
  bool active(uint32_t e) const { return (bits[e / 64] >> (e % 64)) & 1u; }
  uint32_t last() const {  // one past the highest active element
    for (uint32_t e = perRepeat<T>(); e > 0; --e)
      if (active(e - 1)) return e;
    return 0;
  }
};
template <class T>
Mask<T> contiguous(uint64_t count, const char* call) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "repeat instructions take 16- or 32-bit elements");
  if (count < 1 || count > perRepeat<T>()) detail::fault(call);
  Mask<T> m;
  for (uint32_t e = 0; e < count; ++e) m.bits[e / 64] |= uint64_t{1} << (e % 64);
  return m;
}
template <class T>
Mask<T> bitwise(const uint64_t mask[], const char* call) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "repeat instructions take 16- or 32-bit elements");
  Mask<T> m;
  m.bits[0] = mask[0];
  m.bits[1] = sizeof(T) == 2 ? mask[1] : 0;
  if (m.bits[0] == 0 && m.bits[1] == 0) detail::fault(call);
  return m;
}
// Fails the kernel when the last active element of the last repeat lies beyond the tensor.
template <class T>
void checkReach(const LocalTensor<T>& t, const Mask<T>& m, int32_t repeats, uint32_t blockStride,
                uint32_t repeatStride, const char* call) {
  if (repeats == 0) return;
  const uint32_t last = m.last();
  if (last == 0) return;
  uint64_t reach = 0;
  for (uint32_t e = 0; e < last; ++e)
    if (m.active(e))
      reach =
          std::max(reach, offset<T>(static_cast<uint32_t>(repeats - 1), e, blockStride, repeatStride) + 1);
  detail::checkCount(reach, t.GetSize(), call);
}
inline void record(int32_t repeats) {
  npusimKernelRecord(NPUSIM_KERNEL_VECTOR, uint64_t{kRepeatBytes} * static_cast<uint64_t>(repeats), nullptr);
}

template <class T>
void copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Mask<T>& m, int32_t repeats,
          const CopyRepeatParams& p) {
  checkRepeats(repeats, "Copy: repeatTimes outside 0..255");
  checkReach(dst, m, repeats, p.dstStride, p.dstRepeatSize, "Copy beyond the destination LocalTensor");
  checkReach(src, m, repeats, p.srcStride, p.srcRepeatSize, "Copy beyond the source LocalTensor");
  record(repeats);
  T* d = dst.GetPhyAddr();
  const T* s = src.GetPhyAddr();
  for (uint32_t r = 0; r < static_cast<uint32_t>(repeats); ++r)
    for (uint32_t e = 0; e < perRepeat<T>(); ++e)
      if (m.active(e))
        d[offset<T>(r, e, p.dstStride, p.dstRepeatSize)] = s[offset<T>(r, e, p.srcStride, p.srcRepeatSize)];
}

// The sum of one repeat's active elements, added pairwise (a binary tree over the repeat, as the
// reduction documentation describes), in float for half.
template <class T>
T repeatSum(const T* s, const Mask<T>& m, uint32_t r, uint32_t blockStride, uint32_t repeatStride) {
  using W = detail::Wide<T>;
  W v[perRepeat<T>()];
  for (uint32_t e = 0; e < perRepeat<T>(); ++e)
    v[e] = m.active(e) ? static_cast<W>(s[offset<T>(r, e, blockStride, repeatStride)]) : W(0);
  for (uint32_t width = perRepeat<T>() / 2; width > 0; width /= 2)
    for (uint32_t e = 0; e < width; ++e) v[e] = v[e] + v[e + width];
  return static_cast<T>(v[0]);
}
template <class T>
void wholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Mask<T>& m, int32_t repeats,
                    int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride) {
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
                "WholeReduceSum takes half or float");
  checkRepeats(repeats, "WholeReduceSum: repeatTimes outside 0..255");
  if (dstRepStride < 0 || srcBlkStride < 0 || srcRepStride < 0)
    detail::fault("WholeReduceSum: negative stride");
  checkReach(src, m, repeats, static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride),
             "WholeReduceSum beyond the source LocalTensor");
  if (repeats > 0)
    detail::checkCount(uint64_t(repeats - 1) * static_cast<uint64_t>(dstRepStride) + 1, dst.GetSize(),
                       "WholeReduceSum beyond the destination LocalTensor");
  record(repeats);
  for (uint32_t r = 0; r < static_cast<uint32_t>(repeats); ++r)
    dst.GetPhyAddr()[uint64_t{r} * static_cast<uint64_t>(dstRepStride)] = repeatSum(
        src.GetPhyAddr(), m, r, static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride));
}

// GatherMask: the elements of each repeat whose pattern bit is 1, written one after another to
// dst across all repeats; returns how many. Normal mode (reduceMode false) takes whole repeats;
// counter mode (true) the first `mask` elements of each.
template <class T, class Pattern>
uint64_t gatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, Pattern bitOf, bool reduceMode,
                    uint32_t mask, const GatherMaskParams& p) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GatherMask takes 16- or 32-bit elements");
  if (reduceMode && (mask < 1 || mask > perRepeat<T>()))
    detail::fault("GatherMask: counter-mode mask outside 1..256 bytes of elements");
  const uint32_t n = reduceMode ? mask : perRepeat<T>();
  const Mask<T> m = contiguous<T>(n, "GatherMask: empty repeat");
  checkReach(src0, m, p.repeatTimes, p.src0BlockStride, p.src0RepeatStride,
             "GatherMask beyond the src0 LocalTensor");
  record(p.repeatTimes);
  T* d = dst.GetPhyAddr();
  const T* s = src0.GetPhyAddr();
  uint64_t out = 0;
  for (uint32_t r = 0; r < p.repeatTimes; ++r)
    for (uint32_t e = 0; e < n; ++e) {
      if (!bitOf(r, e)) continue;
      detail::checkCount(out + 1, dst.GetSize(), "GatherMask beyond the destination LocalTensor");
      d[out++] = s[offset<T>(r, e, p.src0BlockStride, p.src0RepeatStride)];
    }
  return out;
}
}  // namespace repeat_detail

template <class T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,
                            const uint8_t repeatTimes, const CopyRepeatParams& params) {
  repeat_detail::copy(dst, src,
                      repeat_detail::contiguous<T>(mask, "Copy: mask outside 1..(256 bytes of elements)"),
                      repeatTimes, params);
}
template <class T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                            const uint8_t repeatTimes, const CopyRepeatParams& params) {
  repeat_detail::copy(dst, src, repeat_detail::bitwise<T>(mask, "Copy: empty bit mask"), repeatTimes, params);
}

template <class T, bool isSetMask = true>
__aicore__ inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                      const int32_t mask, const int32_t repeatTimes,
                                      const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride) {
  repeat_detail::wholeReduceSum(
      dst, src,
      repeat_detail::contiguous<T>(static_cast<uint64_t>(mask < 0 ? 0 : mask),
                                   "WholeReduceSum: mask outside 1..(256 bytes of elements)"),
      repeatTimes, dstRepStride, srcBlkStride, srcRepStride);
}
template <class T, bool isSetMask = true>
__aicore__ inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                      const uint64_t mask[], const int32_t repeatTimes,
                                      const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride) {
  repeat_detail::wholeReduceSum(dst, src, repeat_detail::bitwise<T>(mask, "WholeReduceSum: empty bit mask"),
                                repeatTimes, dstRepStride, srcBlkStride, srcRepStride);
}

// User pattern: bit e of repeat r's pattern (uint16_t for 16-bit elements, uint32_t for 32-bit).
template <class T, class U, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const LocalTensor<U>& src1Pattern, const bool reduceMode,
                                  const uint32_t mask, const GatherMaskParams& params, uint64_t& rsvdCnt) {
  static_assert(sizeof(U) == sizeof(T) && std::is_unsigned<U>::value,
                "GatherMask: the pattern is uint16_t for 16-bit elements, uint32_t for 32-bit ones");
  constexpr uint32_t bitsPerWord = sizeof(U) * 8, wordsPerBlock = ONE_BLK_SIZE / sizeof(U);
  const U* words = src1Pattern.GetPhyAddr();
  const uint64_t size = src1Pattern.GetSize();
  auto bitOf = [&](uint32_t r, uint32_t e) {
    const uint64_t w = uint64_t{r} * params.src1RepeatStride * wordsPerBlock + e / bitsPerWord;
    detail::checkCount(w + 1, size, "GatherMask: pattern beyond the src1Pattern LocalTensor");
    return ((words[w] >> (e % bitsPerWord)) & 1u) != 0;
  };
  rsvdCnt = repeat_detail::gatherMask(dst, src0, bitOf, reduceMode, mask, params);
}
// Built-in patterns: 1 even elements, 2 odd, 3..6 element 0..3 of every four, 7 all.
template <class T, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const uint8_t src1Pattern, const bool reduceMode, const uint32_t mask,
                                  const GatherMaskParams& params, uint64_t& rsvdCnt) {
  if (src1Pattern < 1 || src1Pattern > 7) detail::fault("GatherMask: built-in src1Pattern outside 1..7");
  auto bitOf = [src1Pattern](uint32_t, uint32_t e) {
    if (src1Pattern == 7) return true;
    if (src1Pattern <= 2) return e % 2 == static_cast<uint32_t>(src1Pattern - 1);
    return e % 4 == static_cast<uint32_t>(src1Pattern - 3);
  };
  rsvdCnt = repeat_detail::gatherMask(dst, src0, bitOf, reduceMode, mask, params);
}

}  // namespace AscendC

#endif  // NPUSIM_VECTOR_REPEAT_H_

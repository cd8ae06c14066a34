#ifndef NPUSIM_ASCENDC_CUBE_H_
#define NPUSIM_ASCENDC_CUBE_H_
// The cube calls of Ascend C (docs/kernels.md, "Cube kernels"): LoadData from L1 (A1/B1) into
// L0A/L0B (A2/B2), Mmad on the cube unit into L0C (CO1), and the copies out of L0C. The data
// layouts are the hardware's, so a kernel gets the right product only if it arranges its
// operands as the cube needs them (fractals of 512 bytes):
//   A in L0A "zZ": 16 x K0 fractals row-major inside, the fractals row-major (M blocks outer);
//   B in L0B "zN": K0 x 16 fractals column-major inside, the fractals row-major (K blocks outer);
//   C in L0C "nZ": 16 x 16 fractals row-major inside, the fractals column-major (N blocks outer);
// with K0 = 32 bytes / sizeof(operand): 16 for half and bfloat16_t, 8 for float, 32 for int8_t.
// A kernel that uses them runs on the cube cores; Mmad costs its fractal MACs at the cube rate,
// LoadData and the L0C copies the MTE1's bytes. Included by kernel_operator.h; Fixpipe
// (npusim_fixpipe.h), img2col LoadData (npusim_load3d.h) and the data-cache calls
// (npusim_data_cache.h) follow.
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

// The CCE padding modes DataCopyEnhancedParams names (only PAD_NONE is modelled).
enum pad_t {
  PAD_NONE = 0,
  PAD_MODE1,
  PAD_MODE2,
  PAD_MODE3,
  PAD_MODE4,
  PAD_MODE5,
  PAD_MODE6,
  PAD_MODE7,
  PAD_MODE8
};

namespace AscendC {

// ---- parameters ---------------------------------------------------------------------------------

// Load2D: repeatTimes fractals; fractal r comes from source fractal startIndex + r x srcStride and
// goes to destination fractal r x (1 + dstGap). ifTranspose transposes each 16 x 16 fractal of a
// 16-bit type on the way (a K x N block of B, loaded fractal by fractal, becomes zN).
struct LoadData2DParams {
  LoadData2DParams() {}
  LoadData2DParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn, uint8_t sidIn,
                   uint16_t dstGapIn, bool ifTransposeIn, uint8_t addrModeIn)
      : startIndex(startIndexIn),
        repeatTimes(repeatTimesIn),
        srcStride(srcStrideIn),
        sid(sidIn),
        dstGap(dstGapIn),
        ifTranspose(ifTransposeIn),
        addrMode(addrModeIn) {}
  uint16_t startIndex = 0;  // first source fractal
  uint8_t repeatTimes = 0;  // fractals to load (0: nothing)
  uint16_t srcStride = 0;   // source fractals from one to the next
  uint8_t sid = 0;          // reserved
  uint16_t dstGap = 0;      // destination fractals left out between two
  bool ifTranspose = false;
  uint8_t addrMode = 0;  // 0: source addresses increase (1, decreasing, is not modelled)
};
using LoadData2dParams = LoadData2DParams;  // the first releases' spelling

struct MmadParams {
  MmadParams() {}
  MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, bool isBiasIn, int32_t fmOffsetIn, bool enSsparseIn,
             bool enWinogradAIn, bool enWinogradBIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        isBias(isBiasIn),
        fmOffset(fmOffsetIn),
        enSsparse(enSsparseIn),
        enWinogradA(enWinogradAIn),
        enWinogradB(enWinogradBIn) {}
  MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unitFlagIn, bool cmatrixSourceIn,
             bool cmatrixInitValIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        unitFlag(unitFlagIn),
        cmatrixSource(cmatrixSourceIn),
        cmatrixInitVal(cmatrixInitValIn) {}
  uint16_t m = 0;       // rows of A and C
  uint16_t n = 0;       // columns of B and C
  uint16_t k = 0;       // columns of A, rows of B
  bool isBias = false;  // the older flag: true adds to what L0C holds (C += A x B)
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;  // true: the initial C from the bias table (not modelled)
  bool cmatrixInitVal = true;  // true: C = A x B; false: C += A x B
};

enum class BlockMode : uint8_t {
  BLOCK_MODE_NORMAL = 0,
  BLOCK_MODE_MATRIX,
  BLOCK_MODE_VECTOR,
  BLOCK_MODE_SMALL_MATRIX,
  BLOCK_MODE_DEPTHWISE
};
enum class DeqScale : uint8_t { DEQ_NONE = 0, DEQ, VDEQ, DEQ8, VDEQ8, DEQ16, VDEQ16 };

// What a copy out of L0C (CO1 -> CO2) does on the way; on every other path it changes nothing.
struct DataCopyEnhancedParams {
  DataCopyEnhancedParams() {}
  DataCopyEnhancedParams(BlockMode blockModeIn, DeqScale deqScaleIn, uint64_t deqValueIn,
                         uint8_t sidStoreModeIn, bool isReluIn, pad_t padModeIn, uint64_t padValueIn)
      : blockMode(blockModeIn),
        deqScale(deqScaleIn),
        deqValue(deqValueIn),
        sidStoreMode(sidStoreModeIn),
        isRelu(isReluIn),
        padMode(padModeIn),
        padValue(padValueIn) {}
  BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;  // the unit of blockLen and the strides
  DeqScale deqScale = DeqScale::DEQ_NONE;
  uint64_t deqValue = 0;
  uint8_t sidStoreMode = 0;
  bool isRelu = false;
  pad_t padMode = PAD_NONE;
  uint64_t padValue = 0;
};

// ---- layouts ------------------------------------------------------------------------------------

namespace detail {

constexpr uint32_t kFractalBytes = 512;  // one L0 fractal

// Elements along K in one fractal of operand type T (32 bytes' worth).
template <class T>
constexpr uint32_t fractalK() {
  return 32 / sizeof(T);
}
// Where element (row, col) of an M x K left matrix sits in L0A (zZ), for kBlocks fractals along K.
template <class T>
constexpr uint64_t zZIndex(uint32_t row, uint32_t col, uint32_t kBlocks) {
  return (uint64_t{row / 16} * kBlocks + col / fractalK<T>()) * (16 * fractalK<T>()) +
         (row % 16) * fractalK<T>() + col % fractalK<T>();
}
// Where element (row, col) of a K x N right matrix sits in L0B (zN), for nBlocks fractals along N.
template <class T>
constexpr uint64_t zNIndex(uint32_t row, uint32_t col, uint32_t nBlocks) {
  return (uint64_t{row / fractalK<T>()} * nBlocks + col / 16) * (16 * fractalK<T>()) +
         (col % 16) * fractalK<T>() + row % fractalK<T>();
}
// Where element (row, col) of an M x N result sits in L0C (nZ), for mBlocks fractals along M.
constexpr uint64_t nZIndex(uint32_t row, uint32_t col, uint32_t mBlocks) {
  return (uint64_t{col / 16} * mBlocks + row / 16) * 256 + (row % 16) * 16 + col % 16;
}

inline void requireIn(const void* p, int memory, const char* why) {
  if (npusimKernelLocalMemory(p) != memory) fault(why);
}

template <class T>
void loadFractals(T* dst, uint64_t dstElems, const T* src, uint64_t srcElems, const LoadData2DParams& p) {
  constexpr uint64_t frac = kFractalBytes / sizeof(T);
  if (p.addrMode != 0) fault("LoadData: addrMode 1 (decreasing source addresses) is not supported");
  if (p.ifTranspose && sizeof(T) != 2)
    fault("LoadData: ifTranspose needs a 16-bit type (LoadDataWithTranspose is not supported)");
  if (reinterpret_cast<uintptr_t>(dst) % kFractalBytes != 0)
    fault("LoadData: the L0A/L0B destination must start on a 512-byte fractal");
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    const uint64_t s = (uint64_t{p.startIndex} + uint64_t{r} * p.srcStride) * frac;
    const uint64_t d = uint64_t{r} * (1u + p.dstGap) * frac;
    checkCount(s + frac, srcElems, "LoadData beyond the source");
    checkCount(d + frac, dstElems, "LoadData beyond the destination LocalTensor");
    if (!p.ifTranspose) {
      std::memcpy(dst + d, src + s, kFractalBytes);
    } else {
      for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t j = 0; j < 16; ++j) dst[d + j * 16 + i] = src[s + i * 16 + j];
    }
  }
}

inline void requireL0Destination(const void* dst) {
  const int m = npusimKernelLocalMemory(dst);
  if (m != NPUSIM_KERNEL_MEM_L0A && m != NPUSIM_KERNEL_MEM_L0B)
    fault("LoadData: the destination must be in A2 (L0A) or B2 (L0B)");
}

// blockCount blocks of blockLen units (of `unit` elements), the strides in the same units.
template <class T>
uint64_t unitCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                  uint64_t unit, bool relu) {
  if (p.blockCount == 0 || p.blockLen == 0) return 0;
  const uint64_t len = uint64_t{p.blockLen} * unit;
  const uint64_t sstep = (uint64_t{p.blockLen} + p.srcStride) * unit,
                 dstep = (uint64_t{p.blockLen} + p.dstStride) * unit;
  checkCount((p.blockCount - 1u) * sstep + len, src.GetSize(), "DataCopy beyond the source LocalTensor");
  checkCount((p.blockCount - 1u) * dstep + len, dst.GetSize(), "DataCopy beyond the destination LocalTensor");
  T* d = dst.GetPhyAddr();
  const T* s = src.GetPhyAddr();
  for (uint32_t b = 0; b < p.blockCount; ++b) {
    std::memmove(d + b * dstep, s + b * sstep, len * sizeof(T));
    if (relu)
      for (uint64_t i = 0; i < len; ++i)
        if (d[b * dstep + i] < T(0)) d[b * dstep + i] = T(0);
  }
  return len * p.blockCount * sizeof(T);
}

inline bool onCubeCore(const void* p) {
  const int m = npusimKernelLocalMemory(p);
  return m >= NPUSIM_KERNEL_MEM_L1 && m <= NPUSIM_KERNEL_MEM_L0C;
}

}  // namespace detail

// ---- LoadData: L1 (or GM) -> L0A / L0B ------------------------------------------------------------

template <class T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LoadData2DParams& p) {
  detail::requireL0Destination(dst.GetPhyAddr());
  detail::requireIn(src.GetPhyAddr(), NPUSIM_KERNEL_MEM_L1, "LoadData: the source must be in A1/B1 (L1)");
  detail::loadFractals(dst.GetPhyAddr(), dst.GetSize(), src.GetPhyAddr(), src.GetSize(), p);
  npusimKernelRecord(NPUSIM_KERNEL_LOCAL_MOVE, uint64_t{p.repeatTimes} * detail::kFractalBytes, nullptr);
}
template <class T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                const LoadData2DParams& p) {
  detail::requireL0Destination(dst.GetPhyAddr());
  const uint64_t have = src.GetSize() ? src.GetSize() : UINT64_MAX;  // an unsized GlobalTensor
  detail::loadFractals(dst.GetPhyAddr(), dst.GetSize(), src.GetPhyAddr(), have, p);
  npusimKernelRecord(NPUSIM_KERNEL_COPY_IN, uint64_t{p.repeatTimes} * detail::kFractalBytes,
                     src.GetPhyAddr() + uint64_t{p.startIndex} * (detail::kFractalBytes / sizeof(T)));
}

// ---- Mmad: C (L0C) = or += A (L0A) x B (L0B) ----------------------------------------------------

// half x half and bfloat16_t x bfloat16_t into float, float x float into float (at half the
// rate: a fractal holds 8 along K), int8_t x int8_t into int32_t (twice the rate). Products are
// summed in float (int32 for int8) along K in order. The fractals are computed whole: rows of C
// past m and columns past n come from what A2/B2 hold there; K stops at k.
template <class C, class A, class B>
__aicore__ inline void Mmad(const LocalTensor<C>& dst, const LocalTensor<A>& fm, const LocalTensor<B>& filter,
                            const MmadParams& p) {
  static_assert(std::is_same<A, B>::value, "Mmad: both operands have one type");
  static_assert(
      (std::is_same<A, half>::value || std::is_same<A, bfloat16_t>::value || std::is_same<A, float>::value)
          ? std::is_same<C, float>::value
          : (std::is_same<A, int8_t>::value && std::is_same<C, int32_t>::value),
      "Mmad: supported are half/bfloat16_t/float into float and int8_t into int32_t");
  detail::requireIn(dst.GetPhyAddr(), NPUSIM_KERNEL_MEM_L0C, "Mmad: the result must be in CO1 (L0C)");
  detail::requireIn(fm.GetPhyAddr(), NPUSIM_KERNEL_MEM_L0A, "Mmad: the left matrix must be in A2 (L0A)");
  detail::requireIn(filter.GetPhyAddr(), NPUSIM_KERNEL_MEM_L0B, "Mmad: the right matrix must be in B2 (L0B)");
  if (p.cmatrixSource)
    detail::fault("Mmad: an initial C from the bias table (cmatrixSource) is not supported");
  if (p.enSsparse || p.enWinogradA || p.enWinogradB)
    detail::fault("Mmad: sparse and Winograd modes are not supported");
  if (p.m == 0 || p.n == 0 || p.k == 0) return;
  constexpr uint32_t kf = detail::fractalK<A>();
  const uint32_t mB = (p.m + 15u) / 16, nB = (p.n + 15u) / 16, kB = (p.k + kf - 1) / kf;
  const uint32_t rows = mB * 16, cols = nB * 16, depth = kB * kf;
  detail::checkCount(uint64_t{rows} * depth, fm.GetSize(),
                     "Mmad: the left matrix runs past its A2 LocalTensor");
  detail::checkCount(uint64_t{depth} * cols, filter.GetSize(),
                     "Mmad: the right matrix runs past its B2 LocalTensor");
  detail::checkCount(uint64_t{rows} * cols, dst.GetSize(), "Mmad: the result runs past its CO1 LocalTensor");
  using Acc = std::conditional_t<std::is_integral<C>::value, int32_t, float>;
  // Dense copies, A by rows and B by columns, so the inner loop runs over contiguous K.
  std::vector<Acc> a(size_t{rows} * p.k), bt(size_t{cols} * p.k);
  for (uint32_t i = 0; i < rows; ++i)
    for (uint32_t kk = 0; kk < p.k; ++kk)
      a[size_t{i} * p.k + kk] = static_cast<Acc>(fm.GetPhyAddr()[detail::zZIndex<A>(i, kk, kB)]);
  for (uint32_t j = 0; j < cols; ++j)
    for (uint32_t kk = 0; kk < p.k; ++kk)
      bt[size_t{j} * p.k + kk] = static_cast<Acc>(filter.GetPhyAddr()[detail::zNIndex<B>(kk, j, nB)]);
  const bool accumulate = p.isBias || !p.cmatrixInitVal;
  C* c = dst.GetPhyAddr();
  for (uint32_t i = 0; i < rows; ++i) {
    const Acc* ai = &a[size_t{i} * p.k];
    for (uint32_t j = 0; j < cols; ++j) {
      const Acc* bj = &bt[size_t{j} * p.k];
      const uint64_t at = detail::nZIndex(i, j, mB);
      Acc acc = accumulate ? static_cast<Acc>(c[at]) : Acc(0);
      for (uint32_t kk = 0; kk < p.k; ++kk) acc += ai[kk] * bj[kk];
      c[at] = static_cast<C>(acc);
    }
  }
  // The cube does one 16 x K0 x 16 fractal step a cycle: 4096 fp16-equivalent MACs.
  npusimKernelRecord(NPUSIM_KERNEL_CUBE, uint64_t{rows} * cols * kB * 16, nullptr);
}

// ---- copies between a core's buffers --------------------------------------------------------------

// Local to local in 32-byte blocks (DataCopyParams as for GM copies).
template <class T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const DataCopyParams& p) {
  const uint64_t bytes = detail::unitCopy(dst, src, p, ONE_BLK_SIZE / sizeof(T), false);
  const bool cube = detail::onCubeCore(dst.GetPhyAddr()) || detail::onCubeCore(src.GetPhyAddr());
  npusimKernelRecord(cube ? NPUSIM_KERNEL_LOCAL_MOVE : NPUSIM_KERNEL_VECTOR, bytes, nullptr);
}

// From CO1 (L0C) to CO2 (the unified buffer), blockLen and the strides count 16 x 16 fractals
// (BLOCK_MODE_MATRIX) or rows of 16 elements (BLOCK_MODE_VECTOR); isRelu clamps at zero. On
// every other path the enhanced parameters change nothing, as on the hardware.
template <class T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                                const DataCopyEnhancedParams& e) {
  if (npusimKernelLocalMemory(src.GetPhyAddr()) != NPUSIM_KERNEL_MEM_L0C) {
    DataCopy(dst, src, p);
    return;
  }
  detail::requireIn(dst.GetPhyAddr(), NPUSIM_KERNEL_MEM_UB,
                    "DataCopy from CO1 (L0C) goes to CO2 (the unified buffer)");
  if (e.deqScale != DeqScale::DEQ_NONE) detail::fault("DataCopy from CO1: deqScale is not supported");
  uint64_t unit = 0;
  if (e.blockMode == BlockMode::BLOCK_MODE_MATRIX)
    unit = 256;
  else if (e.blockMode == BlockMode::BLOCK_MODE_VECTOR)
    unit = 16;
  else
    detail::fault("DataCopy from CO1: only BLOCK_MODE_MATRIX and BLOCK_MODE_VECTOR are supported");
  const uint64_t bytes = detail::unitCopy(dst, src, p, unit, e.isRelu);
  npusimKernelRecord(NPUSIM_KERNEL_LOCAL_MOVE, bytes, nullptr);
}
template <class T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                const DataCopyParams& p, const DataCopyEnhancedParams&) {
  DataCopy(dst, src, p);
}
template <class T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                const DataCopyParams& p, const DataCopyEnhancedParams&) {
  DataCopy(dst, src, p);
}

}  // namespace AscendC

#include "npusim_data_cache.h"
#include "npusim_fixpipe.h"
#include "npusim_load3d.h"

#endif  // NPUSIM_ASCENDC_CUBE_H_

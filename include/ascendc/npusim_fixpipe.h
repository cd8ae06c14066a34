#ifndef NPUSIM_FIXPIPE_H_
#define NPUSIM_FIXPIPE_H_
// Fixpipe (docs/kernels.md, "Cube kernels"): the A2 cube core's way out of L0C (CO1), to GM or
// to L1, converting on the way. The source is L0C's nZ layout: column block j (16 columns) starts
// srcStride x 16 elements after block j - 1, row r of a block is its 16 elements at r x 16. To GM
// with CFG_ROW_MAJOR the result is written row-major (NZ2ND: row r at r x dstStride elements,
// ndNum matrices srcNdStride fractals apart in L0C and dstNdStride elements apart in GM); with
// CFG_NZ, and always to L1, it keeps nZ (column block j at j x dstStride 32-byte blocks). quantPre
// NoQuant copies float (int32_t) as it is, F322F16 and F322BF16 round float to half/bfloat16_t to
// the nearest even (CAST_RINT); reluEn clamps at zero. The dequantising and quantising modes end
// the kernel as not supported. Time: to GM the bytes written, at the MTE3/fixpipe write rate
// through the HBM model; to L1 the bytes at aicore.mte1_bytes_per_cycle. Included by
// npusim_ascendc_cube.h.
#include <cstdint>
#include <type_traits>

// The conversions a Fixpipe can make (CANN's values, in CANN's order; global as in CANN).
enum QuantMode_t {
  NoQuant = 0,
  F322F16,
  F322BF16,
  DEQF16,
  VDEQF16,
  QF322B8_PRE,
  VQF322B8_PRE,
  REQ8,
  VREQ8,
};

namespace AscendC {

using ::QuantMode_t;

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
  CO2Layout format;
};
inline constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
inline constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
inline constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR};

// The A2's Fixpipe parameters (fields and constructors in CANN's order).
struct FixpipeParamsV220 {
  FixpipeParamsV220() {}
  FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn,
                    bool reluEnIn)
      : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
  FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn,
                    bool reluEnIn, QuantMode_t quantPreIn, int64_t deqScalarIn, uint16_t ndNumIn,
                    uint16_t srcNdStrideIn, uint16_t dstNdStrideIn, uint8_t unitFlagIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        quantPre(quantPreIn),
        deqScalar(static_cast<uint64_t>(deqScalarIn)),
        ndNum(ndNumIn),
        srcNdStride(srcNdStrideIn),
        dstNdStride(dstNdStrideIn),
        reluEn(reluEnIn),
        unitFlag(unitFlagIn) {}
  FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn,
                    bool reluEnIn, QuantMode_t quantPreIn, int64_t deqScalarIn, uint16_t ndNumIn,
                    uint16_t srcNdStrideIn, uint16_t dstNdStrideIn, uint8_t unitFlagIn, bool isChannelSplitIn)
      : FixpipeParamsV220(nSizeIn, mSizeIn, srcStrideIn, dstStrideIn, reluEnIn, quantPreIn, deqScalarIn,
                          ndNumIn, srcNdStrideIn, dstNdStrideIn, unitFlagIn) {
    isChannelSplit = isChannelSplitIn;
  }
  uint16_t nSize = 0;      // columns of C to move (0: nothing)
  uint16_t mSize = 0;      // rows of C to move (0: nothing)
  uint16_t srcStride = 0;  // L0C elements between column blocks, in 16s (mSize rounded up to 16)
  uint32_t dstStride = 0;  // ND: elements per destination row; NZ: 32-byte blocks between column blocks
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;    // the scale of the scalar (de)quantising modes (not supported)
  uint16_t ndNum = 1;        // ND: matrices to move (0: nothing)
  uint16_t srcNdStride = 0;  // ND: L0C fractals (256 elements) from one matrix to the next
  uint16_t dstNdStride = 0;  // ND: destination elements from one matrix to the next
  bool reluEn = false;
  uint8_t unitFlag = 0;  // Mmad/Fixpipe fine-grained overlap: accepted, changes nothing here
  bool isChannelSplit = false;
};
using FixpipeParamsM300 = FixpipeParamsV220;

namespace detail {

// Why a conversion is refused, by QuantMode_t (the dequantising and quantising modes).
inline const char* fixpipeRefusal(QuantMode_t q) {
  switch (q) {
    case DEQF16:
      return "Fixpipe: quantPre DEQF16 (int32_t to half by a scalar) is not supported";
    case VDEQF16:
      return "Fixpipe: quantPre VDEQF16 (int32_t to half by a tensor) is not supported";
    case QF322B8_PRE:
      return "Fixpipe: quantPre QF322B8_PRE (float to int8 by a scalar) is not supported";
    case VQF322B8_PRE:
      return "Fixpipe: quantPre VQF322B8_PRE (float to int8 by a tensor) is not supported";
    case REQ8:
      return "Fixpipe: quantPre REQ8 (int32_t to int8 by a scalar) is not supported";
    case VREQ8:
      return "Fixpipe: quantPre VREQ8 (int32_t to int8 by a tensor) is not supported";
    default:
      return "Fixpipe: unknown quantPre";
  }
}

// Ends the kernel unless quantPre converts U (L0C's type) into T.
template <class T, class U>
void checkFixpipeTypes(QuantMode_t q) {
  constexpr bool fromFloat = std::is_same<U, float>::value, fromInt = std::is_same<U, int32_t>::value;
  if (!fromFloat && !fromInt) fault("Fixpipe: the source in CO1 (L0C) holds float or int32_t");
  if (q == NoQuant) {
    if (!std::is_same<T, U>::value)
      fault("Fixpipe: quantPre NoQuant keeps L0C's type: the destination must be float (int32_t)");
  } else if (q == F322F16) {
    if (!fromFloat || !std::is_same<T, half>::value)
      fault("Fixpipe: quantPre F322F16 converts float to half");
  } else if (q == F322BF16) {
    if (!fromFloat || !std::is_same<T, bfloat16_t>::value)
      fault("Fixpipe: quantPre F322BF16 converts float to bfloat16_t");
  } else {
    fault(fixpipeRefusal(q));
  }
}

// One element on its way out: the conversion rounds to nearest even (half's and bfloat16_t's own).
template <class T, class U>
T fixpipeElement(U v, bool relu) {
  if (relu && v < U(0)) v = U(0);
  return static_cast<T>(v);
}

// Moves the nZ block of L0C into `dst`: ND rows dstStride elements apart (nd) or nZ column blocks
// dstStride 32-byte blocks apart, adding to what is there when `add` (SetAtomicAdd on a GM
// destination); returns the bytes written.
template <class T, class U>
uint64_t fixpipeMove(T* dst, uint64_t dstElems, const LocalTensor<U>& src, const FixpipeParamsV220& p,
                     bool nd, bool add) {
  if (p.isChannelSplit) fault("Fixpipe: isChannelSplit is not supported");
  checkFixpipeTypes<T, U>(p.quantPre);
  const uint32_t matrices = nd ? p.ndNum : 1u;
  if (p.nSize == 0 || p.mSize == 0 || matrices == 0) return 0;  // a NOP, as on the device
  if (p.srcStride * 16u < p.mSize) fault("Fixpipe: srcStride (in 16s) is smaller than mSize");
  if (!nd && p.nSize % 16 != 0) fault("Fixpipe: an NZ destination takes nSize in whole 16-column blocks");
  if (p.dstStride == 0) fault("Fixpipe: dstStride must not be 0");
  const uint64_t blockElems = uint64_t{p.dstStride} * 32 / sizeof(T);  // NZ: between column blocks
  if (!nd && blockElems < uint64_t{p.mSize} * 16)
    fault("Fixpipe: NZ column blocks of the destination overlap (dstStride too small)");
  const U* s = src.GetPhyAddr();
  const uint64_t lastCol = p.nSize - 1u, lastRow = p.mSize - 1u;
  for (uint32_t i = 0; i < matrices; ++i) {
    const uint64_t so = uint64_t{i} * p.srcNdStride * 256, dOff = uint64_t{i} * p.dstNdStride;
    checkCount(so + lastCol / 16 * p.srcStride * 16 + lastRow * 16 + lastCol % 16 + 1, src.GetSize(),
               "Fixpipe reads past its CO1 (L0C) LocalTensor");
    const uint64_t end = nd ? dOff + lastRow * p.dstStride + lastCol + 1
                            : lastCol / 16 * blockElems + lastRow * 16 + lastCol % 16 + 1;
    checkCount(end, dstElems, "Fixpipe writes past its destination");
    for (uint32_t c = 0; c < p.nSize; ++c)
      for (uint32_t r = 0; r < p.mSize; ++r) {
        const U v = s[so + uint64_t{c / 16} * p.srcStride * 16 + uint64_t{r} * 16 + c % 16];
        const uint64_t at =
            nd ? dOff + uint64_t{r} * p.dstStride + c : c / 16 * blockElems + uint64_t{r} * 16 + c % 16;
        const T e = fixpipeElement<T>(v, p.reluEn);
        dst[at] = add ? atomicSum(dst[at], e) : e;
      }
  }
  return uint64_t{matrices} * p.mSize * p.nSize * sizeof(T);
}

}  // namespace detail

// ---- Fixpipe: CO1 (L0C) -> GM or L1 ---------------------------------------------------------------

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsV220& p) {
  detail::requireIn(src.GetPhyAddr(), NPUSIM_KERNEL_MEM_L0C, "Fixpipe: the source must be in CO1 (L0C)");
  if (config.format == CO2Layout::COLUMN_MAJOR)
    detail::fault("Fixpipe: CFG_COLUMN_MAJOR (NZ2DN) is not an A2 path");
  const uint64_t have = dst.GetSize() ? dst.GetSize() : UINT64_MAX;  // an unsized GlobalTensor
  const uint64_t bytes = detail::fixpipeMove(
      dst.GetPhyAddr(), have, src, p, config.format == CO2Layout::ROW_MAJOR, detail::atomicAddsTo<T>());
  if (bytes) npusimKernelRecord(NPUSIM_KERNEL_COPY_OUT, bytes, dst.GetPhyAddr());
}

// To L1 (A1/B1) the A2 writes nZ whatever the config (NZ2ND is a GM path), converting float to
// half or bfloat16_t (NoQuant is not a path to L1).
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsV220& p) {
  detail::requireIn(src.GetPhyAddr(), NPUSIM_KERNEL_MEM_L0C, "Fixpipe: the source must be in CO1 (L0C)");
  detail::requireIn(dst.GetPhyAddr(), NPUSIM_KERNEL_MEM_L1,
                    "Fixpipe: a local destination must be in A1/B1 (L1); the A2 has no CO1 -> UB path");
  if (p.quantPre == NoQuant)
    detail::fault("Fixpipe to L1: quantPre NoQuant is not a path to L1 (F322F16, F322BF16)");
  const uint64_t bytes = detail::fixpipeMove(dst.GetPhyAddr(), dst.GetSize(), src, p, false, false);
  if (bytes) npusimKernelRecord(NPUSIM_KERNEL_LOCAL_MOVE, bytes, nullptr);
}

// With a tensor of per-channel scales in L1 (the vector (de)quantising modes): not supported.
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename BufT = uint64_t,
          typename std::enable_if<std::is_same<BufT, uint64_t>::value, bool>::type = true>
__aicore__ inline void Fixpipe(const GlobalTensor<T>&, const LocalTensor<U>&, const LocalTensor<BufT>&,
                               const FixpipeParamsV220& p) {
  detail::fault(detail::fixpipeRefusal(p.quantPre == NoQuant ? VDEQF16 : p.quantPre));
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename BufT = uint64_t,
          typename std::enable_if<std::is_same<BufT, uint64_t>::value, bool>::type = true>
__aicore__ inline void Fixpipe(const LocalTensor<T>&, const LocalTensor<U>&, const LocalTensor<BufT>&,
                               const FixpipeParamsV220& p) {
  detail::fault(detail::fixpipeRefusal(p.quantPre == NoQuant ? VDEQF16 : p.quantPre));
}

}  // namespace AscendC

#endif  // NPUSIM_FIXPIPE_H_

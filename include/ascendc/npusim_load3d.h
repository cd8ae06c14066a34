#ifndef NPUSIM_LOAD3D_H_
#define NPUSIM_LOAD3D_H_
// LoadData with LoadData3DParamsV2 (docs/kernels.md, "Cube kernels"): img2col from a feature map in
// L1 (NC1HWC0: C0 = 32 bytes' worth of channels, element (c1, h, w, c0) at
// ((c1 x l1H + h) x l1W + w) x C0 + c0) into L0A/L0B fractals. The img2col matrix has a row per
// output position m = ho x Wo + wo and a column per k = ((c1 x filterH + kh) x filterW + kw) x C0
// + c0; its element is the feature map at h = ho x strideH + kh x dilationH - padTop, w = wo x
// strideW + kw x dilationW - padLeft, or the pad value outside it (Ho, Wo: the padded map's sliding
// positions). The block of rows mStartPt.. (mExtension) and columns kStartPt.. (kExtension) goes
// to L0A as A (zZ), transposed with enTranspose (A = the block's transpose, 16-bit types), or to
// L0B as B with K along m (zN, 16-bit types), as CANN's img2col reference describes. Time: the
// fractals written, at aicore.mte1_bytes_per_cycle. Included by npusim_ascendc_cube.h.
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace AscendC {

constexpr int32_t PAD_SIZE = 4;  // padList: left, right, top, bottom

// Whether LoadData takes the feature map (l1H, l1W, padList) and the pad value from its
// parameters (true) or from what SetFmatrix and SetLoadDataPaddingValue set.
struct IsResetLoad3dConfig {
  bool isSetFMatrix = true;
  bool isSetPadding = true;
};
inline constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

enum class FmatrixMode : uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };

struct LoadDataRepeatParam {
  LoadDataRepeatParam() {}
  LoadDataRepeatParam(uint16_t repeatStrideIn, uint8_t repeatTimeIn, uint8_t repeatModeIn)
      : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn) {}
  uint16_t repeatStride = 0;
  uint8_t repeatTime = 1;
  uint8_t repeatMode = 0;
  uint8_t reserved = 0;
};

// Fields and constructor in CANN's order.
template <typename T>
struct LoadData3DParamsV2 {
  LoadData3DParamsV2() {}
  LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], uint16_t l1HIn, uint16_t l1WIn,
                     uint16_t channelSizeIn, uint16_t kExtensionIn, uint16_t mExtensionIn,
                     uint16_t kStartPtIn, uint16_t mStartPtIn, uint8_t strideWIn, uint8_t strideHIn,
                     uint8_t filterWIn, uint8_t filterHIn, uint8_t dilationFilterWIn,
                     uint8_t dilationFilterHIn, bool enTransposeIn, bool enSmallKIn, T padValueIn,
                     bool filterSizeWIn = false, bool filterSizeHIn = false, bool fMatrixCtrlIn = false)
      : l1H(l1HIn),
        l1W(l1WIn),
        channelSize(channelSizeIn),
        kExtension(kExtensionIn),
        mExtension(mExtensionIn),
        kStartPt(kStartPtIn),
        mStartPt(mStartPtIn),
        strideW(strideWIn),
        strideH(strideHIn),
        filterW(filterWIn),
        filterH(filterHIn),
        dilationFilterW(dilationFilterWIn),
        dilationFilterH(dilationFilterHIn),
        enTranspose(enTransposeIn),
        enSmallK(enSmallKIn),
        padValue(padValueIn),
        filterSizeW(filterSizeWIn),
        filterSizeH(filterSizeHIn),
        fMatrixCtrl(fMatrixCtrlIn) {
    for (int32_t i = 0; i < PAD_SIZE; ++i) padList[i] = padListIn[i];
  }
  uint8_t padList[PAD_SIZE] = {0, 0, 0, 0};
  uint16_t l1H = 0;  // feature map height (0: nothing)
  uint16_t l1W = 0;  // feature map width (0: nothing)
  uint16_t channelSize = 0;
  uint16_t kExtension = 0;  // img2col columns to load
  uint16_t mExtension = 0;  // img2col rows to load
  uint16_t kStartPt = 0;
  uint16_t mStartPt = 0;
  uint8_t strideW = 1;
  uint8_t strideH = 1;
  uint8_t filterW = 1;
  uint8_t filterH = 1;
  uint8_t dilationFilterW = 1;
  uint8_t dilationFilterH = 1;
  bool enTranspose = false;
  bool enSmallK = false;
  T padValue = 0;
  bool filterSizeW = false;  // filterW + 256
  bool filterSizeH = false;  // filterH + 256
  bool fMatrixCtrl = false;  // take SetFmatrix's right (true) or left (false) feature map
};

namespace detail {

// The cube core's img2col registers, the running block's own: they start cleared in every block
// (no feature map: a load from them is a no-op; pad value 0; no repeat, no boundary) and keep what
// the block sets from one call to the next, as registers do.
struct Load3dRegisters {
  int64_t block = -1;  // the block they belong to (blocks of a kernel may run on one host thread)
  uint16_t l1H[2] = {0, 0};
  uint16_t l1W[2] = {0, 0};
  uint8_t pad[2][PAD_SIZE] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
  uint8_t padValue[8] = {0, 0, 0, 0, 0, 0, 0, 0};  // the bytes of SetLoadDataPaddingValue's value
  LoadDataRepeatParam repeat;
  uint32_t boundary = 0;
};
inline Load3dRegisters& load3dRegisters() {
  static thread_local Load3dRegisters reg;
  const int64_t block = npusimKernelBlockIdx();
  if (reg.block != block) {
    reg = Load3dRegisters{};
    reg.block = block;
  }
  return reg;
}

}  // namespace detail

__aicore__ inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[PAD_SIZE],
                                  const FmatrixMode& fmatrixMode) {
  detail::Load3dRegisters& reg = detail::load3dRegisters();
  const int i = fmatrixMode == FmatrixMode::FMATRIX_RIGHT ? 1 : 0;
  reg.l1H[i] = l1H;
  reg.l1W[i] = l1W;
  for (int32_t j = 0; j < PAD_SIZE; ++j) reg.pad[i][j] = padList[j];
}
template <typename T>
__aicore__ inline void SetLoadDataPaddingValue(const T padValue) {
  static_assert(sizeof(T) <= 8, "SetLoadDataPaddingValue: a scalar of at most 8 bytes");
  detail::Load3dRegisters& reg = detail::load3dRegisters();
  std::memset(reg.padValue, 0, sizeof reg.padValue);
  std::memcpy(reg.padValue, &padValue, sizeof(T));
}
// Repeats of the next loads: repeatTime 0 makes them no-ops; along M (repeatMode 0) iteration i
// takes the rows from mStartPt + i x repeatStride x 16, the iterations together one block of
// repeatTime x mExtension rows. Along K (repeatMode 1, repeatTime > 1) LoadData refuses: where the
// A2 puts those iterations is not documented.
__aicore__ inline void SetLoadDataRepeat(const LoadDataRepeatParam& repeatParams) {
  detail::load3dRegisters().repeat = repeatParams;
}
// An L1 wrap-around boundary for the feature map (0: none); a non-zero one is not modelled:
// LoadData refuses it.
__aicore__ inline void SetLoadDataBoundary(uint32_t boundaryValue) {
  detail::load3dRegisters().boundary = boundaryValue;
}

// ---- LoadData (img2col): L1 (A1/B1) -> L0A / L0B ---------------------------------------------------

template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG,
          typename U = T, typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LoadData3DParamsV2<U>& p) {
  detail::requireL0Destination(dst.GetPhyAddr());
  detail::requireIn(src.GetPhyAddr(), NPUSIM_KERNEL_MEM_L1,
                    "LoadData (img2col): the source must be in A1/B1 (L1)");
  const bool toB = npusimKernelLocalMemory(dst.GetPhyAddr()) == NPUSIM_KERNEL_MEM_L0B;
  const detail::Load3dRegisters& reg = detail::load3dRegisters();
  const int side = p.fMatrixCtrl ? 1 : 0;
  const uint32_t l1H = defaultConfig.isSetFMatrix ? p.l1H : reg.l1H[side];
  const uint32_t l1W = defaultConfig.isSetFMatrix ? p.l1W : reg.l1W[side];
  const uint8_t* pad = defaultConfig.isSetFMatrix ? p.padList : reg.pad[side];
  T padValue = p.padValue;
  if (!defaultConfig.isSetPadding) std::memcpy(&padValue, reg.padValue, sizeof(T));
  const uint32_t fH = p.filterH + (p.filterSizeH ? 256u : 0u), fW = p.filterW + (p.filterSizeW ? 256u : 0u);
  if (l1H == 0 || l1W == 0 || p.channelSize == 0 || p.kExtension == 0 || p.mExtension == 0 || fH == 0 ||
      fW == 0)
    return;  // a NOP, as on the device
  if (p.enSmallK) detail::fault("LoadData (img2col): enSmallK is not supported (nor by the A2)");
  const uint32_t repeats = reg.repeat.repeatTime;
  if (repeats == 0) return;  // a NOP, as documented
  if (repeats > 1 && reg.repeat.repeatMode != 0)
    detail::fault(
        "LoadData (img2col): SetLoadDataRepeat along K (repeatMode 1) with repeatTime > 1 is not supported");
  if (repeats > 1 && p.mExtension % 16 != 0)
    detail::fault("LoadData (img2col): repeats along M need mExtension in whole 16s");
  if (reg.boundary != 0) detail::fault("LoadData (img2col): a non-zero SetLoadDataBoundary is not supported");
  if ((toB || p.enTranspose) && sizeof(T) != 2)
    detail::fault("LoadData (img2col): into L0B or with enTranspose only 16-bit types are supported");
  if (p.strideH == 0 || p.strideW == 0 || p.dilationFilterH == 0 || p.dilationFilterW == 0)
    detail::fault("LoadData (img2col): strides and dilations must be at least 1");
  constexpr uint32_t c0 = detail::fractalK<T>();
  if (p.channelSize % c0 != 0 || p.kStartPt % c0 != 0)
    detail::fault("LoadData (img2col): channelSize and kStartPt must be whole C0 (32 bytes of channels)");
  const uint32_t c1 = p.channelSize / c0;
  if (uint64_t{p.kStartPt} + p.kExtension > uint64_t{c1} * fH * fW * c0)
    detail::fault("LoadData (img2col): kStartPt + kExtension runs past the img2col matrix's columns");
  detail::checkCount(uint64_t{c1} * l1H * l1W * c0, src.GetSize(),
                     "LoadData (img2col): the feature map runs past its A1/B1 LocalTensor");
  const int64_t spanH = (int64_t{fH} - 1) * p.dilationFilterH + 1,
                spanW = (int64_t{fW} - 1) * p.dilationFilterW + 1;
  const int64_t paddedH = int64_t{l1H} + pad[2] + pad[3], paddedW = int64_t{l1W} + pad[0] + pad[1];
  if (paddedH < spanH || paddedW < spanW)
    detail::fault("LoadData (img2col): the filter is larger than the padded feature map");
  const int64_t wo = (paddedW - spanW) / p.strideW + 1;
  // The destination in whole fractals: rows of the block (all repeats) in 16s, columns in C0s.
  const uint32_t rows = repeats * p.mExtension, mB = (rows + 15u) / 16, kB = (p.kExtension + c0 - 1) / c0;
  detail::checkCount(uint64_t{mB} * 16 * kB * c0, dst.GetSize(),
                     "LoadData (img2col): the fractals run past the destination LocalTensor");
  T* d = dst.GetPhyAddr();
  const T* s = src.GetPhyAddr();
  for (uint32_t m = 0; m < rows; ++m) {
    const int64_t pos =
        int64_t{p.mStartPt} + int64_t{m / p.mExtension} * reg.repeat.repeatStride * 16 + m % p.mExtension;
    const int64_t oh = pos / wo, ow = pos % wo;
    for (uint32_t k = 0; k < p.kExtension; ++k) {
      const uint32_t col = p.kStartPt + k, ch = col % c0, window = col / c0;
      const uint32_t kw = window % fW, kh = window / fW % fH, cb = window / (fW * fH);
      const int64_t h = oh * p.strideH + int64_t{kh} * p.dilationFilterH - pad[2];
      const int64_t w = ow * p.strideW + int64_t{kw} * p.dilationFilterW - pad[0];
      const T v =
          h >= 0 && h < l1H && w >= 0 && w < l1W
              ? s[((uint64_t{cb} * l1H + static_cast<uint64_t>(h)) * l1W + static_cast<uint64_t>(w)) * c0 +
                  ch]
              : padValue;
      const uint64_t at = toB             ? detail::zNIndex<T>(m, k, kB)
                          : p.enTranspose ? detail::zZIndex<T>(k, m, mB)
                                          : detail::zZIndex<T>(m, k, kB);
      d[at] = v;
    }
  }
  npusimKernelRecord(NPUSIM_KERNEL_LOCAL_MOVE, uint64_t{mB} * 16 * kB * c0 * sizeof(T), nullptr);
}

}  // namespace AscendC

#endif  // NPUSIM_LOAD3D_H_

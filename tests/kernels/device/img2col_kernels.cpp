// img2col kernels of the tests (docs/kernels.md, "Cube kernels"): LoadData with
// LoadData3DParamsV2 from a feature map in L1 (NC1HWC0, N = 1) into L0A/L0B.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

// What k_img2col_layout reads from its `args` (uint32 each, in this order).
enum Arg {
  kTarget,     // 0: L0A, 1: L0A with enTranspose, 2: L0B
  kType,       // 0: half, 1: float
  kRegisters,  // 1: the feature map and pad value from SetFmatrix / SetLoadDataPaddingValue
  kL1H,
  kL1W,
  kChannels,
  kFilterH,
  kFilterW,
  kStrideH,
  kStrideW,
  kDilationH,
  kDilationW,
  kPadLeft,
  kPadRight,
  kPadTop,
  kPadBottom,
  kPadValue,
  kMStart,
  kMExtension,
  kKStart,
  kKExtension,
  kRepeatTime,    // 0: SetLoadDataRepeat is not called (repeatTime stays 1)
  kRepeatStride,  // along M, in 16 rows
  kArgs
};

inline constexpr IsResetLoad3dConfig kFromRegisters = {false, false};

// Loads the feature map (GM, NC1HWC0) into L1, img2col's it as `args` say and writes what the
// destination holds, its whole fractals, to `out`.
template <class T>
__aicore__ inline void Img2colLayout(GM_ADDR x, const uint32_t* args, GM_ADDR out) {
  constexpr uint32_t c0 = 32 / sizeof(T);
  const uint32_t mapElems = args[kChannels] * args[kL1H] * args[kL1W];
  const uint32_t repeats = args[kRepeatTime] ? args[kRepeatTime] : 1;
  const uint32_t mB = (repeats * args[kMExtension] + 15) / 16, kB = (args[kKExtension] + c0 - 1) / c0;
  const uint32_t dstElems = mB * 16 * kB * c0;
  TPipe pipe;
  TQue<QuePosition::A1, 1> a1q;
  TQue<QuePosition::A2, 1> a2q;
  TQue<QuePosition::B2, 1> b2q;
  pipe.InitBuffer(a1q, 1, mapElems * sizeof(T));
  pipe.InitBuffer(a2q, 1, dstElems * sizeof(T));
  pipe.InitBuffer(b2q, 1, dstElems * sizeof(T));
  GlobalTensor<T> xGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x));
  LocalTensor<T> a1 = a1q.AllocTensor<T>();
  DataCopy(a1, xGm, mapElems);
  LocalTensor<T> dst = args[kTarget] == 2 ? b2q.AllocTensor<T>() : a2q.AllocTensor<T>();
  LoadData3DParamsV2<T> p;
  p.l1H = static_cast<uint16_t>(args[kL1H]);
  p.l1W = static_cast<uint16_t>(args[kL1W]);
  p.channelSize = static_cast<uint16_t>(args[kChannels]);
  p.filterH = static_cast<uint8_t>(args[kFilterH]);
  p.filterW = static_cast<uint8_t>(args[kFilterW]);
  p.strideH = static_cast<uint8_t>(args[kStrideH]);
  p.strideW = static_cast<uint8_t>(args[kStrideW]);
  p.dilationFilterH = static_cast<uint8_t>(args[kDilationH]);
  p.dilationFilterW = static_cast<uint8_t>(args[kDilationW]);
  p.padList[0] = static_cast<uint8_t>(args[kPadLeft]);
  p.padList[1] = static_cast<uint8_t>(args[kPadRight]);
  p.padList[2] = static_cast<uint8_t>(args[kPadTop]);
  p.padList[3] = static_cast<uint8_t>(args[kPadBottom]);
  p.padValue = static_cast<T>(static_cast<float>(args[kPadValue]));
  p.mStartPt = static_cast<uint16_t>(args[kMStart]);
  p.mExtension = static_cast<uint16_t>(args[kMExtension]);
  p.kStartPt = static_cast<uint16_t>(args[kKStart]);
  p.kExtension = static_cast<uint16_t>(args[kKExtension]);
  p.enTranspose = args[kTarget] == 1;
  if (args[kRepeatTime])
    SetLoadDataRepeat(
        {static_cast<uint16_t>(args[kRepeatStride]), static_cast<uint8_t>(args[kRepeatTime]), 0});
  if (args[kRegisters]) {
    SetFmatrix(p.l1H, p.l1W, p.padList, FmatrixMode::FMATRIX_LEFT);
    SetLoadDataPaddingValue(p.padValue);
    SetLoadDataBoundary(0);
    p.l1H = 1;  // what the parameters say is not used
    p.l1W = 1;
    p.padList[0] = p.padList[1] = p.padList[2] = p.padList[3] = 0;
    p.padValue = static_cast<T>(-99.0f);
    LoadData<T, kFromRegisters>(dst, a1, p);
  } else {
    LoadData(dst, a1, p);
  }
  auto* o = reinterpret_cast<__gm__ T*>(out);
  for (uint32_t i = 0; i < dstElems; ++i) o[i] = dst.GetValue(i);
}

}  // namespace

extern "C" __global__ __aicore__ void k_img2col_layout(GM_ADDR x, GM_ADDR args, GM_ADDR out) {
  uint32_t a[kArgs];
  for (uint32_t i = 0; i < kArgs; ++i) a[i] = reinterpret_cast<__gm__ uint32_t*>(args)[i];
  if (a[kType] == 0) Img2colLayout<half>(x, a, out);
  if (a[kType] == 1) Img2colLayout<float>(x, a, out);
}

namespace {

// The buffers of C (m x n, float) = A (m x k) x B (k x n), half: A's source in L1 (aSource
// elements), B in L1, A in L0A, B in L0B, C in L0C; A's source, B and C in GM.
struct Product {
  TPipe pipe;
  TQue<QuePosition::A1, 1> a1q;
  TQue<QuePosition::B1, 1> b1q;
  TQue<QuePosition::A2, 1> a2q;
  TQue<QuePosition::B2, 1> b2q;
  TQue<QuePosition::CO1, 1> co1q;
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<float> cGm;
  LocalTensor<half> a1, b1, a2, b2;
  LocalTensor<float> c1;
  uint32_t m, n, k;

  __aicore__ inline Product(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t aSource, uint32_t mm, uint32_t nn,
                            uint32_t kk)
      : m(mm), n(nn), k(kk) {
    pipe.InitBuffer(a1q, 1, aSource * sizeof(half));
    pipe.InitBuffer(b1q, 1, k * n * sizeof(half));
    pipe.InitBuffer(a2q, 1, m * k * sizeof(half));
    pipe.InitBuffer(b2q, 1, k * n * sizeof(half));
    pipe.InitBuffer(co1q, 1, m * n * sizeof(float));
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
    a1 = a1q.AllocTensor<half>();
    b1 = b1q.AllocTensor<half>();
    a2 = a2q.AllocTensor<half>();
    b2 = b2q.AllocTensor<half>();
    c1 = co1q.AllocTensor<float>();
  }
  // C = A x B, written to GM row-major by Fixpipe.
  __aicore__ inline void MultiplyAndStore() {
    Mmad(c1, a2, b2,
         MmadParams(static_cast<uint16_t>(m), static_cast<uint16_t>(n), static_cast<uint16_t>(k), 0, false,
                    true));
    Fixpipe(cGm, c1,
            FixpipeParamsV220(static_cast<uint16_t>(n), static_cast<uint16_t>(m), static_cast<uint16_t>(m), n,
                              false));
  }
};

}  // namespace

// A convolution as img2col + Mmad: y (Ho x Wo x cout, float, NHWC) = x (1 x cin/16 x h x w x 16,
// half, NC1HWC0) convolved with a 3 x 3 filter (stride, pad on every side), the filter given as B
// (k = cin x 9 rows, cout columns, half) already in zN. Ho x Wo must be whole 16s.
extern "C" __global__ __aicore__ void k_conv3x3(GM_ADDR x, GM_ADDR wz, GM_ADDR y, uint32_t h, uint32_t w,
                                                uint32_t cin, uint32_t cout, uint32_t stride, uint32_t pad) {
  const uint32_t ho = (h + 2 * pad - 3) / stride + 1, wo = (w + 2 * pad - 3) / stride + 1;
  const uint32_t m = ho * wo, k = cin * 9;
  Product op(x, wz, y, cin * h * w, m, cout, k);
  DataCopy(op.a1, op.aGm, cin * h * w);
  DataCopy(op.b1, op.bGm, k * cout);
  const uint8_t pads[PAD_SIZE] = {static_cast<uint8_t>(pad), static_cast<uint8_t>(pad),
                                  static_cast<uint8_t>(pad), static_cast<uint8_t>(pad)};
  LoadData(op.a2, op.a1,
           LoadData3DParamsV2<half>(
               pads, static_cast<uint16_t>(h), static_cast<uint16_t>(w), static_cast<uint16_t>(cin),
               static_cast<uint16_t>(k), static_cast<uint16_t>(m), 0, 0, static_cast<uint8_t>(stride),
               static_cast<uint8_t>(stride), 3, 3, 1, 1, false, false, static_cast<half>(0)));
  LoadData(op.b2, op.b1, LoadData2DParams(0, static_cast<uint8_t>(k * cout / 256), 1, 0, 0, false, 0));
  op.MultiplyAndStore();
}

// img2col-bound: `repeats` loads of a 128 x 256 block (64 KiB, all of L0A) from a 32-channel
// 16 x 16 map (3 x 3 filter, pad 1), then nothing else.
extern "C" __global__ __aicore__ void k_img2col_repeat(GM_ADDR x, uint32_t repeats) {
  TPipe pipe;
  TQue<QuePosition::A1, 1> a1q;
  TQue<QuePosition::A2, 1> a2q;
  pipe.InitBuffer(a1q, 1, 32 * 16 * 16 * sizeof(half));
  pipe.InitBuffer(a2q, 1, 128 * 256 * sizeof(half));
  GlobalTensor<half> xGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x));
  LocalTensor<half> a1 = a1q.AllocTensor<half>();
  DataCopy(a1, xGm, 32 * 16 * 16);
  LocalTensor<half> a2 = a2q.AllocTensor<half>();
  const uint8_t pads[PAD_SIZE] = {1, 1, 1, 1};
  const LoadData3DParamsV2<half> p(pads, 16, 16, 32, 256, 128, 0, 0, 1, 1, 3, 3, 1, 1, false, false,
                                   static_cast<half>(0));
  for (uint32_t r = 0; r < repeats; ++r) LoadData(a2, a1, p);
}

// Misuse LoadData (img2col) refuses: 0, a float map into L0B (b32's transposed fractals are not
// modelled); 1, SetLoadDataRepeat with repeatTime 2 along K; 2, a 5 x 5 filter over an unpadded 4 x 4 map.
extern "C" __global__ __aicore__ void k_img2col_misuse(uint32_t what) {
  TPipe pipe;
  TQue<QuePosition::B1, 1> b1q;
  TQue<QuePosition::B2, 1> b2q;
  pipe.InitBuffer(b1q, 1, 16 * 16 * sizeof(float));
  pipe.InitBuffer(b2q, 1, 16 * 1024);
  const uint8_t pads[PAD_SIZE] = {0, 0, 0, 0};
  if (what == 0) {
    LocalTensor<float> b1 = b1q.AllocTensor<float>(), b2 = b2q.AllocTensor<float>();
    LoadData(b2, b1,
             LoadData3DParamsV2<float>(pads, 4, 4, 16, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1, false, false, 0.0f));
  } else {
    LocalTensor<half> b1 = b1q.AllocTensor<half>(), b2 = b2q.AllocTensor<half>();
    if (what == 1) SetLoadDataRepeat({0, 2, 1});
    const uint8_t filter = what == 1 ? 1 : 5;
    LoadData(b2, b1,
             LoadData3DParamsV2<half>(pads, 4, 4, 16, 16, 16, 0, 0, 1, 1, filter, filter, 1, 1, false, false,
                                      static_cast<half>(0)));
  }
}

// A matmul whose operands reach L0A/L0B through img2col with a 1 x 1 filter, as CANN's
// mmad_load3dv2 example does: A (m x k) and B (k x n), row-major in GM, are copied into L1 as
// column panels of 16 (NZ: a map of height 1, width m (k) and k (n) channels), A loaded into L0A
// as it is, B into L0B with K along the map's width; C = A x B (float) written by Fixpipe.
extern "C" __global__ __aicore__ void k_img2col_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m,
                                                       uint32_t n, uint32_t k) {
  Product op(a, b, c, m * k, m, n, k);
  for (uint32_t j = 0; j < k / 16; ++j)
    DataCopy(op.a1[j * 16 * m], op.aGm[j * 16],
             {static_cast<uint16_t>(m), 1, static_cast<uint16_t>(k / 16 - 1), 0});
  for (uint32_t j = 0; j < n / 16; ++j)
    DataCopy(op.b1[j * 16 * k], op.bGm[j * 16],
             {static_cast<uint16_t>(k), 1, static_cast<uint16_t>(n / 16 - 1), 0});
  LoadData3DParamsV2<half> p;
  p.l1H = 1;
  p.l1W = static_cast<uint16_t>(m);
  p.channelSize = static_cast<uint16_t>(k);
  p.kExtension = static_cast<uint16_t>(k);
  p.mExtension = static_cast<uint16_t>(m);
  LoadData(op.a2, op.a1, p);
  p.l1W = static_cast<uint16_t>(k);
  p.channelSize = static_cast<uint16_t>(n);
  p.kExtension = static_cast<uint16_t>(n);
  p.mExtension = static_cast<uint16_t>(k);
  p.enTranspose = true;  // no effect into L0B, which transposes by itself
  LoadData(op.b2, op.b1, p);
  op.MultiplyAndStore();
}

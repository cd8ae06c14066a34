// Fixpipe kernels of the tests (docs/kernels.md, "Cube kernels"): C (m x n, float) = A (m x k,
// half, zZ) x B (k x n, half, zN), A and B arranged by the host and loaded from GM, then moved out
// of L0C by Fixpipe in one of several ways (`how`, below).
#include "kernel_operator.h"

using namespace AscendC;

namespace {

struct Cube {
  TPipe pipe;
  TQue<QuePosition::A2, 1> a2q;
  TQue<QuePosition::B2, 1> b2q;
  TQue<QuePosition::CO1, 1> co1q;
  LocalTensor<float> c1;

  // C = A x B into L0C.
  __aicore__ inline Cube(GM_ADDR a, GM_ADDR b, uint32_t m, uint32_t n, uint32_t k) {
    pipe.InitBuffer(a2q, 1, m * k * sizeof(half));
    pipe.InitBuffer(b2q, 1, k * n * sizeof(half));
    pipe.InitBuffer(co1q, 1, m * n * sizeof(float));
    GlobalTensor<half> aGm, bGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
    LocalTensor<half> a2 = a2q.AllocTensor<half>();
    LocalTensor<half> b2 = b2q.AllocTensor<half>();
    LoadData(a2, aGm, LoadData2DParams(0, static_cast<uint8_t>(m * k / 256), 1, 0, 0, false, 0));
    LoadData(b2, bGm, LoadData2DParams(0, static_cast<uint8_t>(k * n / 256), 1, 0, 0, false, 0));
    c1 = co1q.AllocTensor<float>();
    Mmad(c1, a2, b2,
         MmadParams(static_cast<uint16_t>(m), static_cast<uint16_t>(n), static_cast<uint16_t>(k), 0, false,
                    true));
  }
};

}  // namespace

// `how` (the tests know the parameters each uses, for the 32 x 48 x 16 product):
// 0: rows 0..29, columns 0..39 as float, ND, 50 elements a row, ReLU;
// 1: the same as half (F322F16); 2: as bfloat16_t (F322BF16), both ReLU off;
// 3: the whole C as float, NZ, column blocks 68 blocks of 32 bytes apart;
// 4: three 16 x 16 matrices (the top of each column block: ndNum 3, srcNdStride 2 fractals), ND,
//    264 elements apart;
// 5: the whole C as half into L1 (nZ), then copied to GM as it lies;
// 6: DEQF16 (not supported: ends the kernel); 7: a UB destination (no A2 path: ends the kernel);
// 8: as 0 without ReLU under SetAtomicAdd<float>: the block adds to what GM holds.
extern "C" __global__ __aicore__ void k_fixpipe(GM_ADDR a, GM_ADDR b, GM_ADDR out, uint32_t how) {
  Cube cube(a, b, 32, 48, 16);
  if (how == 0 || how == 8) {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    if (how == 8) SetAtomicAdd<float>();
    Fixpipe(g, cube.c1, FixpipeParamsV220(40, 30, 32, 50, how == 0));
    SetAtomicNone();
  } else if (how == 1 || how == 6) {
    GlobalTensor<half> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(out));
    FixpipeParamsV220 p(40, 30, 32, 50, false);
    p.quantPre = how == 1 ? QuantMode_t::F322F16 : QuantMode_t::DEQF16;
    p.unitFlag = 3;
    Fixpipe<half, float, CFG_ROW_MAJOR>(g, cube.c1, p);
  } else if (how == 2) {
    GlobalTensor<bfloat16_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ bfloat16_t*>(out));
    Fixpipe(g, cube.c1, FixpipeParamsV220(40, 30, 32, 50, false, QuantMode_t::F322BF16, 0, 1, 0, 0, 0));
  } else if (how == 3) {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    Fixpipe<float, float, CFG_NZ>(g, cube.c1, FixpipeParamsV220(48, 32, 32, 68, false));
  } else if (how == 4) {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    FixpipeParamsV220 p(16, 16, 32, 16, false);
    p.ndNum = 3;
    p.srcNdStride = 2;
    p.dstNdStride = 264;
    Fixpipe(g, cube.c1, p);
  } else if (how == 5) {
    TQue<QuePosition::A1, 1> a1q;
    cube.pipe.InitBuffer(a1q, 1, 32 * 48 * sizeof(half));
    LocalTensor<half> a1 = a1q.AllocTensor<half>();
    FixpipeParamsV220 p(48, 32, 32, 32, false);
    p.quantPre = QuantMode_t::F322F16;
    Fixpipe(a1, cube.c1, p);
    GlobalTensor<half> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(out));
    DataCopy(g, a1, 32 * 48);
  } else if (how == 7) {
    TQue<QuePosition::VECOUT, 1> ubq;
    cube.pipe.InitBuffer(ubq, 1, 32 * 48 * sizeof(float));
    LocalTensor<float> ub = ubq.AllocTensor<float>();
    Fixpipe(ub, cube.c1, FixpipeParamsV220(48, 32, 32, 48, false));
  }
}

// A 128 x 128 x 16 product written out `repeats` times, each time to the next 64 KiB of `out`:
// a Fixpipe-bound kernel.
extern "C" __global__ __aicore__ void k_fixpipe_repeat(GM_ADDR a, GM_ADDR b, GM_ADDR out, uint32_t repeats) {
  Cube cube(a, b, 128, 128, 16);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
  for (uint32_t r = 0; r < repeats; ++r)
    Fixpipe(g[r * 128 * 128], cube.c1, FixpipeParamsV220(128, 128, 128, 128, false));
}

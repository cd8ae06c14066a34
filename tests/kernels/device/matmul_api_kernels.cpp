// Kernels written against the high-level Matmul API (lib/matmul_intf.h): mixed kernels whose
// vector programs drive the cube (docs/kernels.md, "The Matmul API", "Mixed kernels").
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

namespace {

__aicore__ inline void copyTiling(TCubeTiling& t, GM_ADDR gm) {
  auto* src = reinterpret_cast<__gm__ int32_t*>(gm);
  auto* dst = reinterpret_cast<int32_t*>(&t);
  for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(int32_t); ++i) dst[i] = src[i];
}

// Reads the tiling, registers `mm` with it, and says whether this vector program has a piece of
// C (the programs beyond the tiling's cores have none).
template <class MM>
__aicore__ inline bool setUp(TPipe& pipe, MM& mm, TCubeTiling& t, GM_ADDR tilingGm) {
  copyTiling(t, tilingGm);
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
  return GetBlockIdx() < static_cast<uint32_t>(t.usedCoreNum);
}

// This program's piece of C: pieces go down M first, the last of each dimension a tail.
struct Piece {
  int32_t offA = 0, offB = 0, offC = 0, offBias = 0, m = 0, n = 0;
};
// transA: A is stored K x M (A's transpose); transB: B is stored N x K.
__aicore__ inline Piece pieceOf(const TCubeTiling& t, int32_t idx, bool transA = false, bool transB = false) {
  const int32_t mPieces = Ceil(t.M, t.singleCoreM), mi = idx % mPieces, ni = idx / mPieces;
  Piece p;
  p.offA = transA ? mi * t.singleCoreM : mi * t.singleCoreM * t.Ka;
  p.offB = transB ? ni * t.singleCoreN * t.Kb : ni * t.singleCoreN;
  p.offC = mi * t.singleCoreM * t.N + ni * t.singleCoreN;
  p.offBias = ni * t.singleCoreN;
  p.m = t.M - mi * t.singleCoreM < t.singleCoreM ? t.M - mi * t.singleCoreM : t.singleCoreM;
  p.n = t.N - ni * t.singleCoreN < t.singleCoreN ? t.N - ni * t.singleCoreN : t.singleCoreN;
  return p;
}

// A and B (half) and C (float) in GM, each from its element offset on.
struct Operands {
  GlobalTensor<half> a, b;
  GlobalTensor<float> c;
};
__aicore__ inline Operands operandsAt(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t offA = 0, uint32_t offB = 0,
                                      uint32_t offC = 0) {
  Operands o;
  o.a.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a) + offA);
  o.b.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b) + offB);
  o.c.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c) + offC);
  return o;
}

}  // namespace

// C (M x N, float) = A (M x K, half) x B (K x N, half) [+ bias (N, float)] with IterateAll; `trans`
// bit 0: A is stored transposed (SetTensorA's flag), bit 1: B is.
extern "C" __global__ __aicore__ void k_mm_api_all(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                   GM_ADDR tilingGm, uint32_t trans) {
  TPipe pipe;
  TCubeTiling t;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>>
      mm;
  if (!setUp(pipe, mm, t, tilingGm)) return;
  const bool transA = (trans & 1u) != 0, transB = (trans & 2u) != 0;
  const Piece p = pieceOf(t, static_cast<int32_t>(GetBlockIdx()), transA, transB);
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc, gbias;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a) + p.offA);
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b) + p.offB);
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c) + p.offC);
  mm.SetTensorA(ga, transA);
  mm.SetTensorB(gb, transB);
  if (t.isBias) {
    gbias.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias) + p.offBias);
    mm.SetBias(gbias);
  }
  mm.SetTail(p.m, p.n);
  mm.IterateAll(gc);
  mm.End();
}

// C = LeakyRelu(A x B, slope) block by block: Iterate, GetTensorC into the unified buffer,
// `passes` LeakyRelu passes over the block (the vector part), DataCopy out. Shapes whose pieces
// are whole base blocks.
extern "C" __global__ __aicore__ void k_mm_api_leaky(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm,
                                                     uint32_t passes) {
  TPipe pipe;
  TCubeTiling t;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::VECIN, CubeFormat::ND, float>>
      mm;
  if (!setUp(pipe, mm, t, tilingGm)) return;
  const Piece p = pieceOf(t, static_cast<int32_t>(GetBlockIdx()));
  TQue<QuePosition::VECOUT, 1> out;
  pipe.InitBuffer(out, 1, t.baseM * t.baseN * sizeof(float));
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a) + p.offA);
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b) + p.offB);
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c) + p.offC);
  mm.SetTensorA(ga);
  mm.SetTensorB(gb);
  const uint32_t mBlocks = t.singleCoreM / t.baseM;
  for (uint32_t i = 0; mm.template Iterate<true>(); ++i) {
    LocalTensor<float> blk = out.AllocTensor<float>();
    mm.template GetTensorC<true>(blk, 0, true);
    for (uint32_t k = 0; k < passes; ++k) LeakyRelu(blk, blk, 0.125f, t.baseM * t.baseN);
    out.EnQue(blk);
    blk = out.DeQue<float>();
    const uint32_t at = i % mBlocks * t.baseM * t.N + i / mBlocks * t.baseN;
    DataCopyParams cp{static_cast<uint16_t>(t.baseM), static_cast<uint16_t>(t.baseN * sizeof(float) / 32), 0,
                      static_cast<uint16_t>((t.N - t.baseN) * sizeof(float) / 32)};
    DataCopy(gc[at], blk, cp);
    out.FreeTensor(blk);
  }
  mm.End();
}

// C (NZ, float) = A (NZ, half) x B (NZ, half) on one AI core: the operands as CANN's FRACTAL_NZ
// stores them (16-row fractals of 16 columns, the column strips one after another).
extern "C" __global__ __aicore__ void k_mm_api_nz(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm) {
  TPipe pipe;
  TCubeTiling t;
  Matmul<MatmulType<TPosition::GM, CubeFormat::NZ, half>, MatmulType<TPosition::GM, CubeFormat::NZ, half>,
         MatmulType<TPosition::GM, CubeFormat::NZ, float>>
      mm;
  if (!setUp(pipe, mm, t, tilingGm)) return;
  const Operands o = operandsAt(a, b, c);
  mm.SetTensorA(o.a);
  mm.SetTensorB(o.b);
  mm.IterateAll(o.c);
  mm.End();
}

// C = A x B on one AI core with A copied into the unified buffer first (a VECCALC buffer) and
// handed to the Matmul there; the buffer holds `missing` elements fewer than A (0: all of A).
extern "C" __global__ __aicore__ void k_mm_api_ub_a(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm,
                                                    uint32_t missing) {
  TPipe pipe;
  TCubeTiling t;
  Matmul<MatmulType<TPosition::VECCALC, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, float>>
      mm;
  if (!setUp(pipe, mm, t, tilingGm)) return;
  TBuf<TPosition::VECCALC> buf;
  const uint32_t elems = static_cast<uint32_t>(t.M * t.Ka) - missing;
  pipe.InitBuffer(buf, elems * sizeof(half));
  LocalTensor<half> ua = buf.Get<half>();
  const Operands o = operandsAt(a, b, c);
  DataCopy(ua, o.a, elems);
  mm.SetTensorA(ua);
  mm.SetTensorB(o.b);
  mm.IterateAll(o.c);
  mm.End();
}

// batchA matrices of A (M x K) and batchB of B (K x N) in the NORMAL layout into max(batchA,
// batchB) of C on one AI core, with a bias row per batch if the tiling has one. `form` 0: the
// IterateBatch with batch counts; 1: SetBatchNum then the short form; 2: the short form with the
// tiling's counts (SetBatchInfoForNormal).
extern "C" __global__ __aicore__ void k_mm_api_batch(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                     GM_ADDR tilingGm, uint32_t batchA, uint32_t batchB,
                                                     uint32_t form) {
  TPipe pipe;
  TCubeTiling t;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>,
         MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>,
         MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>,
         MatmulType<TPosition::GM, CubeFormat::ND, float>>
      mm;
  if (!setUp(pipe, mm, t, tilingGm)) return;
  const Operands o = operandsAt(a, b, c);
  GlobalTensor<float> gbias;
  mm.SetTensorA(o.a);
  mm.SetTensorB(o.b);
  if (t.isBias) {
    gbias.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias));
    mm.SetBias(gbias);
  }
  if (form == 0) {
    mm.IterateBatch(o.c, batchA, batchB, false);
  } else {
    if (form == 1) mm.SetBatchNum(static_cast<int32_t>(batchA), static_cast<int32_t>(batchB));
    mm.IterateBatch(o.c, false, 0, false);
  }
  mm.End();
}

// IterateBatch with A, B and C in the BSNGD layout, which npusim does not provide.
extern "C" __global__ __aicore__ void k_mm_api_batch_bsngd(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                           GM_ADDR tilingGm) {
  TPipe pipe;
  TCubeTiling t;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::BSNGD>,
         MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::BSNGD>,
         MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::BNGS1S2>>
      mm;
  if (!setUp(pipe, mm, t, tilingGm)) return;
  const Operands o = operandsAt(a, b, c);
  mm.SetTensorA(o.a);
  mm.SetTensorB(o.b);
  mm.IterateBatch(o.c, 1, 1, false);
  mm.End();
}

// The tiling's M x N x K product of windows of larger row-major matrices on one AI core: A starts
// at element offA of an orgM x orgK matrix, B at offB of orgK x orgN, C at offC of orgM x orgN
// (SetOrgShape gives the row strides); `atomic` 1 adds the product to what C holds (enAtomic),
// 2 too (SetAtomicAdd<float> around a plain IterateAll).
extern "C" __global__ __aicore__ void k_mm_api_window(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm,
                                                      uint32_t orgM, uint32_t orgN, uint32_t orgK,
                                                      uint32_t offA, uint32_t offB, uint32_t offC,
                                                      uint32_t atomic) {
  TPipe pipe;
  TCubeTiling t;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, float>>
      mm;
  if (!setUp(pipe, mm, t, tilingGm)) return;
  const Operands o = operandsAt(a, b, c, offA, offB, offC);
  mm.SetOrgShape(static_cast<int>(orgM), static_cast<int>(orgN), static_cast<int>(orgK));
  mm.SetTensorA(o.a);
  mm.SetTensorB(o.b);
  if (atomic == 2) SetAtomicAdd<float>();
  mm.IterateAll(o.c, static_cast<uint8_t>(atomic == 1 ? 1 : 0));
  SetAtomicNone();
  mm.End();
}

// Cube kernels of the tests (docs/kernels.md, "Cube kernels"): C (m x n, float) = A (m x k, half)
// x B (k x n, half), all row-major in GM, through L1, L0A/L0B (LoadData), the cube (Mmad, in
// K steps of kStep that accumulate in L0C) and the unified buffer. Each block multiplies its own
// matrices (block b's A, B and C follow block b-1's). m, n, k and kStep are multiples of 16.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

class CubeMatmul {
 public:
  __aicore__ inline CubeMatmul(uint32_t m, uint32_t n, uint32_t k, uint32_t kStep)
      : m_(m), n_(n), k_(k), kStep_(kStep), mB_(m / 16), nB_(n / 16), kB_(k / 16), kStepB_(kStep / 16) {}

  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    const uint64_t blk = static_cast<uint64_t>(GetBlockIdx());
    aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a) + blk * m_ * k_);
    bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b) + blk * k_ * n_);
    cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c) + blk * m_ * n_);
    pipe_.InitBuffer(a1_, 1, m_ * k_ * sizeof(half));
    pipe_.InitBuffer(b1_, 1, k_ * n_ * sizeof(half));
    pipe_.InitBuffer(a2_, 1, m_ * kStep_ * sizeof(half));
    pipe_.InitBuffer(b2_, 1, kStep_ * n_ * sizeof(half));
    pipe_.InitBuffer(co1_, 1, m_ * n_ * sizeof(float));
    pipe_.InitBuffer(co2_, 1, m_ * n_ * sizeof(float));
  }

  // GM (row-major) -> L1, column panels of 16: panel j holds rows 0..rows-1 of columns 16j..16j+15,
  // that is the fractals of the panel one after another, each 16 x 16 row-major ("nZ").
  __aicore__ inline void CopyIn() {
    LocalTensor<half> a1 = a1_.AllocTensor<half>();
    LocalTensor<half> b1 = b1_.AllocTensor<half>();
    for (uint32_t j = 0; j < kB_; ++j)
      DataCopy(a1[j * 16 * m_], aGm_[j * 16],
               {static_cast<uint16_t>(m_), 1, static_cast<uint16_t>(kB_ - 1), 0});
    for (uint32_t j = 0; j < nB_; ++j)
      DataCopy(b1[j * 16 * k_], bGm_[j * 16],
               {static_cast<uint16_t>(k_), 1, static_cast<uint16_t>(nB_ - 1), 0});
    a1_.EnQue(a1);
    b1_.EnQue(b1);
  }

  // K step s of A into L0A (zZ): the step's k-block column j is fractals (s*kStepB + j)*mB ... of
  // L1, consecutive there, and goes every kStepB fractals in L0A (dstGap kStepB - 1).
  __aicore__ inline void LoadA(const LocalTensor<half>& a1, const LocalTensor<half>& a2, uint32_t s) {
    for (uint32_t j = 0; j < kStepB_; ++j) {
      LoadData2DParams p;
      p.startIndex = static_cast<uint16_t>((s * kStepB_ + j) * mB_);
      p.repeatTimes = static_cast<uint8_t>(mB_);
      p.srcStride = 1;
      p.dstGap = static_cast<uint16_t>(kStepB_ - 1);
      LoadData(a2[j * 256], a1, p);
    }
  }
  // K step s of B into L0B (zN): k-block row kb is one fractal of every column panel (kB apart in
  // L1), each transposed, consecutive in L0B.
  __aicore__ inline void LoadB(const LocalTensor<half>& b1, const LocalTensor<half>& b2, uint32_t s) {
    for (uint32_t kb = 0; kb < kStepB_; ++kb) {
      LoadData2DParams p(static_cast<uint16_t>(s * kStepB_ + kb), static_cast<uint8_t>(nB_),
                         static_cast<uint16_t>(kB_), 0, 0, true, 0);
      LoadData(b2[kb * nB_ * 256], b1, p);
    }
  }

  // Each K step multiplied `repeats` times (C = repeats x A x B).
  __aicore__ inline void Compute(uint32_t repeats = 1) {
    LocalTensor<half> a1 = a1_.DeQue<half>();
    LocalTensor<half> b1 = b1_.DeQue<half>();
    LocalTensor<float> c1 = co1_.AllocTensor<float>();
    for (uint32_t s = 0; s < k_ / kStep_; ++s) {
      LocalTensor<half> a2 = a2_.AllocTensor<half>();
      LocalTensor<half> b2 = b2_.AllocTensor<half>();
      LoadA(a1, a2, s);
      LoadB(b1, b2, s);
      // The first product starts C at zero, the others add to it.
      for (uint32_t r = 0; r < repeats; ++r)
        Mmad(c1, a2, b2,
             MmadParams(static_cast<uint16_t>(m_), static_cast<uint16_t>(n_), static_cast<uint16_t>(kStep_),
                        0, false, s == 0 && r == 0));
      a2_.FreeTensor(a2);
      b2_.FreeTensor(b2);
    }
    a1_.FreeTensor(a1);
    b1_.FreeTensor(b1);
    co1_.EnQue(c1);
  }

  // L0C -> UB as whole fractals (still nZ), `vectorPasses` vector passes over it there (C x 1: a
  // mixed kernel's vector work), then each 16-column panel to its columns of C.
  __aicore__ inline void CopyOut(uint32_t vectorPasses = 0) {
    LocalTensor<float> c1 = co1_.DeQue<float>();
    LocalTensor<float> c2 = co2_.AllocTensor<float>();
    DataCopyEnhancedParams matrix;
    matrix.blockMode = BlockMode::BLOCK_MODE_MATRIX;
    DataCopy(c2, c1, {1, static_cast<uint16_t>(mB_ * nB_), 0, 0}, matrix);
    co1_.FreeTensor(c1);
    for (uint32_t p = 0; p < vectorPasses; ++p) Muls(c2, c2, 1.0f, static_cast<int32_t>(m_ * n_));
    for (uint32_t j = 0; j < nB_; ++j)
      DataCopy(cGm_[j * 16], c2[j * 16 * m_],
               {static_cast<uint16_t>(m_), 2, 0, static_cast<uint16_t>((nB_ - 1) * 2)});
    co2_.FreeTensor(c2);
  }

  // For the layout test: what L0A and L0B hold for the first K step, element by element.
  __aicore__ inline void DumpL0(GM_ADDR outA, GM_ADDR outB) {
    LocalTensor<half> a1 = a1_.DeQue<half>();
    LocalTensor<half> b1 = b1_.DeQue<half>();
    LocalTensor<half> a2 = a2_.AllocTensor<half>();
    LocalTensor<half> b2 = b2_.AllocTensor<half>();
    LoadA(a1, a2, 0);
    LoadB(b1, b2, 0);
    auto* da = reinterpret_cast<__gm__ half*>(outA);
    auto* db = reinterpret_cast<__gm__ half*>(outB);
    for (uint32_t i = 0; i < m_ * kStep_; ++i) da[i] = a2.GetValue(i);
    for (uint32_t i = 0; i < kStep_ * n_; ++i) db[i] = b2.GetValue(i);
  }

 private:
  uint32_t m_, n_, k_, kStep_, mB_, nB_, kB_, kStepB_;
  TPipe pipe_;
  TQue<QuePosition::A1, 1> a1_;
  TQue<QuePosition::B1, 1> b1_;
  TQue<QuePosition::A2, 1> a2_;
  TQue<QuePosition::B2, 1> b2_;
  TQue<QuePosition::CO1, 1> co1_;
  TQue<QuePosition::CO2, 1> co2_;
  GlobalTensor<half> aGm_, bGm_;
  GlobalTensor<float> cGm_;
};

}  // namespace

extern "C" __global__ __aicore__ void k_cube_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n,
                                                    uint32_t k, uint32_t kStep) {
  CubeMatmul op(m, n, k, kStep);
  op.Init(a, b, c);
  op.CopyIn();
  op.Compute();
  op.CopyOut();
}

extern "C" __global__ __aicore__ void k_cube_layouts(GM_ADDR a, GM_ADDR b, GM_ADDR outA, GM_ADDR outB,
                                                     uint32_t m, uint32_t n, uint32_t k) {
  CubeMatmul op(m, n, k, k);
  op.Init(a, b, outA);
  op.CopyIn();
  op.DumpL0(outA, outB);
}

// An Mmad-bound kernel: one 128 x 128 x 256 product loaded once and multiplied `repeats` times
// into the same L0C (C = repeats x A x B), then written out, after `vectorPasses` vector passes
// over C in the unified buffer (a mixed kernel).
extern "C" __global__ __aicore__ void k_cube_mmad_loop(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t repeats,
                                                       uint32_t vectorPasses) {
  CubeMatmul op(128, 128, 256, 256);
  op.Init(a, b, c);
  op.CopyIn();
  op.Compute(repeats);
  op.CopyOut(vectorPasses);
}

// Misuse the cube calls check: 0, the left matrix left in L1; 1, more L0A than the core has.
extern "C" __global__ __aicore__ void k_cube_misuse(GM_ADDR c, uint32_t what) {
  TPipe pipe;
  TQue<QuePosition::A1, 1> a1;
  TQue<QuePosition::A2, 1> a2;
  TQue<QuePosition::B2, 1> b2;
  TQue<QuePosition::CO1, 1> co1;
  pipe.InitBuffer(a1, 1, 512);
  pipe.InitBuffer(b2, 1, 512);
  pipe.InitBuffer(co1, 1, 1024);
  if (what == 1) pipe.InitBuffer(a2, 1, 128 * 1024);
  LocalTensor<half> a = a1.AllocTensor<half>();
  LocalTensor<half> b = b2.AllocTensor<half>();
  LocalTensor<float> r = co1.AllocTensor<float>();
  Mmad(r, a, b, MmadParams(16, 16, 16, 0, false, true));
  reinterpret_cast<__gm__ float*>(c)[0] = r.GetValue(0);
}

namespace {

// A (m x k) in zZ and B (k x n) in zN, already arranged in GM, straight into L0A/L0B (LoadData
// from GM), multiplied, and C written out as it lies in L0C (nZ).
template <class T, class C>
__aicore__ inline void MatmulFromFractals(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n,
                                          uint32_t k) {
  TPipe pipe;
  TQue<QuePosition::A2, 1> a2q;
  TQue<QuePosition::B2, 1> b2q;
  TQue<QuePosition::CO1, 1> co1q;
  TQue<QuePosition::CO2, 1> co2q;
  pipe.InitBuffer(a2q, 1, m * k * sizeof(T));
  pipe.InitBuffer(b2q, 1, k * n * sizeof(T));
  pipe.InitBuffer(co1q, 1, m * n * sizeof(C));
  pipe.InitBuffer(co2q, 1, m * n * sizeof(C));
  GlobalTensor<T> aGm, bGm;
  GlobalTensor<C> cGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a));
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b));
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(c));
  LocalTensor<T> a2 = a2q.AllocTensor<T>();
  LocalTensor<T> b2 = b2q.AllocTensor<T>();
  LoadData(a2, aGm, LoadData2DParams(0, static_cast<uint8_t>(m * k * sizeof(T) / 512), 1, 0, 0, false, 0));
  LoadData(b2, bGm, LoadData2DParams(0, static_cast<uint8_t>(k * n * sizeof(T) / 512), 1, 0, 0, false, 0));
  LocalTensor<C> c1 = co1q.AllocTensor<C>();
  Mmad(c1, a2, b2,
       MmadParams(static_cast<uint16_t>(m), static_cast<uint16_t>(n), static_cast<uint16_t>(k), 0, false,
                  true));
  LocalTensor<C> c2 = co2q.AllocTensor<C>();
  DataCopyEnhancedParams matrix;
  matrix.blockMode = BlockMode::BLOCK_MODE_MATRIX;
  DataCopy(c2, c1, {1, static_cast<uint16_t>(m * n / 256), 0, 0}, matrix);
  DataCopy(cGm, c2, m * n);
}

}  // namespace

// The other operand types: 0 bfloat16_t and 1 float into float, 2 int8_t into int32_t.
extern "C" __global__ __aicore__ void k_cube_dtypes(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t type,
                                                    uint32_t m, uint32_t n, uint32_t k) {
  if (type == 0) MatmulFromFractals<bfloat16_t, float>(a, b, c, m, n, k);
  if (type == 1) MatmulFromFractals<float, float>(a, b, c, m, n, k);
  if (type == 2) MatmulFromFractals<int8_t, int32_t>(a, b, c, m, n, k);
}

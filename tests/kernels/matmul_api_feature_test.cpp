// The Matmul API features kernels and operators use beyond a plain IterateAll (docs/kernels.md,
// "The Matmul API"): operands and result in NZ, IterateBatch over the NORMAL layout with a
// broadcast operand, A in the unified buffer, SetOrgShape windows and atomic add into C, and the
// host tiling's setters that go with them. Each result is compared with a host reference, and each
// call's time with what the cube model's rates give.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_mm_api_all.h"
#include "aclrtlaunch_k_mm_api_batch.h"
#include "aclrtlaunch_k_mm_api_batch_bsngd.h"
#include "aclrtlaunch_k_mm_api_nz.h"
#include "aclrtlaunch_k_mm_api_ub_a.h"
#include "aclrtlaunch_k_mm_api_window.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/kernels/dev_buffer.h"
#include "tiling/tiling_api.h"

using aicore_test::Session;
using kernel_test::Dev;
using kernel_test::exactHalves;
using namespace matmul_tiling;

namespace {

uint32_t alignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// A one-core tiling of m x n x k, half into float; formats and positions as given.
TCubeTiling oneCore(int32_t m, int32_t n, int32_t k, CubeFormat fmt = CubeFormat::ND,
                    TPosition aPos = TPosition::GM, bool bias = false) {
  MultiCoreMatmulTiling api;
  api.SetDim(1);
  api.SetAType(aPos, fmt, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, fmt, DataType::DT_FLOAT16);
  api.SetCType(TPosition::GM, fmt, DataType::DT_FLOAT);
  api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetShape(m, n, k);
  api.SetOrgShape(m, n, k);
  api.SetBias(bias);
  TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0);
  return t;
}

// Where element (r, c) of a rows x cols matrix sits in FRACTAL_NZ with fractals w0 wide.
size_t nzAt(uint32_t rows, uint32_t w0, uint32_t r, uint32_t c) {
  return (size_t(c / w0) * alignUp(rows, 16) + r) * w0 + c % w0;
}
template <class T>
std::vector<T> toNz(const std::vector<T>& nd, uint32_t rows, uint32_t cols, uint32_t w0) {
  std::vector<T> nz(size_t(alignUp(cols, w0)) * alignUp(rows, 16), T(0));
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < cols; ++c) nz[nzAt(rows, w0, r, c)] = nd[size_t(r) * cols + c];
  return nz;
}

// (A x B)(i, j) of row-major A (m x k) and B (k x n), summed in double (exact for exactHalves).
double dot(const _Float16* a, const _Float16* b, int32_t n, int32_t k, int32_t i, int32_t j, size_t lda,
           size_t ldb) {
  double v = 0;
  for (int32_t kk = 0; kk < k; ++kk)
    v += static_cast<double>(a[size_t(i) * lda + kk]) * static_cast<double>(b[size_t(kk) * ldb + j]);
  (void)n;
  return v;
}

double hz() { return aicore_test::config().getFloat("aicore.freq_ghz") * 1e9; }
double mteMs(double bytes) {
  return bytes / aicore_test::config().getFloat("aicore.mte_bytes_per_cycle") / hz() * 1e3;
}

}  // namespace

// A, B and C in NZ: a 100 x 70 x 50 product (tails in every dimension) equals the reference at the
// NZ place of every element of C, and C's padding is left as it was. The NZ operands are read as
// whole 16-row strips (one burst each, where ND reads a burst per row), the same bytes: a
// read-bound 32 x 32 x 4096 product takes the ND product's time within 2 %.
TEST(MatmulApiFeatures, OperandsAndResultInNz) {
  Session s;
  const int32_t m = 100, n = 70, k = 50;
  const TCubeTiling t = oneCore(m, n, k, CubeFormat::NZ);
  const auto a = exactHalves(size_t(m) * k, 21), b = exactHalves(size_t(k) * n, 22);
  Dev<_Float16> da(toNz(a, m, k, 16)), db(toNz(b, k, n, 16));
  Dev<float> dc(std::vector<float>(size_t(alignUp(n, 16)) * alignUp(m, 16), -99.0f));
  Dev<TCubeTiling> dt(std::vector<TCubeTiling>{t});
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_mm_api_nz)(1, s.stream, da.dev, db.dev, dc.dev, dt.dev), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  const auto& c = dc.read();
  size_t bad = 0, padTouched = 0;
  for (uint32_t i = 0; i < alignUp(m, 16); ++i)
    for (uint32_t j = 0; j < alignUp(n, 16); ++j) {
      const float got = c[nzAt(m, 16, i, j)];
      if (int32_t(i) >= m || int32_t(j) >= n) {
        padTouched += got != -99.0f;
        continue;
      }
      const double want = dot(a.data(), b.data(), n, k, i, j, k, n);
      if (got != static_cast<float>(want) && bad++ < 5)
        ADD_FAILURE() << "C(" << i << ", " << j << ") = " << got << ", want " << want;
    }
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(padTouched, 0u);

  const int32_t tm = 32, tn = 32, tk = 4096;
  const auto ta = exactHalves(size_t(tm) * tk, 1), tb = exactHalves(size_t(tk) * tn, 2);
  Dev<_Float16> nzA(toNz(ta, tm, tk, 16)), nzB(toNz(tb, tk, tn, 16)), ndA(ta), ndB(tb);
  Dev<float> out(size_t(tm) * tn);
  Dev<TCubeTiling> nzT(std::vector<TCubeTiling>{oneCore(tm, tn, tk, CubeFormat::NZ)}),
      ndT(std::vector<TCubeTiling>{oneCore(tm, tn, tk)});
  auto nzRun = [&] {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_mm_api_nz)(1, s.stream, nzA.dev, nzB.dev, out.dev, nzT.dev), 0u);
  };
  auto ndRun = [&] {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_mm_api_all)(1, s.stream, ndA.dev, ndB.dev, out.dev, out.dev, ndT.dev, 0u),
              0u);
  };
  const double nzMs = aicore_test::deviceMs(s.stream, nzRun, nzRun);
  const double ndMs = aicore_test::deviceMs(s.stream, ndRun, ndRun);
  std::printf("32 x 32 x 4096: NZ %.3f us, ND %.3f us, its 512 KiB of reads at the MTE2 rate %.3f us\n",
              nzMs * 1e3, ndMs * 1e3, mteMs(2.0 * tm * tk * 2) * 1e3);
  EXPECT_NEAR(nzMs, ndMs, 0.02 * ndMs);
  // At least the reads; at most the reads plus the fixed costs (task start, two vector programs'
  // prologues), the MACs, the MTE1's L0 loads and the store, none overlapped.
  const auto& cfg = aicore_test::config();
  const double fixedMs = cfg.getFloat("aicore.task_start_ns") * 1e-6 + 2 * 2000 / hz() * 1e3;
  const double macMs = double(tm) * tn * tk / cfg.getFloat("aicore.cube_macs_per_cycle") / hz() * 1e3;
  const double l0Ms = 2.0 * tm * tk * 2 / cfg.getFloat("aicore.mte1_bytes_per_cycle") / hz() * 1e3;
  EXPECT_GT(nzMs, mteMs(2.0 * tm * tk * 2));
  EXPECT_LT(nzMs, mteMs(2.0 * tm * tk * 2) + fixedMs + macMs + l0Ms + tm * tn * 4 / 86.0 / hz() * 1e3);
}

// IterateBatch over the NORMAL (BMNK) layout: 4 products with 4 A matrices and 2 B matrices (each B
// serves two consecutive products, as CANN broadcasts), and 3 with 3 of each plus a bias row per
// batch, by the counted form, SetBatchNum and the short form, and the tiling's counts
// (SetBatchInfoForNormal); every element equals the reference. In time each product of a read-bound
// shape (32 x 32 x 1024: 128 KiB of reads, 256 cycles of MACs) adds its reads at the MTE2 rate: 4
// batches take 2 products' reads longer than 2 batches, within 5 %.
TEST(MatmulApiFeatures, IterateBatchRunsTheNormalLayout) {
  Session s;
  const int32_t m = 40, n = 56, k = 72;
  struct Case {
    uint32_t batchA, batchB, form;
    bool bias;
  };
  for (const Case& cs :
       {Case{4, 2, 0, false}, Case{3, 3, 0, true}, Case{2, 4, 1, false}, Case{3, 3, 2, true}}) {
    SCOPED_TRACE(::testing::Message()
                 << "batchA " << cs.batchA << ", batchB " << cs.batchB << ", form " << cs.form);
    MultiCoreMatmulTiling api;
    api.SetDim(1);
    api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetShape(m, n, k);
    api.SetOrgShape(m, n, k);
    api.SetBias(cs.bias);
    ASSERT_EQ(api.SetBatchInfoForNormal(cs.batchA, cs.batchB, m, n, k), 0);
    TCubeTiling t;
    ASSERT_EQ(api.GetTiling(t), 0);
    EXPECT_EQ(t.ALayoutInfoB, int32_t(cs.batchA));
    EXPECT_EQ(t.BLayoutInfoB, int32_t(cs.batchB));
    const uint32_t batches = std::max(cs.batchA, cs.batchB);
    const auto a = exactHalves(size_t(cs.batchA) * m * k, 31), b = exactHalves(size_t(cs.batchB) * k * n, 32);
    std::vector<float> bias(size_t(batches) * n);
    for (size_t j = 0; j < bias.size(); ++j) bias[j] = static_cast<float>(j % 11) - 5;
    Dev<_Float16> da(a), db(b);
    Dev<float> dbias(bias), dc(std::vector<float>(size_t(batches) * m * n, -99.0f));
    Dev<TCubeTiling> dt(std::vector<TCubeTiling>{t});
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_mm_api_batch)(1, s.stream, da.dev, db.dev, dbias.dev, dc.dev, dt.dev,
                                                  cs.batchA, cs.batchB, cs.form),
              0u);
    ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    const auto& c = dc.read();
    size_t bad = 0;
    for (uint32_t i = 0; i < batches; ++i) {
      const _Float16* ai = a.data() + size_t(i / (batches / cs.batchA)) * m * k;
      const _Float16* bi = b.data() + size_t(i / (batches / cs.batchB)) * k * n;
      for (int32_t r = 0; r < m; ++r)
        for (int32_t j = 0; j < n; ++j) {
          const double want = dot(ai, bi, n, k, r, j, k, n) + (cs.bias ? bias[size_t(i) * n + j] : 0.0);
          const float got = c[(size_t(i) * m + r) * n + j];
          if (got != static_cast<float>(want) && bad++ < 5)
            ADD_FAILURE() << "C[" << i << "](" << r << ", " << j << ") = " << got << ", want " << want;
        }
    }
    EXPECT_EQ(bad, 0u);
  }

  const int32_t tm = 32, tn = 32, tk = 1024;
  Dev<_Float16> ta(exactHalves(size_t(4) * tm * tk, 3)), tb(exactHalves(size_t(4) * tk * tn, 4));
  Dev<float> tc(size_t(4) * tm * tn);
  Dev<TCubeTiling> tt(std::vector<TCubeTiling>{oneCore(tm, tn, tk)});
  auto batchMs = [&](uint32_t batches) {
    auto run = [&] {
      ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_mm_api_batch)(1, s.stream, ta.dev, tb.dev, tc.dev, tc.dev, tt.dev,
                                                    batches, batches, 0u),
                0u);
    };
    return aicore_test::deviceMs(s.stream, run, run);
  };
  const double two = batchMs(2), four = batchMs(4), want = 2 * mteMs(2.0 * tm * tk * 2);
  std::printf(
      "32 x 32 x 1024: 2 batches %.3f us, 4 batches %.3f us, 2 products' reads at the MTE2 rate %.3f us\n",
      two * 1e3, four * 1e3, want * 1e3);
  EXPECT_NEAR(four - two, want, 0.05 * want);
}

// BSNGD, SBNGD and BNGS1S2 are not provided: IterateBatch with them ends the kernel with the reason
// instead of a wrong product (an AI-core exception: Init has taken the cube's buffers).
TEST(MatmulApiFeatures, OtherBatchLayoutsEndTheKernel) {
  Session s;
  const TCubeTiling t = oneCore(32, 32, 32);
  Dev<_Float16> a(size_t(32) * 32), b(size_t(32) * 32);
  Dev<float> c(size_t(32) * 32);
  Dev<TCubeTiling> dt(std::vector<TCubeTiling>{t});
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_mm_api_batch_bsngd)(1, s.stream, a.dev, b.dev, c.dev, dt.dev), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("supports the NORMAL layout only"), std::string::npos)
      << aclGetRecentErrMsg();
}

// A in the unified buffer (MatmulType VECCALC, SetTensorA with a LocalTensor): the product equals
// the reference, tails included. In time the kernel's own DataCopy reads A from GM (MTE2) and the
// Matmul moves it into L1 at the MTE1's rate instead of reading it again: 64 x 32 x 1024 with A in
// UB takes the time of A in GM within A's MTE1 time and 2 % (reading A again would add its 128 KiB
// at the MTE2 rate, 2.3 us, a quarter).
TEST(MatmulApiFeatures, AFromTheUnifiedBuffer) {
  Session s;
  const int32_t m = 48, n = 100, k = 80;
  const TCubeTiling t = oneCore(m, n, k, CubeFormat::ND, TPosition::VECCALC);
  const auto a = exactHalves(size_t(m) * k, 41), b = exactHalves(size_t(k) * n, 42);
  Dev<_Float16> da(a), db(b);
  Dev<float> dc(std::vector<float>(size_t(m) * n, -99.0f));
  Dev<TCubeTiling> dt(std::vector<TCubeTiling>{t});
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_mm_api_ub_a)(1, s.stream, da.dev, db.dev, dc.dev, dt.dev, 0u), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  const auto& c = dc.read();
  size_t bad = 0;
  for (int32_t i = 0; i < m; ++i)
    for (int32_t j = 0; j < n; ++j) {
      const double want = dot(a.data(), b.data(), n, k, i, j, k, n);
      if (c[size_t(i) * n + j] != static_cast<float>(want) && bad++ < 5)
        ADD_FAILURE() << "C(" << i << ", " << j << ") = " << c[size_t(i) * n + j] << ", want " << want;
    }
  EXPECT_EQ(bad, 0u);

  const int32_t tm = 64, tn = 32, tk = 1024;
  Dev<_Float16> ta(exactHalves(size_t(tm) * tk, 5)), tb(exactHalves(size_t(tk) * tn, 6));
  Dev<float> tc(size_t(tm) * tn);
  Dev<TCubeTiling> ut(std::vector<TCubeTiling>{oneCore(tm, tn, tk, CubeFormat::ND, TPosition::VECCALC)}),
      gt(std::vector<TCubeTiling>{oneCore(tm, tn, tk)});
  auto ubRun = [&] {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_mm_api_ub_a)(1, s.stream, ta.dev, tb.dev, tc.dev, ut.dev, 0u), 0u);
  };
  auto gmRun = [&] {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_mm_api_all)(1, s.stream, ta.dev, tb.dev, tc.dev, tc.dev, gt.dev, 0u), 0u);
  };
  const double ubMs = aicore_test::deviceMs(s.stream, ubRun, ubRun),
               gmMs = aicore_test::deviceMs(s.stream, gmRun, gmRun);
  const double aMte1Ms =
      double(tm) * tk * 2 / aicore_test::config().getFloat("aicore.mte1_bytes_per_cycle") / hz() * 1e3;
  std::printf(
      "64 x 32 x 1024: A in UB %.3f us, A in GM %.3f us, A at the MTE1 rate %.3f us, at the MTE2 rate %.3f "
      "us\n",
      ubMs * 1e3, gmMs * 1e3, aMte1Ms * 1e3, mteMs(double(tm) * tk * 2) * 1e3);
  EXPECT_LT(ubMs, gmMs + aMte1Ms + 0.02 * gmMs);
  EXPECT_GT(ubMs, gmMs - 0.02 * gmMs);
}

// A LocalTensor that holds less than the matrix the tiling describes ends the kernel with the
// reason (an AI-core exception: Init has taken the cube's buffers) instead of reading past it.
TEST(MatmulApiFeatures, AMatrixRunningPastItsLocalTensorEndsTheKernel) {
  Session s;
  const TCubeTiling t = oneCore(48, 32, 64, CubeFormat::ND, TPosition::VECCALC);
  Dev<_Float16> a(size_t(48) * 64), b(size_t(64) * 32);
  Dev<float> c(size_t(48) * 32);
  Dev<TCubeTiling> dt(std::vector<TCubeTiling>{t});
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_mm_api_ub_a)(1, s.stream, a.dev, b.dev, c.dev, dt.dev, 16u), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("runs past its LocalTensor"), std::string::npos)
      << aclGetRecentErrMsg();
}

// SetOrgShape: a 40 x 24 x 48 product of windows inside larger row-major matrices (A at row 8,
// column 16 of 64 x 96; B at row 16, column 32 of 96 x 80; C at row 8, column 32 of 64 x 80) reads
// and writes only its windows; IterateAll(c, 1) adds the product to what C holds (enAtomic 1), as
// SetAtomicAdd<float> around a plain IterateAll does, in the time of a plain write (the fixpipe
// adds as it stores).
TEST(MatmulApiFeatures, OrgShapeWindowsAndAtomicAdd) {
  Session s;
  const uint32_t m = 40, n = 24, k = 48, orgM = 64, orgN = 80, orgK = 96;
  const uint32_t offA = 8 * orgK + 16, offB = 16 * orgN + 32, offC = 8 * orgN + 32;
  const TCubeTiling t = oneCore(m, n, k);
  const auto a = exactHalves(size_t(orgM) * orgK, 51), b = exactHalves(size_t(orgK) * orgN, 52);
  std::vector<float> before(size_t(orgM) * orgN);
  for (size_t i = 0; i < before.size(); ++i) before[i] = static_cast<float>(i % 13) - 6;
  Dev<_Float16> da(a), db(b);
  Dev<TCubeTiling> dt(std::vector<TCubeTiling>{t});
  for (uint32_t atomic : {0u, 1u, 2u}) {
    SCOPED_TRACE(::testing::Message() << "enAtomic " << atomic);
    Dev<float> dc(before);
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_mm_api_window)(1, s.stream, da.dev, db.dev, dc.dev, dt.dev, orgM, orgN,
                                                   orgK, offA, offB, offC, atomic),
              0u);
    ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    const auto& c = dc.read();
    size_t bad = 0;
    for (uint32_t i = 0; i < orgM; ++i)
      for (uint32_t j = 0; j < orgN; ++j) {
        const size_t at = size_t(i) * orgN + j;
        double want = before[at];
        if (at >= offC && i - offC / orgN < m && j - offC % orgN < n) {
          const double p =
              dot(a.data() + offA, b.data() + offB, n, k, i - offC / orgN, j - offC % orgN, orgK, orgN);
          want = atomic ? want + p : p;
        }
        if (c[at] != static_cast<float>(want) && bad++ < 5)
          ADD_FAILURE() << "C(" << i << ", " << j << ") = " << c[at] << ", want " << want;
      }
    EXPECT_EQ(bad, 0u);
  }
  Dev<float> dc(before);
  auto run = [&](uint32_t atomic) {
    return [&, atomic] {
      ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_mm_api_window)(1, s.stream, da.dev, db.dev, dc.dev, dt.dev, orgM, orgN,
                                                     orgK, offA, offB, offC, atomic),
                0u);
    };
  };
  const double plainMs = aicore_test::deviceMs(s.stream, run(0), run(0));
  const double atomicMs = aicore_test::deviceMs(s.stream, run(1), run(1));
  EXPECT_NEAR(atomicMs, plainMs, 0.01 * plainMs);
}

// The host tiling: NZ and unified-buffer sources are accepted; SetBatchInfoForNormal fills the
// layout fields (and refuses counts that are not multiples of each other); SetBufferSpace's smaller
// L1 makes the K steps go through L1 one at a time; C in the unified buffer in NZ and a source in
// L1 (TSCM) are refused with -1.
TEST(MatmulApiFeatures, HostTilingSetters) {
  Session s;
  auto base = [](MultiCoreMatmulTiling& api, TPosition aPos, CubeFormat cFmt, TPosition cPos) {
    api.SetDim(1);
    api.SetAType(aPos, CubeFormat::NZ, DataType::DT_FLOAT16);
    api.SetBType(TPosition::GM, CubeFormat::NZ, DataType::DT_FLOAT16);
    api.SetCType(cPos, cFmt, DataType::DT_FLOAT);
    api.SetShape(128, 128, 1024);
  };
  TCubeTiling t;
  MultiCoreMatmulTiling ok;
  base(ok, TPosition::VECOUT, CubeFormat::NZ, TPosition::GM);
  ASSERT_EQ(ok.SetBatchInfoForNormal(2, 6, 128, 128, 1024), 0);
  ASSERT_EQ(ok.GetTiling(t), 0);
  EXPECT_EQ(t.stepKa,
            1024 / t.baseK);  // all K steps of a block row fit the 512 KiB L1
  EXPECT_EQ(t.ALayoutInfoB, 2);
  EXPECT_EQ(t.ALayoutInfoS, 128);
  EXPECT_EQ(t.ALayoutInfoD, 1024);
  EXPECT_EQ(t.BLayoutInfoB, 6);
  EXPECT_EQ(t.CLayoutInfoB, 6);
  EXPECT_EQ(t.CLayoutInfoS1, 128);
  EXPECT_EQ(t.CLayoutInfoS2, 128);
  EXPECT_EQ(ok.SetBatchInfoForNormal(2, 3, 128, 128, 1024), -1);
  EXPECT_EQ(ok.SetBatchInfoForNormal(0, 1, 128, 128, 1024), -1);

  MultiCoreMatmulTiling small;
  base(small, TPosition::GM, CubeFormat::ND, TPosition::GM);
  small.SetBufferSpace(128 * 1024, -1,
                       -1);  // 128 KiB of L1: not all 1024 / baseK steps of A and B
  ASSERT_EQ(small.GetTiling(t), 0);
  EXPECT_EQ(t.stepKa, 1);
  EXPECT_LE((int64_t(t.baseM) + t.baseN) * t.baseK * 2, 128 * 1024);

  MultiCoreMatmulTiling nzInUb;
  base(nzInUb, TPosition::GM, CubeFormat::NZ, TPosition::VECIN);
  EXPECT_EQ(nzInUb.GetTiling(t), -1);
  MultiCoreMatmulTiling inL1;
  base(inL1, TPosition::TSCM, CubeFormat::ND, TPosition::GM);
  EXPECT_EQ(inL1.GetTiling(t), -1);
}

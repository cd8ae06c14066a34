// The high-level Matmul API and the host matmul tiling (docs/kernels.md, "The Matmul API",
// "Mixed kernels"): the tiling's blocks fit the core's buffers and cover the shape, a kernel
// using the API gives the host reference's product over shapes with tails, and a mixed kernel
// runs its cube part then its vector part, in the time the cube and vector rates give.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_mm_api_all.h"
#include "aclrtlaunch_k_mm_api_leaky.h"
#include "ascendc/tikicpulib.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/kernels/dev_buffer.h"
#include "tiling/tiling_api.h"

extern "C" __global__ __aicore__ void k_mm_api_all(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                   GM_ADDR tiling, uint32_t trans);

using aicore_test::Session;
using kernel_test::Dev;
using kernel_test::exactHalves;
using namespace matmul_tiling;

namespace {

struct Problem {
  int32_t m, n, k, dim;
  int32_t baseM = -1, baseN = -1, baseK = -1;
  bool bias = false;
  TPosition cPos = TPosition::GM;
};

int64_t tile(const Problem& p, TCubeTiling& t) {
  MultiCoreMatmulTiling api;
  api.SetDim(p.dim);
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(p.cPos, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetShape(p.m, p.n, p.k);
  api.SetOrgShape(p.m, p.n, p.k);
  api.SetBias(p.bias);
  api.SetFixSplit(p.baseM, p.baseN, p.baseK);
  api.SetBufferSpace(-1, -1, -1);
  return api.GetTiling(t);
}

int64_t param(const char* key) { return aicore_test::config().getInt(key); }

// C = A x B (+ bias) through k_mm_api_all, against a reference summed in double.
// trans bit 0: A is stored transposed (K x M), bit 1: B is (N x K).
void checkProduct(Session& s, const Problem& p, uint32_t trans = 0) {
  SCOPED_TRACE(::testing::Message() << p.m << " x " << p.n << " x " << p.k << " on " << p.dim
                                    << " cores, trans " << trans);
  TCubeTiling t;
  ASSERT_EQ(tile(p, t), 0);
  Dev<_Float16> a(exactHalves(size_t(p.m) * p.k, 3 + p.m)), b(exactHalves(size_t(p.k) * p.n, 5 + p.n));
  std::vector<float> bias(p.n);
  for (int32_t j = 0; j < p.n; ++j) bias[j] = static_cast<float>(j % 7) - 3;
  Dev<float> dbias(bias), dc(std::vector<float>(size_t(p.m) * p.n, -99.0f));
  Dev<TCubeTiling> dt(std::vector<TCubeTiling>{t});
  // Element (i, k) of A and (k, j) of B where they are stored.
  auto atA = [&](int32_t i, int32_t kk) {
    return (trans & 1u) ? size_t(kk) * p.m + i : size_t(i) * p.k + kk;
  };
  auto atB = [&](int32_t kk, int32_t j) {
    return (trans & 2u) ? size_t(j) * p.k + kk : size_t(kk) * p.n + j;
  };
  const uint32_t blockDim = static_cast<uint32_t>((t.usedCoreNum + 1) / 2);  // two vector programs each
  ASSERT_EQ(
      ACLRT_LAUNCH_KERNEL(k_mm_api_all)(blockDim, s.stream, a.dev, b.dev, dbias.dev, dc.dev, dt.dev, trans),
      0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  const auto& c = dc.read();
  size_t bad = 0;
  for (int32_t i = 0; i < p.m; ++i)
    for (int32_t j = 0; j < p.n; ++j) {
      double want = p.bias ? bias[j] : 0;
      for (int32_t kk = 0; kk < p.k; ++kk)
        want += static_cast<double>(a.host[atA(i, kk)]) * static_cast<double>(b.host[atB(kk, j)]);
      if (c[size_t(i) * p.n + j] != static_cast<float>(want) && bad++ < 5)
        ADD_FAILURE() << "C(" << i << ", " << j << ") = " << c[size_t(i) * p.n + j] << ", want " << want;
    }
  EXPECT_EQ(bad, 0u);
}

}  // namespace

// The tiling's blocks fit L0A, L0B (half each: double buffering), L0C and L1 as the preset sizes
// them, are whole fractals, and the cores' pieces cover the shape with no more pieces than cores.
TEST(MatmulTiling, BlocksFitTheBuffersAndCoverTheShape) {
  Session s;
  const int64_t l0a = param("aicore.l0a_bytes"), l0b = param("aicore.l0b_bytes"),
                l0c = param("aicore.l0c_bytes"), l1 = param("aicore.l1_bytes");
  const Problem problems[] = {{16, 16, 16, 1},
                              {100, 70, 50, 2},
                              {512, 1024, 512, 2, 128, 128},
                              {1024, 640, 256, 2, 256, 128, -1, true},
                              {4096, 4096, 4096, 24},
                              {33, 4097, 7, 5},
                              {1, 1, 100000, 1},
                              {3000, 17, 333, 8, -1, -1, -1, true}};
  for (const Problem& p : problems) {
    SCOPED_TRACE(::testing::Message() << p.m << " x " << p.n << " x " << p.k << " on " << p.dim);
    TCubeTiling t;
    ASSERT_EQ(tile(p, t), 0);
    EXPECT_EQ(t.M, p.m);
    EXPECT_EQ(t.N, p.n);
    EXPECT_EQ(t.Ka, p.k);
    EXPECT_EQ(t.baseM % 16, 0);
    EXPECT_EQ(t.baseN % 16, 0);
    EXPECT_EQ(t.baseK % 16, 0);  // 32 bytes of half
    if (p.baseM > 0) {
      EXPECT_EQ(t.baseM, p.baseM);
    }
    if (p.baseN > 0) {
      EXPECT_EQ(t.baseN, p.baseN);
    }
    EXPECT_LE(int64_t(t.baseM) * t.baseK * 2 * t.dbL0A, l0a);
    EXPECT_LE(int64_t(t.baseK) * t.baseN * 2 * t.dbL0B, l0b);
    EXPECT_LE(int64_t(t.baseM) * t.baseN * 4, l0c);
    EXPECT_LE(
        (int64_t(t.baseM) * t.baseK * t.stepKa * t.stepM + int64_t(t.baseK) * t.baseN * t.stepKb * t.stepN) *
                2 +
            (p.bias ? t.baseN * 4 : 0),
        l1);
    EXPECT_GE(t.stepM, 1);
    EXPECT_GE(t.stepN, 1);
    const int32_t mPieces = (p.m + t.singleCoreM - 1) / t.singleCoreM,
                  nPieces = (p.n + t.singleCoreN - 1) / t.singleCoreN;
    EXPECT_EQ(t.usedCoreNum, mPieces * nPieces);
    EXPECT_LE(t.usedCoreNum, p.dim);
    EXPECT_GE(int64_t(mPieces) * t.singleCoreM, p.m);
    EXPECT_GE(int64_t(nPieces) * t.singleCoreN, p.n);
    EXPECT_LT(int64_t(mPieces - 1) * t.singleCoreM, p.m);  // no piece is empty
    EXPECT_LT(int64_t(nPieces - 1) * t.singleCoreN, p.n);
    EXPECT_EQ(t.singleCoreK, p.k);
    EXPECT_EQ(t.isBias, p.bias ? 1 : 0);
  }
}

// What L1 has left after a column panel of B keeps the other row panels of A when all fit:
// 64 x 1024 half panels of A (128 KiB) and of B (32 columns, 64 KiB) in a 512 KiB L1 hold all 3
// block rows of a 192-row matmul (stepM 3), not the 16 of a 1000-row one (stepM 1).
TEST(MatmulTiling, LeftoverL1KeepsTheRowPanelsOfA) {
  Session s;
  const int64_t panelA = 64 * 1024 * 2, panelB = 32 * 1024 * 2;
  ASSERT_GE(param("aicore.l1_bytes"), 3 * panelA + panelB);
  TCubeTiling t;
  ASSERT_EQ(tile({192, 64, 1024, 1, 64, 32, 32}, t), 0);
  EXPECT_EQ(t.stepKa, 1024 / 32);
  EXPECT_EQ(t.stepM, 3);
  EXPECT_EQ(t.stepN, 1);
  EXPECT_EQ(t.depthA1, t.stepKa * t.stepM);
  ASSERT_EQ(tile({1000, 64, 1024, 1, 64, 32, 32}, t), 0);
  EXPECT_EQ(t.stepM, 1);
}

// What it cannot tile it refuses with -1, as CANN's GetTiling does.
TEST(MatmulTiling, ShapesAndBuffersItCannotTileGiveMinusOne) {
  Session s;
  TCubeTiling t;
  EXPECT_EQ(tile({0, 16, 16, 1}, t), -1);               // an empty shape
  EXPECT_EQ(tile({512, 512, 64, 1, 512, 512}, t), -1);  // 512 x 512 fp32 does not fit L0C
  EXPECT_EQ(tile({64, 64, 64, 1, 24, 64}, t), -1);      // baseM not whole fractals
  EXPECT_EQ(tile({64, 64, 64, 1, -1, -1, 24}, t), -1);  // baseK not 32 bytes of half
  EXPECT_EQ(tile({1024, 1024, 64, 1, 256, 256, -1, false, TPosition::VECIN}, t), -1);  // C block > UB
  MatmulApiTiling small;
  small.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  small.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  small.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  small.SetShape(256, 256, 256);
  small.SetBufferSpace(1024, -1, -1);  // 1 KiB of L1 holds no block of A and B
  EXPECT_EQ(small.GetTiling(t), -1);
  MatmulApiTiling mixed;
  mixed.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8);
  mixed.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8);
  mixed.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);  // int8 accumulates in int32
  mixed.SetShape(64, 64, 64);
  EXPECT_EQ(mixed.GetTiling(t), -1);
  // optiling's buffer is the kernel's struct, field by field.
  optiling::TCubeTiling host;
  MatmulApiTiling one;
  one.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  one.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  one.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  one.SetShape(48, 80, 96);
  ASSERT_EQ(one.GetTiling(host), 0);
  ASSERT_EQ(host.GetDataSize(), sizeof(TCubeTiling));
  TCubeTiling back;
  host.SaveToBuffer(&back, sizeof(back));
  EXPECT_EQ(back.usedCoreNum, 1);
  EXPECT_EQ(back.singleCoreM, 48);
  EXPECT_EQ(back.singleCoreN, 80);
  EXPECT_EQ(back.baseK, host.get_baseK());
}

// IterateAll over shapes with tails in M, N and K (not multiples of the base block), on one
// to several cores, with and without a bias, A and B stored as they are or transposed.
TEST(MatmulApi, IterateAllMatchesAHostReference) {
  Session s;
  checkProduct(s, {16, 16, 16, 1});
  checkProduct(s, {100, 70, 50, 2});                     // tails everywhere
  checkProduct(s, {200, 150, 300, 4, 64, 48, 32});       // several blocks and K steps, all with tails
  checkProduct(s, {130, 300, 40, 3, -1, -1, -1, true});  // bias
  checkProduct(s, {64, 96, 2000, 2, 32, 32, 32});        // K steps beyond what L1 keeps at once
  checkProduct(s, {192, 64, 1024, 1, 64, 32, 32});       // L1 keeps all 3 row panels of A (stepM 3)
  checkProduct(s, {100, 70, 50, 2}, 1);                  // A transposed
  checkProduct(s, {200, 150, 300, 4, 64, 48, 32}, 3);    // both transposed, with tails and K steps
}

// A mixed kernel: each block of C is made on the cube then passed through LeakyRelu on the vector
// unit. The result is LeakyRelu of the product. In time each of the two vector programs (128 rows
// of C: 2 of the 4 blocks of 128 x 128 float, 64 KiB each) runs its vector passes on its own
// vector core while the cube core makes the other program's next block: once the vector work
// dominates, 32 more passes over each block add one program's share, 2 blocks x 32 passes at
// 256 B/cycle (not the 4 blocks' of programs in turn), within 3 %. The cube part alone lies
// between the larger of its MAC time and its GM reads at the core's MTE2 rate and their sum plus
// the fixed costs (task start 3 us, two scalar prologues of 2000 cycles, the stores; they cover
// the cross-core hand-overs, 8 of 64 cycles).
TEST(MatmulApi, MixedKernelRunsCubeThenVector) {
  Session s;
  const Problem p{256, 256, 256, 2, 128, 128, -1, false, TPosition::VECIN};
  TCubeTiling t;
  ASSERT_EQ(tile(p, t), 0);
  ASSERT_EQ(t.usedCoreNum, 2);
  Dev<_Float16> a(exactHalves(size_t(p.m) * p.k, 1)), b(exactHalves(size_t(p.k) * p.n, 2));
  Dev<float> dc(size_t(p.m) * p.n);
  Dev<TCubeTiling> dt(std::vector<TCubeTiling>{t});
  auto runMs = [&](uint32_t passes) {
    auto launch = [&] {
      ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_mm_api_leaky)(1, s.stream, a.dev, b.dev, dc.dev, dt.dev, passes), 0u);
    };
    return aicore_test::deviceMs(s.stream, launch, launch);
  };
  runMs(1);
  const auto& c = dc.read();
  size_t bad = 0;
  for (int32_t i = 0; i < p.m; ++i)
    for (int32_t j = 0; j < p.n; ++j) {
      double v = 0;
      for (int32_t kk = 0; kk < p.k; ++kk)
        v += static_cast<double>(a.host[size_t(i) * p.k + kk]) *
             static_cast<double>(b.host[size_t(kk) * p.n + j]);
      const float want = static_cast<float>(v >= 0 ? v : v * 0.125);
      if (c[size_t(i) * p.n + j] != want && bad++ < 5)
        ADD_FAILURE() << "C(" << i << ", " << j << ") = " << c[size_t(i) * p.n + j] << ", want " << want;
    }
  EXPECT_EQ(bad, 0u);
  const double cube = runMs(0), fewer = runMs(33), more = runMs(65);
  const auto& cfg = aicore_test::config();
  const double hz = cfg.getFloat("aicore.freq_ghz") * 1e9;
  // Each vector program passes over its own 2 blocks of 128 x 128, beside the other one.
  const double passMs = 2.0 * 128 * 128 * 4 / cfg.getFloat("aicore.vector_bytes_per_cycle") / hz * 1e3;
  const double macMs = double(p.m) * p.n * p.k / cfg.getFloat("aicore.cube_macs_per_cycle") / hz * 1e3;
  // Each program (128 rows of C, two blocks) reads its 128 x 256 panel of A once and the two
  // 256 x 128 panels of B (a panel stays in L1 while its block row or column is in use).
  const double readMs =
      2.0 * (128 * 256 + 2 * 256 * 128) * 2 / cfg.getFloat("aicore.mte_bytes_per_cycle") / hz * 1e3;
  const double fixedMs = 3e-3 + 2 * 2000 / hz * 1e3 + 4.0 * 128 * 128 * 4 / 86 / hz * 1e3;
  std::printf(
      "k_mm_api_leaky 256^3: cube part %.3f us (MACs %.3f us, GM reads at the MTE2 rate %.3f us, fixed %.3f "
      "us); "
      "33 vector passes %.3f us, 65 passes %.3f us, 32 passes at the vector rate %.3f us\n",
      cube * 1e3, macMs * 1e3, readMs * 1e3, fixedMs * 1e3, fewer * 1e3, more * 1e3, 32 * passMs * 1e3);
  EXPECT_NEAR(more - fewer, 32 * passMs, 0.03 * 32 * passMs);
  EXPECT_GT(cube, std::max(macMs, readMs));
  EXPECT_LT(cube, macMs + readMs + fixedMs);
}

// The CPU debug mode runs a mixed kernel as a launch does: blockDim 1 is one AI core, and both of
// its vector programs (GetBlockIdx 0 and 1) compute their half of C.
TEST(MatmulApi, CpuDebugRunsEveryVectorProgramOfAMixedKernel) {
  const Problem p{96, 64, 48, 2};
  TCubeTiling t;
  ASSERT_EQ(tile(p, t), 0);
  ASSERT_EQ(t.usedCoreNum, 2);
  const auto a = exactHalves(size_t(p.m) * p.k, 9), b = exactHalves(size_t(p.k) * p.n, 10);
  auto* ga = static_cast<_Float16*>(AscendC::GmAlloc(a.size() * 2));
  auto* gb = static_cast<_Float16*>(AscendC::GmAlloc(b.size() * 2));
  auto* gc = static_cast<float*>(AscendC::GmAlloc(size_t(p.m) * p.n * 4));
  auto* gt = static_cast<TCubeTiling*>(AscendC::GmAlloc(sizeof(TCubeTiling)));
  std::copy(a.begin(), a.end(), ga);
  std::copy(b.begin(), b.end(), gb);
  std::fill(gc, gc + size_t(p.m) * p.n, -99.0f);
  *gt = t;
  auto gm = [](void* q) { return static_cast<uint8_t*>(q); };
  ASSERT_EQ(ICPU_RUN_KF(k_mm_api_all, 1, gm(ga), gm(gb), gm(gc), gm(gc), gm(gt), uint32_t{0}), 0);
  size_t bad = 0;
  for (int32_t i = 0; i < p.m; ++i)
    for (int32_t j = 0; j < p.n; ++j) {
      double want = 0;
      for (int32_t kk = 0; kk < p.k; ++kk)
        want += static_cast<double>(a[size_t(i) * p.k + kk]) * static_cast<double>(b[size_t(kk) * p.n + j]);
      if (gc[size_t(i) * p.n + j] != static_cast<float>(want)) ++bad;
    }
  EXPECT_EQ(bad, 0u);
  for (void* q :
       {static_cast<void*>(ga), static_cast<void*>(gb), static_cast<void*>(gc), static_cast<void*>(gt)})
    AscendC::GmFree(q);
}

// A tiling the core cannot hold, or base blocks that are not whole fractals, end the kernel with
// an exception that says why, not a wrong product: the vector-core exception, as Init runs in the
// mixed kernel's vector program before it has used the cube.
TEST(MatmulApi, ATilingTheCoreCannotHoldEndsTheKernel) {
  Session s;
  TCubeTiling good;
  ASSERT_EQ(tile({64, 64, 256, 2}, good), 0);
  Dev<_Float16> a(exactHalves(64 * 256, 1)), b(exactHalves(256 * 64, 2));
  Dev<float> c(size_t(64) * 64);
  TCubeTiling tooDeep = good, notFractals = good;
  tooDeep.stepKa = 4096;  // 4096 K steps of A in L1
  notFractals.baseM = 24;
  const std::pair<TCubeTiling, const char*> cases[] = {
      {tooDeep, "more than the cube core's L1 buffer"},
      {notFractals, "Matmul::Init: baseM and baseN must be positive multiples of 16"}};
  for (const auto& [t, why] : cases) {
    Dev<TCubeTiling> dt(std::vector<TCubeTiling>{t});
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_mm_api_all)(1, s.stream, a.dev, b.dev, c.dev, c.dev, dt.dev, 0), 0u);
    EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find(why), std::string::npos) << aclGetRecentErrMsg();
  }
}

// Cube kernels (docs/kernels.md, "Cube kernels"): LoadData, Mmad and the L0C copies compute the
// right product only from the hardware's fractal layouts, which are checked element by element
// against formulas written here from the layouts' definitions; an Mmad-bound kernel takes the
// time of its fractal MACs at the cube rate; such kernels run on the cube cores.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_cube_dtypes.h"
#include "aclrtlaunch_k_cube_layouts.h"
#include "aclrtlaunch_k_cube_matmul.h"
#include "aclrtlaunch_k_cube_misuse.h"
#include "aclrtlaunch_k_cube_mmad_loop.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/kernels/dev_buffer.h"

using aicore_test::Session;

namespace {

// Device memory holding `host`'s bytes (or `bytes` zero bytes).
template <class T>
void* toDevice(const std::vector<T>& host) {
  void* d = nullptr;
  EXPECT_EQ(aclrtMalloc(&d, host.size() * sizeof(T), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(d, host.size() * sizeof(T), host.data(), host.size() * sizeof(T),
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  return d;
}
template <class T>
std::vector<T> fromDevice(void* d, size_t n) {
  std::vector<T> host(n);
  EXPECT_EQ(aclrtMemcpy(host.data(), n * sizeof(T), d, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  return host;
}

// Values the products and sums of which float holds exactly.
std::vector<_Float16> matrix(size_t n, uint32_t seed) { return kernel_test::exactHalves(n, seed); }

// C = A x B in double, row-major.
std::vector<float> reference(const std::vector<_Float16>& a, const std::vector<_Float16>& b, size_t off,
                             uint32_t m, uint32_t n, uint32_t k, double scale = 1) {
  std::vector<float> c(size_t{m} * n);
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      double s = 0;
      for (uint32_t kk = 0; kk < k; ++kk)
        s += static_cast<double>(a[off * m * k + size_t{i} * k + kk]) *
             static_cast<double>(b[off * k * n + size_t{kk} * n + j]);
      c[size_t{i} * n + j] = static_cast<float>(s * scale);
    }
  return c;
}

struct Shape {
  uint32_t blocks, m, n, k, kStep;
};

void checkMatmul(Session& s, const Shape& sh) {
  const size_t aN = size_t{sh.blocks} * sh.m * sh.k, bN = size_t{sh.blocks} * sh.k * sh.n,
               cN = size_t{sh.blocks} * sh.m * sh.n;
  const auto a = matrix(aN, 7 + sh.m), b = matrix(bN, 11 + sh.n);
  void* da = toDevice(a);
  void* db = toDevice(b);
  void* dc = toDevice(std::vector<float>(cN, -1.0f));
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_cube_matmul)(sh.blocks, s.stream, da, db, dc, sh.m, sh.n, sh.k, sh.kStep),
            0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  const auto c = fromDevice<float>(dc, cN);
  size_t wrong = 0;
  for (uint32_t blk = 0; blk < sh.blocks; ++blk) {
    const auto want = reference(a, b, blk, sh.m, sh.n, sh.k);
    for (size_t i = 0; i < want.size(); ++i)
      if (c[blk * want.size() + i] != want[i] && wrong++ < 5)
        ADD_FAILURE() << sh.m << "x" << sh.n << "x" << sh.k << " block " << blk << " C[" << i / sh.n << "]["
                      << i % sh.n << "] = " << c[blk * want.size() + i] << ", expected " << want[i];
  }
  EXPECT_EQ(wrong, 0u) << sh.m << "x" << sh.n << "x" << sh.k << " in K steps of " << sh.kStep;
  aclrtFree(da);
  aclrtFree(db);
  aclrtFree(dc);
}

// Device time (ms) of k_cube_mmad_loop with `repeats` products; checks C = repeats x A x B.
double mmadLoopMs(Session& s, uint32_t blocks, uint32_t repeats, uint32_t vectorPasses = 0) {
  const uint32_t m = 128, n = 128, k = 256;
  const auto a = matrix(size_t{blocks} * m * k, 3), b = matrix(size_t{blocks} * k * n, 5);
  void* da = toDevice(a);
  void* db = toDevice(b);
  void* dc = toDevice(std::vector<float>(size_t{blocks} * m * n));
  auto launch = [&] {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_cube_mmad_loop)(blocks, s.stream, da, db, dc, repeats, vectorPasses), 0u);
  };
  const double ms = aicore_test::deviceMs(s.stream, launch, launch);
  const auto c = fromDevice<float>(dc, size_t{blocks} * m * n);
  const auto want = reference(a, b, blocks - 1, m, n, k, repeats);
  EXPECT_EQ(std::vector<float>(c.end() - static_cast<long>(want.size()), c.end()), want);
  aclrtFree(da);
  aclrtFree(db);
  aclrtFree(dc);
  return ms;
}

}  // namespace

// The product through L1, L0A/L0B and L0C, for several shapes (the Ascend/samples MatMul's 32³
// among them), in one K step or several accumulating in L0C, one block or several.
TEST(KernelCube, MatmulMatchesAHostReference) {
  Session s;
  checkMatmul(s, {1, 16, 16, 16, 16});
  checkMatmul(s, {1, 32, 32, 32, 32});
  checkMatmul(s, {1, 64, 48, 96, 32});
  checkMatmul(s, {2, 128, 64, 128, 64});
  checkMatmul(s, {3, 32, 128, 256, 128});
}

// What LoadData puts in L0A and L0B, element by element, against the layouts' definitions:
// L0A zZ (16 x 16 fractals, row-major inside, row-major between), L0B zN (column-major inside,
// row-major between). Element values are their row-major index, exact in half below 2048.
TEST(KernelCube, LoadDataArrangesTheFractalLayoutsTheCubeNeeds) {
  Session s;
  const uint32_t m = 32, n = 48, k = 32, nB = n / 16, kB = k / 16;
  std::vector<_Float16> a(size_t{m} * k), b(size_t{k} * n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<_Float16>(i);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<_Float16>(i);
  void* da = toDevice(a);
  void* db = toDevice(b);
  void* oa = toDevice(std::vector<_Float16>(a.size()));
  void* ob = toDevice(std::vector<_Float16>(b.size()));
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_cube_layouts)(1, s.stream, da, db, oa, ob, m, n, k), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  const auto l0a = fromDevice<_Float16>(oa, a.size()), l0b = fromDevice<_Float16>(ob, b.size());
  for (size_t p = 0; p < l0a.size(); ++p) {  // position p: fractal p / 256, element p % 256
    const size_t f = p / 256, e = p % 256;
    const size_t row = f / kB * 16 + e / 16, col = f % kB * 16 + e % 16;
    ASSERT_EQ(static_cast<float>(l0a[p]), static_cast<float>(a[row * k + col])) << "L0A position " << p;
  }
  for (size_t p = 0; p < l0b.size(); ++p) {
    const size_t f = p / 256, e = p % 256;
    const size_t row = f / nB * 16 + e % 16, col = f % nB * 16 + e / 16;
    ASSERT_EQ(static_cast<float>(l0b[p]), static_cast<float>(b[row * n + col])) << "L0B position " << p;
  }
  aclrtFree(da);
  aclrtFree(db);
  aclrtFree(oa);
  aclrtFree(ob);
}

namespace {

// Element (row, col) of A (m x k, zZ) and B (k x n, zN) for K0 = 32 / bytes per element, and of C
// (m x n, nZ): fractal index times the fractal's elements plus the place inside it.
size_t zZAt(size_t row, size_t col, size_t k, size_t k0) {
  return (row / 16 * (k / k0) + col / k0) * 16 * k0 + row % 16 * k0 + col % k0;
}
size_t zNAt(size_t row, size_t col, size_t n, size_t k0) {
  return (row / k0 * (n / 16) + col / 16) * 16 * k0 + col % 16 * k0 + row % k0;
}
size_t nZAt(size_t row, size_t col, size_t m) {
  return (col / 16 * (m / 16) + row / 16) * 256 + row % 16 * 16 + col % 16;
}

// Integers in [-8, 8] as T's bytes (bfloat16: a float's upper half, exact for them).
template <class T>
void put(std::vector<uint8_t>& bytes, size_t at, int v) {
  if (std::is_same<T, uint16_t>::value) {  // bfloat16
    const float f = static_cast<float>(v);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    const uint16_t h = static_cast<uint16_t>(u >> 16);
    std::memcpy(&bytes[at * 2], &h, 2);
  } else {
    const T x = static_cast<T>(v);
    std::memcpy(&bytes[at * sizeof(T)], &x, sizeof(T));
  }
}

// k_cube_dtypes for one type: A and B arranged on the host, C read back from its nZ layout.
template <class T, class C>
void checkDtype(Session& s, uint32_t type, uint32_t m, uint32_t n, uint32_t k) {
  const size_t k0 = 32 / sizeof(T);
  std::vector<int> a(size_t{m} * k), b(size_t{k} * n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int>((i * 7 + 3) % 17) - 8;
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<int>((i * 5 + 1) % 17) - 8;
  std::vector<uint8_t> ab(a.size() * sizeof(T)), bb(b.size() * sizeof(T));
  for (size_t r = 0; r < m; ++r)
    for (size_t c = 0; c < k; ++c) put<T>(ab, zZAt(r, c, k, k0), a[r * k + c]);
  for (size_t r = 0; r < k; ++r)
    for (size_t c = 0; c < n; ++c) put<T>(bb, zNAt(r, c, n, k0), b[r * n + c]);
  void* da = toDevice(ab);
  void* db = toDevice(bb);
  void* dc = toDevice(std::vector<C>(size_t{m} * n));
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_cube_dtypes)(1, s.stream, da, db, dc, type, m, n, k), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  const auto c = fromDevice<C>(dc, size_t{m} * n);
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      long want = 0;
      for (size_t kk = 0; kk < k; ++kk) want += long{a[i * k + kk]} * b[kk * n + j];
      ASSERT_EQ(static_cast<double>(c[nZAt(i, j, m)]), static_cast<double>(want))
          << "type " << type << " C[" << i << "][" << j << "]";
    }
  aclrtFree(da);
  aclrtFree(db);
  aclrtFree(dc);
}

}  // namespace

// bfloat16_t and float into float, int8_t into int32_t: operands arranged by the host in their
// fractals (K0 16, 8 and 32), loaded from GM into L0A/L0B, C checked where nZ puts each element.
TEST(KernelCube, OtherOperandTypesUseTheirOwnFractals) {
  Session s;
  checkDtype<uint16_t, float>(s, 0, 32, 48, 64);
  checkDtype<float, float>(s, 1, 32, 48, 64);
  checkDtype<int8_t, int32_t>(s, 2, 32, 48, 64);
}

// An Mmad-bound kernel: 32 more 128 x 128 x 256 fp16 products take 32 x 1024 cycles of the cube
// (4096 MACs a cycle: one 16 x 16 x 16 fractal step) at the core clock, within 2 %.
TEST(KernelCube, MmadBoundKernelRunsAtTheCubeMacRate) {
  Session s;
  const double few = mmadLoopMs(s, 1, 16), many = mmadLoopMs(s, 1, 48);
  const auto& cfg = aicore_test::config();
  const double macRate = cfg.getFloat("aicore.cube_macs_per_cycle") * cfg.getFloat("aicore.freq_ghz") * 1e9;
  const double wantMs = 32.0 * 128 * 128 * 256 / macRate * 1e3;
  std::printf(
      "k_cube_mmad_loop: 16 products %.3f us, 48 products %.3f us; 32 products at the cube rate %.3f us\n",
      few * 1e3, many * 1e3, wantMs * 1e3);
  EXPECT_NEAR(many - few, wantMs, 0.02 * wantMs);
}

// A kernel using the cube runs on the cube cores: with two of them, a third block waits for one
// to free up and adds a block's time (its 8 products alone are 8 x 1024 cycles), where three
// vector cores would have run the blocks side by side.
TEST(KernelCube, CubeKernelsRunOnTheCubeCores) {
  setenv("NPUSIM_SET", "aicore.cube_cores=2", 1);
  Session s;
  const double two = mmadLoopMs(s, 2, 8), three = mmadLoopMs(s, 3, 8);
  const auto& cfg = aicore_test::config();
  const double productsMs = 8.0 * 1024 / (cfg.getFloat("aicore.freq_ghz") * 1e9) * 1e3;
  std::printf("k_cube_mmad_loop on 2 cube cores: 2 blocks %.3f us, 3 blocks %.3f us\n", two * 1e3,
              three * 1e3);
  EXPECT_GT(three - two, productsMs);
}

// A mixed kernel (cube and vector work) runs on the cube cores with its vector work after its cube
// work: 32 passes of Muls over the 128 x 128 float C (64 KiB each) add 32 x 256 cycles of the
// vector unit (256 B/cycle) within 3 %.
TEST(KernelCube, MixedKernelAddsItsVectorWorkOnTheCubeCore) {
  Session s;
  const double cube = mmadLoopMs(s, 1, 16), mixed = mmadLoopMs(s, 1, 16, 32);
  const auto& cfg = aicore_test::config();
  const double wantMs = 32.0 * 128 * 128 * 4 / cfg.getFloat("aicore.vector_bytes_per_cycle") /
                        (cfg.getFloat("aicore.freq_ghz") * 1e9) * 1e3;
  std::printf("k_cube_mmad_loop: cube only %.3f us, with 32 vector passes %.3f us; the passes %.3f us\n",
              cube * 1e3, mixed * 1e3, wantMs * 1e3);
  EXPECT_NEAR(mixed - cube, wantMs, 0.03 * wantMs);
}

// Misuse ends the kernel with an AI-core exception (the cube core's) that names it.
TEST(KernelCube, MisplacedOperandsAndFullL0EndTheKernel) {
  Session s;
  void* dc = toDevice(std::vector<float>(8));
  const char* why[] = {"Mmad: the left matrix must be in A2 (L0A)", "more than the cube core's L0A buffer"};
  for (uint32_t what = 0; what < 2; ++what) {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_cube_misuse)(1, s.stream, dc, what), 0u);
    EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find(why[what]), std::string::npos) << aclGetRecentErrMsg();
  }
  aclrtFree(dc);
}

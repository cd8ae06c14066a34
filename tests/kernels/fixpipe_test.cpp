// Fixpipe (docs/kernels.md, "Cube kernels"): what each way out of L0C writes, element by element,
// against C computed here in the cube's own order (float sums along K of exact half products) and
// the layouts' definitions; the conversions round to nearest even; a Fixpipe-bound kernel writes at
// the preset's MTE3 write rate; unsupported modes end the kernel with the reason.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_fixpipe.h"
#include "aclrtlaunch_k_fixpipe_repeat.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/kernels/dev_buffer.h"

using aicore_test::Session;
using kernel_test::Dev;

namespace {

// A (m x k) and B (k x n): halves whose products are not all halves, so conversions round.
std::vector<_Float16> operand(size_t n, int mul) {
  std::vector<_Float16> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = static_cast<_Float16>(static_cast<float>(static_cast<int>(i * mul % 19) - 9) * 0.37f);
  return v;
}
// x (rows x cols, row-major) rearranged: element (r, c) goes to at(r, c).
template <class At>
std::vector<_Float16> arrange(const std::vector<_Float16>& x, size_t rows, size_t cols, At at) {
  std::vector<_Float16> z(x.size());
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c) z[at(r, c)] = x[r * cols + c];
  return z;
}
// A in zZ and B in zN for K0 = 16 (cube_test.cpp checks those layouts against LoadData's).
std::vector<_Float16> toZz(const std::vector<_Float16>& a, size_t m, size_t k) {
  return arrange(
      a, m, k, [k](size_t r, size_t c) { return (r / 16 * (k / 16) + c / 16) * 256 + r % 16 * 16 + c % 16; });
}
std::vector<_Float16> toZn(const std::vector<_Float16>& b, size_t k, size_t n) {
  return arrange(
      b, k, n, [n](size_t r, size_t c) { return (r / 16 * (n / 16) + c / 16) * 256 + c % 16 * 16 + r % 16; });
}

// What L0C holds: C = A x B summed in float along K in order, as the cube does.
struct Product {
  size_t m, n, k;
  std::vector<_Float16> a, b;
  std::vector<float> c;
  Product(size_t mm, size_t nn, size_t kk) : m(mm), n(nn), k(kk), a(operand(m * k, 7)), b(operand(k * n, 5)) {
    c.resize(m * n);
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) {
        float s = 0;
        for (size_t x = 0; x < k; ++x)
          s += static_cast<float>(a[i * k + x]) * static_cast<float>(b[x * n + j]);
        c[i * n + j] = s;
      }
  }
  float at(size_t i, size_t j) const { return c[i * n + j]; }
};

// bfloat16 of a float, rounded to nearest even (the upper half of the float's bits).
uint16_t bf16Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
uint16_t halfBits(float f) {
  const _Float16 h = static_cast<_Float16>(f);
  uint16_t u;
  std::memcpy(&u, &h, 2);
  return u;
}

// Runs k_fixpipe's case `how` over an output buffer of `n` T filled with `fill`; returns it.
template <class T>
std::vector<T> run(Session& s, const Product& p, uint32_t how, size_t n, T fill) {
  Dev<_Float16> a(toZz(p.a, p.m, p.k)), b(toZn(p.b, p.k, p.n));
  Dev<T> out(std::vector<T>(n, fill));
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(k_fixpipe)(1, s.stream, a.dev, b.dev, out.dev, how), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  return out.read();
}

constexpr float kSentinel = -12345.0f;

}  // namespace

// NZ2ND as float with ReLU: rows 0..29 and columns 0..39 of C land at row x 50 + column, negative
// ones as 0; every other element keeps its sentinel.
TEST(Fixpipe, RowMajorFloatWithReluWritesTheBlockAtItsRowPitch) {
  Session s;
  const Product p(32, 48, 16);
  const auto out = run<float>(s, p, 0, 30 * 50, kSentinel);
  for (size_t r = 0; r < 30; ++r)
    for (size_t c = 0; c < 50; ++c) {
      const float want = c < 40 ? (p.at(r, c) < 0 ? 0.0f : p.at(r, c)) : kSentinel;
      ASSERT_EQ(out[r * 50 + c], want) << "row " << r << " column " << c;
    }
}

// Under SetAtomicAdd<float> Fixpipe to GM adds each element of the block to what GM holds (the
// DMA atomic add applies to the fixpipe's writes as to DataCopy's); the rest keeps its value.
TEST(Fixpipe, AtomicAddAddsTheBlockToGm) {
  Session s;
  const Product p(32, 48, 16);
  const auto out = run<float>(s, p, 8, 30 * 50, 2.5f);
  for (size_t r = 0; r < 30; ++r)
    for (size_t c = 0; c < 50; ++c) {
      const float want = c < 40 ? 2.5f + p.at(r, c) : 2.5f;
      ASSERT_EQ(out[r * 50 + c], want) << "row " << r << " column " << c;
    }
}

// F322F16 and F322BF16 round each float of C to nearest even (CAST_RINT): equal bit for bit to the
// host's rounding, and some of C's values are not halves, so the rounding is exercised.
TEST(Fixpipe, ConversionsToHalfAndBfloat16RoundToNearestEven) {
  Session s;
  const Product p(32, 48, 16);
  const auto h = run<uint16_t>(s, p, 1, 30 * 50, 0xffff), bf = run<uint16_t>(s, p, 2, 30 * 50, 0xffff);
  size_t inexact = 0;
  for (size_t r = 0; r < 30; ++r)
    for (size_t c = 0; c < 40; ++c) {
      ASSERT_EQ(h[r * 50 + c], halfBits(p.at(r, c))) << "half row " << r << " column " << c;
      ASSERT_EQ(bf[r * 50 + c], bf16Bits(p.at(r, c))) << "bfloat16 row " << r << " column " << c;
      inexact += static_cast<float>(static_cast<_Float16>(p.at(r, c))) != p.at(r, c);
    }
  EXPECT_GT(inexact, 100u);
  EXPECT_EQ(h[40], 0xffff);  // past nSize in row 0
}

// CFG_NZ keeps L0C's nZ layout: column block j at j x 68 blocks of 32 bytes (544 floats), its rows
// 16 floats apart.
TEST(Fixpipe, NzOutputKeepsTheFractalsAtDstStrideBlocks) {
  Session s;
  const Product p(32, 48, 16);
  const auto out = run<float>(s, p, 3, 3 * 544, kSentinel);
  for (size_t j = 0; j < 3; ++j)
    for (size_t e = 0; e < 544; ++e) {
      const size_t r = e / 16, c = j * 16 + e % 16;
      ASSERT_EQ(out[j * 544 + e], e < 32 * 16 ? p.at(r, c) : kSentinel) << "block " << j << " element " << e;
    }
}

// ndNum 3: matrix i starts srcNdStride (2) fractals after matrix i - 1 in L0C (the next column
// block, 32 rows deep) and dstNdStride (264) elements after it in GM.
TEST(Fixpipe, SeveralNdMatricesFollowTheirNdStrides) {
  Session s;
  const Product p(32, 48, 16);
  const auto out = run<float>(s, p, 4, 3 * 264, kSentinel);
  for (size_t i = 0; i < 3; ++i)
    for (size_t e = 0; e < 264; ++e) {
      const float want = e < 256 ? p.at(e / 16, i * 16 + e % 16) : kSentinel;
      ASSERT_EQ(out[i * 264 + e], want) << "matrix " << i << " element " << e;
    }
}

// To L1 the A2 writes nZ (here as half, dstStride 32 blocks: column blocks back to back), which the
// kernel then copies to GM as it lies.
TEST(Fixpipe, ToL1WritesNzHalves) {
  Session s;
  const Product p(32, 48, 16);
  const auto out = run<uint16_t>(s, p, 5, 32 * 48, 0xffff);
  for (size_t e = 0; e < out.size(); ++e) {
    const size_t j = e / 512, r = e % 512 / 16, c = j * 16 + e % 16;
    ASSERT_EQ(out[e], halfBits(p.at(r, c))) << "element " << e;
  }
}

// The dequantising modes and a unified-buffer destination (no A2 path) end the kernel with the
// cube core's exception and the reason.
TEST(Fixpipe, UnsupportedModesEndTheKernelWithTheReason) {
  Session s;
  const Product p(32, 48, 16);
  Dev<_Float16> a(toZz(p.a, 32, 16)), b(toZn(p.b, 16, 48));
  Dev<float> out(32 * 48);
  const char* why[] = {"quantPre DEQF16 (int32_t to half by a scalar) is not supported",
                       "the A2 has no CO1 -> UB path"};
  const uint32_t how[] = {6, 7};
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_fixpipe)(1, s.stream, a.dev, b.dev, out.dev, how[i]), 0u);
    EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find(why[i]), std::string::npos) << aclGetRecentErrMsg();
  }
}

// A Fixpipe-bound kernel: 32 more writes of a 128 x 128 float C (64 KiB each) take their bytes at
// aicore.l2_write_bytes_per_cycle (the MTE3/fixpipe write rate) at the core clock, within 2 %
// (the HBM behind it is ten times faster than one core's write rate).
TEST(Fixpipe, FixpipeToGmWritesAtThePresetWriteRate) {
  Session s;
  const Product p(128, 128, 16);
  Dev<_Float16> a(toZz(p.a, 128, 16)), b(toZn(p.b, 16, 128));
  Dev<float> out(size_t{40} * 128 * 128);
  auto timed = [&](uint32_t repeats) {
    auto launch = [&] {
      ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_fixpipe_repeat)(1, s.stream, a.dev, b.dev, out.dev, repeats), 0u);
    };
    return aicore_test::deviceMs(s.stream, launch, launch);
  };
  const double few = timed(8), many = timed(40);
  const auto& c = out.read();
  for (size_t e = 0; e < 128 * 128; ++e) ASSERT_EQ(c[39 * 128 * 128 + e], p.c[e]) << "element " << e;
  const auto& cfg = aicore_test::config();
  const double rate = cfg.getFloat("aicore.l2_write_bytes_per_cycle") * cfg.getFloat("aicore.freq_ghz") * 1e9;
  const double wantMs = 32.0 * 128 * 128 * 4 / rate * 1e3;
  std::printf(
      "k_fixpipe_repeat: 8 writes %.3f us, 40 writes %.3f us; 32 x 64 KiB at the write rate %.3f us\n",
      few * 1e3, many * 1e3, wantMs * 1e3);
  EXPECT_NEAR(many - few, wantMs, 0.02 * wantMs);
}

// fp16 / bf16 / HF32 conversions: bit-exact against the compiler's IEEE _Float16 and an
// independent nearest-even reference, with the tie, subnormal and overflow edge cases.
#include "runtime/aclnn/base/float_bits.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "aclnn_test_util.h"

using namespace npusim::aclnn;

namespace {

uint16_t compilerHalf(float f) {
  _Float16 h = static_cast<_Float16>(f);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}

}  // namespace

TEST(FloatBits, HalfToFloatIsExactForEveryHalf) {
  for (uint32_t b = 0; b < 65536; ++b) {
    _Float16 h;
    uint16_t bits = static_cast<uint16_t>(b);
    std::memcpy(&h, &bits, 2);
    const float expect = static_cast<float>(h);
    const float got = halfToFloat(bits);
    if (std::isnan(expect)) {
      EXPECT_TRUE(std::isnan(got)) << b;
    } else {
      ASSERT_EQ(floatBits(got), floatBits(expect)) << "half bits " << b;
    }
  }
}

TEST(FloatBits, FloatToHalfMatchesIeeeOnRandomAndEdgeInputs) {
  std::mt19937 g(7);
  std::uniform_int_distribution<uint32_t> bits;
  for (int i = 0; i < 2000000; ++i) {
    uint32_t u = bits(g);
    // Concentrate half the samples on the half range (|x| < 2^17) where rounding matters.
    if (i & 1) u = (u & 0x80000000u) | (0x30000000u + (u & 0x0fffffffu) % 0x17800000u);
    const float f = bitsFloat(u);
    if (std::isnan(f)) continue;
    ASSERT_EQ(floatToHalf(f), compilerHalf(f)) << "float bits " << std::hex << u;
  }
  // Every value halfway between two adjacent halves (ties) and just either side of it.
  for (uint32_t b = 0; b < 0x7c00; ++b) {
    const double lo = halfToFloat(static_cast<uint16_t>(b)), hi = halfToFloat(static_cast<uint16_t>(b + 1));
    const float mid = static_cast<float>((lo + hi) / 2);  // exact: halves have 11 bits
    ASSERT_EQ(floatToHalf(mid), compilerHalf(mid)) << b;
    ASSERT_EQ(floatToHalf(-mid), compilerHalf(-mid)) << b;
    ASSERT_EQ(floatToHalf(std::nextafter(mid, 0.0f)), compilerHalf(std::nextafter(mid, 0.0f))) << b;
    ASSERT_EQ(floatToHalf(std::nextafter(mid, 1e30f)), compilerHalf(std::nextafter(mid, 1e30f))) << b;
  }
}

TEST(FloatBits, HalfTiesGoToEvenAndOverflowGivesInfinity) {
  EXPECT_EQ(floatToHalf(1.0f + 0x1p-11f), 0x3c00);      // tie, 1.0 is even
  EXPECT_EQ(floatToHalf(1.0f + 3 * 0x1p-11f), 0x3c02);  // tie, rounds up to even
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);             // largest half
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff);             // below the tie with 65536
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);             // tie to "65536" (even) = inf
  EXPECT_EQ(floatToHalf(-1e9f), 0xfc00);
  EXPECT_EQ(floatToHalf(0x1p-24f), 0x0001);    // smallest subnormal
  EXPECT_EQ(floatToHalf(0x1p-25f), 0x0000);    // tie with 0 -> even (0)
  EXPECT_EQ(floatToHalf(0x1.8p-24f), 0x0002);  // tie 1.5 ulp -> 2
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(INFINITY), 0x7c00);
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(NAN))));
}

TEST(FloatBits, Bf16MatchesNearestEvenReference) {
  std::mt19937 g(11);
  std::uniform_int_distribution<uint32_t> bits;
  for (int i = 0; i < 1000000; ++i) {
    const float f = bitsFloat(bits(g));
    if (std::isnan(f)) continue;
    const double expect = aclnn_test::roundBf16(f);
    const double got = bf16ToFloat(floatToBf16(f));
    if (std::isinf(expect)) {
      ASSERT_TRUE(std::isinf(got) && (got > 0) == (expect > 0)) << f;
    } else {
      ASSERT_EQ(got, expect) << "float bits " << std::hex << floatBits(f);
    }
  }
  EXPECT_EQ(floatToBf16(1.0f + 0x1p-8f), 0x3f80);      // tie -> even (1.0)
  EXPECT_EQ(floatToBf16(1.0f + 3 * 0x1p-8f), 0x3f82);  // tie -> even (up)
  EXPECT_EQ(floatToBf16(3.4e38f), 0x7f80);             // rounds past the largest bf16
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBf16(NAN))));
}

TEST(FloatBits, Hf32KeepsElevenMantissaBitsWithTiesToEven) {
  EXPECT_EQ(roundToHf32(1.0f + 0x1p-11f), 1.0f + 0x1p-11f);      // representable
  EXPECT_EQ(roundToHf32(1.0f + 0x1p-12f), 1.0f);                 // tie -> even
  EXPECT_EQ(roundToHf32(1.0f + 3 * 0x1p-12f), 1.0f + 0x1p-10f);  // tie -> even (up)
  EXPECT_EQ(roundToHf32(1.0f + 0x1p-12f + 0x1p-20f), 1.0f + 0x1p-11f);
  EXPECT_EQ(roundToHf32(-3.0f), -3.0f);
  std::mt19937 g(3);
  std::uniform_real_distribution<float> u(-100.0f, 100.0f);
  for (int i = 0; i < 100000; ++i) {
    const float x = u(g);
    const float r = roundToHf32(x);
    int e;
    std::frexp(x, &e);
    const double ulp = std::ldexp(1.0, e - 12);  // 12 significant bits
    ASSERT_LE(std::fabs(static_cast<double>(r) - x), ulp / 2) << x;
    ASSERT_EQ(floatBits(r) & 0xfffu, 0u) << x;
  }
}

TEST(FloatBits, DoubleToHalfHasNoDoubleRounding) {
  // 1 + 2^-11 + 2^-40: above the tie, so it must round up, although rounding to fp32 first
  // (1 + 2^-11 exactly) would then tie to even (down).
  const double d = 1.0 + 0x1p-11 + 0x1p-40;
  EXPECT_EQ(doubleToHalf(d), 0x3c01);
  EXPECT_EQ(floatToHalf(static_cast<float>(d)), 0x3c00);
  EXPECT_EQ(doubleToBf16(1.0 + 0x1p-8 + 0x1p-40), 0x3f81);
  EXPECT_EQ(doubleToHalf(-(1.0 + 0x1p-11 + 0x1p-40)), 0xbc01);
  EXPECT_EQ(doubleToHalf(1e300), 0x7c00);
}

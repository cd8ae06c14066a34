// aclFloatToFloat16 / aclFloat16ToFloat implement IEEE 754 binary16 with round-to-nearest-even.
// Expected bit patterns follow from the format: 1 sign, 5 exponent (bias 15), 10 mantissa bits.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "acl/acl.h"

namespace {

constexpr float kTwoPow(int e) {
  return e >= 0 ? static_cast<float>(1ULL << e) : 1.0f / static_cast<float>(1ULL << -e);
}

}  // namespace

TEST(Fp16, ExactValues) {
  EXPECT_EQ(aclFloatToFloat16(0.0f), 0x0000);
  EXPECT_EQ(aclFloatToFloat16(-0.0f), 0x8000);
  EXPECT_EQ(aclFloatToFloat16(1.0f), 0x3C00);
  EXPECT_EQ(aclFloatToFloat16(-2.0f), 0xC000);
  EXPECT_EQ(aclFloatToFloat16(0.5f), 0x3800);
  EXPECT_EQ(aclFloatToFloat16(1.5f), 0x3E00);
  EXPECT_EQ(aclFloatToFloat16(65504.0f), 0x7BFF);  // largest finite half
  EXPECT_EQ(aclFloatToFloat16(-65504.0f), 0xFBFF);
  EXPECT_EQ(aclFloatToFloat16(kTwoPow(-14)), 0x0400);  // smallest normal
  EXPECT_EQ(aclFloat16ToFloat(0x3C00), 1.0f);
  EXPECT_EQ(aclFloat16ToFloat(0x7BFF), 65504.0f);
  EXPECT_EQ(aclFloat16ToFloat(0xC000), -2.0f);
  EXPECT_EQ(aclFloat16ToFloat(0x3555), 0.333251953125f);
  EXPECT_TRUE(std::signbit(aclFloat16ToFloat(0x8000)));
}

TEST(Fp16, Subnormals) {
  EXPECT_EQ(aclFloatToFloat16(kTwoPow(-24)), 0x0001);            // smallest subnormal
  EXPECT_EQ(aclFloatToFloat16(1023.0f * kTwoPow(-24)), 0x03FF);  // largest subnormal
  EXPECT_EQ(aclFloatToFloat16(-3.0f * kTwoPow(-24)), 0x8003);
  EXPECT_EQ(aclFloat16ToFloat(0x0001), kTwoPow(-24));
  EXPECT_EQ(aclFloat16ToFloat(0x03FF), 1023.0f * kTwoPow(-24));
  EXPECT_EQ(aclFloat16ToFloat(0x8200), -512.0f * kTwoPow(-24));
  // Below half the smallest subnormal everything flushes to (signed) zero, including float subnormals.
  EXPECT_EQ(aclFloatToFloat16(kTwoPow(-26)), 0x0000);
  EXPECT_EQ(aclFloatToFloat16(-std::numeric_limits<float>::denorm_min()), 0x8000);
  // Just above 2^-25 rounds up to the smallest subnormal.
  EXPECT_EQ(aclFloatToFloat16(std::nextafter(kTwoPow(-25), 1.0f)), 0x0001);
  // Rounding a subnormal up can carry into the smallest normal.
  EXPECT_EQ(aclFloatToFloat16(1023.75f * kTwoPow(-24)), 0x0400);
}

TEST(Fp16, RoundToNearestEven) {
  // 1 + 2^-11 is exactly between 0x3C00 and 0x3C01: ties go to the even mantissa (0x3C00).
  EXPECT_EQ(aclFloatToFloat16(1.0f + kTwoPow(-11)), 0x3C00);
  // 1 + 3*2^-11 is between 0x3C01 and 0x3C02: even is 0x3C02.
  EXPECT_EQ(aclFloatToFloat16(1.0f + 3.0f * kTwoPow(-11)), 0x3C02);
  // Not a tie: nearest wins.
  EXPECT_EQ(aclFloatToFloat16(1.0f + kTwoPow(-11) + kTwoPow(-20)), 0x3C01);
  EXPECT_EQ(aclFloatToFloat16(1.0f + kTwoPow(-11) - kTwoPow(-20)), 0x3C00);
  // Subnormal ties: 2^-25 -> 0 (even), 3*2^-25 -> 2*2^-24 (even), 5*2^-25 -> 2*2^-24.
  EXPECT_EQ(aclFloatToFloat16(kTwoPow(-25)), 0x0000);
  EXPECT_EQ(aclFloatToFloat16(3.0f * kTwoPow(-25)), 0x0002);
  EXPECT_EQ(aclFloatToFloat16(5.0f * kTwoPow(-25)), 0x0002);
  // Carry from mantissa into exponent: 2047/1024 rounds up to 2.0.
  EXPECT_EQ(aclFloatToFloat16(2.0f - kTwoPow(-11)), 0x4000);
  // Top of the range: 65519 rounds to 65504, the tie 65520 rounds (to even) to infinity.
  EXPECT_EQ(aclFloatToFloat16(65519.0f), 0x7BFF);
  EXPECT_EQ(aclFloatToFloat16(65520.0f), 0x7C00);
  EXPECT_EQ(aclFloatToFloat16(-65520.0f), 0xFC00);
  EXPECT_EQ(aclFloatToFloat16(1.0e6f), 0x7C00);
}

TEST(Fp16, InfinityAndNan) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(aclFloatToFloat16(inf), 0x7C00);
  EXPECT_EQ(aclFloatToFloat16(-inf), 0xFC00);
  EXPECT_EQ(aclFloat16ToFloat(0x7C00), inf);
  EXPECT_EQ(aclFloat16ToFloat(0xFC00), -inf);

  const aclFloat16 nan = aclFloatToFloat16(std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(nan & 0x7C00, 0x7C00);  // exponent all ones
  EXPECT_NE(nan & 0x03FF, 0);       // non-zero mantissa: NaN, not infinity
  EXPECT_NE(nan & 0x0200, 0);       // quiet
  EXPECT_NE(aclFloatToFloat16(-std::numeric_limits<float>::quiet_NaN()) & 0x8000, 0);
  EXPECT_TRUE(std::isnan(aclFloat16ToFloat(0x7E00)));
  EXPECT_TRUE(std::isnan(aclFloat16ToFloat(0x7C01)));
  EXPECT_TRUE(std::isnan(aclFloat16ToFloat(0xFFFF)));
}

// Every half value converts to a float and back unchanged (NaNs stay NaN).
TEST(Fp16, ExhaustiveRoundTrip) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const aclFloat16 h = static_cast<aclFloat16>(bits);
    const float f = aclFloat16ToFloat(h);
    const bool isNan = (bits & 0x7C00) == 0x7C00 && (bits & 0x03FF) != 0;
    if (isNan) {
      ASSERT_TRUE(std::isnan(f)) << std::hex << bits;
      ASSERT_TRUE(std::isnan(aclFloat16ToFloat(aclFloatToFloat16(f)))) << std::hex << bits;
    } else {
      ASSERT_EQ(aclFloatToFloat16(f), h) << std::hex << bits;
    }
  }
}

// Conversion of float is monotonic and picks the nearer neighbour: compare against a double reference
// on a sweep of values between neighbours.
TEST(Fp16, NearestNeighbourOnSweep) {
  for (uint32_t bits = 0x0000; bits < 0x7BFF; bits += 7) {
    const double lo = aclFloat16ToFloat(static_cast<aclFloat16>(bits));
    const double hi = aclFloat16ToFloat(static_cast<aclFloat16>(bits + 1));
    for (double t : {0.1, 0.3, 0.49, 0.51, 0.8}) {
      const float x = static_cast<float>(lo + (hi - lo) * t);
      const aclFloat16 expected = static_cast<aclFloat16>(t < 0.5 ? bits : bits + 1);
      ASSERT_EQ(aclFloatToFloat16(x), expected) << std::hex << bits << " t=" << t;
    }
  }
}

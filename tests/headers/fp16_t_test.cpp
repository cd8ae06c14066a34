// op::fp16_t (aclnn/opdev/fp16_t.h, the operator examples' host half type): the same binary16
// patterns as aclFloatToFloat16 (round to nearest even, subnormals, overflow to infinity), value
// conversions both ways, arithmetic and comparisons through float, and 2-byte storage.
#include "aclnn/opdev/fp16_t.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "acl/acl.h"

TEST(Fp16T, SameBitsAsAclFloatToFloat16) {
  const float cases[] = {0.0f,
                         -0.0f,
                         1.0f,
                         -2.0f,
                         0.5f,
                         65504.0f,
                         65519.0f,
                         65520.0f,
                         1e6f,
                         6.103515625e-05f,
                         5.960464477539063e-08f,
                         2.98e-08f,
                         1.0f + 1.0f / 2048,
                         1.0f + 3.0f / 2048,
                         0.1f,
                         -3.14159f,
                         std::numeric_limits<float>::infinity(),
                         1e-30f};
  for (float f : cases) EXPECT_EQ(op::fp16_t(f).val, aclFloatToFloat16(f)) << f;
  for (uint32_t bits = 0; bits < 0x10000u; bits += 7) {  // every 7th pattern back to float
    op::fp16_t h;
    h.val = static_cast<uint16_t>(bits);
    const float want = aclFloat16ToFloat(static_cast<aclFloat16>(bits));
    if (std::isnan(want)) {
      EXPECT_TRUE(h.IsNan()) << bits;
    } else {
      EXPECT_EQ(static_cast<float>(h), want) << bits;
    }
  }
  EXPECT_TRUE(op::fp16_t(std::numeric_limits<float>::quiet_NaN()).IsNan());
  EXPECT_TRUE(op::fp16_t(1e6).IsInf());
}

TEST(Fp16T, ConversionsArithmeticAndStorage) {
  static_assert(sizeof(op::fp16_t) == 2, "a vector of fp16_t is an fp16 buffer");
  std::vector<op::fp16_t> ones(4, 1.0), zeros(4, 0);  // as the examples build their host data
  EXPECT_EQ(ones[3].val, 0x3C00);
  EXPECT_EQ(zeros[0].val, 0x0000);
  EXPECT_EQ(static_cast<int32_t>(op::fp16_t(7.75)), 7);
  EXPECT_EQ(static_cast<double>(op::fp16_t(-2.5f)), -2.5);
  EXPECT_EQ(op::fp16_t(3).ToFloat(), 3.0f);
  const op::fp16_t a(1.5), b(0.25);
  EXPECT_EQ(static_cast<float>(a + b), 1.75f);
  EXPECT_EQ(static_cast<float>(a - b), 1.25f);
  EXPECT_EQ(static_cast<float>(a * b), 0.375f);
  EXPECT_EQ(static_cast<float>(a / b), 6.0f);
  EXPECT_EQ(static_cast<float>(-a), -1.5f);
  EXPECT_EQ(static_cast<float>(op::fp16_t(2048) + op::fp16_t(1)),
            2048.0f);  // 2049 is not a half: ties to even
  EXPECT_TRUE(b < a && a > b && a >= a && b <= a && a != b && a == op::fp16_t(1.5));
  op::fp16_t c = 1.0;
  c += 1.0;
  c *= 3;
  EXPECT_EQ(static_cast<float>(c), 6.0f);
}

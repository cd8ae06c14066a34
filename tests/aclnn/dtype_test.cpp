// Type promotion and conversion rules against the tables in ops-math
// docs/context/deduction_relationship.md (table 1) and conversion_relationship.md.
#include "runtime/aclnn/base/dtype.h"

#include <gtest/gtest.h>

using namespace npusim::aclnn;

TEST(Dtype, SizesAndNames) {
  EXPECT_EQ(dtypeSize(ACL_FLOAT), 4u);
  EXPECT_EQ(dtypeSize(ACL_FLOAT16), 2u);
  EXPECT_EQ(dtypeSize(ACL_BF16), 2u);
  EXPECT_EQ(dtypeSize(ACL_INT8), 1u);
  EXPECT_EQ(dtypeSize(ACL_BOOL), 1u);
  EXPECT_EQ(dtypeSize(ACL_INT64), 8u);
  EXPECT_EQ(dtypeSize(ACL_STRING), 0u);
  EXPECT_STREQ(dtypeName(ACL_FLOAT), "fp32");
  EXPECT_STREQ(dtypeName(ACL_BF16), "bf16");
}

TEST(Dtype, PromotionMatchesDocumentedTable) {
  // Rows/columns: f32 f16 f64 bf16 s8 u8 s16 u16 s32 u32 s64 u64 bool (complex omitted).
  const aclDataType t[] = {ACL_FLOAT,  ACL_FLOAT16, ACL_DOUBLE, ACL_BF16,  ACL_INT8,   ACL_UINT8, ACL_INT16,
                           ACL_UINT16, ACL_INT32,   ACL_UINT32, ACL_INT64, ACL_UINT64, ACL_BOOL};
  const aclDataType X = ACL_DT_UNDEFINED;
  const aclDataType F32 = ACL_FLOAT, F16 = ACL_FLOAT16, F64 = ACL_DOUBLE, B16 = ACL_BF16, S8 = ACL_INT8,
                    U8 = ACL_UINT8, S16 = ACL_INT16, U16 = ACL_UINT16, S32 = ACL_INT32, U32 = ACL_UINT32,
                    S64 = ACL_INT64, U64 = ACL_UINT64, B = ACL_BOOL;
  const aclDataType table[13][13] = {
      /* f32 */ {F32, F32, F64, F32, F32, F32, F32, X, F32, X, F32, X, F32},
      /* f16 */ {F32, F16, F64, F32, F16, F16, F16, X, F16, X, F16, X, F16},
      /* f64 */ {F64, F64, F64, F64, F64, F64, F64, X, F64, X, F64, X, F64},
      /* bf16*/ {F32, F32, F64, B16, B16, B16, B16, X, B16, X, B16, X, B16},
      /* s8  */ {F32, F16, F64, B16, S8, S16, S16, X, S32, X, S64, X, S8},
      /* u8  */ {F32, F16, F64, B16, S16, U8, S16, X, S32, X, S64, X, U8},
      /* s16 */ {F32, F16, F64, B16, S16, S16, S16, X, S32, X, S64, X, S16},
      /* u16 */ {X, X, X, X, X, X, X, U16, X, X, X, X, X},
      /* s32 */ {F32, F16, F64, B16, S32, S32, S32, X, S32, X, S64, X, S32},
      /* u32 */ {X, X, X, X, X, X, X, X, X, U32, X, X, X},
      /* s64 */ {F32, F16, F64, B16, S64, S64, S64, X, S64, X, S64, X, S64},
      /* u64 */ {X, X, X, X, X, X, X, X, X, X, X, U64, X},
      /* bool*/ {F32, F16, F64, B16, S8, U8, S16, X, S32, X, S64, X, B},
  };
  for (int i = 0; i < 13; ++i) {
    for (int j = 0; j < 13; ++j) {
      EXPECT_EQ(promoteTypes(t[i], t[j]), table[i][j]) << dtypeName(t[i]) << " + " << dtypeName(t[j]);
    }
  }
}

TEST(Dtype, CastRules) {
  EXPECT_TRUE(canCast(ACL_BOOL, ACL_INT32));
  EXPECT_TRUE(canCast(ACL_BOOL, ACL_FLOAT16));
  EXPECT_TRUE(canCast(ACL_INT8, ACL_INT64));
  EXPECT_TRUE(canCast(ACL_INT32, ACL_FLOAT));
  EXPECT_TRUE(canCast(ACL_FLOAT, ACL_FLOAT16));
  EXPECT_TRUE(canCast(ACL_FLOAT, ACL_COMPLEX64));
  EXPECT_FALSE(canCast(ACL_FLOAT, ACL_INT32));
  EXPECT_FALSE(canCast(ACL_FLOAT16, ACL_BOOL));
  EXPECT_FALSE(canCast(ACL_INT32, ACL_BOOL));
  EXPECT_FALSE(canCast(ACL_COMPLEX64, ACL_FLOAT));
}

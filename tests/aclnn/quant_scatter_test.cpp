// aclnnInplaceQuantScatter(V2) (runtime/aclnn/ops/quant_scatter.cpp): int8 quantisation of
// updates along the last axis and the write at per-batch offsets along axis -2, against a loop
// written here; both type combinations, saturation, a 4-D case, V2's roundMode, errors, bytes.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_quant_scatter.h"
#include "aclnnop/aclnn_quant_scatter_v2.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

double quantise(double x, double scale, double zero) {
  const double y =
      std::nearbyint(static_cast<float>(static_cast<float>(x) / static_cast<float>(scale)) + zero);
  return std::fmin(127, std::fmax(-128, y));
}

}  // namespace

// selfRef [3, 2, 6, 16] (4-D: a head dimension between batch and axis), updates [2, 2, 3, 16].
TEST(QuantScatter, MatchesDefinitionBothTypeSets) {
  std::mt19937 g(31);
  struct Types {
    aclDataType updates, scales, zeros;
  };
  for (Types t : {Types{ACL_FLOAT16, ACL_FLOAT, ACL_INT32}, Types{ACL_BF16, ACL_BF16, ACL_BF16}}) {
    for (bool v2 : {false, true}) {
      HostTensorBuf self(ACL_INT8, {3, 2, 6, 16}), indices(ACL_INT64, {2}), updates(t.updates, {2, 2, 3, 16}),
          scales(t.scales, {16}), zeros(t.zeros, {16});
      self.fillRandom(g, -100, 100);
      updates.fillRandom(g, -40, 40);
      scales.fillRandom(g, 0.1, 2);
      scales.set(0, 0.1);  // channel 0 saturates: |updates| / 0.1 reaches 400
      zeros.fillRandom(g, -5, 5);
      indices.set(0, 3);
      indices.set(1, 0);
      std::vector<double> want(self.numel());
      for (int64_t i = 0; i < self.numel(); ++i) want[i] = self.get(i);
      for (int64_t b = 0; b < 2; ++b)
        for (int64_t m = 0; m < 2; ++m)
          for (int64_t j = 0; j < 3; ++j)
            for (int64_t k = 0; k < 16; ++k)
              want[((b * 2 + m) * 6 + static_cast<int64_t>(indices.get(b)) + j) * 16 + k] =
                  quantise(updates.get(((b * 2 + m) * 3 + j) * 16 + k), scales.get(k), zeros.get(k));
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return v2 ? aclnnInplaceQuantScatterV2GetWorkspaceSize(
                                  self.get(), indices.get(), updates.get(), scales.get(), zeros.get(), -2, -1,
                                  1, "rint", ws, ex)
                            : aclnnInplaceQuantScatterGetWorkspaceSize(self.get(), indices.get(),
                                                                       updates.get(), scales.get(),
                                                                       zeros.get(), -2, -1, 1, ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      int saturated = 0;
      for (int64_t i = 0; i < self.numel(); ++i) {
        EXPECT_EQ(self.get(i), want[i]) << i;
        saturated += std::fabs(want[i]) >= 127;
      }
      EXPECT_GT(saturated, 0);
    }
  }
}

// Without zero points; then the error codes and the bytes charged.
TEST(QuantScatter, NoZeroPointsErrorsAndBytes) {
  HostTensorBuf self(ACL_INT8, {1, 4, 32}), indices(ACL_INT32, {1}), updates(ACL_FLOAT16, {1, 2, 32}),
      scales(ACL_FLOAT, {32}), zeros(ACL_INT32, {32}), scalesBf(ACL_BF16, {32}),
      self16(ACL_FLOAT16, {1, 4, 32}), updates2d(ACL_FLOAT16, {2, 32}), tooLong(ACL_FLOAT16, {1, 5, 32});
  for (int64_t i = 0; i < 64; ++i) updates.set(i, (i % 9) - 4.0);
  for (int64_t k = 0; k < 32; ++k) scales.set(k, 0.5);
  indices.set(0, 1);
  const double row0 = self.get(0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceQuantScatterGetWorkspaceSize(self.get(), indices.get(), updates.get(),
                                                              scales.get(), nullptr, -2, -1, 1, ws, ex);
            }),
            0);
  for (int64_t i = 0; i < 64; ++i) EXPECT_EQ(self.get(32 + i), 2 * ((i % 9) - 4.0)) << i;
  EXPECT_EQ(self.get(0), row0);  // row 0 untouched
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto p1 = [&](const aclTensor* s, const aclTensor* u, const aclTensor* sc, const aclTensor* z, int64_t axis,
                int64_t reduction) {
    return aclnnInplaceQuantScatterGetWorkspaceSize(const_cast<aclTensor*>(s), indices.get(), u, sc, z, axis,
                                                    -1, reduction, &ws, &ex);
  };
  EXPECT_EQ(p1(nullptr, updates.get(), scales.get(), zeros.get(), -2, 1), kParamNull);
  EXPECT_EQ(p1(self.get(), updates.get(), nullptr, zeros.get(), -2, 1), kParamNull);
  EXPECT_EQ(p1(self16.get(), updates.get(), scales.get(), zeros.get(), -2, 1),
            kParamInvalid);  // selfRef type
  EXPECT_EQ(p1(self.get(), updates.get(), scalesBf.get(), zeros.get(), -2, 1), kParamInvalid);  // type set
  EXPECT_EQ(p1(self.get(), updates2d.get(), scales.get(), zeros.get(), -2, 1), kParamInvalid);  // ranks
  EXPECT_EQ(p1(self.get(), tooLong.get(), scales.get(), zeros.get(), -2, 1), kParamInvalid);    // 5 > 4 rows
  EXPECT_EQ(p1(self.get(), updates.get(), scales.get(), zeros.get(), -1, 1), kParamInvalid);    // axis
  EXPECT_EQ(p1(self.get(), updates.get(), scales.get(), zeros.get(), -2, 0), kParamInvalid);    // reduction
  EXPECT_EQ(aclnnInplaceQuantScatterV2GetWorkspaceSize(self.get(), indices.get(), updates.get(), scales.get(),
                                                       zeros.get(), -2, -1, 1, "round", &ws, &ex),
            kParamInvalid);  // int8 takes only rint
  // Bytes: indices 4 + updates 128 + scales 128 + zeros 128 read; 64 int8 written.
  ASSERT_EQ(p1(self.get(), updates.get(), scales.get(), zeros.get(), -2, 1), 0);
  const Charged ch = chargedBytes(ex);
  EXPECT_EQ(ch.read, 4u + 128u + 128u + 128u);
  EXPECT_EQ(ch.written, 64u);
}

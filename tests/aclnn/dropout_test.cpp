// Bernoulli, the dropout keep mask and its consumers (random_ops.cpp, dropout_mask.cpp): the
// fraction of ones and of kept bits against the probability (within 6 standard errors),
// repeatability, the mask's bit order (element i is bit i % 8 of byte i / 8) through
// DropoutBackward, DoMask's 1 / (1 - prob) scaling, and the checks of the mask's size.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_bernoulli.h"
#include "aclnnop/aclnn_dropout_backward.h"
#include "aclnnop/aclnn_dropout_do_mask.h"
#include "aclnnop/aclnn_dropout_gen_mask.h"
#include "host_values.h"

using namespace aclnn_test;

TEST(Dropout, BernoulliFrequencyAndRepeatability) {
  const int64_t n = 65536;
  HostTensorBuf self(ACL_FLOAT, {256, 256}), a(ACL_FLOAT, {256, 256}), b(ACL_FLOAT, {256, 256});
  aclScalar* p = makeScalar(ACL_FLOAT, 0.3);
  for (HostTensorBuf* out : {&a, &b}) {
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnBernoulliGetWorkspaceSize(self.get(), p, 99, 4, out->get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
  }
  const std::vector<double> va = values(a);
  EXPECT_EQ(va, values(b));
  double ones = 0;
  for (double v : va) {
    ASSERT_TRUE(v == 0 || v == 1);
    ones += v;
  }
  EXPECT_NEAR(ones / n, 0.3, 6 * std::sqrt(0.3 * 0.7 / n));
  // in place, on an int32 tensor
  HostTensorBuf ints(ACL_INT32, {1000});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceBernoulliGetWorkspaceSize(ints.get(), p, 1, 0, ws, ex);
            }),
            0);
  for (double v : values(ints)) ASSERT_TRUE(v == 0 || v == 1);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclScalar* bad = makeScalar(ACL_FLOAT, 1.5);
  EXPECT_EQ(aclnnBernoulliGetWorkspaceSize(self.get(), bad, 0, 0, a.get(), &ws, &ex), 161002);
  EXPECT_EQ(aclnnBernoulliGetWorkspaceSize(self.get(), nullptr, 0, 0, a.get(), &ws, &ex), 161001);
  HostTensorBuf other(ACL_FLOAT, {4});
  EXPECT_EQ(aclnnBernoulliGetWorkspaceSize(self.get(), p, 0, 0, other.get(), &ws, &ex), 161002);
  aclDestroyScalar(p);
  aclDestroyScalar(bad);
}

// The keep mask: 1000 elements take 128 bytes (rounded up to 128 bits), about 1 - prob of the
// first 1000 bits set, none after; the Tensor form equals the host form with the same seed and
// offsets.
TEST(Dropout, GenMaskKeepsOneMinusProb) {
  int64_t dims[] = {10, 100};
  aclIntArray* shape = aclCreateIntArray(dims, 2);
  HostTensorBuf mask(ACL_UINT8, {128}), mask2(ACL_UINT8, {128}), seed(ACL_INT64, {1}), off(ACL_INT64, {1});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnDropoutGenMaskV2GetWorkspaceSize(shape, 0.25, 5, 7, ACL_FLOAT, mask.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  int kept = 0;
  for (int64_t i = 0; i < 1024; ++i) {
    const int bit = (static_cast<int>(mask.get(i / 8)) >> (i % 8)) & 1;
    if (i >= 1000) {
      EXPECT_EQ(bit, 0) << i;
    } else {
      kept += bit;
    }
  }
  EXPECT_NEAR(kept / 1000.0, 0.75, 6 * std::sqrt(0.75 * 0.25 / 1000));
  seed.set(0, 5);
  off.set(0, 3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnDropoutGenMaskV2TensorGetWorkspaceSize(shape, 0.25, seed.get(), off.get(), 4,
                                                                 ACL_FLOAT, mask2.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(values(mask2), values(mask));
  HostTensorBuf small(ACL_UINT8, {16});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnDropoutGenMaskGetWorkspaceSize(shape, 0.25, 0, 0, small.get(), &ws, &ex), 161002);
  EXPECT_EQ(aclnnDropoutGenMaskGetWorkspaceSize(nullptr, 0.25, 0, 0, small.get(), &ws, &ex), 161001);
  HostTensorBuf floatMask(ACL_FLOAT, {128});
  EXPECT_EQ(aclnnDropoutGenMaskGetWorkspaceSize(shape, 0.25, 0, 0, floatMask.get(), &ws, &ex), 161002);
  EXPECT_EQ(aclnnDropoutGenMaskV2GetWorkspaceSize(shape, 0.25, 0, 0, ACL_INT32, mask.get(), &ws, &ex),
            161002);
  aclDestroyIntArray(shape);
}

// Byte 0 = 42 = 0b00101010 keeps elements 1, 3 and 5.
TEST(Dropout, MaskBitOrderAndScaling) {
  HostTensorBuf g(ACL_FLOAT16, {4, 2}), mask(ACL_UINT8, {16}), out(ACL_FLOAT16, {4, 2});
  for (int64_t i = 0; i < 8; ++i) g.set(i, static_cast<double>(i));
  for (int64_t i = 0; i < 16; ++i) mask.set(i, 0);
  mask.set(0, 42);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnDropoutBackwardGetWorkspaceSize(g.get(), mask.get(), 2.0, out.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  EXPECT_EQ(values(out), (std::vector<double>{0, 2, 0, 6, 0, 10, 0, 0}));
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnDropoutDoMaskGetWorkspaceSize(g.get(), mask.get(), 0.75, out.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(values(out), (std::vector<double>{0, 4, 0, 12, 0, 20, 0, 0}));
  HostTensorBuf shortMask(ACL_UINT8, {8});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnDropoutDoMaskGetWorkspaceSize(g.get(), shortMask.get(), 0.5, out.get(), &ws, &ex), 161002);
  EXPECT_EQ(aclnnDropoutDoMaskGetWorkspaceSize(g.get(), mask.get(), 1.5, out.get(), &ws, &ex), 161002);
  EXPECT_EQ(aclnnDropoutBackwardGetWorkspaceSize(g.get(), nullptr, 2.0, out.get(), &ws, &ex), 161001);
}

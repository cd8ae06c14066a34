// The random operators (runtime/aclnn/ops/random_ops.cpp on random_op.h): the generator against
// Random123's known-answer vectors for Philox4x32-10, repeatability from (seed, offset) and the
// counter rule (offset k shifts the stream by k elements), the Tensor forms equal to the host
// forms, the distributions' moments within a few standard errors, permutations, error codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_multinomial.h"
#include "aclnnop/aclnn_normal.h"
#include "aclnnop/aclnn_normal_out.h"
#include "aclnnop/aclnn_random.h"
#include "aclnnop/aclnn_randperm.h"
#include "aclnnop/aclnn_sim_thread_exponential.h"
#include "aclnnop/aclnn_uniform.h"
#include "host_values.h"
#include "runtime/aclnn/ops/random_op.h"

using namespace aclnn_test;

namespace {

std::vector<double> uniform(int64_t n, double from, double to, uint64_t seed, uint64_t offset,
                            aclDataType dt = ACL_FLOAT) {
  HostTensorBuf t(dt, {n});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceUniformGetWorkspaceSize(t.get(), from, to, seed, offset, ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  return values(t);
}

void moments(const std::vector<double>& v, double* mean, double* var) {
  double s = 0, s2 = 0;
  for (double x : v) s += x;
  *mean = s / static_cast<double>(v.size());
  for (double x : v) s2 += (x - *mean) * (x - *mean);
  *var = s2 / static_cast<double>(v.size() - 1);
}

}  // namespace

// Random123's kat_vectors for philox4x32 with 10 rounds (counter, key -> output).
TEST(Random, PhiloxKnownAnswers) {
  const auto zero = npusim::aclnn::philox(0, 0, 0);
  EXPECT_EQ(zero[0], 0x6627e8d5u);
  EXPECT_EQ(zero[1], 0xe169c58du);
  EXPECT_EQ(zero[2], 0xbc57ac4cu);
  EXPECT_EQ(zero[3], 0x9b00dbd8u);
  const auto ones = npusim::aclnn::philox(~0ull, ~0ull, ~0ull);
  EXPECT_EQ(ones[0], 0x408f276du);
  EXPECT_EQ(ones[1], 0x41c83b0eu);
  EXPECT_EQ(ones[2], 0xa20bc7c6u);
  EXPECT_EQ(ones[3], 0x6d5451fdu);
}

TEST(Random, RepeatableFromSeedAndOffset) {
  const std::vector<double> a = uniform(64, 0, 1, 42, 0), b = uniform(64, 0, 1, 42, 0),
                            c = uniform(64, 0, 1, 43, 0);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  // element i takes counter offset + i: offset 5 is the same stream five elements on
  const std::vector<double> d = uniform(59, 0, 1, 42, 5);
  EXPECT_TRUE(std::equal(d.begin(), d.end(), a.begin() + 5));
  // the Tensor form reads seed and offset from the device and adds the host offset
  HostTensorBuf t(ACL_FLOAT, {59}), seed(ACL_INT64, {1}), off(ACL_INT64, {1});
  seed.set(0, 42);
  off.set(0, 3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceUniformTensorGetWorkspaceSize(t.get(), 0, 1, seed.get(), off.get(), 2, ws,
                                                               ex);
            }),
            0);
  EXPECT_EQ(values(t), d);
}

TEST(Random, UniformNormalAndIntegerDistributions) {
  const int64_t n = 200000;
  double mean = 0, var = 0;
  const std::vector<double> u = uniform(n, 2, 5, 7, 0);
  moments(u, &mean, &var);
  EXPECT_NEAR(mean, 3.5, 4 * std::sqrt(0.75 / n));
  EXPECT_NEAR(var, 0.75, 0.01);
  EXPECT_GE(*std::min_element(u.begin(), u.end()), 2.0);
  EXPECT_LE(*std::max_element(u.begin(), u.end()), 5.0);

  HostTensorBuf g(ACL_FLOAT, {n});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceNormalGetWorkspaceSize(g.get(), 1.0f, 2.0f, 9, 0, ws, ex);
            }),
            0);
  const std::vector<double> nv = values(g);
  moments(nv, &mean, &var);
  EXPECT_NEAR(mean, 1.0, 4 * 2 / std::sqrt(static_cast<double>(n)));
  EXPECT_NEAR(std::sqrt(var), 2.0, 0.02);
  // about 68.3 % within one std
  const double within = static_cast<double>(std::count_if(nv.begin(), nv.end(),
                                                          [](double x) { return std::fabs(x - 1) < 2; })) /
                        static_cast<double>(n);
  EXPECT_NEAR(within, 0.6827, 0.005);

  HostTensorBuf r(ACL_INT32, {n});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceRandomGetWorkspaceSize(r.get(), -3, 7, 11, 0, ws, ex);
            }),
            0);
  std::vector<int64_t> counts(10, 0);
  for (double x : values(r)) {
    ASSERT_GE(x, -3);
    ASSERT_LT(x, 7);
    ++counts[static_cast<size_t>(x + 3)];
  }
  for (int64_t c : counts) EXPECT_NEAR(static_cast<double>(c) / n, 0.1, 0.005);
}

// Normal with tensors: std 0 gives the mean exactly; a mean tensor shifts each element.
TEST(Random, NormalWithTensorParameters) {
  HostTensorBuf mean(ACL_FLOAT, {2, 3}), sd(ACL_FLOAT, {1}), out(ACL_FLOAT, {2, 3});
  for (int64_t i = 0; i < 6; ++i) mean.set(i, 10.0 * static_cast<double>(i));
  sd.set(0, 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnNormalTensorTensorGetWorkspaceSize(mean.get(), sd.get(), 1, 0, out.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  EXPECT_EQ(values(out), values(mean));
  HostTensorBuf base(ACL_FLOAT, {2, 3});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnNormalFloatFloatGetWorkspaceSize(0.0f, 1.0f, 1, 0, base.get(), ws, ex);
            }),
            0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnNormalTensorFloatGetWorkspaceSize(mean.get(), 1.0f, 1, 0, out.get(), ws, ex);
            }),
            0);
  for (int64_t i = 0; i < 6; ++i) EXPECT_NEAR(out.get(i), mean.get(i) + base.get(i), 1e-5);
}

TEST(Random, RandpermIsAPermutation) {
  for (aclDataType dt : {ACL_INT64, ACL_FLOAT}) {
    HostTensorBuf a(dt, {100}), b(dt, {100});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnRandpermGetWorkspaceSize(100, 5, 0, a.get(), ws, ex);
              }),
              0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnRandpermGetWorkspaceSize(100, 6, 0, b.get(), ws, ex);
              }),
              0);
    std::vector<double> va = values(a), sorted = va;
    std::sort(sorted.begin(), sorted.end());
    for (int64_t i = 0; i < 100; ++i) EXPECT_EQ(sorted[static_cast<size_t>(i)], static_cast<double>(i));
    EXPECT_NE(va, values(b));
    int fixed = 0;  // a random permutation fixes about one point
    for (int64_t i = 0; i < 100; ++i) fixed += va[static_cast<size_t>(i)] == static_cast<double>(i) ? 1 : 0;
    EXPECT_LT(fixed, 10);
  }
}

TEST(Random, BadArgumentsAreRefused) {
  HostTensorBuf t(ACL_FLOAT, {4}), ti(ACL_INT32, {4}), seed32(ACL_INT32, {1}), seed(ACL_INT64, {1});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnInplaceUniformGetWorkspaceSize(nullptr, 0, 1, 0, 0, &ws, &ex), 161001);
  EXPECT_EQ(aclnnInplaceUniformGetWorkspaceSize(t.get(), 1, 1, 0, 0, &ws, &ex), 161002);
  EXPECT_EQ(aclnnInplaceRandomGetWorkspaceSize(t.get(), 5, 2, 0, 0, &ws, &ex), 161002);
  EXPECT_EQ(aclnnInplaceNormalGetWorkspaceSize(t.get(), 0, -1, 0, 0, &ws, &ex), 161002);
  EXPECT_EQ(aclnnInplaceNormalGetWorkspaceSize(ti.get(), 0, 1, 0, 0, &ws, &ex), 161002);
  EXPECT_EQ(aclnnInplaceNormalTensorGetWorkspaceSize(t.get(), 0, 1, seed32.get(), seed.get(), 0, &ws, &ex),
            161002);
  EXPECT_EQ(aclnnInplaceNormalTensorGetWorkspaceSize(t.get(), 0, 1, nullptr, seed.get(), 0, &ws, &ex),
            161001);
  EXPECT_EQ(aclnnRandpermGetWorkspaceSize(5, 0, 0, t.get(), &ws, &ex), 161002);
  EXPECT_EQ(aclnnNormalTensorTensorGetWorkspaceSize(nullptr, t.get(), 0, 0, t.get(), &ws, &ex), 161001);
}

// Write-only: the cost model charges out's bytes and no reads (host mean/std).
TEST(Random, ChargesTheOutputOnly) {
  HostTensorBuf t(ACL_FLOAT16, {128, 64});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnInplaceNormalGetWorkspaceSize(t.get(), 0, 1, 1, 0, &ws, &ex), 0);
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, 0u);
  EXPECT_EQ(c.written, 128u * 64 * 2);
}

// Exp(lambda): positive values with mean 1 / lambda; count must be the element count.
TEST(Random, ExponentialMeanAndChecks) {
  const int64_t n = 100000;
  HostTensorBuf t(ACL_FLOAT, {n});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSimThreadExponentialGetWorkspaceSize(t.get(), n, 2.0, 3, 0, ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  double mean = 0, var = 0;
  const std::vector<double> v = values(t);
  moments(v, &mean, &var);
  EXPECT_NEAR(mean, 0.5, 4 * 0.5 / std::sqrt(static_cast<double>(n)));
  EXPECT_NEAR(std::sqrt(var), 0.5, 0.01);  // an exponential's std equals its mean
  EXPECT_GE(*std::min_element(v.begin(), v.end()), 0.0);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnSimThreadExponentialGetWorkspaceSize(t.get(), n - 1, 2.0, 3, 0, &ws, &ex), 161002);
  EXPECT_EQ(aclnnSimThreadExponentialGetWorkspaceSize(t.get(), n, 0.0, 3, 0, &ws, &ex), 161002);
}

// Multinomial: frequencies follow the weights with replacement (a zero weight is never drawn);
// without replacement every draw of a row is a different index.
TEST(Random, MultinomialFrequenciesAndDistinctDraws) {
  HostTensorBuf w(ACL_FLOAT, {3}), out(ACL_INT64, {40000});
  w.set(0, 0);
  w.set(1, 1);
  w.set(2, 3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMultinomialGetWorkspaceSize(w.get(), 40000, true, 8, 0, out.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  std::vector<double> counts(3, 0);
  for (double x : values(out)) counts[static_cast<size_t>(x)] += 1;
  EXPECT_EQ(counts[0], 0);
  EXPECT_NEAR(counts[1] / 40000, 0.25, 0.01);
  EXPECT_NEAR(counts[2] / 40000, 0.75, 0.01);
  HostTensorBuf w2(ACL_FLOAT16, {2, 5}), o2(ACL_INT64, {2, 5});
  for (int64_t i = 0; i < 10; ++i) w2.set(i, 1 + static_cast<double>(i % 5));
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMultinomialGetWorkspaceSize(w2.get(), 5, false, 9, 0, o2.get(), ws, ex);
            }),
            0);
  for (int r = 0; r < 2; ++r) {
    std::vector<double> row(5);
    for (int j = 0; j < 5; ++j) row[static_cast<size_t>(j)] = o2.get(r * 5 + j);
    std::sort(row.begin(), row.end());
    EXPECT_EQ(row, (std::vector<double>{0, 1, 2, 3, 4}));
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  HostTensorBuf o6(ACL_INT64, {2, 6}), o32(ACL_INT32, {2, 5});
  EXPECT_EQ(aclnnMultinomialGetWorkspaceSize(w2.get(), 6, false, 9, 0, o6.get(), &ws, &ex), 161002);
  EXPECT_EQ(aclnnMultinomialGetWorkspaceSize(w2.get(), 5, false, 9, 0, o32.get(), &ws, &ex), 161002);
  EXPECT_EQ(aclnnMultinomialGetWorkspaceSize(nullptr, 5, false, 9, 0, o32.get(), &ws, &ex), 161001);
}

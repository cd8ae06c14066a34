// The stream latency histogram against exact nearest-rank percentiles of the same samples.
#include "models/common/latency_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace npusim {
namespace {

Tick exactPercentile(std::vector<Tick> v, double q) {
  std::sort(v.begin(), v.end());
  auto i = static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

void expectClose(Tick got, Tick want) {
  // Bucket middles are within half a bucket (1/64 of the value) of any sample in the bucket.
  double tol = std::max(1.0, static_cast<double>(want) / 64.0);
  EXPECT_LE(std::fabs(static_cast<double>(got) - static_cast<double>(want)), tol) << "want " << want;
}

TEST(LatencyHistogram, EmptyReportsZero) {
  LatencyHistogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.percentile(0.5), 0u);
  EXPECT_EQ(h.mean(), 0.0);
}

TEST(LatencyHistogram, SmallValuesAreExact) {
  LatencyHistogram h;
  for (Tick v = 0; v < 32; ++v) h.add(v);
  for (double q : {0.0, 0.1, 0.5, 0.9, 1.0}) {
    std::vector<Tick> all;
    for (Tick v = 0; v < 32; ++v) all.push_back(v);
    EXPECT_EQ(h.percentile(q), exactPercentile(all, q)) << q;
  }
}

TEST(LatencyHistogram, PercentilesWithinABucketOfExact) {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> wide(std::log(20.0e6), 1.5);  // ~20 us, long tail, in ps
  std::uniform_int_distribution<Tick> narrow(41'000'000, 46'000'000);
  for (int dist = 0; dist < 2; ++dist) {
    LatencyHistogram h;
    std::vector<Tick> all;
    for (int i = 0; i < 20000; ++i) {
      Tick v = dist == 0 ? static_cast<Tick>(wide(rng)) : narrow(rng);
      h.add(v);
      all.push_back(v);
    }
    Tick sum = 0;
    for (Tick v : all) sum += v;
    EXPECT_EQ(h.count(), all.size());
    EXPECT_EQ(h.sum(), sum);
    EXPECT_EQ(h.min(), *std::min_element(all.begin(), all.end()));
    EXPECT_EQ(h.max(), *std::max_element(all.begin(), all.end()));
    EXPECT_EQ(h.percentile(1.0), h.max());
    for (double q : {0.01, 0.25, 0.5, 0.9, 0.99, 0.999})
      expectClose(h.percentile(q), exactPercentile(all, q));
  }
}

TEST(LatencyHistogram, MergeEqualsAddingEverything) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<Tick> d(1, Tick{1} << 40);
  LatencyHistogram a, b, all;
  for (int i = 0; i < 5000; ++i) {
    Tick v = d(rng);
    (i % 3 ? a : b).add(v);
    all.add(v);
  }
  a.merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.sum(), all.sum());
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.max(), all.max());
  for (double q : {0.0, 0.3, 0.5, 0.77, 0.99, 1.0}) EXPECT_EQ(a.percentile(q), all.percentile(q)) << q;
}

TEST(LatencyHistogram, HugeValuesDoNotOverflow) {
  LatencyHistogram h;
  h.add(kTickMax / 2);
  h.add(1);
  EXPECT_EQ(h.max(), kTickMax / 2);
  EXPECT_EQ(h.percentile(0.0), 1u);
}

}  // namespace
}  // namespace npusim

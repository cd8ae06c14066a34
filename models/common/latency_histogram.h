#pragma once
// A latency distribution in constant memory per decade: log-linear buckets (32 per power of two,
// so a reported percentile is within 1/64 of the true value), plus the exact count, sum, minimum
// and maximum. Replaces a list of samples, which grew with the run (long runs must stay flat).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/common/tick.h"

namespace npusim {

class LatencyHistogram {
 public:
  void add(Tick v) {
    addToBucket(bucket(v), 1);
    min_ = count_ == 0 ? v : std::min(min_, v);
    max_ = std::max(max_, v);
    sum_ += v;
    count_++;
  }

  void merge(const LatencyHistogram& o) {
    if (o.count_ == 0) return;
    for (size_t i = 0; i < o.counts_.size(); ++i)
      if (o.counts_[i]) addToBucket(o.base_ + i, o.counts_[i]);
    min_ = count_ == 0 ? o.min_ : std::min(min_, o.min_);
    max_ = std::max(max_, o.max_);
    sum_ += o.sum_;
    count_ += o.count_;
  }

  uint64_t count() const { return count_; }
  Tick sum() const { return sum_; }
  Tick min() const { return min_; }
  Tick max() const { return max_; }
  double mean() const { return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0.0; }

  // Nearest-rank percentile, q in [0, 1]: the middle of the bucket holding that rank, clamped to
  // the exact minimum and maximum (so q = 0 and q = 1 are exact).
  Tick percentile(double q) const {
    if (count_ == 0) return 0;
    if (q <= 0) return min_;
    if (q >= 1) return max_;
    auto rank = static_cast<uint64_t>(q * static_cast<double>(count_ - 1) + 0.5);
    uint64_t seen = 0;
    for (size_t i = 0; i < counts_.size(); ++i) {
      seen += counts_[i];
      if (seen > rank) return std::clamp(middle(base_ + i), min_, max_);
    }
    return max_;
  }

  static constexpr int kSubBits = 5;  // 32 buckets per power of two

 private:
  static size_t bucket(Tick v) {
    if (v < (Tick{1} << kSubBits)) return static_cast<size_t>(v);
    int e = 63 - __builtin_clzll(v);  // floor(log2 v) >= kSubBits
    Tick sub = (v >> (e - kSubBits)) & ((Tick{1} << kSubBits) - 1);
    return static_cast<size_t>(e - kSubBits + 1) << kSubBits | static_cast<size_t>(sub);
  }
  static Tick lowest(size_t b) {
    size_t group = b >> kSubBits;
    if (group == 0) return static_cast<Tick>(b);
    int e = static_cast<int>(group) + kSubBits - 1;
    Tick sub = b & ((size_t{1} << kSubBits) - 1);
    return (Tick{1} << e) | (sub << (e - kSubBits));
  }
  static Tick middle(size_t b) {
    Tick lo = lowest(b);
    size_t group = b >> kSubBits;
    Tick width = group == 0 ? 1 : Tick{1} << (static_cast<int>(group) - 1);
    return lo + width / 2;
  }
  void addToBucket(size_t b, uint64_t n) {
    if (counts_.empty()) {
      base_ = b;
      counts_.assign(1, 0);
    } else if (b < base_) {
      counts_.insert(counts_.begin(), base_ - b, 0);
      base_ = b;
    } else if (b >= base_ + counts_.size()) {
      counts_.resize(b - base_ + 1, 0);
    }
    counts_[b - base_] += n;
  }

  size_t base_ = 0;               // bucket index of counts_[0]
  std::vector<uint64_t> counts_;  // only the span between the smallest and largest bucket used
  uint64_t count_ = 0;
  Tick sum_ = 0;
  Tick min_ = 0;
  Tick max_ = 0;
};

}  // namespace npusim

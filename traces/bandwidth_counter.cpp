#include "traces/bandwidth_counter.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace npusim::trace {

namespace {
// Values are written with 1 MB/s resolution: finer digits are noise for a viewer, and equal
// rounded values let a steady transfer be one sample.
double roundGbps(double v) { return std::round(v * 1000.0) / 1000.0; }
}  // namespace

BandwidthCounter::BandwidthCounter(TraceWriter* writer, int pid, std::string name, Tick window,
                                   double peakBytesPerSec)
    : BandwidthCounter(writer, pid, std::vector<std::string>{std::move(name)}, window, peakBytesPerSec) {}

BandwidthCounter::BandwidthCounter(TraceWriter* writer, int pid, std::vector<std::string> names, Tick window,
                                   double peakBytesPerSec)
    : writer_(writer), pid_(pid), names_(std::move(names)), window_(window), peak_(peakBytesPerSec) {
  if (names_.size() > kMaxTracks) names_.resize(kMaxTracks);
  // window_ is in picoseconds.
  capacity_ = peak_ > 0 ? peak_ * static_cast<double>(window_) * 1e-12 : 0.0;
}

void BandwidthCounter::add(Tick start, Tick end, uint64_t bytes, size_t track) {
  total_ += bytes;
  // Without a trace (or a window) only the total is kept, so nothing accumulates.
  if (writer_ == nullptr || !writer_->enabled() || window_ == 0 || track >= names_.size()) return;
  // Bytes that land in a window already emitted go to the first open window instead, so each
  // counter track stays in time order.
  const uint64_t firstOpen = (lastWindow_ == UINT64_MAX) ? 0 : lastWindow_ + 1;
  if (end <= start) {
    pending_[std::max(start / window_, firstOpen)][track] += static_cast<double>(bytes);
    return;
  }
  const double perTick = static_cast<double>(bytes) / static_cast<double>(end - start);
  const uint64_t last = (end - 1) / window_;
  for (uint64_t w = start / window_; w <= last; ++w) {
    const Tick lo = std::max(start, w * window_);
    const Tick hi = std::min(end, (w + 1) * window_);
    pending_[std::max(w, firstOpen)][track] += perTick * static_cast<double>(hi - lo);
  }
}

void BandwidthCounter::flushBefore(Tick t) {
  if (writer_ == nullptr || window_ == 0) return;
  // Windows with index < `done` end at or before t.
  const uint64_t done = t / window_;
  while (!pending_.empty() && pending_.begin()->first < done) {
    const auto [w, bytes] = *pending_.begin();
    pending_.erase(pending_.begin());
    // An idle gap since the last window: the tracks drop to 0 at the gap's first window.
    if (lastWindow_ != UINT64_MAX && w > lastWindow_ + 1 && showsTraffic())
      emitWindow(lastWindow_ + 1, Bytes{});
    emitWindow(w, bytes);
  }
  // The window after the last one is over and idle: drop to 0 now rather than at the next burst.
  if (lastWindow_ != UINT64_MAX && lastWindow_ + 1 < done && showsTraffic())
    emitWindow(lastWindow_ + 1, Bytes{});
}

void BandwidthCounter::flushAll() {
  if (writer_ == nullptr || window_ == 0) return;
  while (!pending_.empty()) flushBefore((pending_.rbegin()->first + 1) * window_);
  if (lastWindow_ != UINT64_MAX && showsTraffic()) emitWindow(lastWindow_ + 1, Bytes{});  // the closing zero
}

void BandwidthCounter::emitWindow(uint64_t w, Bytes bytes) {
  // More than the resource can move in one window: show the peak, shared by the tracks in
  // proportion, and carry the rest into the next window.
  double sum = 0;
  for (double b : bytes) sum += b;
  if (capacity_ > 0 && sum > capacity_) {
    const double keep = capacity_ / sum;
    Bytes carry{};
    for (size_t k = 0; k < kMaxTracks; ++k) {
      carry[k] = bytes[k] * (1.0 - keep);
      bytes[k] *= keep;
    }
    auto& next = pending_[w + 1];
    for (size_t k = 0; k < kMaxTracks; ++k) next[k] += carry[k];
  }
  lastWindow_ = w;
  // bytes per window of `window_` picoseconds -> GB/s: bytes / (window_ * 1e-12 s) / 1e9.
  Bytes gbps{};
  for (size_t k = 0; k < names_.size(); ++k) gbps[k] = bytes[k] * 1000.0 / static_cast<double>(window_);
  sample(w, gbps);
}

bool BandwidthCounter::showsTraffic() const {
  for (double v : lastValue_)
    if (v != 0.0) return true;
  return false;
}

void BandwidthCounter::sample(uint64_t window, const Bytes& gbps) {
  const size_t n = names_.size();
  const double ceiling = peak_ > 0 ? std::floor(peak_ * 1e-6) / 1000.0 : 0;  // GB/s
  Bytes v{};
  std::array<bool, kMaxTracks> show{};
  double shownSum = 0;
  for (size_t k = 0; k < n; ++k) {
    v[k] = roundGbps(gbps[k]);
    // Rounding must not lift a track above the peak (1 GB/s = 1e9 B/s).
    if (peak_ > 0) v[k] = std::min(v[k], ceiling);
    // Below transaction level a busy resource keeps its value until it moves by more than 1 % of
    // the peak: packets falling either side of a window edge make the exact value flicker, which
    // would cost a sample per window on every steady transfer. Going idle or busy is always shown.
    const double last = lastValue_[k];
    show[k] = v[k] != last && !(peak_ > 0 && writer_->level() != Level::Transaction && v[k] != 0.0 &&
                                last != 0.0 && std::fabs(v[k] - last) <= 0.01 * peak_ * 1e-9);
    shownSum += show[k] ? v[k] : last;
  }
  // The tracks share one resource: a kept (stale) value must not make them add up to more than it.
  if (peak_ > 0 && shownSum > ceiling)
    for (size_t k = 0; k < n; ++k) show[k] = v[k] != lastValue_[k];
  // Falling tracks first, so the sum read at any sample never passes the peak either.
  for (int rising = 0; rising < 2; ++rising) {
    for (size_t k = 0; k < n; ++k) {
      if (!show[k] || (v[k] > lastValue_[k]) != (rising == 1)) continue;
      writer_->counter(pid_, names_[k], window * window_, v[k]);
      lastValue_[k] = v[k];
    }
  }
}

}  // namespace npusim::trace

#include "traces/bandwidth_counter.h"

#include <algorithm>
#include <utility>

namespace npusim::trace {

BandwidthCounter::BandwidthCounter(TraceWriter* writer, int pid, std::string name, Tick window)
    : writer_(writer), pid_(pid), name_(std::move(name)), window_(window) {}

void BandwidthCounter::add(Tick start, Tick end, uint64_t bytes) {
  total_ += bytes;
  // Without a trace (or a window) only the total is kept, so nothing accumulates.
  if (writer_ == nullptr || !writer_->enabled() || window_ == 0) return;
  // Bytes that land in a window already emitted go to the first open window instead, so each
  // counter track stays in time order.
  const uint64_t firstOpen = (lastEmitted_ == UINT64_MAX) ? 0 : lastEmitted_ + 1;
  if (end <= start) {
    pending_[std::max(start / window_, firstOpen)] += static_cast<double>(bytes);
    return;
  }
  const double perTick = static_cast<double>(bytes) / static_cast<double>(end - start);
  const uint64_t last = (end - 1) / window_;
  for (uint64_t w = start / window_; w <= last; ++w) {
    const Tick lo = std::max(start, w * window_);
    const Tick hi = std::min(end, (w + 1) * window_);
    pending_[std::max(w, firstOpen)] += perTick * static_cast<double>(hi - lo);
  }
}

void BandwidthCounter::flushBefore(Tick t) {
  if (writer_ == nullptr || window_ == 0) return;
  // Windows with index < `done` end at or before t.
  const uint64_t done = t / window_;
  while (!pending_.empty() && pending_.begin()->first < done) {
    const auto [w, bytes] = *pending_.begin();
    pending_.erase(pending_.begin());
    // An idle gap since the last sample: drop the graph to 0 at the gap's first window.
    if (lastEmitted_ != UINT64_MAX && w > lastEmitted_ + 1 && !lastWasZero_) emit(lastEmitted_ + 1, 0.0);
    emit(w, bytes);
  }
  // The window after the last sample is over and idle: drop to 0 now rather than at the next burst.
  if (lastEmitted_ != UINT64_MAX && !lastWasZero_ && lastEmitted_ + 1 < done) emit(lastEmitted_ + 1, 0.0);
}

void BandwidthCounter::flushAll() {
  if (writer_ == nullptr || window_ == 0) return;
  if (!pending_.empty()) flushBefore((pending_.rbegin()->first + 1) * window_);
  if (lastEmitted_ != UINT64_MAX && !lastWasZero_) emit(lastEmitted_ + 1, 0.0);
}

void BandwidthCounter::emit(uint64_t window, double bytes) {
  // bytes per window of `window_` picoseconds -> GB/s: bytes / (window_ * 1e-12 s) / 1e9.
  const double gbps = bytes * 1000.0 / static_cast<double>(window_);
  writer_->counter(pid_, name_, window * window_, gbps);
  lastEmitted_ = window;
  lastWasZero_ = (gbps == 0.0);
}

}  // namespace npusim::trace

#pragma once
// A requester's read tags as a finite window: a read request may leave only while fewer than
// `tags` requests are outstanding, and its tag returns when its completion has arrived. Reads
// are booked a burst at a time, so the window is kept in bytes (tags x MRRS) and a burst holds
// its bytes until the middle of its completion stream (its requests' completions arrive one
// after another; the middle is their mean). Throughput under load therefore follows
// window / loaded round trip, which is what makes reads starve when their requests queue.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <iterator>
#include <utility>

#include "models/common/tick.h"

namespace npusim::pcie {

class ReadTags {
 public:
  ReadTags() = default;
  explicit ReadTags(uint64_t windowBytes) : window_(windowBytes) {}

  // Earliest time >= t at which `bytes` more may be outstanding.
  Tick acquire(Tick t, uint64_t bytes) {
    retire(t);
    const uint64_t need = std::min(bytes, window_);
    Tick issue = t;
    uint64_t outstanding = outstanding_;
    for (auto it = held_.begin(); outstanding + need > window_ && it != held_.end(); ++it) {
      issue = std::max(issue, it->first);
      outstanding -= it->second;
    }
    return issue;
  }
  // The burst issued at `issue` holds its tags until `release`.
  void hold(Tick release, uint64_t bytes) {
    const uint64_t b = std::min(bytes, window_);
    // Releases come almost in order: insert from the back, keeping the queue sorted (equal
    // times in arrival order, as a multimap would).
    auto it = held_.end();
    while (it != held_.begin() && std::prev(it)->first > release) --it;
    held_.emplace(it, release, b);
    outstanding_ += b;
  }
  uint64_t windowBytes() const { return window_; }

 private:
  // Tags returned by `t` are free for every request timed at or after t.
  void retire(Tick t) {
    while (!held_.empty() && held_.front().first <= t) {
      outstanding_ -= held_.front().second;
      held_.pop_front();
    }
  }

  uint64_t window_ = UINT64_MAX;
  uint64_t outstanding_ = 0;
  std::deque<std::pair<Tick, uint64_t>> held_;  // (release time, bytes), sorted by time
};

}  // namespace npusim::pcie

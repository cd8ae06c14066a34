#pragma once
// PCIe ordering at a requester's transmit side: a non-posted read request may not pass a posted
// write queued before it. A device's posted writes wait in its transmit queue for the root
// port's credits; a read request issued meanwhile waits until the writes ahead of it have left.
// The queue holds at most `queueBytes`; writes the DMA engine has not yet handed to PCIe are
// not ahead of the read, so the wait is bounded by the time that queue takes to drain.
#include <algorithm>
#include <array>
#include <cstdint>

#include "models/common/tick.h"

namespace npusim::pcie {

class PostedOrder {
 public:
  static constexpr int kRemembered = 16;

  PostedOrder() = default;
  PostedOrder(uint64_t queueBytes, double drainBytesPerSec)
      : maxWait_(transferTicks(queueBytes, drainBytesPerSec)) {}

  // A posted write entered the queue at `entered` and its last byte left the device at `left`.
  void write(Tick entered, Tick left) {
    recent_[static_cast<size_t>(next_)] = {entered, left};
    next_ = (next_ + 1) % kRemembered;
    count_ = std::min(count_ + 1, kRemembered);
  }
  // The longest a read request waits: the time the full queue takes to drain.
  Tick maxWait() const { return maxWait_; }
  // How long a read request issued at `t` waits behind the writes queued before it.
  Tick readWait(Tick t) const {
    Tick last = t;
    for (int i = 0; i < count_; ++i) {
      const Entry& e = recent_[static_cast<size_t>(i)];
      if (e.entered <= t) last = std::max(last, e.left);
    }
    return std::min(last - t, maxWait_);
  }

 private:
  struct Entry {
    Tick entered = 0, left = 0;
  };
  Tick maxWait_ = 0;
  std::array<Entry, kRemembered> recent_{};
  int next_ = 0;
  int count_ = 0;
};

}  // namespace npusim::pcie

#pragma once
// Where the answers of one caller's approximately-timed accesses arrive: (tag, completion time)
// in arrival order. A DMA channel or the AI cores keep several accesses in flight and wait here,
// in one SystemC thread, instead of one process per transaction. Whoever takes an access on the
// caller's behalf announces it (expect) and later answers it (answer): the memory initiator for
// its AT accesses, a plug-in's memory port for posted peer writes (TransactionInfo::postedTo).
#include <cstdint>
#include <deque>
#include <systemc>

#include "models/common/sim_time.h"

namespace npusim {

class AccessWaiter {
 public:
  struct Done {
    uint64_t tag;
    Tick at;
  };
  // Waits (a SystemC wait) until an answer is there, or `timeout` passed (0: no timeout).
  void wait(Tick timeout = 0) {
    if (!done_.empty()) return;
    if (timeout)
      sc_core::wait(toScTime(timeout), arrived_);
    else
      sc_core::wait(arrived_);
  }
  bool empty() const { return done_.empty(); }
  Done take() {
    Done d = done_.front();
    done_.pop_front();
    return d;
  }
  // Accesses announced and not answered yet.
  int outstanding() const { return outstanding_; }

  void expect() { ++outstanding_; }
  void answer(uint64_t tag, Tick at) {
    done_.push_back({tag, at});
    --outstanding_;
    arrived_.notify();  // immediate: the waiting thread checks its list before it waits
  }

 private:
  std::deque<Done> done_;
  int outstanding_ = 0;
  sc_core::sc_event arrived_;
};

}  // namespace npusim

#pragma once
// A serial resource that transactions reserve in simulated-time order: one direction of a
// PCIe link, a switch port, the root complex, a DMA channel's data path, a host-memory port.
// A reservation occupies the channel for the wire time of its bytes; contention appears as
// later start times. No SystemC process: reserving is arithmetic, so idle hardware costs nothing.
//
// Arbitration is by simulated time, not by call order: besides the frontier (the end of the
// latest reservation) the channel remembers the idle gaps left before reservations made for a
// later time, and a transaction timed earlier takes the earliest gap it fits into. So a
// transaction issued later in call order but timed earlier is never delayed by one booked for a
// time after it ends. (A loosely-timed reply is final once returned, so an earlier transaction
// that would overlap a booked one starts after it: no preemption.)
#include <cstdint>
#include <string>
#include <systemc>

#include "models/common/tick.h"
#include "traces/bandwidth_counter.h"

namespace npusim {

class Channel {
 public:
  static constexpr int kMaxGaps = 16;

  Channel() = default;
  Channel(std::string name, double bytesPerSec) : name_(std::move(name)), rate_(bytesPerSec) {}

  // Occupies the channel for `wireBytes` no earlier than `earliest` and no earlier than
  // `tailArrival - duration` (a cut-through hop cannot finish before its input's tail
  // arrives). Returns the interval start; the interval ends at start + ticksFor(wireBytes),
  // which goes in *end when asked for.
  // `payloadBytes` is the useful data inside the wire bytes (0 for pure protocol traffic).
  Tick reserve(Tick earliest, uint64_t wireBytes, uint64_t payloadBytes = 0, Tick tailArrival = 0,
               Tick* end = nullptr) {
    const Tick dur = ticksFor(wireBytes);
    Tick ready = earliest;
    if (tailArrival > dur && tailArrival - dur > ready) ready = tailArrival - dur;
    Tick start = ready > nextFree_ ? ready : nextFree_;
    int gap = -1;
    if (ready < nextFree_ && gaps_ > 0) {
      forgetPastGaps();
      for (int i = 0; i < gaps_; ++i) {
        const Gap& g = at(i);
        Tick s = ready > g.start ? ready : g.start;
        if (s + dur <= g.end && s < start) start = s, gap = i;
      }
    }
    if (gap >= 0) {
      takeFromGap(gap, start, start + dur);
    } else {
      if (start > nextFree_) appendGap(nextFree_, start);
      nextFree_ = start + dur;
    }
    busy_ += dur;
    wireBytes_ += wireBytes;
    payloadBytes_ += payloadBytes;
    if (counter_ && payloadBytes) counter_->add(start, start + dur, payloadBytes);
    if (end) *end = start + dur;
    return start;
  }
  Tick ticksFor(uint64_t bytes) const { return transferTicks(bytes, rate_); }

  // Small protocol traffic (DLLP ACKs, flow-control updates) sent at `at`: it takes idle time
  // if the channel is idle then, and otherwise delays the queue behind it, without making any
  // transfer wait for a reservation in its future.
  void background(Tick when, uint64_t wireBytes) {
    Tick dur = ticksFor(wireBytes);
    busy_ += dur;
    wireBytes_ += wireBytes;
    if (when >= nextFree_) return;
    // Gaps are in time order and traffic is mostly recent: search from the latest.
    for (int i = gaps_ - 1; i >= 0 && at(i).end > when; --i) {
      const Gap& g = at(i);
      if (when >= g.start) {
        takeFromGap(i, when, when + dur < g.end ? when + dur : g.end);
        return;
      }
    }
    nextFree_ += dur;
  }

  // Bandwidth counter track fed with payload bytes (optional).
  void setCounter(trace::BandwidthCounter* c) { counter_ = c; }
  trace::BandwidthCounter* counter() const { return counter_; }

  const std::string& name() const { return name_; }
  double bytesPerSec() const { return rate_; }
  Tick nextFree() const { return nextFree_; }
  Tick busyTicks() const { return busy_; }
  uint64_t wireBytes() const { return wireBytes_; }
  uint64_t payloadBytes() const { return payloadBytes_; }

 private:
  // The idle gaps, disjoint and in time order, in a ring: new gaps open at the frontier (the
  // end), the oldest are forgotten at the front, so neither needs a scan.
  struct Gap {
    Tick start, end;
  };
  static_assert((kMaxGaps & (kMaxGaps - 1)) == 0, "the ring index wraps with a mask");
  Gap& at(int i) { return ring_[(head_ + i) & (kMaxGaps - 1)]; }

  // Every transaction arrives at or after the kernel's current time (initiators run at or ahead
  // of it), so a gap that has ended can no longer be used: dropping it keeps the scan short.
  void forgetPastGaps() {
    const Tick now = static_cast<Tick>(sc_core::sc_time_stamp().value());
    while (gaps_ > 0 && at(0).end <= now) popFront();
  }
  void popFront() {
    head_ = (head_ + 1) & (kMaxGaps - 1);
    --gaps_;
  }
  // A gap at the frontier: later than every other. When the ring is full the gap that ends
  // first (the oldest, least likely to be asked for) makes room.
  void appendGap(Tick s, Tick e) {
    if (gaps_ == kMaxGaps) popFront();
    at(gaps_++) = Gap{s, e};
  }
  // Marks [s, e) of gap i as used, keeping what is left on either side in place (time order
  // holds: both parts lie inside the old gap). A full ring drops the gap that ends first.
  void takeFromGap(int i, Tick s, Tick e) {
    const Gap g = at(i);
    const bool left = s > g.start, right = g.end > e;
    if (left && right) {
      at(i).end = s;
      if (gaps_ == kMaxGaps) {
        if (i == 0) {  // the left piece is now the oldest gap: it makes room for the right one
          at(0) = Gap{e, g.end};
          return;
        }
        popFront();  // the oldest gap makes room; the right piece goes after i
        --i;
      }
      for (int j = gaps_; j > i + 1; --j) at(j) = at(j - 1);
      at(i + 1) = Gap{e, g.end};
      ++gaps_;
    } else if (left) {
      at(i).end = s;
    } else if (right) {
      at(i).start = e;
    } else {
      for (int j = i; j + 1 < gaps_; ++j) at(j) = at(j + 1);
      --gaps_;
    }
  }

  std::string name_;
  double rate_ = 1.0;
  Tick nextFree_ = 0;
  Tick busy_ = 0;
  uint64_t wireBytes_ = 0;
  uint64_t payloadBytes_ = 0;
  trace::BandwidthCounter* counter_ = nullptr;
  int gaps_ = 0;
  int head_ = 0;
  Gap ring_[kMaxGaps] = {};
};

}  // namespace npusim

#pragma once
// A serial resource that transactions reserve in simulated-time order: one direction of a
// PCIe link, a switch port, the root complex, a DMA channel's data path, a host-memory port.
// A reservation occupies the channel for the wire time of its bytes; contention appears as
// later start times. No SystemC process: reserving is arithmetic, so idle hardware costs nothing.
//
// Arbitration is by simulated time, not by call order: besides the frontier (the end of the
// latest reservation) the channel remembers every idle gap left before reservations made for a
// later time (IdleGaps, none forgotten while a transaction could still use it), and a
// transaction takes the earliest place it fits into. So a transaction issued later in call
// order but timed earlier is never delayed by one booked for a time after it ends. (A
// loosely-timed reply is final once returned, so an earlier transaction that would overlap a
// booked one starts after it: no preemption.) The guarantee this gives against a plain
// time-ordered arbiter is in docs/architecture.md ("Contention").
#include <cstdint>
#include <string>
#include <systemc>

#include "models/common/idle_gaps.h"
#include "models/common/sim_time.h"
#include "models/common/tick.h"
#include "traces/bandwidth_counter.h"

namespace npusim {

class Channel {
 public:
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
    long gap = -1;
    if (gaps_.size() > 0) {
      // Every transaction arrives at or after the kernel's current time (initiators run at or
      // ahead of it), so a gap that has ended can no longer be used.
      gaps_.forgetEndingBy(simNow());
    }
    if (ready < nextFree_ && gaps_.size() > 0) {
      Tick s = 0;
      gap = gaps_.fit(ready, dur, start, 0, 0, 0, &s);
      if (gap >= 0) start = s;
    }
    if (gap >= 0) {
      gaps_.take(static_cast<size_t>(gap), start, start + dur, 0);
    } else {
      if (start > nextFree_) gaps_.open(nextFree_, start);
      nextFree_ = start + dur;
    }
    busy_ += dur;
    wireBytes_ += wireBytes;
    payloadBytes_ += payloadBytes;
    if (counter_ && payloadBytes) counter_->add(start, start + dur, payloadBytes);
    if (end) *end = start + dur;
    return start;
  }
  Tick ticksFor(uint64_t bytes) const { return reserveTicks_.of(bytes, rate_); }

  // Where reserve(earliest, wireBytes) would start now, without reserving.
  Tick earliestStart(Tick earliest, uint64_t wireBytes) const {
    const Tick start = earliest > nextFree_ ? earliest : nextFree_;
    Tick s = 0;
    if (earliest < nextFree_ && gaps_.fit(earliest, ticksFor(wireBytes), start, 0, 0, 0, &s) >= 0) return s;
    return start;
  }

  // Small protocol traffic (DLLP ACKs, flow-control updates) sent at `at`: it takes idle time
  // if the channel is idle then, and otherwise delays the queue behind it, without making any
  // transfer wait for a reservation in its future.
  void background(Tick when, uint64_t wireBytes) {
    const Tick dur = backgroundTicks_.of(wireBytes, rate_);
    busy_ += dur;
    wireBytes_ += wireBytes;
    if (when >= nextFree_) return;
    const long i = gaps_.holding(when);
    if (i >= 0) {
      const Tick gapEnd = gaps_[static_cast<size_t>(i)].end;
      gaps_.take(static_cast<size_t>(i), when, when + dur < gapEnd ? when + dur : gapEnd, 0);
      return;
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
  // The wire time of the last size converted: a copy's bursts, and the ACKs they cause, repeat
  // one size, so the floating-point division runs once per size change instead of per packet.
  // (One memo for reservations and one for background traffic, which alternate on a link.)
  struct TicksMemo {
    uint64_t bytes = 0;
    Tick ticks = 0;  // transferTicks(0, rate) is 0
    Tick of(uint64_t b, double rate) {
      if (b != bytes) bytes = b, ticks = transferTicks(b, rate);
      return ticks;
    }
  };
  std::string name_;
  double rate_ = 1.0;
  mutable TicksMemo reserveTicks_, backgroundTicks_;
  Tick nextFree_ = 0;
  Tick busy_ = 0;
  uint64_t wireBytes_ = 0;
  uint64_t payloadBytes_ = 0;
  trace::BandwidthCounter* counter_ = nullptr;
  IdleGaps gaps_;
};

}  // namespace npusim

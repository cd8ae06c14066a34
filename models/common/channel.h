#pragma once
// A serial resource that transactions reserve in simulated-time order: one direction of a
// PCIe link, a DMA channel's data path, a host-memory port. A reservation occupies the
// channel for the wire time of its bytes; contention appears as later start times.
// No SystemC process: reserving is arithmetic, so idle hardware costs nothing.
#include <cstdint>
#include <string>

#include "models/common/tick.h"
#include "traces/bandwidth_counter.h"

namespace npusim {

class Channel {
 public:
  Channel() = default;
  Channel(std::string name, double bytesPerSec) : name_(std::move(name)), rate_(bytesPerSec) {}

  // Occupies the channel for `wireBytes` no earlier than `earliest` and no earlier than
  // `tailArrival - duration` (a cut-through hop cannot finish before its input's tail
  // arrives). Returns the interval start; the interval ends at start + ticksFor(wireBytes).
  // `payloadBytes` is the useful data inside the wire bytes (0 for pure protocol traffic).
  Tick reserve(Tick earliest, uint64_t wireBytes, uint64_t payloadBytes = 0, Tick tailArrival = 0) {
    Tick dur = ticksFor(wireBytes);
    Tick start = earliest > nextFree_ ? earliest : nextFree_;
    if (tailArrival > dur && tailArrival - dur > start) start = tailArrival - dur;
    nextFree_ = start + dur;
    busy_ += dur;
    wireBytes_ += wireBytes;
    payloadBytes_ += payloadBytes;
    if (counter_ && payloadBytes) counter_->add(start, start + dur, payloadBytes);
    return start;
  }
  Tick ticksFor(uint64_t bytes) const { return transferTicks(bytes, rate_); }

  // Small protocol traffic (DLLP ACKs, flow-control updates) sent at `at`: it is slotted
  // between the reserved transfers, so it delays the queue only when the channel is busy at
  // that time, and never makes a transfer wait for a reservation in its future.
  void background(Tick at, uint64_t wireBytes) {
    Tick dur = ticksFor(wireBytes);
    if (at < nextFree_) nextFree_ += dur;
    busy_ += dur;
    wireBytes_ += wireBytes;
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
  std::string name_;
  double rate_ = 1.0;
  Tick nextFree_ = 0;
  Tick busy_ = 0;
  uint64_t wireBytes_ = 0;
  uint64_t payloadBytes_ = 0;
  trace::BandwidthCounter* counter_ = nullptr;
};

}  // namespace npusim

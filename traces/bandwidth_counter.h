#pragma once
// Turns bytes moved over time intervals into a bandwidth counter track (GB/s), one sample
// per fixed window, so a link or memory shows its utilisation in Perfetto without an event
// per transaction. Memory is bounded: windows are emitted once simulated time passes them.
#include <cstdint>
#include <map>
#include <string>

#include "traces/trace_writer.h"

namespace npusim::trace {

class BandwidthCounter {
 public:
  BandwidthCounter() = default;
  BandwidthCounter(TraceWriter* writer, int pid, std::string name, Tick window);
  // Spreads `bytes` uniformly over [start, end) (end > start; end == start counts in start's window).
  void add(Tick start, Tick end, uint64_t bytes);
  // Emits every window that ends at or before `t`. Call with non-decreasing t.
  void flushBefore(Tick t);
  void flushAll();
  uint64_t totalBytes() const { return total_; }

 private:
  void emit(uint64_t window, double bytes);
  TraceWriter* writer_ = nullptr;
  int pid_ = 0;
  std::string name_;
  Tick window_ = 0;
  std::map<uint64_t, double> pending_;  // window index -> bytes
  uint64_t lastEmitted_ = UINT64_MAX;   // last window index emitted (UINT64_MAX = none)
  bool lastWasZero_ = true;
  uint64_t total_ = 0;
};

}  // namespace npusim::trace

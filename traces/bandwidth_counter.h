#pragma once
// Turns bytes moved over time intervals into bandwidth counter tracks (GB/s), one value per
// fixed window, so a link or memory shows its utilisation in Perfetto without an event per
// transaction. Memory is bounded: windows are emitted once simulated time passes them.
//
// One counter is one resource: a link direction, or a memory whose read and write tracks share
// one data bus. With a peak, the tracks together never show more than the resource can move in a
// window; bytes beyond it (reported late, or over intervals shorter than their wire time) move to
// the following windows. A sample is written only when a track's value changes (below
// transaction level: by more than 1 % of the peak), so a steady transfer costs two samples, not
// one per window.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "traces/trace_writer.h"

namespace npusim::trace {

class BandwidthCounter {
 public:
  static constexpr size_t kMaxTracks = 2;

  BandwidthCounter() = default;
  // `peakBytesPerSec` 0 means no limit.
  BandwidthCounter(TraceWriter* writer, int pid, std::string name, Tick window, double peakBytesPerSec = 0);
  // Several tracks sharing one resource (at most kMaxTracks), e.g. {"HBM read GB/s", "HBM write GB/s"}.
  BandwidthCounter(TraceWriter* writer, int pid, std::vector<std::string> names, Tick window,
                   double peakBytesPerSec);
  // Spreads `bytes` uniformly over [start, end) (end > start; end == start counts in start's window).
  void add(Tick start, Tick end, uint64_t bytes, size_t track = 0);
  // Emits every window that ends at or before `t`. Call with non-decreasing t.
  void flushBefore(Tick t);
  void flushAll();
  uint64_t totalBytes() const { return total_; }
  double peakBytesPerSec() const { return peak_; }

 private:
  using Bytes = std::array<double, kMaxTracks>;
  void emitWindow(uint64_t w, Bytes bytes);
  bool showsTraffic() const;  // some track's last value is not 0
  // Writes the window's values (GB/s per track) that changed enough to show.
  void sample(uint64_t window, const Bytes& gbps);
  TraceWriter* writer_ = nullptr;
  int pid_ = 0;
  std::vector<std::string> names_;
  Tick window_ = 0;
  double peak_ = 0;
  double capacity_ = 0;                // bytes per window at the peak (0: unlimited)
  std::map<uint64_t, Bytes> pending_;  // window index -> bytes per track
  uint64_t lastWindow_ = UINT64_MAX;   // last window index emitted (UINT64_MAX = none)
  Bytes lastValue_{};                  // last value written per track (GB/s)
  uint64_t total_ = 0;
};

}  // namespace npusim::trace

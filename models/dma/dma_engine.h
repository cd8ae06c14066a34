#pragma once
// A device's DMA engine: several channels, each running one copy at a time. A copy is cut
// into bursts (sim.dma_burst_bytes); a channel keeps up to dma.outstanding_bytes of bursts in
// flight, so latency is hidden as on real hardware and results converge as bursts shrink.
// Each burst is timed by the memories and the PCIe fabric it crosses; its bytes land at the
// destination when it completes. Channels are granted in FIFO order when all are busy.
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/channel.h"
#include "models/common/memory_port.h"
#include "models/pcie/fabric.h"
#include "models/sched/task.h"
#include "traces/trace_writer.h"

namespace npusim {
class Config;
}

namespace npusim::dma {

struct ChannelStats {
  uint64_t copies = 0;
  uint64_t bytes = 0;
  Tick busy = 0;
};

class DmaEngine {
 public:
  DmaEngine(int device, const Config& cfg, pcie::Fabric& fabric, std::vector<MemoryPort*>& hbms,
            trace::TraceWriter& trace, int tracePid);

  // Runs `task`'s copy to completion. Must be called from a SystemC thread; returns the
  // channel used. Sets task.engineWait to the time spent waiting for a channel.
  int run(sched::Task& task);

  int channels() const { return static_cast<int>(channels_.size()); }
  // Trace processes of all devices, so a peer copy shows up on its destination device too.
  void setDevicePids(std::vector<int> pids) { devicePids_ = std::move(pids); }
  const ChannelStats& stats(int ch) const { return channels_[ch].stats; }
  Tick burstBytes() const { return burst_; }

 private:
  struct Burst {
    Tick tail;  // arrival of the last byte at the destination
    uint64_t row, col, bytes;
  };
  struct DmaChannel {
    Channel datapath;
    bool busy = false;
    trace::Track track;
    ChannelStats stats;
  };
  int acquire();
  void release(int ch);
  Tick issue(sched::Task& task, DmaChannel& ch, uint64_t row, uint64_t col, uint64_t bytes);
  void land(sched::Task& task, const Burst& b, Tick& done);

  int device_;
  pcie::Fabric& fabric_;
  std::vector<MemoryPort*>& hbms_;
  trace::TraceWriter& trace_;
  uint64_t burst_;
  uint64_t window_;
  Tick descriptorTime_;
  uint64_t maxDescriptor_;
  std::vector<DmaChannel> channels_;
  std::deque<uint64_t> waiting_;  // tasks waiting for a channel, FIFO
  sc_core::sc_event freed_;
  uint64_t burstIds_ = 0;
  std::vector<int> devicePids_;
  std::map<std::pair<int, int>, trace::Track> peerTracks_;  // (peer, channel) -> "P2P in" track
};

}  // namespace npusim::dma

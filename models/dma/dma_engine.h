#pragma once
// A device's DMA engine: several channels, each running one copy at a time. A copy is cut
// into bursts (sim.dma_burst_bytes); a channel keeps up to dma.outstanding_bytes of bursts in
// flight, so latency is hidden as on real hardware and results converge as bursts shrink.
// Each burst is a TLM transaction to the memories and the PCIe fabric it crosses; its bytes land
// at the destination when it completes. Channels are granted in FIFO order when all are busy.
// A write into a peer's memory takes the device's HCCS link to that peer when there is one and
// PCIe otherwise: that choice is made here, for every peer copy, and nowhere else.
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/channel.h"
#include "models/common/memory_initiator.h"
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

class DmaEngine : public sc_core::sc_module {
 public:
  // `hccsPeers`: the devices this one has an HCCS link to (none: no `hccs` socket).
  DmaEngine(sc_core::sc_module_name name, int device, const Config& cfg, trace::TraceWriter& trace,
            int tracePid, const std::vector<int>& hccsPeers = {});

  MemoryInitiator hbm;   // socket "hbm": this device's memory bus
  MemoryInitiator pcie;  // socket "pcie": the PCIe fabric (host memory, peers' BARs)
  // Socket "hccs": the device's HCCS port; null when the device has no HCCS link.
  MemoryInitiator* hccs() { return hccs_.get(); }
  bool hccsTo(int peer) const {
    return peer >= 0 && peer < static_cast<int>(hccsPeers_.size()) && hccsPeers_[static_cast<size_t>(peer)];
  }

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
    Tick issued = 0;    // when the channel took it up
    Tick start = 0;     // when its data path started it
    bool ready = true;  // tail known (approximately timed: its source read was answered)
  };
  struct DmaChannel {
    int index = 0;
    Channel datapath;
    bool busy = false;
    bool streamCopy = false;  // the current copy's bytes land with streamCopy (stream_copy.h)
    trace::Track track;
    ChannelStats stats;
  };
  int acquire();
  void release(int ch);
  // Whether the task's bytes land with non-temporal stores: a large copy between distinct buffers.
  static bool streams(const sched::Task& task);
  // Starts burst `b`: its source read, and, when that read's time is known at once, the rest.
  // Returns whether b.tail is known; if not, the read's response reaches `w` with `tag`.
  bool issue(sched::Task& task, DmaChannel& ch, Burst& b, Tick local, Tick& peerDone, AccessWaiter& w,
             uint64_t tag);
  // The burst's leg after its source read, done at `read`; returns its tail.
  // A peer write into an approximately-timed memory is answered later, through `w`.
  Tick forward(sched::Task& task, DmaChannel& ch, const Burst& b, Tick read, Tick& peerDone, AccessWaiter& w);
  void traceBurst(const sched::Task& task, const DmaChannel& ch, const Burst& b);
  void land(sched::Task& task, int ci, const Burst& b, Tick local, Tick& done, AccessWaiter& w);
  void setContext(const sched::Task& task, int ci);

  int device_;
  std::unique_ptr<MemoryInitiator> hccs_;
  std::vector<bool> hccsPeers_;  // [d]: an HCCS link to device d
  trace::TraceWriter& trace_;
  uint64_t burst_;
  uint64_t window_;
  Tick descriptorTime_;
  uint64_t maxDescriptor_;
  std::vector<DmaChannel> channels_;
  std::vector<std::unique_ptr<AccessWaiter>> waiters_;  // per channel: its AT answers
  std::deque<uint64_t> waiting_;                        // tasks waiting for a channel, FIFO
  sc_core::sc_event freed_;
  uint64_t burstIds_ = 0;
  std::vector<int> devicePids_;
  std::map<std::pair<int, int>, trace::Track> peerTracks_;  // (peer, channel) -> "P2P in" track
};

}  // namespace npusim::dma

#pragma once
// Assembles a simulated system from the configuration: the PCIe fabric (root complex,
// switches, links) and, per device, HBM, DMA engine, AI cores and stream scheduler, with
// their trace tracks and bandwidth counters. Built once per process, before the first
// sc_start (SystemC cannot add modules later or restart a simulation).
#include <memory>
#include <vector>

#include "models/aicore/ai_core_cluster.h"
#include "models/dma/dma_engine.h"
#include "models/hbm/hbm_model.h"
#include "models/pcie/fabric.h"
#include "models/sched/stream_scheduler.h"
#include "npusim/config.h"
#include "traces/bandwidth_counter.h"
#include "traces/trace_writer.h"

namespace npusim {

// A device's HBM as the initiators see it, with its bandwidth counters.
class HbmPort : public MemoryPort {
 public:
  HbmPort(const HbmParams& p, trace::TraceWriter& trace, int pid, Tick window);
  Tick access(uint64_t addr, uint64_t bytes, bool write, Tick arrival) override;
  double peakBytesPerSec() const override { return model.peakBytesPerSec(); }
  void flushBefore(Tick t);
  void flushAll();
  HbmModel model;

 private:
  std::unique_ptr<trace::BandwidthCounter> counter_;
};

struct Device {
  int id = 0;
  int tracePid = 0;
  std::unique_ptr<HbmPort> hbm;
  std::unique_ptr<dma::DmaEngine> dma;
  std::unique_ptr<aicore::AiCoreCluster> cores;
  std::unique_ptr<sched::StreamScheduler> sched;
};

class Platform {
 public:
  Platform(const Config& cfg, trace::TraceWriter& trace, sched::StreamScheduler::CompletionHook hook);
  ~Platform();

  const Config& config() const { return cfg_; }
  int deviceCount() const { return static_cast<int>(devices_.size()); }
  Device& device(int id) { return *devices_[static_cast<size_t>(id)]; }
  pcie::Fabric& fabric() { return *fabric_; }
  uint64_t hbmCapacity() const { return hbmCapacity_; }

  // Emits bandwidth-counter windows that simulated time has passed (bounded trace memory).
  void flushCounters(Tick now);
  void flushAllCounters();
  nlohmann::json statistics(Tick now) const;

 private:
  Config cfg_;
  trace::TraceWriter& trace_;
  std::unique_ptr<pcie::Fabric> fabric_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<MemoryPort*> hbmPorts_;
  std::vector<std::unique_ptr<trace::BandwidthCounter>> linkCounters_;
  uint64_t hbmCapacity_ = 0;
  Tick counterWindow_ = 1;
  Tick flushedUpTo_ = 0;
};

}  // namespace npusim

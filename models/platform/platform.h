#pragma once
// Assembles a simulated system from the configuration as a SystemC module hierarchy under
// `npusim`: the PCIe fabric (`npusim.pcie`), the HCCS links between devices if the topology
// has any (`npusim.hccs`) and, per device `npusim.npu<d>`, the memory target
// (`hbm`: the built-in HBM or a plug-in, hbm.model), the memory bus in front of it (`mem_bus`),
// the DMA engine (`dma`), the AI cores (`aicore`) and the stream scheduler (`sched`), with
// their sockets bound and their trace tracks and bandwidth counters. Built once per process,
// before the first sc_start (SystemC cannot add modules later or restart a simulation).
#include <memory>
#include <string>
#include <vector>

#include "models/aicore/ai_core_cluster.h"
#include "models/common/memory_bus.h"
#include "models/common/plugin_port.h"
#include "models/dma/dma_engine.h"
#include "models/hbm/hbm_target.h"
#include "models/hccs/hccs_module.h"
#include "models/hccs/hccs_topology.h"
#include "models/pcie/pcie_module.h"
#include "models/platform/memory_targets.h"
#include "models/sched/stream_scheduler.h"
#include "npusim/config.h"
#include "traces/bandwidth_counter.h"
#include "traces/trace_writer.h"

namespace npusim {

// One device's modules.
class Device : public sc_core::sc_module {
 public:
  // `hccsPeers`: the devices this one has an HCCS link to.
  Device(sc_core::sc_module_name name, int id, const Config& cfg, trace::TraceWriter& trace, int tracePid,
         sched::StreamScheduler::CompletionHook hook, const std::vector<int>& hccsPeers);

  int id = 0;
  int tracePid = 0;
  std::unique_ptr<HbmTarget> hbm;      // null when a plug-in model stands in for it
  std::unique_ptr<PluginPort> plugin;  // in front of a contract-v2 plug-in model, else null
  std::unique_ptr<MemoryBus> bus;
  std::unique_ptr<dma::DmaEngine> dma;
  std::unique_ptr<aicore::AiCoreCluster> cores;
  std::unique_ptr<sched::StreamScheduler> sched;
  std::string memoryTarget;  // full name of the module behind bus.out

 private:
  tlm::tlm_target_socket<>* buildPluginTarget(const RegisteredMemoryModel& m, const std::string& model);
  tlm::tlm_target_socket<>* bindPluginModel(const RegisteredMemoryModel& m, const std::string& model,
                                            const Config& cfg);
};

class Platform {
 public:
  // Throws ConfigError when hbm.model names no registered model or its factory returns null.
  Platform(const Config& cfg, trace::TraceWriter& trace, sched::StreamScheduler::CompletionHook hook);
  ~Platform();

  const Config& config() const { return cfg_; }
  int deviceCount() const { return static_cast<int>(devices_.size()); }
  Device& device(int id) { return *devices_[static_cast<size_t>(id)]; }
  pcie::Fabric& fabric() { return pcie_->fabric(); }
  // The HCCS links (empty when the topology has none): whether two devices are linked, how
  // many links a device has. Peer copies between linked devices take the link.
  const hccs::Topology& hccs() const { return *hccsTopology_; }
  uint64_t hbmCapacity() const { return hbmCapacity_; }
  // Where device `d`'s memory is: its virtual base and functional backing, so MTE addresses
  // reach the memory target as offsets and write payloads carry the bytes.
  void setAddressSpace(int d, const DeviceAddressSpace& s);

  // The simulation is ending: the stream threads return at the kernel's next delta cycle
  // (StreamScheduler::endThreads).
  void endThreads();

  // Emits bandwidth-counter windows that simulated time has passed (bounded trace memory).
  void flushCounters(Tick now);
  void flushAllCounters();
  nlohmann::json statistics(Tick now) const;
  // The elaborated hierarchy, one module per line with its full SystemC name and its sockets'
  // bindings (npusim topology --modules).
  std::string describeModules() const;

 private:
  struct Binding {
    std::string from, to;
  };
  Config cfg_;
  trace::TraceWriter& trace_;
  std::unique_ptr<sc_core::sc_module> top_;
  std::unique_ptr<pcie::PcieModule> pcie_;
  std::unique_ptr<hccs::Topology> hccsTopology_;
  std::unique_ptr<hccs::HccsModule> hccs_;  // null without links
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<std::unique_ptr<trace::BandwidthCounter>> counters_;
  std::vector<Binding> bindings_;
  uint64_t hbmCapacity_ = 0;
  Tick counterWindow_ = 1;
  Tick flushedUpTo_ = 0;
};

}  // namespace npusim

#pragma once
// The PCIe fabric as a hierarchy of interconnect modules, built from the platform topology:
//
//   npusim.pcie.rc            RootComplex: root ports, data paths to/from host memory
//   npusim.pcie.host_memory   HostMemory: the host's DDR, behind the root complex
//   npusim.pcie.<switch>      SwitchModule: routes by address, cut-through latency
//   npusim.pcie.<x>_link      LinkModule: both directions of the link above element <x>
//   npusim.pcie.npuN          Endpoint: where device N's DMA enters and peer writes leave
//
// Every transaction passes element by element through their TLM-2.0 sockets, each element
// timing its own part through the TLM delay annotation (the head's arrival; the tail follows
// by TransactionInfo::tailAfterHead), so any standard TLM module bound between two of them adds
// exactly its own delay. The state the elements share (channels, read tags, posted ordering,
// credits) is the Fabric's. Routes: address.h.
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/pcie/endpoint.h"
#include "models/pcie/fabric.h"
#include "models/pcie/host_memory.h"
#include "models/pcie/link_module.h"
#include "models/pcie/root_complex.h"
#include "models/pcie/switch_module.h"

namespace npusim::pcie {

// Sockets of outside modules bound between a link's upper end and its parent (the root complex
// or a switch): what goes up enters `upIn` and leaves `upOut`, what comes down enters `downIn`
// and leaves `downOut`. A what-if study or a test puts a monitor, a router or a delay there.
struct Interposer {
  tlm::tlm_target_socket<>* upIn = nullptr;
  tlm::tlm_initiator_socket<>* upOut = nullptr;
  tlm::tlm_target_socket<>* downIn = nullptr;
  tlm::tlm_initiator_socket<>* downOut = nullptr;
};
// Asked once per link with the link module's name (e.g. "switch0_link"); an Interposer with
// null sockets binds the link to its parent directly.
using InterposerFactory = std::function<Interposer(const std::string& linkName)>;

class PcieModule : public sc_core::sc_module {
 public:
  PcieModule(sc_core::sc_module_name name, const Config& cfg, InterposerFactory interpose = {});
  ~PcieModule() override;

  Fabric& fabric() { return fabric_; }
  // Device `d`'s endpoint: the platform binds the device's DMA to its `dma` socket and its
  // `memory` socket to the device's memory bus.
  Endpoint& endpoint(int d) { return *endpoints_[static_cast<size_t>(d)]; }

  struct Binding {
    std::string from, to;  // full socket names, initiator -> target
  };
  // The bindings made inside the fabric (npusim topology --modules).
  const std::vector<Binding>& bindings() const { return bindings_; }

 private:
  // Builds the modules below `n` and binds them to `n`'s downstream sockets.
  void buildBelow(const Node& n, tlm_utils::multi_passthrough_initiator_socket<RootComplex>* rcDown,
                  tlm_utils::multi_passthrough_target_socket<RootComplex>* rcUp, SwitchModule* sw);
  std::string uniqueName(const std::string& nodeName);
  std::vector<int> portsOf(const Node& n) const;  // device id -> index of the child leading to it
  template <class I, class T>
  void bind(I& initiator, T& target);
  template <class Up, class Down>
  void bindToParent(LinkModule& l, Up& parentIn, Down& parentOut);

  Fabric fabric_;
  std::unique_ptr<RootComplex> rc_;
  std::unique_ptr<HostMemory> host_;
  std::vector<std::unique_ptr<SwitchModule>> switches_;
  std::vector<std::unique_ptr<LinkModule>> links_;
  std::vector<std::unique_ptr<Endpoint>> endpoints_;
  std::vector<std::string> names_;
  std::vector<Binding> bindings_;
  InterposerFactory interpose_;
};

}  // namespace npusim::pcie

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
// timing its part in the transaction's transit (models/common/transaction.h). The state the
// elements share (channels, read tags, posted ordering, credits) and the standalone timing of
// the same steps (for tools and unit tests) are the Fabric's. Routes: address.h.
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

class PcieModule : public sc_core::sc_module {
 public:
  PcieModule(sc_core::sc_module_name name, const Config& cfg);
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

  Fabric fabric_;
  std::unique_ptr<RootComplex> rc_;
  std::unique_ptr<HostMemory> host_;
  std::vector<std::unique_ptr<SwitchModule>> switches_;
  std::vector<std::unique_ptr<LinkModule>> links_;
  std::vector<std::unique_ptr<Endpoint>> endpoints_;
  std::vector<std::string> names_;
  std::vector<Binding> bindings_;
};

}  // namespace npusim::pcie

#pragma once
// The PCIe fabric as an interconnect module. Every device's DMA engine binds its `pcie`
// initiator socket to `dma` (a multi-socket, one binding per device in device order); `to_device`
// is bound to every device's memory bus, in device order. A transaction is routed by address:
//  - host window (hostAddress()): device reads of host memory (non-posted requests and their
//    completions) or posted writes into it, through the device's link, its switches, the root
//    port and the root complex's host-memory port;
//  - a device's BAR window (barAddress()): a peer write, routed through the common switch (or
//    the root complex) and delivered to that device's memory bus as an offset into its HBM.
// The annotated delay comes back as the arrival of the last byte (host reads), the data in host
// DDR (host writes), or of the last byte at the peer (peer writes; the completion in the peer's
// HBM goes in the extension's memoryDone). The timing of each hop
// (link directions, switch ports, root complex, credits and tags) is Fabric's.
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <memory>
#include <systemc>
#include <tlm>

#include "models/pcie/fabric.h"

namespace npusim::pcie {

class PcieModule : public sc_core::sc_module {
 public:
  PcieModule(sc_core::sc_module_name name, const Config& cfg);

  tlm_utils::multi_passthrough_target_socket<PcieModule> dma;
  tlm_utils::multi_passthrough_initiator_socket<PcieModule> to_device;

  Fabric& fabric() { return fabric_; }

  static constexpr uint64_t kHostWindow = 1ull << 62;
  static constexpr uint64_t kBarWindow = 1ull << 61;
  static constexpr int kBarShift = 44;  // 16 TiB per device BAR, above any HBM capacity
  static uint64_t hostAddress(uint64_t a) { return kHostWindow | (a & (kHostWindow - 1)); }
  static uint64_t barAddress(int device, uint64_t offset) {
    return kBarWindow | (static_cast<uint64_t>(device) << kBarShift) | offset;
  }

 private:
  void b_transport(int id, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void end_of_elaboration() override;

  Fabric fabric_;
  Tick quantum_ = 0;  // how far ahead of the kernel a transfer may be booked without waiting
};

}  // namespace npusim::pcie

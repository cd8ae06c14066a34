#pragma once
// A device's HCCS interface as a module: where its DMA engine sends a transfer for a peer it has
// a link to. The transfer names the peer by its window address (models/pcie/address.h, as peer
// writes over PCIe do); the port sends it down the link to that peer as an offset into the
// peer's memory. A peer without a link is an address error (the DMA engine routes those to PCIe).
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <systemc>
#include <tlm>
#include <vector>

namespace npusim::hccs {

class HccsPort : public sc_core::sc_module {
 public:
  HccsPort(sc_core::sc_module_name name, int device, int devices);

  tlm_utils::simple_target_socket<HccsPort> from_dma;
  // One binding per link, in the order connect() is called.
  tlm_utils::multi_passthrough_initiator_socket<HccsPort, 32, tlm::tlm_base_protocol_types, 0,
                                                sc_core::SC_ZERO_OR_MORE_BOUND>
      links;

  // The next binding of `links` leads to `peer`.
  void connect(int peer);
  int device() const { return device_; }

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  int device_;
  int bound_ = 0;
  std::vector<int> route_;  // peer -> index into links, -1 = no link
};

}  // namespace npusim::hccs

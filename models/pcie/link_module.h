#pragma once
// One PCIe link as a module: its two directions (the Link's channels) between a lower element
// (a device's endpoint or a switch) and its parent (a switch or the root complex). A packet
// going up reserves the up direction and its ACKs on the down one; a host read's completion
// comes back down the same link when the call returns; peer writes come down from the parent.
// Timing is the TLM annotation (docs/architecture.md, "Timing through the sockets"): the
// delay says when the packet's first byte reaches the link, `TransactionInfo::tailAfterHead`
// when its last does; the link forwards them as they leave its far end.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <systemc>
#include <tlm>

#include "models/pcie/link.h"
#include "models/pcie/tlp.h"

namespace npusim::pcie {

class LinkModule : public sc_core::sc_module {
 public:
  LinkModule(sc_core::sc_module_name name, Link& link, const Protocol& protocol);

  tlm_utils::simple_target_socket<LinkModule> from_child;    // traffic going up
  tlm_utils::simple_initiator_socket<LinkModule> to_parent;  // its continuation
  tlm_utils::simple_target_socket<LinkModule> from_parent;   // traffic going down
  tlm_utils::simple_initiator_socket<LinkModule> to_child;

  Link& link() { return link_; }

  // What a packet puts on one direction: its wire bytes, the payload inside them, and the DLLP
  // ACK bytes it causes on the opposite direction.
  struct Packet {
    uint64_t wire, payload, acks;
  };

 private:
  // The packets of a transfer of `bytes`: its request (a read's or a write's) and a read's
  // completion. The protocol arithmetic divides by the TLP sizes; a copy's bursts repeat one
  // size, so the packets of the last size are kept.
  struct Packets {
    uint64_t bytes = ~uint64_t{0};
    Packet read, write, completion;
  };
  const Packets& packets(uint64_t bytes);
  void up(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void down(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  Link& link_;
  const Protocol& proto_;
  Packets last_;
};

}  // namespace npusim::pcie

#pragma once
// One HCCS link between devices a and b as a module: a point-to-point, full-duplex link whose
// two directions are separate channels, so two transfers the same way share it and opposite
// ones do not. A write entering at `from_a` crosses a->b and is delivered to b's memory bus
// through `to_b` when its last byte is there; a read entering at `from_a` crosses to b (one
// latency), reads b's memory and brings the data back on b->a. Each transaction's timing is
// its TLM annotation: the arrival in, the completion (the far memory's, for a write; the data
// back, for a read) out. A transfer booked on a direction more than the TLM quantum ahead of the
// kernel makes its initiator wait until then (the link's back-pressure), so the far memory is
// never handed writes far in its future, and it sees them in time order.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <systemc>
#include <tlm>

#include "models/common/channel.h"
#include "models/hccs/hccs_topology.h"

namespace npusim::hccs {

class HccsLink : public sc_core::sc_module {
 public:
  HccsLink(sc_core::sc_module_name name, const LinkSpec& spec);

  tlm_utils::simple_target_socket<HccsLink> from_a;   // from device a's HCCS port
  tlm_utils::simple_target_socket<HccsLink> from_b;   // from device b's HCCS port
  tlm_utils::simple_initiator_socket<HccsLink> to_a;  // device a's memory bus
  tlm_utils::simple_initiator_socket<HccsLink> to_b;  // device b's memory bus

  const LinkSpec& spec() const { return spec_; }
  // The direction that carries data from device `from` to the other end.
  Channel& direction(int from) { return from == spec_.a ? aToB_ : bToA_; }

 private:
  void end_of_elaboration() override;
  void fromA(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void fromB(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void carry(Channel& out, Channel& back, tlm_utils::simple_initiator_socket<HccsLink>& far,
             tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  uint64_t wireBytes(uint64_t payload) const;
  // Waits until `start` when it is beyond the quantum; returns the kernel time after that.
  Tick holdUntil(Tick start, Tick now) const;

  LinkSpec spec_;
  Tick latency_;
  Tick quantum_ = 0;
  Channel aToB_, bToA_;
};

}  // namespace npusim::hccs

#include "models/pcie/link_module.h"

#include "models/common/sim_time.h"
#include "models/common/transaction.h"
#include "models/pcie/address.h"

namespace npusim::pcie {

namespace {

using Packet = LinkModule::Packet;

// Serialises the packet on `fwd` cut-through: it starts when its head has arrived and the
// direction is free, and cannot end before its tail has arrived; its ACKs go the other way.
// The annotation then says when head and tail reach the far end. Returns the end on `fwd`.
// `span` is the packet's TransactionInfo::tailAfterHead.
Tick cross(Channel& fwd, Channel& rev, Tick latency, const Packet& k, uint64_t& span,
           sc_core::sc_time& delay) {
  const Tick now = simNow();
  const Tick head = now + static_cast<Tick>(delay.value());
  Tick end = 0;
  const Tick start = fwd.reserve(head, k.wire, k.payload, head + span, &end);
  if (k.acks) rev.background(start, k.acks);
  delay = toScTime(start + latency - now);
  span = end - start;
  return end;
}

}  // namespace

const LinkModule::Packets& LinkModule::packets(uint64_t bytes) {
  if (last_.bytes != bytes) {
    const Protocol& pr = proto_;
    last_.bytes = bytes;
    last_.read = {pr.readRequestWire(bytes), 0, pr.ackWire(pr.readRequests(bytes))};
    last_.write = {pr.writeWire(bytes), bytes, pr.ackWire(pr.writeTlps(bytes))};
    last_.completion = {pr.completionWire(bytes), bytes, pr.ackWire(pr.completions(bytes))};
  }
  return last_;
}

LinkModule::LinkModule(sc_core::sc_module_name name, Link& link, const Protocol& protocol)
    : sc_module(name),
      from_child("from_child"),
      to_parent("to_parent"),
      from_parent("from_parent"),
      to_child("to_child"),
      link_(link),
      proto_(protocol) {
  from_child.register_b_transport(this, &LinkModule::up);
  from_parent.register_b_transport(this, &LinkModule::down);
}

void LinkModule::up(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  TransactionInfo& x = info(p);
  const Packets& k = packets(p.get_data_length());
  link_.lastUpLeft =
      cross(link_.up, link_.down, link_.latency, p.is_write() ? k.write : k.read, x.tailAfterHead, delay);
  to_parent->b_transport(p, delay);
  // A host read comes back as its completion, timed from its head's arrival at the upper end.
  if (p.is_read() && isHost(p.get_address()) && p.is_response_ok())
    cross(link_.down, link_.up, link_.latency, packets(p.get_data_length()).completion, x.tailAfterHead,
          delay);
}

void LinkModule::down(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const Packets& k = packets(p.get_data_length());
  cross(link_.down, link_.up, link_.latency, p.is_write() ? k.write : k.read, info(p).tailAfterHead, delay);
  to_child->b_transport(p, delay);
}

}  // namespace npusim::pcie

#include "models/pcie/link_module.h"

#include "models/common/sim_time.h"
#include "models/common/transaction.h"
#include "models/pcie/address.h"

namespace npusim::pcie {

namespace {

// What a packet puts on one direction: its wire bytes, the payload inside them, and the DLLP
// ACK bytes it causes on the opposite direction.
struct Packet {
  uint64_t wire, payload, acks;
};

Packet request(const Protocol& proto, const tlm::tlm_generic_payload& p) {
  const uint64_t bytes = p.get_data_length();
  if (p.is_write()) return {proto.writeWire(bytes), bytes, proto.ackWire(proto.writeTlps(bytes))};
  return {proto.readRequestWire(bytes), 0, proto.ackWire(proto.readRequests(bytes))};
}

Packet completion(const Protocol& proto, const tlm::tlm_generic_payload& p) {
  const uint64_t bytes = p.get_data_length();
  return {proto.completionWire(bytes), bytes, proto.ackWire(proto.completions(bytes))};
}

// Serialises the packet on `fwd` cut-through: it starts when its head has arrived and the
// direction is free, and cannot end before its tail has arrived; its ACKs go the other way.
// The annotation then says when head and tail reach the far end. Returns the end on `fwd`.
Tick cross(Channel& fwd, Channel& rev, Tick latency, const Packet& k, tlm::tlm_generic_payload& p,
           sc_core::sc_time& delay) {
  const Tick now = simNow();
  const Tick head = now + static_cast<Tick>(delay.value());
  uint64_t& span = info(p).tailAfterHead;
  Tick end = 0;
  const Tick start = fwd.reserve(head, k.wire, k.payload, head + span, &end);
  if (k.acks) rev.background(start, k.acks);
  delay = toScTime(start + latency - now);
  span = end - start;
  return end;
}

}  // namespace

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
  link_.lastUpLeft = cross(link_.up, link_.down, link_.latency, request(proto_, p), p, delay);
  to_parent->b_transport(p, delay);
  // A host read comes back as its completion, timed from its head's arrival at the upper end.
  if (p.is_read() && isHost(p.get_address()) && p.is_response_ok())
    cross(link_.down, link_.up, link_.latency, completion(proto_, p), p, delay);
}

void LinkModule::down(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  cross(link_.down, link_.up, link_.latency, request(proto_, p), p, delay);
  to_child->b_transport(p, delay);
}

}  // namespace npusim::pcie

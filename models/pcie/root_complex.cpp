#include "models/pcie/root_complex.h"

#include "models/common/sim_time.h"
#include "models/common/transaction.h"
#include "models/pcie/address.h"
#include "models/pcie/fabric.h"

namespace npusim::pcie {

RootComplex::RootComplex(sc_core::sc_module_name name, Fabric& fabric, std::vector<int> portOfDevice)
    : sc_module(name),
      from_ports("from_ports"),
      to_ports("to_ports"),
      host("host"),
      fabric_(fabric),
      portOfDevice_(std::move(portOfDevice)) {
  from_ports.register_b_transport(this, &RootComplex::fromPort);
}

void RootComplex::fromPort(int, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const uint64_t addr = p.get_address();
  if (isHost(addr)) {
    if (p.is_read())
      readHost(p, delay);
    else
      writeHost(p, delay);
    return;
  }
  const int d = isBar(addr) ? barDevice(addr) : -1;
  if (d < 0 || d >= static_cast<int>(portOfDevice_.size())) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  delay += toScTime(fabric_.rcLatency());  // forwarded from one root port to another
  to_ports[portOfDevice_[static_cast<size_t>(d)]]->b_transport(p, delay);
}

void RootComplex::readHost(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const Tick now = simNow();
  uint64_t& span = info(p).tailAfterHead;
  // The request, once wholly received, goes to host memory after the RC's latency.
  delay = toScTime(static_cast<Tick>(delay.value()) + span + fabric_.rcLatency());
  span = 0;
  host->b_transport(p, delay);  // the data leaving host memory: head at delay, tail span later
  if (!p.is_response_ok()) return;
  // The RC's path back to the root ports, cut-through behind host memory: the completion.
  const Tick head = now + static_cast<Tick>(delay.value());
  Tick end = 0;
  const Tick start = fabric_.rcFromHost().reserve(head, p.get_data_length(), 0, head + span, &end);
  delay = toScTime(start - now);
  span = end - start;
}

void RootComplex::writeHost(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const Tick now = simNow();
  uint64_t& span = info(p).tailAfterHead;
  const Tick head = now + static_cast<Tick>(delay.value()) + fabric_.rcLatency();
  Tick end = 0;
  const Tick start = fabric_.rcToHost().reserve(head, p.get_data_length(), 0, head + span, &end);
  delay = toScTime(start - now);
  span = end - start;
  host->b_transport(p, delay);  // returns when the data is in host DDR
}

}  // namespace npusim::pcie

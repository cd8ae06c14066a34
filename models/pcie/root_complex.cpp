#include "models/pcie/root_complex.h"

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
  Transit& x = info(p).transit;
  const uint64_t bytes = p.get_data_length();
  const uint64_t addr = p.get_address();
  if (isHost(addr)) {
    if (p.is_read()) {
      fabric_.rcReadToMemory(x);
      host->b_transport(p, delay);   // x: the data's interval in host DDR
      fabric_.rcFromHost(bytes, x);  // x: the completion, leaving the root ports
    } else {
      fabric_.rcToHost(bytes, x);
      host->b_transport(p, delay);  // x.tail: the data is in host DDR
    }
    return;
  }
  const int d = isBar(addr) ? barDevice(addr) : -1;
  if (d < 0 || d >= static_cast<int>(portOfDevice_.size())) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  x.delay(fabric_.rcLatency());  // forwarded from one root port to another
  to_ports[portOfDevice_[static_cast<size_t>(d)]]->b_transport(p, delay);
}

}  // namespace npusim::pcie

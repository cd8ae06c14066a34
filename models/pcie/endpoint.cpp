#include "models/pcie/endpoint.h"

#include "models/common/sim_time.h"
#include "models/common/transaction.h"
#include "models/pcie/address.h"
#include "models/pcie/fabric.h"

namespace npusim::pcie {

using sc_core::sc_time;

Endpoint::Endpoint(sc_core::sc_module_name name, Fabric& fabric, int device)
    : sc_module(name),
      dma("dma"),
      link("link"),
      from_link("from_link"),
      memory("memory"),
      fabric_(fabric),
      device_(device) {
  dma.register_b_transport(this, &Endpoint::fromDma);
  from_link.register_b_transport(this, &Endpoint::fromLink);
}

void Endpoint::end_of_elaboration() { quantum_ = globalQuantum(); }

void Endpoint::fromDma(tlm::tlm_generic_payload& p, sc_time& delay) {
  Tick now = simNow();
  Tick arrival = now + static_cast<Tick>(delay.value());
  const uint64_t addr = p.get_address(), bytes = p.get_data_length();
  const bool write = p.is_write();
  Transit& x = info(p).transit;
  Tick done = arrival;
  if (isHost(addr)) {
    // The transfer enters PCIe when PCIe can take it (free tags, room in the transmit queue).
    // Within the quantum it is booked then; beyond it the initiator waits until then, so that
    // it is booked in simulated-time order with the device's other transfers.
    const Tick enter = write ? fabric_.writeMayEnter(device_, bytes, arrival)
                             : fabric_.readMayIssue(device_, bytes, arrival);
    if (enter > arrival) {
      arrival = enter;
      if (enter - now > quantum_) {
        sc_core::wait(toScTime(enter - now));
        now = enter;
      }
    }
    x = write ? fabric_.writeRequest(device_, bytes, arrival) : fabric_.readRequest(device_, bytes, arrival);
    link->b_transport(p, delay);
    if (write)
      fabric_.writeSent(device_, arrival, x);
    else if (p.is_response_ok())
      fabric_.readCompleted(device_, bytes, x);
    done = x.tail;
  } else if (isBar(addr) && !write) {
    p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);  // peer reads are not modelled
  } else if (isBar(addr) && barDevice(addr) >= 0 && barDevice(addr) < fabric_.deviceCount()) {
    x = fabric_.peerRequest(device_, barDevice(addr), bytes, arrival);
    link->b_transport(p, delay);
    done = x.tail;
  } else {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }
  const Tick t = simNow();
  delay = toScTime(done > t ? done - t : 0);
}

void Endpoint::fromLink(tlm::tlm_generic_payload& p, sc_time&) {
  // A peer write has arrived (its last byte at x.tail): the device's HBM takes it then.
  const uint64_t addr = p.get_address();
  const Tick now = simNow();
  sc_time d = toScTime(info(p).transit.tail > now ? info(p).transit.tail - now : 0);
  p.set_address(barOffset(addr));
  memory->b_transport(p, d);
  p.set_address(addr);
  info(p).memoryDone = simNow() + d.value();
}

}  // namespace npusim::pcie

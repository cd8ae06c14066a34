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

void Endpoint::end_of_elaboration() {
  quantum_ = globalQuantum();
  node_ = fabric_.deviceNode(device_);
  rootPort_ = fabric_.rootPortOf(node_);
}

void Endpoint::fromDma(tlm::tlm_generic_payload& p, sc_time& delay) {
  Tick now = simNow();
  Tick arrival = now + static_cast<Tick>(delay.value());
  const uint64_t addr = p.get_address(), bytes = p.get_data_length();
  const bool write = p.is_write();
  Node& dev = *node_;
  Node& rootPort = *rootPort_;
  uint64_t& tailAfterHead = info(p).tailAfterHead;  // looked up once: every module asks for it
  tailAfterHead = 0;  // the packet is formed here: its head and tail leave together
  if (isHost(addr)) {
    // The transfer enters PCIe when PCIe can take it (free tags, room in the transmit queue).
    // Within the quantum it is booked then; beyond it the initiator waits until then, so that
    // it is booked in simulated-time order with the device's other transfers.
    const Tick enter = write ? fabric_.writeMayEnter(device_, bytes, arrival)
                             : fabric_.readMayIssue(device_, bytes, arrival);
    const bool entersAtOnce = enter <= arrival;  // the tags asked above are free at `arrival`
    if (enter > arrival) {
      arrival = enter;
      if (enter - now > quantum_) {
        sc_core::wait(toScTime(enter - now));
        now = enter;
      }
    }
    Tick issue;
    if (write) {
      issue = rootPort.postedCredits.reserve(arrival, bytes);  // the root port's credits
    } else {
      // The requests need free tags (asking again at the same time, with nothing booked in
      // between, would give `arrival` again), then wait behind the posted writes queued before them.
      issue = entersAtOnce ? arrival : dev.readTags.acquire(arrival, bytes);
      issue += dev.posted.readWait(issue);
    }
    delay = toScTime(issue - now);
    link->b_transport(p, delay);
    if (write) {
      dev.posted.write(arrival, dev.uplink->lastUpLeft);  // queued until its link sent it
    } else if (p.is_response_ok()) {
      // Each request's tag returns with its completion; they arrive one after another.
      const Tick head = now + static_cast<Tick>(delay.value());
      dev.readTags.hold(head + tailAfterHead / 2, bytes);
      delay += toScTime(tailAfterHead);  // the DMA has the data with its last byte
    }
  } else if (isBar(addr) && !write) {
    p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);  // peer reads are not modelled
  } else if (isBar(addr) && barDevice(addr) >= 0 && barDevice(addr) < fabric_.deviceCount()) {
    // Through the root complex, the writes enter it at the source's root port like any device
    // write, and are paced by that port's posted credits.
    Tick issue = arrival;
    if (&rootPort != fabric_.rootPortOf(fabric_.deviceNode(barDevice(addr))))
      issue = rootPort.postedCredits.reserve(arrival, bytes);
    delay = toScTime(issue - now);
    link->b_transport(p, delay);  // returns when the last byte has reached the peer
  } else {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }
  tailAfterHead = 0;
  const Tick t = simNow();
  if (t != now) {  // a module below waited: the annotation is relative to the time now
    const Tick done = now + static_cast<Tick>(delay.value());
    delay = toScTime(done > t ? done - t : 0);
  }
}

void Endpoint::fromLink(tlm::tlm_generic_payload& p, sc_time& delay) {
  // A peer write has arrived: the device's HBM takes it with its last byte.
  const uint64_t addr = p.get_address();
  const Tick now = simNow();
  TransactionInfo& x = info(p);
  delay += toScTime(x.tailAfterHead);
  x.tailAfterHead = 0;
  sc_time d = delay;
  p.set_address(barOffset(addr));
  memory->b_transport(p, d);
  p.set_address(addr);
  x.memoryDone = now + d.value();
}

}  // namespace npusim::pcie

#include "models/pcie/pcie_module.h"

#include "models/common/sim_time.h"
#include "models/common/transaction.h"

namespace npusim::pcie {

using sc_core::sc_time;

PcieModule::PcieModule(sc_core::sc_module_name name, const Config& cfg)
    : sc_module(name), dma("dma"), to_device("to_device"), fabric_(cfg) {
  dma.register_b_transport(this, &PcieModule::b_transport);
}

void PcieModule::end_of_elaboration() { quantum_ = globalQuantum(); }

void PcieModule::b_transport(int, tlm::tlm_generic_payload& p, sc_time& delay) {
  Tick now = simNow();
  Tick arrival = now + static_cast<Tick>(delay.value());
  const int src = info(p).device;
  const uint64_t addr = p.get_address();
  const uint64_t bytes = p.get_data_length();
  const bool write = p.get_command() == tlm::TLM_WRITE_COMMAND;
  if (addr & kHostWindow) {
    // The transfer enters PCIe when PCIe can take it (free tags, room in the transmit queue).
    // Within the quantum it is booked then; beyond it the initiator waits until then, so that
    // it is booked in simulated-time order with the device's other transfers.
    const Tick enter =
        write ? fabric_.writeMayEnter(src, bytes, arrival) : fabric_.readMayIssue(src, bytes, arrival);
    if (enter > arrival) {
      arrival = enter;
      if (enter - now > quantum_) {
        sc_core::wait(toScTime(enter - now));
        now = enter;
      }
    }
  }
  Tick done = arrival;
  if (addr & kHostWindow) {
    done = write ? fabric_.hostWrite(src, bytes, arrival) : fabric_.hostRead(src, bytes, arrival);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  } else if ((addr & kBarWindow) && !write) {
    p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);  // peer reads are not modelled
  } else if (addr & kBarWindow) {
    const int dst = static_cast<int>((addr & (kBarWindow - 1)) >> kBarShift);
    if (dst < 0 || dst >= fabric_.deviceCount() || dst >= static_cast<int>(to_device.size())) {
      p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    } else {
      const Tick tail = fabric_.peerWrite(src, dst, bytes, arrival);
      // The peer's HBM takes the write when its last byte has arrived.
      p.set_address(addr & ((1ull << kBarShift) - 1));
      sc_time d = toScTime(tail - now);
      to_device[dst]->b_transport(p, d);
      p.set_address(addr);
      info(p).memoryDone = simNow() + d.value();
      done = tail;
    }
  } else {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }
  const Tick t = simNow();
  delay = toScTime(done > t ? done - t : 0);
}

}  // namespace npusim::pcie

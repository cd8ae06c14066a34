#include "models/pcie/host_memory.h"

#include "models/common/sim_time.h"
#include "models/common/transaction.h"
#include "models/pcie/fabric.h"

namespace npusim::pcie {

HostMemory::HostMemory(sc_core::sc_module_name name, Fabric& fabric)
    : sc_module(name), socket("socket"), fabric_(fabric) {
  socket.register_b_transport(this, &HostMemory::b_transport);
}

void HostMemory::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const Tick now = simNow();
  const Tick head = now + static_cast<Tick>(delay.value());
  uint64_t& span = info(p).tailAfterHead;
  const uint64_t bytes = p.get_data_length();
  Channel& ddr = fabric_.hostMemory();
  Tick end = 0;
  if (p.is_write()) {
    // In DDR once the last byte is written and the write latency has passed.
    ddr.reserve(head, bytes, bytes, head + span, &end);
    delay = toScTime(end + fabric_.ddrLatency() - now);
    span = 0;
  } else {
    // The data leaves after the access latency, at the rate DDR delivers it.
    const Tick start = ddr.reserve(head, bytes, bytes, 0, &end);
    delay = toScTime(start + fabric_.ddrLatency() - now);
    span = end - start;
  }
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace npusim::pcie

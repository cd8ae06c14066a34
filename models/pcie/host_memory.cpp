#include "models/pcie/host_memory.h"

#include "models/common/transaction.h"
#include "models/pcie/fabric.h"

namespace npusim::pcie {

HostMemory::HostMemory(sc_core::sc_module_name name, Fabric& fabric)
    : sc_module(name), socket("socket"), fabric_(fabric) {
  socket.register_b_transport(this, &HostMemory::b_transport);
}

void HostMemory::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time&) {
  fabric_.hostMemory(p.get_data_length(), p.is_write(), info(p).transit);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace npusim::pcie

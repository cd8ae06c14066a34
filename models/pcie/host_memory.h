#pragma once
// Host memory (DDR) as a target module behind the root complex: it times a read as the data's
// interval in DDR and a write as the time its data is in DDR (the Fabric's DDR channel and
// latency, host.ddr_gbps / host.ddr_latency_ns) through the TLM annotation: a read returns when
// its data leaves (head) and how long it streams (TransactionInfo::tailAfterHead), a write when
// its data is in DDR.
#include <tlm_utils/simple_target_socket.h>

#include <systemc>
#include <tlm>

namespace npusim::pcie {

class Fabric;

class HostMemory : public sc_core::sc_module {
 public:
  HostMemory(sc_core::sc_module_name name, Fabric& fabric);
  tlm_utils::simple_target_socket<HostMemory> socket;

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  Fabric& fabric_;
};

}  // namespace npusim::pcie

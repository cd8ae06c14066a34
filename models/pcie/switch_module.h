#pragma once
// A PCIe switch as a module: a non-blocking crossbar with cut-through latency. It routes by
// address: host memory and devices outside its subtree go up, a device below it goes down the
// port that leads to it. Its egress-port contention is the contention of the link behind the
// port (link_module.h), so the switch itself only adds its latency, each way.
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <systemc>
#include <tlm>
#include <vector>

#include "models/common/tick.h"

namespace npusim::pcie {

class SwitchModule : public sc_core::sc_module {
 public:
  // `portOfDevice[d]`: the downstream port (in binding order) that leads to device d, or -1.
  SwitchModule(sc_core::sc_module_name name, Tick latency, std::vector<int> portOfDevice);

  tlm_utils::simple_target_socket<SwitchModule> from_up;                // from its uplink, going down
  tlm_utils::simple_initiator_socket<SwitchModule> to_up;               // to its uplink, going up
  tlm_utils::multi_passthrough_target_socket<SwitchModule> from_down;   // from the links below
  tlm_utils::multi_passthrough_initiator_socket<SwitchModule> to_down;  // to the links below

 private:
  void fromBelow(int port, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void fromAbove(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  int portFor(const tlm::tlm_generic_payload& p) const;  // -1: not below this switch
  Tick latency_;
  sc_core::sc_time latencySc_;  // the same, converted once: it is added to every packet
  std::vector<int> portOfDevice_;
};

}  // namespace npusim::pcie

#include "models/pcie/switch_module.h"

#include "models/common/sim_time.h"
#include "models/pcie/address.h"

namespace npusim::pcie {

SwitchModule::SwitchModule(sc_core::sc_module_name name, Tick latency, std::vector<int> portOfDevice)
    : sc_module(name),
      from_up("from_up"),
      to_up("to_up"),
      from_down("from_down"),
      to_down("to_down"),
      latency_(latency),
      latencySc_(toScTime(latency)),
      portOfDevice_(std::move(portOfDevice)) {
  from_up.register_b_transport(this, &SwitchModule::fromAbove);
  from_down.register_b_transport(this, &SwitchModule::fromBelow);
}

int SwitchModule::portFor(const tlm::tlm_generic_payload& p) const {
  if (!isBar(p.get_address())) return -1;
  const int d = barDevice(p.get_address());
  return d >= 0 && d < static_cast<int>(portOfDevice_.size()) ? portOfDevice_[static_cast<size_t>(d)] : -1;
}

void SwitchModule::fromBelow(int, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  delay += latencySc_;  // head and tail alike: a cut-through latency
  const int port = portFor(p);
  if (port >= 0) {
    to_down[port]->b_transport(p, delay);
    return;
  }
  to_up->b_transport(p, delay);
  // A host read's completion passes the switch on its way back down.
  if (p.is_read() && isHost(p.get_address()) && p.is_response_ok()) delay += latencySc_;
}

void SwitchModule::fromAbove(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const int port = portFor(p);
  if (port < 0) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  delay += latencySc_;
  to_down[port]->b_transport(p, delay);
}

}  // namespace npusim::pcie

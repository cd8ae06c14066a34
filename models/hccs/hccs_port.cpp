#include "models/hccs/hccs_port.h"

#include "models/pcie/address.h"

namespace npusim::hccs {

HccsPort::HccsPort(sc_core::sc_module_name name, int device, int devices)
    : sc_module(name),
      from_dma("from_dma"),
      links("links"),
      device_(device),
      route_(static_cast<size_t>(devices), -1) {
  from_dma.register_b_transport(this, &HccsPort::b_transport);
}

void HccsPort::connect(int peer) { route_[static_cast<size_t>(peer)] = bound_++; }

void HccsPort::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const uint64_t addr = p.get_address();
  const int peer = pcie::isBar(addr) ? pcie::barDevice(addr) : -1;
  if (peer < 0 || peer >= static_cast<int>(route_.size()) || route_[static_cast<size_t>(peer)] < 0) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  p.set_address(pcie::barOffset(addr));
  links[route_[static_cast<size_t>(peer)]]->b_transport(p, delay);
  p.set_address(addr);
}

}  // namespace npusim::hccs

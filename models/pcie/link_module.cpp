#include "models/pcie/link_module.h"

#include "models/common/transaction.h"
#include "models/pcie/address.h"
#include "models/pcie/fabric.h"

namespace npusim::pcie {

LinkModule::LinkModule(sc_core::sc_module_name name, Link& link)
    : sc_module(name),
      from_child("from_child"),
      to_parent("to_parent"),
      from_parent("from_parent"),
      to_child("to_child"),
      link_(link) {
  from_child.register_b_transport(this, &LinkModule::up);
  from_parent.register_b_transport(this, &LinkModule::down);
}

void LinkModule::up(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  Transit& x = info(p).transit;
  Fabric::hop(link_.up, link_.down, link_.latency, x);
  to_parent->b_transport(p, delay);
  // A host read comes back as its completion.
  if (p.is_read() && isHost(p.get_address()) && p.is_response_ok())
    Fabric::hop(link_.down, link_.up, link_.latency, info(p).transit);
}

void LinkModule::down(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  Fabric::hop(link_.down, link_.up, link_.latency, info(p).transit);
  to_child->b_transport(p, delay);
}

}  // namespace npusim::pcie

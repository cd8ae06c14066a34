#pragma once
// The HCCS links of a system as one module (`npusim.hccs`): a port per linked device
// (`npu<d>`) and a link module per pair (`npu<a>_npu<b>`), built from the topology and bound to
// each other. The platform binds each DMA engine's `hccs` socket to its device's port and each
// link's ends to the two devices' memory buses.
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/hccs/hccs_link.h"
#include "models/hccs/hccs_port.h"
#include "models/hccs/hccs_topology.h"

namespace npusim::hccs {

class HccsModule : public sc_core::sc_module {
 public:
  HccsModule(sc_core::sc_module_name name, const Topology& topology);

  struct Binding {
    std::string from, to;
  };
  HccsPort* port(int device) { return ports_[static_cast<size_t>(device)].get(); }  // null: no link
  std::vector<std::unique_ptr<HccsLink>>& links() { return links_; }
  const std::vector<Binding>& bindings() const { return bindings_; }

 private:
  std::vector<std::unique_ptr<HccsPort>> ports_;
  std::vector<std::unique_ptr<HccsLink>> links_;
  std::vector<Binding> bindings_;
};

}  // namespace npusim::hccs

#include "models/hccs/hccs_module.h"

#include <fmt/format.h>

namespace npusim::hccs {

HccsModule::HccsModule(sc_core::sc_module_name name, const Topology& topology) : sc_module(name) {
  const int n = topology.deviceCount();
  ports_.resize(static_cast<size_t>(n));
  for (int d = 0; d < n; ++d)
    if (topology.linksOf(d) > 0)
      ports_[static_cast<size_t>(d)] = std::make_unique<HccsPort>(fmt::format("npu{}", d).c_str(), d, n);
  for (const LinkSpec& l : topology.links()) {
    links_.push_back(std::make_unique<HccsLink>(fmt::format("npu{}_npu{}", l.a, l.b).c_str(), l));
    HccsLink& link = *links_.back();
    HccsPort& a = *port(l.a);
    HccsPort& b = *port(l.b);
    a.links.bind(link.from_a);
    a.connect(l.b);
    b.links.bind(link.from_b);
    b.connect(l.a);
    bindings_.push_back({a.links.name(), link.from_a.name()});
    bindings_.push_back({b.links.name(), link.from_b.name()});
  }
}

}  // namespace npusim::hccs

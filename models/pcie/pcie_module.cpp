#include "models/pcie/pcie_module.h"

#include <algorithm>
#include <cctype>
#include <functional>

namespace npusim::pcie {

PcieModule::PcieModule(sc_core::sc_module_name name, const Config& cfg, InterposerFactory interpose)
    : sc_module(name), fabric_(cfg), interpose_(std::move(interpose)) {
  endpoints_.resize(static_cast<size_t>(fabric_.deviceCount()));
  rc_ = std::make_unique<RootComplex>("rc", fabric_, portsOf(*fabric_.root()));
  host_ = std::make_unique<HostMemory>("host_memory", fabric_);
  bind(rc_->host, host_->socket);
  buildBelow(*fabric_.root(), &rc_->to_ports, &rc_->from_ports, nullptr);
}

PcieModule::~PcieModule() = default;

template <class I, class T>
void PcieModule::bind(I& initiator, T& target) {
  initiator.bind(target);
  bindings_.push_back({initiator.name(), target.name()});
}

template <class Up, class Down>
void PcieModule::bindToParent(LinkModule& l, Up& parentIn, Down& parentOut) {
  const Interposer ip = interpose_ ? interpose_(l.basename()) : Interposer{};
  if (!ip.upIn || !ip.upOut || !ip.downIn || !ip.downOut) {
    bind(l.to_parent, parentIn);
    bind(parentOut, l.from_parent);
    return;
  }
  bind(l.to_parent, *ip.upIn);
  bind(*ip.upOut, parentIn);
  bind(parentOut, *ip.downIn);
  bind(*ip.downOut, l.from_parent);
}

std::string PcieModule::uniqueName(const std::string& nodeName) {
  // "NPU 0" -> "npu0", "Switch 1" -> "switch1"; other characters become '_'.
  std::string s;
  for (char c : nodeName) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (c != ' ')
      s += '_';
  }
  if (s.empty()) s = "node";
  std::string u = s;
  for (int k = 1; std::find(names_.begin(), names_.end(), u) != names_.end(); ++k)
    u = s + "_" + std::to_string(k);
  names_.push_back(u);
  return u;
}

std::vector<int> PcieModule::portsOf(const Node& n) const {
  std::vector<int> ports(static_cast<size_t>(fabric_.deviceCount()), -1);
  std::function<void(const Node&, int)> mark = [&](const Node& m, int port) {
    if (m.kind == Node::Kind::Device) ports[static_cast<size_t>(m.device)] = port;
    for (const Node* c : m.children) mark(*c, port);
  };
  for (size_t i = 0; i < n.children.size(); ++i) mark(*n.children[i], static_cast<int>(i));
  return ports;
}

void PcieModule::buildBelow(const Node& n, tlm_utils::multi_passthrough_initiator_socket<RootComplex>* rcDown,
                            tlm_utils::multi_passthrough_target_socket<RootComplex>* rcUp, SwitchModule* sw) {
  for (const Node* c : n.children) {
    const std::string base = uniqueName(c->name);
    links_.push_back(std::make_unique<LinkModule>((base + "_link").c_str(), *c->uplink, fabric_.protocol()));
    LinkModule& l = *links_.back();
    // The link's upper end: the root complex's or the switch's downstream ports.
    if (rcDown)
      bindToParent(l, *rcUp, *rcDown);
    else
      bindToParent(l, sw->from_down, sw->to_down);
    if (c->kind == Node::Kind::Device) {
      endpoints_[static_cast<size_t>(c->device)] =
          std::make_unique<Endpoint>(base.c_str(), fabric_, c->device);
      Endpoint& e = *endpoints_[static_cast<size_t>(c->device)];
      bind(e.link, l.from_child);
      bind(l.to_child, e.from_link);
    } else {
      switches_.push_back(std::make_unique<SwitchModule>(base.c_str(), fabric_.switchLatency(), portsOf(*c)));
      SwitchModule& s = *switches_.back();
      bind(s.to_up, l.from_child);
      bind(l.to_child, s.from_up);
      buildBelow(*c, nullptr, nullptr, &s);
    }
  }
}

}  // namespace npusim::pcie

#include "models/pcie/fabric.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "npusim/config.h"

namespace npusim::pcie {

using json = nlohmann::json;

Fabric::Fabric(const Config& cfg) {
  proto_.mps = static_cast<uint32_t>(cfg.getInt("pcie.mps_bytes"));
  proto_.mrrs = static_cast<uint32_t>(cfg.getInt("pcie.mrrs_bytes"));
  proto_.completionBytes = static_cast<uint32_t>(cfg.getInt("pcie.read_completion_bytes"));
  proto_.requestHeader = static_cast<uint32_t>(cfg.getInt("pcie.tlp_header_bytes"));
  proto_.completionHeader = static_cast<uint32_t>(cfg.getInt("pcie.cpl_header_bytes"));
  proto_.framing = static_cast<uint32_t>(cfg.getInt("pcie.tlp_framing_bytes"));
  proto_.dllp = static_cast<uint32_t>(cfg.getInt("pcie.dllp_bytes"));
  proto_.tlpsPerAck = static_cast<uint32_t>(cfg.getInt("pcie.tlps_per_ack"));
  defaultGen_ = static_cast<int>(cfg.getInt("pcie.gen"));
  defaultWidth_ = static_cast<int>(cfg.getInt("pcie.width"));
  linkLatency_ = nsToTick(cfg.getFloat("pcie.link_latency_ns"));
  switchLatency_ = nsToTick(cfg.getFloat("pcie.switch_latency_ns"));
  rcLatency_ = nsToTick(cfg.getFloat("pcie.rc_latency_ns"));
  ddrLatency_ = nsToTick(cfg.getFloat("host.ddr_latency_ns"));
  readTags_ = static_cast<uint64_t>(cfg.getInt("pcie.read_tags"));
  postedCreditBytes_ = static_cast<uint64_t>(cfg.getInt("pcie.posted_credit_bytes"));
  fcUpdate_ = nsToTick(cfg.getFloat("pcie.fc_update_ns"));
  txPostedQueueBytes_ = static_cast<uint64_t>(cfg.getInt("pcie.tx_posted_queue_bytes"));
  p2pAcrossSwitches_ = cfg.getBool("system.p2p_across_switches");
  ddr_ = Channel("Host DDR", cfg.getFloat("host.ddr_gbps") * 1e9);
  rcToHost_ = Channel("Root complex to host", cfg.getFloat("pcie.rc_gbps") * 1e9);
  rcFromHost_ = Channel("Root complex from host", cfg.getFloat("pcie.rc_gbps") * 1e9);

  nodes_.push_back(std::make_unique<Node>());
  root_ = nodes_.back().get();
  root_->kind = Node::Kind::RootComplex;
  root_->name = "Root complex";

  json topo = cfg.topology();
  // Without a tree (none, or only HCCS links given) the system.* switches make one.
  if (topo.is_null() || (topo.is_object() && !topo.contains("root_ports"))) {
    topo = json::object();
    json ports = json::array();
    int switches = static_cast<int>(cfg.getInt("system.switches"));
    int per = static_cast<int>(cfg.getInt("system.devices_per_switch"));
    for (int s = 0; s < switches; ++s) {
      json sw = {{"name", fmt::format("Switch {}", s)}, {"ports", json::array()}};
      for (int d = 0; d < per; ++d) sw["ports"].push_back({{"device", s * per + d}});
      ports.push_back({{"switch", sw}});
    }
    topo["root_ports"] = ports;
  }
  if (!topo.is_object() || !topo.contains("root_ports") || !topo["root_ports"].is_array())
    throw ConfigError("topology: expected an object with a \"root_ports\" array");
  for (const auto& port : topo["root_ports"]) build(port, root_);

  // Device ids must be exactly 0..N-1.
  std::vector<Node*> byId;
  for (Node* d : devices_) {
    if (d->device < 0 || d->device >= static_cast<int>(devices_.size()))
      throw ConfigError(
          fmt::format("topology: device id {} out of range 0..{}", d->device, devices_.size() - 1));
    if (byId.size() < devices_.size()) byId.resize(devices_.size(), nullptr);
    if (byId[d->device]) throw ConfigError(fmt::format("topology: device id {} appears twice", d->device));
    byId[d->device] = d;
  }
  if (byId.empty()) throw ConfigError("topology: no devices");
  devices_ = byId;

  // The credit window as the throughput it allows: credits / credit loop.
  for (Node* rp : root_->children)
    rp->postedCredits =
        Channel(rp->name + " posted credits", static_cast<double>(postedCreditBytes_) * 1e12 / fcUpdate_);
  for (Node* d : devices_) {
    d->readTags = ReadTags(readTags_ * proto_.mrrs);
    // The transmit queue drains as fast as the root port's credits and the device's link allow.
    const double drain = std::min(rootPortOf(d)->postedCredits.bytesPerSec(), d->uplink->up.bytesPerSec());
    d->posted = PostedOrder(txPostedQueueBytes_, drain);
  }
}

Fabric::~Fabric() = default;

Node* Fabric::addNode(Node::Kind kind, const std::string& name, Node* parent, const json& link) {
  nodes_.push_back(std::make_unique<Node>());
  Node* n = nodes_.back().get();
  n->kind = kind;
  n->name = name;
  n->parent = parent;
  int gen = defaultGen_, width = defaultWidth_;
  if (!link.is_null()) {
    if (!link.is_object()) throw ConfigError(fmt::format("topology: link of '{}' must be an object", name));
    for (const auto& [k, v] : link.items()) {
      if (k != "gen" && k != "width")
        throw ConfigError(
            fmt::format("topology: unknown link key '{}' at '{}' (expected gen, width)", k, name));
      if (!v.is_number_integer())
        throw ConfigError(fmt::format("topology: link {} of '{}' must be an integer", k, name));
    }
    gen = link.value("gen", gen);
    width = link.value("width", width);
  }
  if (gen < 1 || gen > 6)
    throw ConfigError(fmt::format("topology: link gen {} of '{}' out of range 1..6", gen, name));
  if (width < 1 || width > 32)
    throw ConfigError(fmt::format("topology: link width {} of '{}' out of range 1..32", width, name));
  // pcie.link_latency_ns covers the PHY/data-link pipelines of both ends; a switch's port-to-port
  // latency already includes its own ports' pipelines, so a switch end adds nothing here.
  int ends = (kind != Node::Kind::Switch) + (parent->kind != Node::Kind::Switch);
  n->uplink = std::make_unique<Link>(name + " link", gen, width, linkLatency_ * static_cast<Tick>(ends) / 2);
  parent->children.push_back(n);
  return n;
}

void Fabric::build(const json& node, Node* parent) {
  if (!node.is_object())
    throw ConfigError("topology: every port must be an object with \"device\" or \"switch\"");
  for (const auto& [k, v] : node.items())
    if (k != "device" && k != "switch" && k != "link")
      throw ConfigError(fmt::format("topology: unknown key '{}' (expected device, switch, link)", k));
  json link = node.contains("link") ? node["link"] : json();
  if (node.contains("device") == node.contains("switch"))
    throw ConfigError("topology: a port holds exactly one of \"device\" or \"switch\"");
  if (node.contains("device")) {
    if (!node["device"].is_number_integer()) throw ConfigError("topology: \"device\" must be an integer id");
    int id = node["device"].get<int>();
    Node* d = addNode(Node::Kind::Device, fmt::format("NPU {}", id), parent, link);
    d->device = id;
    devices_.push_back(d);
    return;
  }
  const json& sw = node["switch"];
  if (!sw.is_object() || !sw.contains("ports") || !sw["ports"].is_array())
    throw ConfigError("topology: a switch needs a \"ports\" array");
  int index = 0;
  for (const auto& n : nodes_) index += n->kind == Node::Kind::Switch;
  std::string name = sw.value("name", fmt::format("Switch {}", index));
  Node* s = addNode(Node::Kind::Switch, name, parent, link);
  for (const auto& p : sw["ports"]) build(p, s);
}

Node* Fabric::lowestCommonAncestor(const Node* a, const Node* b) const {
  std::set<const Node*> seen;
  for (const Node* n = a; n; n = n->parent) seen.insert(n);
  for (const Node* n = b; n; n = n->parent)
    if (seen.count(n)) return const_cast<Node*>(n);
  return root_;
}

Node* Fabric::rootPortOf(const Node* n) const {
  while (n->parent != root_) n = n->parent;
  return const_cast<Node*>(n);
}

Tick Fabric::readMayIssue(int dev, uint64_t bytes, Tick t) {
  return devices_[dev]->readTags.acquire(t, bytes);
}

Tick Fabric::writeMayEnter(int dev, uint64_t bytes, Tick t) {
  const Node* d = devices_[dev];
  // Credits for a write timed at t: the earliest the root port's window can take it then (a
  // write booked for a later time leaves earlier credit time free).
  const Tick creditsFree = rootPortOf(d)->postedCredits.earliestStart(t, bytes);
  const Tick queueTime = d->posted.maxWait();
  return creditsFree > t + queueTime ? creditsFree - queueTime : t;
}

bool Fabric::sameSwitch(int a, int b) const {
  if (a == b || a < 0 || b < 0 || a >= deviceCount() || b >= deviceCount()) return false;
  Node* lca = lowestCommonAncestor(devices_[a], devices_[b]);
  return lca->kind == Node::Kind::Switch;
}

std::vector<std::string> Fabric::route(int src, int dst) const {
  Node* lca = lowestCommonAncestor(devices_[src], devices_[dst]);
  std::vector<std::string> names;
  for (const Node* n = devices_[src]; n != lca; n = n->parent) names.push_back(n->name);
  names.push_back(lca->name);
  std::vector<std::string> down;
  for (const Node* n = devices_[dst]; n != lca; n = n->parent) down.push_back(n->name);
  names.insert(names.end(), down.rbegin(), down.rend());
  return names;
}

std::vector<Channel*> Fabric::channels() {
  std::vector<Channel*> out;
  for (auto& n : nodes_) {
    if (!n->uplink) continue;
    out.push_back(&n->uplink->up);
    out.push_back(&n->uplink->down);
  }
  out.push_back(&rcToHost_);
  out.push_back(&rcFromHost_);
  return out;
}

std::vector<const Link*> Fabric::deviceLinks() const {
  std::vector<const Link*> out;
  for (Node* d : devices_) out.push_back(d->uplink.get());
  return out;
}

namespace {
json describeNode(const Node* n) {
  json j = {{"name", n->name}};
  if (n->uplink) j["link"] = n->uplink->label();
  if (n->kind == Node::Kind::Device) j["device"] = n->device;
  if (!n->children.empty()) {
    j["children"] = json::array();
    for (const Node* c : n->children) j["children"].push_back(describeNode(c));
  }
  return j;
}
void describeText(const Node* n, int depth, std::string& out) {
  out += std::string(static_cast<size_t>(depth) * 2, ' ') + n->name;
  if (n->uplink) out += " (" + n->uplink->label() + ")";
  out += "\n";
  for (const Node* c : n->children) describeText(c, depth + 1, out);
}
}  // namespace

json Fabric::describe() const { return describeNode(root_); }

std::string Fabric::describeText() const {
  std::string out;
  pcie::describeText(root_, 0, out);
  return out;
}

}  // namespace npusim::pcie

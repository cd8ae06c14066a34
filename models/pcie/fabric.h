#pragma once
// The PCIe fabric's state: a tree of root complex -> root ports -> switches (nested allowed) ->
// devices, built from the platform topology, and what the PCIe modules (pcie_module.h) share
// as they time a transaction passing through them: each link's two directions, the root
// complex's aggregate data paths (one per direction, shared by every root port) and its
// host-memory port, and the requesters' finite limits: read tags (a window of outstanding
// reads, freed when completions arrive), the root port's posted credits, and a transmit queue
// in which a read request may not pass the posted writes ahead of it. It times nothing by
// itself: a transfer is timed only by the modules it crosses.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "models/common/channel.h"
#include "models/common/transaction.h"
#include "models/pcie/link.h"
#include "models/pcie/posted_order.h"
#include "models/pcie/read_tags.h"
#include "models/pcie/tlp.h"

namespace npusim {
class Config;
}

namespace npusim::pcie {

struct Node {
  enum class Kind { RootComplex, Switch, Device } kind = Kind::RootComplex;
  std::string name;
  int device = -1;  // for Kind::Device
  Node* parent = nullptr;
  std::unique_ptr<Link> uplink;  // link to the parent (none for the root complex)
  std::vector<Node*> children;
  Channel postedCredits;  // root ports only: the RC's posted-write credit window
  ReadTags readTags;      // devices only: outstanding read requests
  PostedOrder posted;     // devices only: read requests wait behind queued posted writes
};

class Fabric {
 public:
  // `topology`: the preset's tree, or null to build system.switches x system.devices_per_switch.
  explicit Fabric(const Config& cfg);
  ~Fabric();

  int deviceCount() const { return static_cast<int>(devices_.size()); }
  const Protocol& protocol() const { return proto_; }

  // A requester hands a transfer to PCIe only when PCIe can take it: a read when its tags are
  // free, a posted write when the transmit queue has room. These give the earliest such time
  // (>= t); the interconnect makes the initiator wait until then, so every transfer is booked
  // at the simulated time it enters the fabric, after everything that entered before it.
  Tick readMayIssue(int dev, uint64_t bytes, Tick t);
  Tick writeMayEnter(int dev, uint64_t bytes, Tick t);
  // What the modules share: the root complex's data paths to and from host memory (one per
  // direction, shared by every root port), host DDR, and the latencies of the root complex and
  // of host memory. Each module times its own part with them (root_complex.h, host_memory.h).
  Channel& rcToHost() { return rcToHost_; }
  Channel& rcFromHost() { return rcFromHost_; }
  Tick ddrLatency() const { return ddrLatency_; }
  Node* rootPortOf(const Node* n) const;

  Node* root() const { return root_; }
  Node* deviceNode(int dev) const { return devices_[static_cast<size_t>(dev)]; }
  Tick switchLatency() const { return switchLatency_; }
  Tick rcLatency() const { return rcLatency_; }

  // Same PCIe switch (lowest common ancestor is a switch).
  bool sameSwitch(int a, int b) const;
  // Number of switch hops between two devices, and the names of the elements on the way.
  std::vector<std::string> route(int src, int dst) const;

  // Every link direction and the root complex's data paths, for statistics and trace counters.
  std::vector<Channel*> channels();
  std::vector<const Link*> deviceLinks() const;  // indexed by device id
  Channel& hostMemory() { return ddr_; }
  nlohmann::json describe() const;  // the tree, for `npusim topology` and the statistics
  std::string describeText() const;

 private:
  Node* addNode(Node::Kind kind, const std::string& name, Node* parent, const nlohmann::json& link);
  void build(const nlohmann::json& node, Node* parent);
  Node* lowestCommonAncestor(const Node* a, const Node* b) const;

  Protocol proto_;
  int defaultGen_;
  int defaultWidth_;
  Tick linkLatency_;
  Tick switchLatency_;
  Tick rcLatency_;
  Tick ddrLatency_;
  uint64_t readTags_;
  uint64_t postedCreditBytes_;
  uint64_t txPostedQueueBytes_;
  Tick fcUpdate_;
  bool p2pAcrossSwitches_;
  std::vector<std::unique_ptr<Node>> nodes_;
  Node* root_ = nullptr;
  std::vector<Node*> devices_;
  Channel rcToHost_;    // root complex data path, root ports -> host memory
  Channel rcFromHost_;  // and back
  Channel ddr_;
};

}  // namespace npusim::pcie

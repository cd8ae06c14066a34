#pragma once
// The PCIe fabric: a tree of root complex -> root ports -> switches (nested allowed) ->
// devices, built from the platform topology. It times transfers by reserving the link
// directions along a route (a switch is a non-blocking crossbar with cut-through latency,
// so its egress-port contention is the contention of the link behind that port), the root
// complex's aggregate data path (one per direction, shared by every root port) and its
// host-memory port. The flows stay separate: a device's posted writes, its non-posted read
// requests and the completions that answer them, each with the DLLP ACKs it causes on the
// opposite direction. Limits are real and finite: read tags (a window of outstanding reads,
// freed when completions arrive), the root port's posted credits, and a transmit queue in
// which a read request may not pass the posted writes ahead of it.
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

struct Hop {
  Channel* fwd = nullptr;  // direction the data travels
  Channel* rev = nullptr;  // opposite direction (DLLP ACKs)
  Tick latency = 0;        // from leaving this link to entering the next element's output
};
using Path = std::vector<Hop>;

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
  // Device `dev`'s DMA reads `bytes` of host memory starting no earlier than `t`; returns the
  // arrival of the last byte at the device.
  Tick hostRead(int dev, uint64_t bytes, Tick t);
  // Device `dev`'s DMA writes `bytes` into host memory; returns when they are in host DDR.
  Tick hostWrite(int dev, uint64_t bytes, Tick t);
  // Device `src`'s DMA writes `bytes` into device `dst`'s memory; returns the tail arrival at dst.
  Tick peerWrite(int src, int dst, uint64_t bytes, Tick t);

  // The steps of those transfers, in order; the PCIe modules (root_complex.h, switch_module.h,
  // link_module.h, endpoint.h, host_memory.h) take them as a transaction passes through them.
  // Device side: a read issues once tags are free and the posted writes ahead have left; a
  // posted write once the root port's credits allow; a peer write through the root complex too.
  Transit readRequest(int dev, uint64_t bytes, Tick t);
  void readCompleted(int dev, uint64_t bytes, const Transit& completion);
  Transit writeRequest(int dev, uint64_t bytes, Tick t);
  void writeSent(int dev, Tick t, const Transit& w);
  Transit peerRequest(int src, int dst, uint64_t bytes, Tick t);
  // One direction of a link: the packet's bytes, and its ACKs on the opposite direction.
  static void hop(Channel& fwd, Channel& rev, Tick latency, Transit& x);
  // Root complex and host memory. A read request reaching the RC goes to host memory after the
  // RC's latency (rcReadToMemory); host memory gives the data's interval in DDR (hostMemory);
  // the RC's path back to its ports turns that into the completion (rcFromHost). A write passes
  // the RC's path to host memory (rcToHost), and host memory says when it is in DDR (x.tail).
  void rcReadToMemory(Transit& x) const { x.head = x.tail + rcLatency_; }
  void hostMemory(uint64_t bytes, bool write, Transit& x);
  void rcFromHost(uint64_t bytes, Transit& x);
  void rcToHost(uint64_t bytes, Transit& x);

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
  Path pathUp(const Node* from, const Node* to) const;    // from a node to one of its ancestors
  Path pathDown(const Node* from, const Node* to) const;  // from an ancestor down to a node
  Node* lowestCommonAncestor(const Node* a, const Node* b) const;
  const Path& cachedPath(int kind, int a, int b);
  static void send(const Path& path, Transit& x);
  Node* rootPortOf(const Node* n) const;

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
  std::vector<std::unique_ptr<Path>> paths_;  // by (kind, a, b), built on first use
};

}  // namespace npusim::pcie

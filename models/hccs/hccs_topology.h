#pragma once
// Which devices HCCS joins, read from the configuration's `topology.hccs` (docs/configuration.md):
// a full mesh of all devices or of listed groups, and/or explicit pairs, each pair one
// point-to-point link with the hccs.* rates unless the pair names its own. Plain data: the
// configuration check, the platform, the runtime's peer queries and the tools all read it.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace npusim {
class Config;
}

namespace npusim::hccs {

struct LinkSpec {
  int a = 0, b = 0;         // a < b
  double gbps = 0;          // line rate per direction, GB/s (1e9 B/s)
  double latencyNs = 0;     // one way
  double efficiency = 1.0;  // fraction of the line rate that carries data
  double dataGbps() const { return gbps * efficiency; }
};

class Topology {
 public:
  // `devices`: how many devices the PCIe tree has. Throws ConfigError naming `topology.hccs`
  // (and the offending entry) for anything malformed.
  Topology(const Config& cfg, int devices);

  const std::vector<LinkSpec>& links() const { return links_; }
  bool empty() const { return links_.empty(); }
  int deviceCount() const { return devices_; }
  // The link between a and b (either order), or null.
  const LinkSpec* link(int a, int b) const;
  bool linked(int a, int b) const { return link(a, b) != nullptr; }
  int linksOf(int device) const;  // how many HCCS links the device has
  std::vector<int> peersOf(int device) const;

  nlohmann::json describe() const;  // for `npusim topology --json` and the statistics
  std::string describeText() const;

 private:
  void addLink(LinkSpec l, const std::string& where);
  int devices_ = 0;
  double defaultGbps_ = 0, defaultLatencyNs_ = 0;
  std::vector<LinkSpec> links_;
  std::vector<int> index_;  // devices_ x devices_ -> link index or -1
};

}  // namespace npusim::hccs

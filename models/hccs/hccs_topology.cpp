#include "models/hccs/hccs_topology.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "npusim/config.h"

namespace npusim::hccs {

using json = nlohmann::json;

namespace {

ConfigError bad(const std::string& where, const std::string& why) {
  return ConfigError(fmt::format("topology.hccs{}: {}", where, why));
}

void refuseUnknownKeys(const json& obj, const std::vector<std::string>& allowed, const std::string& where) {
  for (const auto& [k, v] : obj.items()) {
    if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
    std::string near = nearestKey(k, allowed);
    throw bad(where, fmt::format("unknown key '{}' (expected {}){}", k, fmt::join(allowed, ", "),
                                 near.empty() ? "" : fmt::format("; did you mean '{}'?", near)));
  }
}

int deviceId(const json& v, int devices, const std::string& where) {
  if (!v.is_number_integer()) throw bad(where, fmt::format("{} is not a device id", v.dump()));
  const int64_t d = v.get<int64_t>();
  if (d < 0 || d >= devices) throw bad(where, fmt::format("device id {} out of range 0..{}", d, devices - 1));
  return static_cast<int>(d);
}

double number(const json& obj, const char* key, double min, double max, double fallback,
              const std::string& where) {
  if (!obj.contains(key)) return fallback;
  const json& v = obj[key];
  if (!v.is_number()) throw bad(where, fmt::format("{} must be a number", key));
  const double x = v.get<double>();
  if (x < min || x > max) throw bad(where, fmt::format("{} {} out of range {}..{}", key, x, min, max));
  return x;
}

}  // namespace

Topology::Topology(const Config& cfg, int devices)
    : devices_(devices),
      defaultGbps_(cfg.getFloat("hccs.link_gbps")),
      defaultLatencyNs_(cfg.getFloat("hccs.latency_ns")),
      index_(static_cast<size_t>(devices) * static_cast<size_t>(devices), -1) {
  const json& topo = cfg.topology();
  if (topo.is_object())
    for (const auto& [k, v] : topo.items())
      if (k != "root_ports" && k != "hccs") {
        std::string near = nearestKey(k, {"root_ports", "hccs"});
        throw ConfigError(fmt::format("topology: unknown key '{}' (expected root_ports, hccs){}", k,
                                      near.empty() ? "" : fmt::format("; did you mean '{}'?", near)));
      }
  if (!topo.is_object() || !topo.contains("hccs")) return;
  const json& h = topo["hccs"];
  if (!h.is_object()) throw bad("", "expected an object with \"mesh\" and/or \"pairs\"");
  refuseUnknownKeys(h, {"mesh", "pairs"}, "");
  if (!h.contains("mesh") && !h.contains("pairs")) throw bad("", "expected \"mesh\" and/or \"pairs\"");
  const double efficiency = cfg.getFloat("hccs.efficiency");

  if (h.contains("mesh")) {
    // "all", one group [ids] or several groups [[ids], [ids]]: every two devices of a group linked.
    const json& m = h["mesh"];
    std::vector<std::vector<int>> groups;
    if (m.is_string()) {
      if (m.get<std::string>() != "all")
        throw bad(".mesh", fmt::format("\"{}\" is not \"all\", a list of device ids or a list of such lists",
                                       m.get<std::string>()));
      groups.emplace_back();
      for (int d = 0; d < devices; ++d) groups.back().push_back(d);
    } else if (m.is_array() && !m.empty() && m[0].is_array()) {
      for (size_t g = 0; g < m.size(); ++g) {
        const std::string where = fmt::format(".mesh[{}]", g);
        if (!m[g].is_array()) throw bad(where, "expected a list of device ids");
        groups.emplace_back();
        for (const json& v : m[g]) groups.back().push_back(deviceId(v, devices, where));
      }
    } else if (m.is_array()) {
      groups.emplace_back();
      for (const json& v : m) groups.back().push_back(deviceId(v, devices, ".mesh"));
    } else {
      throw bad(".mesh", "expected \"all\", a list of device ids or a list of such lists");
    }
    for (const auto& g : groups) {
      if (g.size() < 2) throw bad(".mesh", "a mesh needs at least two devices");
      for (size_t i = 0; i < g.size(); ++i)
        for (size_t j = i + 1; j < g.size(); ++j) {
          if (g[i] == g[j]) throw bad(".mesh", fmt::format("device {} appears twice in one mesh", g[i]));
          addLink({g[i], g[j], defaultGbps_, defaultLatencyNs_, efficiency}, ".mesh");
        }
    }
  }

  if (h.contains("pairs")) {
    const json& ps = h["pairs"];
    if (!ps.is_array()) throw bad(".pairs", "expected a list of [a, b] or {\"devices\": [a, b], ...}");
    for (size_t i = 0; i < ps.size(); ++i) {
      const std::string where = fmt::format(".pairs[{}]", i);
      const json& p = ps[i];
      const json* ends = &p;
      LinkSpec l{0, 0, defaultGbps_, defaultLatencyNs_, efficiency};
      if (p.is_object()) {
        refuseUnknownKeys(p, {"devices", "gbps", "latency_ns"}, where);
        if (!p.contains("devices")) throw bad(where, "a pair needs \"devices\": [a, b]");
        ends = &p["devices"];
        // The same ranges as the hccs.* parameters.
        l.gbps = number(p, "gbps", 0.1, 100000, defaultGbps_, where);
        l.latencyNs = number(p, "latency_ns", 0, 1e6, defaultLatencyNs_, where);
      }
      if (!ends->is_array() || ends->size() != 2) throw bad(where, "a pair is two device ids [a, b]");
      l.a = deviceId((*ends)[0], devices, where);
      l.b = deviceId((*ends)[1], devices, where);
      if (l.a == l.b) throw bad(where, fmt::format("links device {} to itself", l.a));
      addLink(l, where);
    }
  }
}

void Topology::addLink(LinkSpec l, const std::string& where) {
  if (l.a > l.b) std::swap(l.a, l.b);
  const size_t n = static_cast<size_t>(devices_);
  int& slot = index_[static_cast<size_t>(l.a) * n + static_cast<size_t>(l.b)];
  if (slot >= 0) throw bad(where, fmt::format("devices {} and {} are linked twice", l.a, l.b));
  slot = static_cast<int>(links_.size());
  index_[static_cast<size_t>(l.b) * n + static_cast<size_t>(l.a)] = slot;
  links_.push_back(l);
}

const LinkSpec* Topology::link(int a, int b) const {
  if (a < 0 || b < 0 || a >= devices_ || b >= devices_) return nullptr;
  const int i = index_[static_cast<size_t>(a) * static_cast<size_t>(devices_) + static_cast<size_t>(b)];
  return i < 0 ? nullptr : &links_[static_cast<size_t>(i)];
}

int Topology::linksOf(int device) const { return static_cast<int>(peersOf(device).size()); }

std::vector<int> Topology::peersOf(int device) const {
  std::vector<int> peers;
  for (int d = 0; d < devices_; ++d)
    if (linked(device, d)) peers.push_back(d);
  return peers;
}

json Topology::describe() const {
  json links = json::array();
  for (const LinkSpec& l : links_)
    links.push_back({{"devices", {l.a, l.b}},
                     {"gbps", l.gbps},
                     {"data_gbps", l.dataGbps()},
                     {"latency_ns", l.latencyNs}});
  return {{"links", links}};
}

std::string Topology::describeText() const {
  if (links_.empty()) return "HCCS: none (peer copies cross PCIe)\n";
  const LinkSpec& first = links_.front();
  std::string out = fmt::format(
      "HCCS: {} point-to-point links, each {} GB/s per direction ({:.0f} % data: {:.1f} GB/s), {} ns one "
      "way\n",
      links_.size(), defaultGbps_, first.efficiency * 100, defaultGbps_ * first.efficiency,
      defaultLatencyNs_);
  for (int d = 0; d < devices_; ++d) {
    std::vector<std::string> peers;
    for (int p : peersOf(d)) {
      const LinkSpec* l = link(d, p);
      peers.push_back(l->gbps == defaultGbps_ && l->latencyNs == defaultLatencyNs_
                          ? fmt::format("{}", p)
                          : fmt::format("{} ({} GB/s, {} ns)", p, l->gbps, l->latencyNs));
    }
    if (!peers.empty())
      out += fmt::format("  NPU {} <-> NPU {} ({} link{})\n", d, fmt::join(peers, ", "), peers.size(),
                         peers.size() == 1 ? "" : "s");
  }
  return out;
}

}  // namespace npusim::hccs

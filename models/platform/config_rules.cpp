// The rules between configuration keys: values derived from another key unless set explicitly,
// and the one check of every cross-key constraint and topology rule (docs/configuration.md).
#include <fmt/format.h>

#include <stdexcept>

#include "models/hbm/hbm_params.h"
#include "models/hccs/hccs_topology.h"
#include "models/pcie/fabric.h"
#include "npusim/config.h"

namespace npusim {

namespace {

using json = nlohmann::json;

struct Derived {
  const char* key;
  const char* from;
  json (*value)(const json& from);
  const char* why;
};

// Each rule reproduces the root preset's value for the root preset's base value (tests check).
const Derived kDerived[] = {
    {"pcie.read_completion_bytes", "pcie.gen",
     [](const json& gen) { return json(gen.get<int64_t>() >= 5 ? 128 : 64); },
     "64 B completions up to Gen4; Gen5 root complexes return 128 B (every measured Gen5 x16 host "
     "reaches 88 % of raw, impossible with 64 B, docs/validation.md)"},
    {"pcie.posted_credit_bytes", "pcie.gen",
     [](const json& gen) {
       int64_t g = gen.get<int64_t>();
       return json(g <= 4 ? 8192 : 8192LL << (g - 4));
     },
     "a root port's posted buffer is sized for its line rate: 8 KiB at Gen4, doubling per "
     "generation above (the credit loop then allows ~twice the rate); slower links keep the "
     "Gen4-class port's 8 KiB"},
    {"pcie.read_tags", "pcie.gen",
     [](const json& gen) {
       int64_t g = gen.get<int64_t>();
       return json(g <= 4 ? 64 : 64LL << (g - 4));
     },
     "a requester keeps the reads its line rate x round trip needs: 64 at Gen4, doubling per "
     "generation above; slower links keep 64"},
    {"pcie.switch_latency_ns", "pcie.gen",
     [](const json& gen) { return json(gen.get<int64_t>() >= 5 ? 115.0 : 105.0); },
     "Broadcom PEX88000 (Gen4) 105 ns, PEX89144 (Gen5) 115 ns x16 to x16 (hardware.md §3.6)"},
    {"hbm.channels_per_stack", "hbm.timing",
     [](const json& t) { return json(t.get<std::string>().rfind("hbm3", 0) == 0 ? 16 : 8); },
     "HBM2/2e stacks have 8 x 128-bit channels, HBM3 stacks 16 x 64-bit (hardware.md §4.1)"},
};

int topologyDepth(const json& node, int depth) {
  int deepest = depth;
  if (!node.is_object() || !node.contains("switch")) return deepest;
  const json& sw = node["switch"];
  if (!sw.is_object() || !sw.contains("ports") || !sw["ports"].is_array()) return deepest;
  for (const json& p : sw["ports"]) {
    deepest = std::max(deepest, topologyDepth(p, depth + 1));
    if (deepest > 16) return deepest;
  }
  return deepest;
}

bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

void Config::deriveDependents() {
  for (const Derived& d : kDerived) {
    auto it = params_.find(d.key);
    if (it == params_.end() || it->second.explicitlySet) continue;
    const ParamInfo& from = params_.at(d.from);
    set(d.key, d.value(from.value),
        fmt::format("derived from {} = {}: {}", d.from,
                    from.value.is_string() ? from.value.get<std::string>() : from.value.dump(), d.why));
    params_[d.key].derivedFrom = d.from;
  }
}

void Config::check() const {
  auto fail = [](const std::string& key, const std::string& why) {
    return ConfigError(fmt::format("parameter '{}': {}", key, why));
  };
  // PCIe protocol sizes.
  for (const char* key : {"pcie.mps_bytes", "pcie.mrrs_bytes", "pcie.read_completion_bytes"})
    if (!isPowerOfTwo(getInt(key))) throw fail(key, fmt::format("{} is not a power of two", getInt(key)));
  if (getInt("pcie.read_completion_bytes") > getInt("pcie.mrrs_bytes"))
    throw fail("pcie.read_completion_bytes",
               fmt::format("{} B completions exceed the {} B read requests (pcie.mrrs_bytes)",
                           getInt("pcie.read_completion_bytes"), getInt("pcie.mrrs_bytes")));
  if (getInt("pcie.posted_credit_bytes") < getInt("pcie.mps_bytes"))
    throw fail("pcie.posted_credit_bytes",
               fmt::format("{} B of credit cannot hold one {} B posted write (pcie.mps_bytes)",
                           getInt("pcie.posted_credit_bytes"), getInt("pcie.mps_bytes")));

  if (!isPowerOfTwo(getInt("hbm.plugin_max_bytes")))
    throw fail("hbm.plugin_max_bytes",
               fmt::format("{} is not a power of two", getInt("hbm.plugin_max_bytes")));

  // HBM: the timing overrides, the address map and the organisation, each naming its key.
  HbmTiming timing = hbmTimingPreset(getString("hbm.timing"));
  try {
    applyHbmTimingOverrides(&timing, getString("hbm.timing_overrides"));
  } catch (const std::invalid_argument& e) {
    throw fail("hbm.timing_overrides", e.what());
  }
  try {
    hbmParamsFromConfig(*this);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());  // HbmParams::validate and the address map name the hbm.* keys
  }

  // Topology: bounded nesting, then everything the fabric checks when it is built (device ids
  // 0..N-1 once each, known keys, link generations and widths), then the HCCS links.
  if (!topology_.is_null() && topology_.is_object() && topology_.contains("root_ports") &&
      topology_["root_ports"].is_array())
    for (const json& port : topology_["root_ports"])
      if (topologyDepth(port, 1) > 16) throw ConfigError("topology: switches nested more than 16 deep");
  pcie::Fabric fabric(*this);
  // HCCS links between the tree's devices (topology.hccs).
  hccs::Topology links(*this, fabric.deviceCount());
  (void)links;
}

}  // namespace npusim

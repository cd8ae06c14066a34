// The HCCS part of the topology schema (topology.hccs): a full mesh, meshes of listed devices,
// explicit pairs with their own rates, and every malformed entry refused with a message that
// names topology.hccs and the entry.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "models/hccs/hccs_topology.h"
#include "npusim/config.h"

using npusim::Config;
using npusim::ConfigError;
using npusim::hccs::Topology;

namespace {

// Writes {"extends": "910b", "topology": <topology>} and loads it (which checks it).
Config loadTopology(const std::string& topology, const std::vector<std::string>& set = {}) {
  std::string path = testing::TempDir() + "/hccs_topo.json";
  FILE* f = fopen(path.c_str(), "w");
  fprintf(f, "{\"extends\": \"910b\", \"topology\": %s}", topology.c_str());
  fclose(f);
  return Config::load(path, set);
}

std::string errorOf(const std::string& topology) {
  try {
    loadTopology(topology);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(HccsConfig, PresetIsAFullMeshOfEightOverTheDefaultPcieTree) {
  Config cfg = Config::load("910b-hccs");
  Topology t(cfg, 8);
  EXPECT_EQ(t.links().size(), 28u);  // 8 x 7 / 2
  for (int a = 0; a < 8; ++a) {
    EXPECT_EQ(t.linksOf(a), 7);
    EXPECT_FALSE(t.linked(a, a));
    for (int b = 0; b < 8; ++b) {
      if (a == b) continue;
      EXPECT_TRUE(t.linked(a, b)) << a << "-" << b;
    }
  }
  const auto* l = t.link(5, 2);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->a, 2);
  EXPECT_EQ(l->b, 5);
  EXPECT_DOUBLE_EQ(l->gbps, 56.0);
  EXPECT_DOUBLE_EQ(l->efficiency, 0.8);
  EXPECT_DOUBLE_EQ(l->dataGbps(), 44.8);
  EXPECT_DOUBLE_EQ(l->latencyNs, 100.0);
  // The PCIe side is the default preset's tree.
  EXPECT_EQ(cfg.getInt("system.switches"), 2);
  // Parameters follow --set.
  Topology fast(Config::load("910b-hccs", {"hccs.link_gbps=112"}), 8);
  EXPECT_DOUBLE_EQ(fast.link(0, 1)->gbps, 112.0);
}

TEST(HccsConfig, DefaultPresetHasNoLinks) {
  Config cfg = Config::load("910b");
  Topology t(cfg, 8);
  EXPECT_TRUE(t.empty());
  EXPECT_FALSE(t.linked(0, 1));
  EXPECT_EQ(t.linksOf(0), 0);
  EXPECT_EQ(t.describeText(), "HCCS: none (peer copies cross PCIe)\n");
}

TEST(HccsConfig, MeshesOfListedDevicesAndPairsWithTheirOwnRates) {
  // Two groups of four (as a 910A server would be wired), plus one pair across them.
  Config cfg = loadTopology(R"({"hccs": {"mesh": [[0, 1, 2, 3], [4, 5, 6, 7]],
      "pairs": [{"devices": [3, 4], "gbps": 30, "latency_ns": 250}]}})");
  Topology t(cfg, 8);
  EXPECT_EQ(t.links().size(), 6u + 6u + 1u);
  EXPECT_TRUE(t.linked(0, 3));
  EXPECT_TRUE(t.linked(6, 7));
  EXPECT_FALSE(t.linked(0, 4));
  EXPECT_EQ(t.linksOf(3), 4);
  EXPECT_DOUBLE_EQ(t.link(4, 3)->gbps, 30.0);
  EXPECT_DOUBLE_EQ(t.link(4, 3)->latencyNs, 250.0);
  EXPECT_DOUBLE_EQ(t.link(0, 1)->gbps, 56.0);
  EXPECT_NE(t.describeText().find("NPU 3 <-> NPU 0, 1, 2, 4 (30 GB/s, 250 ns) (4 links)"), std::string::npos)
      << t.describeText();

  Topology one(loadTopology(R"({"hccs": {"mesh": [1, 2, 5]}})"), 8);
  EXPECT_EQ(one.links().size(), 3u);
  EXPECT_TRUE(one.linked(5, 1));
  EXPECT_FALSE(one.linked(0, 1));

  Topology pairs(loadTopology(R"({"hccs": {"pairs": [[0, 1], [2, 3]]}})"), 8);
  EXPECT_EQ(pairs.links().size(), 2u);
  EXPECT_TRUE(pairs.linked(1, 0));
  EXPECT_FALSE(pairs.linked(1, 2));
  EXPECT_EQ(pairs.peersOf(2), std::vector<int>{3});

  // HCCS beside an explicit PCIe tree: the links join the tree's devices.
  Topology withTree(
      loadTopology(R"({"root_ports": [{"device": 0}, {"device": 1}], "hccs": {"mesh": "all"}})"), 2);
  EXPECT_EQ(withTree.links().size(), 1u);
}

TEST(HccsConfig, BadInputNamesTheKeyAndTheEntry) {
  auto refused = [](const std::string& topology, const std::string& want) {
    std::string e = errorOf(topology);
    EXPECT_NE(e.find(want), std::string::npos) << topology << " -> " << e;
  };
  refused(R"({"hccs": [0, 1]})", "topology.hccs: expected an object");
  refused(R"({"hccs": {}})", "topology.hccs: expected \"mesh\" and/or \"pairs\"");
  refused(R"({"hccs": {"mesch": "all"}})",
          "topology.hccs: unknown key 'mesch' (expected mesh, pairs); did you mean 'mesh'?");
  refused(R"({"hcc": {"mesh": "all"}})",
          "topology: unknown key 'hcc' (expected root_ports, hccs); did you mean 'hccs'?");
  refused(R"({"hccs": {"mesh": "full"}})", "topology.hccs.mesh: \"full\" is not \"all\"");
  refused(R"({"hccs": {"mesh": 8}})", "topology.hccs.mesh: expected \"all\"");
  refused(R"({"hccs": {"mesh": [0, 8]}})", "topology.hccs.mesh: device id 8 out of range 0..7");
  refused(R"({"hccs": {"mesh": [0, "1"]}})", "topology.hccs.mesh: \"1\" is not a device id");
  refused(R"({"hccs": {"mesh": [3]}})", "topology.hccs.mesh: a mesh needs at least two devices");
  refused(R"({"hccs": {"mesh": [1, 2, 1]}})", "topology.hccs.mesh: device 1 appears twice in one mesh");
  refused(R"({"hccs": {"mesh": [[0, 1], 2]}})", "topology.hccs.mesh[1]: expected a list of device ids");
  refused(R"({"hccs": {"pairs": {"0": 1}}})", "topology.hccs.pairs: expected a list");
  refused(R"({"hccs": {"pairs": [[0, 1, 2]]}})", "topology.hccs.pairs[0]: a pair is two device ids");
  refused(R"({"hccs": {"pairs": [[0, 1], [4, 4]]}})", "topology.hccs.pairs[1]: links device 4 to itself");
  refused(R"({"hccs": {"pairs": [[0, 1], [1, 0]]}})",
          "topology.hccs.pairs[1]: devices 0 and 1 are linked twice");
  refused(R"({"hccs": {"mesh": "all", "pairs": [[2, 3]]}})",
          "topology.hccs.pairs[0]: devices 2 and 3 are linked twice");
  refused(R"({"hccs": {"pairs": [[0, -1]]}})", "topology.hccs.pairs[0]: device id -1 out of range 0..7");
  refused(R"({"hccs": {"pairs": [{"devices": [0, 1], "gbps": 0}]}})",
          "topology.hccs.pairs[0]: gbps 0 out of range");
  refused(R"({"hccs": {"pairs": [{"devices": [0, 1], "gbps": "fast"}]}})",
          "topology.hccs.pairs[0]: gbps must be a number");
  refused(R"({"hccs": {"pairs": [{"devices": [0, 1], "latency_ns": -5}]}})",
          "topology.hccs.pairs[0]: latency_ns -5 out of range");
  refused(R"({"hccs": {"pairs": [{"devices": [0, 1], "speed": 5}]}})",
          "topology.hccs.pairs[0]: unknown key 'speed'");
  refused(R"({"hccs": {"pairs": [{"gbps": 5}]}})", "topology.hccs.pairs[0]: a pair needs \"devices\"");
  // The parameters keep their ranges.
  try {
    Config::load("910b-hccs", {"hccs.efficiency=1.5"});
    ADD_FAILURE() << "efficiency above 1 accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("hccs.efficiency"), std::string::npos) << e.what();
  }
}

// Configuration loading: presets, overrides, and refusals that name the key.
#include "npusim/config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

using npusim::Config;
using npusim::ConfigError;

static std::string errorOf(const std::string& preset, const std::vector<std::string>& set) {
  try {
    Config::load(preset, set);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(Config, DefaultPresetIsThe910bSystem) {
  Config c = Config::load("910b");
  EXPECT_EQ(c.getInt("pcie.gen"), 4);
  EXPECT_EQ(c.getInt("system.switches") * c.getInt("system.devices_per_switch"), 8);
  for (const auto& [key, p] : c.params()) EXPECT_FALSE(p.source.empty()) << key << " has no source";
}

TEST(Config, OverridesAndExtends) {
  Config c = Config::load("910b-gen5", {"hbm.stacks=2,dma.channels=8", "sim.functional=false"});
  EXPECT_EQ(c.getInt("pcie.gen"), 5);
  EXPECT_EQ(c.getInt("hbm.stacks"), 2);
  EXPECT_EQ(c.getInt("dma.channels"), 8);
  EXPECT_FALSE(c.getBool("sim.functional"));
  EXPECT_EQ(c.params().at("hbm.stacks").source, "override");
  EXPECT_DOUBLE_EQ(Config::load("910b", {"host.memcpy_gbps=12"}).getFloat("host.memcpy_gbps"), 12.0);
}

TEST(Config, RefusalsNameTheKeyAndTheNearestOne) {
  std::string e = errorOf("910b", {"pcie.gne=5"});
  EXPECT_NE(e.find("pcie.gne"), std::string::npos) << e;
  EXPECT_NE(e.find("pcie.gen"), std::string::npos) << e;
  e = errorOf("910b", {"pcie.gen=9"});
  EXPECT_NE(e.find("maximum"), std::string::npos) << e;
  e = errorOf("910b", {"pcie.gen=four"});
  EXPECT_NE(e.find("integer"), std::string::npos) << e;
  e = errorOf("910b", {"sim.functional=maybe"});
  EXPECT_NE(e.find("boolean"), std::string::npos) << e;
  e = errorOf("910b", {"trace.level=transactoin"});
  EXPECT_NE(e.find("transaction"), std::string::npos) << e;
  e = errorOf("910c", {});
  EXPECT_NE(e.find("910b"), std::string::npos) << e;
  e = errorOf("910b", {"novalue"});
  EXPECT_NE(e.find("key=value"), std::string::npos) << e;
  e = errorOf("/nonexistent.json", {});
  EXPECT_NE(e.find("cannot open"), std::string::npos) << e;
  // Text parameters are written back as JSON, so bytes that are not UTF-8 are refused up front
  // (a fuzzer found that a plug-in parameter accepted them and toJson().dump() then threw).
  e = errorOf("910b", {"hbm.plugin.t=cm\xf0"
                       "e\xff"});
  EXPECT_NE(e.find("not UTF-8"), std::string::npos) << e;
  EXPECT_NO_THROW((void)Config::load("910b", {"hbm.plugin.name=\xc3\xa9t\xc3\xa9"}).toJson().dump());
}

TEST(Config, FileErrors) {
  std::string path = testing::TempDir() + "/cfg.json";
  auto write = [&](const char* text) {
    FILE* f = fopen(path.c_str(), "w");
    fputs(text, f);
    fclose(f);
  };
  write("{\"extends\": \"910b\", \"params\": {\"pcie.gen\": 5}}");
  EXPECT_EQ(Config::load(path).getInt("pcie.gen"), 5);
  write("{\"extends\": \"910b\", \"parms\": {}}");
  EXPECT_NE(errorOf(path, {}).find("params"), std::string::npos);
  write("{\"params\": {\"pcie.gen\": \"5\"}}");
  EXPECT_NE(errorOf(path, {}).find("type"), std::string::npos);
  write("{not json");
  EXPECT_NE(errorOf(path, {}).find("invalid JSON"), std::string::npos);
  write("[1, 2]");
  EXPECT_NE(errorOf(path, {}).find("object"), std::string::npos);
}

TEST(Config, SplitOverridesHonoursBrackets) {
  auto v = Config::splitOverrides("a=1, b=[1,2] ,c=x");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[1], "b=[1,2]");
}

// Issue 17.6: every rule is checked when the configuration is read, with the key in the message.
TEST(ConfigCheck, CrossKeyAndTopologyRulesAreCheckedOnLoad) {
  std::string e = errorOf("910b", {"hbm.address_map=xx-yy"});
  EXPECT_NE(e.find("hbm.address_map"), std::string::npos) << e;
  e = errorOf("910b", {"pcie.mrrs_bytes=300"});
  EXPECT_NE(e.find("pcie.mrrs_bytes"), std::string::npos) << e;
  e = errorOf("910b", {"pcie.read_completion_bytes=1024"});
  EXPECT_NE(e.find("pcie.read_completion_bytes"), std::string::npos) << e;
  e = errorOf("910b", {"hbm.row_bytes=96"});
  EXPECT_NE(e.find("hbm.row_bytes"), std::string::npos) << e;
  e = errorOf("910b", {"hbm.timing_overrides=tFOO=3"});
  EXPECT_NE(e.find("tFOO"), std::string::npos) << e;
  e = errorOf("910b", {"hbm.write_high=8,hbm.write_low=8"});
  EXPECT_NE(e.find("hbm.write_low"), std::string::npos) << e;
  auto topo = [](const std::string& t) {
    std::string path = testing::TempDir() + "/check_topo.json";
    FILE* f = fopen(path.c_str(), "w");
    fprintf(f, "{\"extends\": \"910b\", \"topology\": %s}", t.c_str());
    fclose(f);
    return errorOf(path, {});
  };
  EXPECT_NE(topo(R"({"root_ports": [{"device": 0}, {"device": 0}]})").find("twice"), std::string::npos);
  EXPECT_NE(topo(R"({"root_ports": [{"device": 0, "link": {"gen": 9}}]})").find("gen 9"), std::string::npos);
  std::string deep = R"({"device": 0})";
  for (int i = 0; i < 20; ++i) deep = R"({"switch": {"ports": [)" + deep + "]}}";
  EXPECT_NE(topo(R"({"root_ports": [)" + deep + "]}").find("nested"), std::string::npos);
  EXPECT_EQ(topo(R"({"root_ports": [{"device": 0, "link": {"gen": 3}}]})"), "");
}

// Issue 14.2: values that follow from another key are derived unless set explicitly.
TEST(ConfigDerived, PcieGenerationSetsCompletionsCreditsAndSwitchLatency) {
  Config gen5 = Config::load("910b-gen5");
  Config set5 = Config::load("910b", {"pcie.gen=5"});
  for (const char* key : {"pcie.read_completion_bytes", "pcie.posted_credit_bytes", "pcie.read_tags",
                          "pcie.switch_latency_ns"}) {
    EXPECT_EQ(set5.params().at(key).value, gen5.params().at(key).value) << key;
    EXPECT_EQ(set5.params().at(key).derivedFrom, "pcie.gen") << key;
    EXPECT_NE(set5.params().at(key).source.find("derived from pcie.gen = 5"), std::string::npos);
  }
  EXPECT_EQ(set5.getInt("pcie.read_completion_bytes"), 128);
  EXPECT_EQ(set5.getInt("pcie.posted_credit_bytes"), 16384);
  EXPECT_EQ(set5.getInt("pcie.read_tags"), 128);
  // The root preset's own values are what the rules give for Gen4.
  Config gen4 = Config::load("910b");
  EXPECT_EQ(gen4.getInt("pcie.read_completion_bytes"), 64);
  EXPECT_EQ(gen4.getInt("pcie.posted_credit_bytes"), 8192);
  EXPECT_EQ(gen4.getInt("pcie.read_tags"), 64);
  EXPECT_DOUBLE_EQ(gen4.getFloat("pcie.switch_latency_ns"), 105.0);
  // An explicit value wins, and is not marked derived.
  Config mine = Config::load("910b", {"pcie.gen=5", "pcie.read_completion_bytes=64"});
  EXPECT_EQ(mine.getInt("pcie.read_completion_bytes"), 64);
  EXPECT_EQ(mine.params().at("pcie.read_completion_bytes").derivedFrom, "");
  EXPECT_EQ(mine.getInt("pcie.posted_credit_bytes"), 16384);
}

TEST(ConfigDerived, Hbm3TimingAloneIsAnHbm3Device) {
  Config c = Config::load("910b", {"hbm.timing=hbm3-6400"});
  EXPECT_EQ(c.getInt("hbm.channels_per_stack"), 16);  // 16 channels x 2 pseudo-channels per stack
  EXPECT_EQ(c.getInt("hbm.pseudo_channels"), 2);
  EXPECT_EQ(c.params().at("hbm.channels_per_stack").derivedFrom, "hbm.timing");
  EXPECT_EQ(Config::load("910b").getInt("hbm.channels_per_stack"), 8);
  EXPECT_EQ(Config::load("910b", {"hbm.timing=hbm3-6400", "hbm.channels_per_stack=8"})
                .getInt("hbm.channels_per_stack"),
            8);
}

// A memory plug-in's parameters: any hbm.plugin.<key> is accepted as text, appears among the
// resolved values, and with a plug-in chosen the built-in HBM's own keys are marked inactive.
TEST(Config, PluginKeysAreAcceptedAsTextAndTheBuiltinKeysMarkedInactive) {
  Config c = Config::load("910b", {"hbm.model=dramsys,hbm.plugin.config=/cfg/hbm2.json,hbm.plugin.gbps=100"});
  EXPECT_EQ(c.getString("hbm.plugin.config"), "/cfg/hbm2.json");
  EXPECT_EQ(c.getString("hbm.plugin.gbps"), "100");
  const auto j = c.toJson();
  EXPECT_EQ(j["params"]["hbm.plugin.config"], "/cfg/hbm2.json");
  const auto& inactive = j["inactive"];
  auto has = [&](const char* k) { return std::find(inactive.begin(), inactive.end(), k) != inactive.end(); };
  EXPECT_TRUE(has("hbm.timing"));
  EXPECT_FALSE(has("hbm.model"));
  EXPECT_FALSE(has("hbm.capacity_bytes"));
  EXPECT_FALSE(has("hbm.plugin.config"));
  EXPECT_FALSE(has("pcie.gen"));
  // With the built-in HBM it is the other way round.
  const auto b = Config::load("910b", {"hbm.plugin.gbps=100"}).toJson()["inactive"];
  EXPECT_NE(std::find(b.begin(), b.end(), "hbm.plugin.gbps"), b.end());
  EXPECT_NE(std::find(b.begin(), b.end(), "hbm.plugin_max_bytes"), b.end());
  EXPECT_EQ(std::find(b.begin(), b.end(), "hbm.timing"), b.end());
}

TEST(Config, ThePluginsLargestTransactionIsAPowerOfTwo) {
  EXPECT_EQ(Config::load("910b", {"hbm.plugin_max_bytes=256"}).getInt("hbm.plugin_max_bytes"), 256);
  EXPECT_NE(errorOf("910b", {"hbm.plugin_max_bytes=48"}).find("hbm.plugin_max_bytes"), std::string::npos);
  // "hbm.plugin." alone names no key.
  EXPECT_NE(errorOf("910b", {"hbm.plugin.=1"}).find("unknown parameter"), std::string::npos);
}

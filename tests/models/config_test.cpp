// Configuration loading: presets, overrides, and refusals that name the key.
#include <gtest/gtest.h>

#include <cstdio>

#include "npusim/config.h"

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

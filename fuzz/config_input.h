#pragma once
// The platform-configuration fuzz input: a preset name or a JSON file written from the input,
// plus NPUSIM_SET-style overrides. Config::load must accept it or refuse it with a ConfigError;
// any other exception (or a crash, or undefined behaviour) is a bug. A configuration that
// load() accepted has passed Config::check(), so building the models from it must succeed: the
// HBM model and the PCIe fabric are built and used, and any exception there (even a
// ConfigError) escapes and is reported as a finding.
//
// Layout: byte 0 selects the base (even: the JSON text that follows, written to a file; odd: an
// embedded preset chosen by byte 1), then the JSON text up to a 0 byte, then the overrides.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "models/hbm/hbm_model.h"
#include "models/pcie/fabric.h"
#include "npusim/config.h"

namespace npusim::fuzz {

// What the platform does with an accepted configuration, minus SystemC: the HBM model of one
// device used once, and the PCIe fabric's tree, limits and description (its timing needs the
// PCIe modules, which a SystemC process can build only once: tests/models cover it).
inline void useAcceptedConfig(const Config& cfg) {
  HbmModel hbm(hbmParamsFromConfig(cfg));
  const uint64_t cap = hbm.params().capacityBytes;
  Tick t = 0;
  for (uint64_t addr : {uint64_t{0}, cap / 3, cap - 64}) t = hbm.access(addr, 4096, addr % 2 != 0, t);
  pcie::Fabric fabric(cfg);
  const int n = fabric.deviceCount();
  for (int d = 0; d < n && d < 4; ++d) {
    t = fabric.readMayIssue(d, 65536, t);
    t = fabric.writeMayEnter(d, 65536, t);
    (void)fabric.route(d, (d + 1) % n);
  }
  (void)fabric.describe().dump();
}

inline void runConfigInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  uint8_t mode = in.byte();
  std::string base;
  if (mode % 2) {
    std::vector<std::string> presets = Config::presetNames();
    base = presets[in.pick(presets.size())];
    (void)in.text();
  } else {
    static const std::string path = "/tmp/npusim_fuzz_config_" + std::to_string(getpid()) + ".json";
    std::ofstream(path, std::ios::binary | std::ios::trunc) << in.text();
    base = path;
  }
  std::string overrides = in.text();
  std::unique_ptr<Config> accepted;
  try {
    Config cfg = Config::load(base, {overrides});
    // Read every parameter back through its typed getter, as the platform does.
    for (const auto& [key, p] : cfg.params()) {
      if (p.type == "int") (void)cfg.getInt(key);
      if (p.type == "float") (void)cfg.getFloat(key);
      if (p.type == "bool") (void)cfg.getBool(key);
      if (p.type == "string") (void)cfg.getString(key);
    }
    (void)cfg.toJson().dump();
    accepted = std::make_unique<Config>(cfg);
  } catch (const ConfigError&) {
    // Refused with a message: the expected outcome for bad input.
  }
  if (accepted) useAcceptedConfig(*accepted);  // outside the try: nothing may throw here
  (void)Config::splitOverrides(overrides);
}

}  // namespace npusim::fuzz

#pragma once
// The platform-configuration fuzz input: a preset name or a JSON file written from the input,
// plus NPUSIM_SET-style overrides. Config::load must accept it or refuse it with a ConfigError;
// any other exception (or a crash, or undefined behaviour) is a bug.
//
// Layout: byte 0 selects the base (even: the JSON text that follows, written to a file; odd: an
// embedded preset chosen by byte 1), then the JSON text up to a 0 byte, then the overrides.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "npusim/config.h"

namespace npusim::fuzz {

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
  } catch (const ConfigError&) {
    // Refused with a message: the expected outcome for bad input.
  }
  (void)Config::splitOverrides(overrides);
}

}  // namespace npusim::fuzz

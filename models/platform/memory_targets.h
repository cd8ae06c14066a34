#pragma once
// The registry behind include/npusim/tlm_plugin.h: memory models by name, each registered
// either with contract v2 (a protocol and a binder) or v1 (a factory returning a socket).
#include <string>
#include <vector>

#include "npusim/config.h"
#include "npusim/tlm_plugin.h"

namespace npusim {

// The name of the built-in HBM model (hbm.model's default).
constexpr const char* kBuiltinMemoryModel = "builtin";
// Prefix of the plug-in's parameters: hbm.plugin.<key>=<value> reaches it as params["<key>"].
constexpr const char* kPluginPrefix = "hbm.plugin.";

// Whether `key` has no effect with the chosen memory model: the built-in HBM's own keys when a
// plug-in stands in for it (hbm.model), the plug-in keys when the built-in HBM is used.
bool inactiveWithMemoryModel(const Config& cfg, const std::string& key);

struct RegisteredMemoryModel {
  Protocol protocol = Protocol::LooselyTimed;
  MemoryModelBinder binder;     // v2 (empty for v1)
  MemoryTargetFactory factory;  // v1 (empty for v2)
};

// The model registered as `model`, or null.
const RegisteredMemoryModel* findMemoryModel(const std::string& model);
std::vector<std::string> memoryModelNames();

}  // namespace npusim

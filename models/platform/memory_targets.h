#pragma once
// The registry behind include/npusim/tlm_plugin.h: memory-target factories by model name.
#include <string>
#include <vector>

#include "npusim/tlm_plugin.h"

namespace npusim {

// The name of the built-in HBM model (hbm.model's default).
constexpr const char* kBuiltinMemoryModel = "builtin";

// The factory registered as `model`, or null.
const MemoryTargetFactory* findMemoryTarget(const std::string& model);
std::vector<std::string> memoryTargetNames();

}  // namespace npusim

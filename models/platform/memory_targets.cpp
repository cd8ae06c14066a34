#include "models/platform/memory_targets.h"

#include <map>
#include <mutex>

namespace npusim {

namespace {
std::mutex& registryMutex() {
  static std::mutex m;
  return m;
}
// Function-local, so plug-ins registering from static initialisers find it constructed.
std::map<std::string, MemoryTargetFactory>& registry() {
  static std::map<std::string, MemoryTargetFactory> r;
  return r;
}
}  // namespace

// Exported by libascendcl.so. Refuses an empty name, the built-in name, a name already taken
// and an empty factory.
bool registerMemoryTarget(const std::string& model, MemoryTargetFactory factory) {
  if (model.empty() || model == kBuiltinMemoryModel || !factory) return false;
  std::lock_guard<std::mutex> lock(registryMutex());
  return registry().emplace(model, std::move(factory)).second;
}

const MemoryTargetFactory* findMemoryTarget(const std::string& model) {
  std::lock_guard<std::mutex> lock(registryMutex());
  auto it = registry().find(model);
  return it == registry().end() ? nullptr : &it->second;
}

std::vector<std::string> memoryTargetNames() {
  std::lock_guard<std::mutex> lock(registryMutex());
  std::vector<std::string> out;
  for (const auto& [name, f] : registry()) out.push_back(name);
  return out;
}

}  // namespace npusim

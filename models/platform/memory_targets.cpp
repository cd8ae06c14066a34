#include "models/platform/memory_targets.h"

#include <cstring>
#include <map>
#include <mutex>

namespace npusim {

namespace {
std::mutex& registryMutex() {
  static std::mutex m;
  return m;
}
// Function-local, so plug-ins registering from static initialisers find it constructed.
std::map<std::string, RegisteredMemoryModel>& registry() {
  static std::map<std::string, RegisteredMemoryModel> r;
  return r;
}
bool add(const std::string& model, RegisteredMemoryModel m) {
  if (model.empty() || model == kBuiltinMemoryModel) return false;
  std::lock_guard<std::mutex> lock(registryMutex());
  return registry().emplace(model, std::move(m)).second;
}
}  // namespace

// Both exported by libascendcl.so. They refuse an empty name, the built-in name, a name already
// taken and an empty binder or factory.
bool registerMemoryModel(const std::string& model, Protocol protocol, MemoryModelBinder binder) {
  if (!binder) return false;
  return add(model, {protocol, std::move(binder), {}});
}

bool registerMemoryTarget(const std::string& model, MemoryTargetFactory factory) {
  if (!factory) return false;
  return add(model, {Protocol::LooselyTimed, {}, std::move(factory)});
}

bool inactiveWithMemoryModel(const Config& cfg, const std::string& key) {
  if (key.compare(0, 4, "hbm.") != 0 || key == "hbm.model" || key == "hbm.capacity_bytes") return false;
  const bool pluginKey =
      key == "hbm.plugin_max_bytes" || key.compare(0, std::strlen(kPluginPrefix), kPluginPrefix) == 0;
  return (cfg.getString("hbm.model") == kBuiltinMemoryModel) == pluginKey;
}

const RegisteredMemoryModel* findMemoryModel(const std::string& model) {
  std::lock_guard<std::mutex> lock(registryMutex());
  auto it = registry().find(model);
  return it == registry().end() ? nullptr : &it->second;
}

std::vector<std::string> memoryModelNames() {
  std::lock_guard<std::mutex> lock(registryMutex());
  std::vector<std::string> out;
  for (const auto& [name, m] : registry()) out.push_back(name);
  return out;
}

}  // namespace npusim

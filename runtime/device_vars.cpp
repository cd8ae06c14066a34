// File-scope __gm__ variables and their copies in device memory (runtime/device_vars.h).
#include "runtime/device_vars.h"

#include <dlfcn.h>

#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "ascendc/npusim_kernel_abi.h"
#include "runtime/runtime.h"

namespace npusim::rt::devvars {

namespace {

struct Var {
  size_t size = 0;
  std::string name;
  std::vector<uint8_t> initial;  // the bytes the program was loaded with
  std::map<int, void*> copies;   // device -> its device copy
};

// Registration happens during static initialisation (before any runtime exists) and when a
// binary is loaded or unloaded: the registry has a lock of its own and is never destroyed.
struct Registry {
  std::mutex mu;
  std::map<uintptr_t, Var> vars;  // by host address
};
Registry& registry() {
  static auto* r = new Registry();
  return *r;
}

// The variables stay registered with their binaries, but their device copies were memory of the
// ended simulation: the next one makes them again from the initial bytes, as a fresh load would.
[[maybe_unused]] const bool kForgottenAtEnd = (Runtime::onSimulationEnd([] {
                                                 Registry& r = registry();
                                                 std::lock_guard<std::mutex> lock(r.mu);
                                                 for (auto& v : r.vars) v.second.copies.clear();
                                               }),
                                               true);

uint8_t* backing(void* dev) {
  MemoryManager& mem = Runtime::get().memory();
  return mem.hostView(mem.classify(dev), dev);
}

void* copyOn(Var& v, int device) {
  auto it = v.copies.find(device);
  if (it != v.copies.end() && Runtime::get().memory().findAllocation(it->second)) return it->second;
  MemoryManager& mem = Runtime::get().memory();
  void* dev = mem.allocDevice(device, v.size, (v.size + 31) / 32 * 32 + 32, 64, "device variable");
  if (!dev) return nullptr;
  std::memcpy(backing(dev), v.initial.data(), v.size);
  v.copies[device] = dev;
  return dev;
}

}  // namespace

bool find(const void* symbol, Info* out) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.vars.find(reinterpret_cast<uintptr_t>(symbol));
  if (it == r.vars.end()) return false;
  out->symbol = const_cast<void*>(symbol);
  out->size = it->second.size;
  out->name = it->second.name;
  return true;
}

void* deviceCopy(const void* symbol, int device) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.vars.find(reinterpret_cast<uintptr_t>(symbol));
  return it == r.vars.end() ? nullptr : copyOn(it->second, device);
}

void ensureAll(int device) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (auto& [addr, v] : r.vars) copyOn(v, device);
}

void load(int device) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (auto& [addr, v] : r.vars) {
    auto it = v.copies.find(device);
    const uint8_t* from = it != v.copies.end() ? backing(it->second) : v.initial.data();
    std::memcpy(reinterpret_cast<void*>(addr), from, v.size);
  }
}

void store(int device) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (auto& [addr, v] : r.vars) {
    auto it = v.copies.find(device);
    if (it != v.copies.end()) std::memcpy(backing(it->second), reinterpret_cast<void*>(addr), v.size);
  }
}

void releaseObject(const void* base) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (auto it = r.vars.begin(); it != r.vars.end();) {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(it->first), &info) || info.dli_fbase != base) {
      ++it;
      continue;
    }
    std::string why;
    for (auto& [device, dev] : it->second.copies) Runtime::get().memory().freeDevice(dev, &why);
    it = r.vars.erase(it);
  }
}

}  // namespace npusim::rt::devvars

// ---- the kernel ABI (include/ascendc/npusim_kernel_abi.h) ----

extern "C" void npusimKernelRegisterVar(void* addr, size_t size, const char* name, int add) {
  auto& r = npusim::rt::devvars::registry();
  std::lock_guard<std::mutex> lock(r.mu);
  const auto key = reinterpret_cast<uintptr_t>(addr);
  if (!add) {
    r.vars.erase(key);  // the object is going away (device copies are freed by the unload)
    return;
  }
  npusim::rt::devvars::Var& v = r.vars[key];
  v.size = size;
  v.name = name ? name : "";
  v.initial.assign(static_cast<const uint8_t*>(addr), static_cast<const uint8_t*>(addr) + size);
}

// The registries of communicators and of groups gathering their ranks. All of it is touched only
// with the runtime lock held (inside an API call) or from the SystemC kernel, which runs under it.
#include "runtime/hccl/communicator.h"

#include <fmt/format.h>

#include <set>

#include "runtime/runtime.h"

namespace npusim::hccl {
namespace {

struct Registry {
  std::set<Comm*> live;
  std::map<std::string, std::shared_ptr<Group>> gathering;  // by root info, until all joined
};

Registry& registry() {
  static auto* r = new Registry();  // tasks may still run at exit
  return *r;
}

// Communicators use the streams and devices of one simulation: aclFinalize ends them (their
// streams are released with the runtime's), so an old handle is refused afterwards.
[[maybe_unused]] const bool kForgottenAtEnd = (rt::Runtime::onSimulationEnd([] {
                                                 Registry& r = registry();
                                                 for (Comm* c : r.live) delete c;
                                                 r = Registry();
                                               }),
                                               true);

}  // namespace

Group::Group(std::string n, uint32_t s, uint64_t b, Tick t)
    : name(std::move(n)), size(s), bufferBytes(b), execTimeout(t), ranks(s), pushedBytes(size_t{s} * s, 0) {
  signals_.resize(size_t{6} * s * s);
}

Signal& Group::signal(SignalKind kind, uint32_t from, uint32_t to) {
  auto& slot = signals_[(static_cast<size_t>(kind) * size + from) * size + to];
  if (!slot) slot = std::make_unique<Signal>();
  return *slot;
}

bool isLive(const Comm* c) { return registry().live.count(const_cast<Comm*>(c)) != 0; }
void addLive(Comm* c) { registry().live.insert(c); }
void removeLive(Comm* c) { registry().live.erase(c); }

std::shared_ptr<Group> findOrCreateGroup(const std::string& key, uint32_t size, uint64_t bufferBytes,
                                         Tick execTimeout, std::string* why) {
  auto& g = registry().gathering[key];
  if (!g) {
    g = std::make_shared<Group>(key, size, bufferBytes, execTimeout);
    return g;
  }
  if (g->size != size) {
    *why = fmt::format("nRanks {} differs from the {} the first rank of communicator {} passed", size,
                       g->size, key);
    return nullptr;
  }
  return g;
}

void finishGathering(const std::string& key, Group& g) {
  auto it = registry().gathering.find(key);
  if (it != registry().gathering.end() && it->second.get() == &g) registry().gathering.erase(it);
}

void renameGroup(Group& g, const std::string& name) { g.name = name; }

int& deterministic() {
  static int value = 0;
  return value;
}

Comm* findByName(const std::string& name, int device) {
  Comm* any = nullptr;
  for (Comm* c : registry().live) {
    if (c->group->name != name) continue;
    if (c->device == device) return c;
    if (!any || c->rank < any->rank) any = c;
  }
  return any;
}

}  // namespace npusim::hccl

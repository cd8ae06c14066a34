// Object checks: streams and events used after destruction, work left on streams when a
// device is reset or the runtime finalised, and deadlocked synchronisations.
#include <fmt/format.h>

#include <deque>
#include <unordered_map>

#include "runtime/checks.h"
#include "runtime/runtime.h"

namespace npusim::rt::checks {

namespace {

constexpr size_t kDestroyedHistory = 4096;

// Handles destroyed recently, with the call that destroyed them (a handle's address may be
// reused by a new object; the live sets are always consulted first).
struct Graveyard {
  std::unordered_map<const void*, std::string> by;
  std::deque<const void*> order;
  void add(const void* h) {
    ApiCall* api = ApiCall::current();
    if (!by.count(h)) order.push_back(h);
    by[h] = api ? api->name() : "the runtime";
    if (order.size() > kDestroyedHistory) {
      by.erase(order.front());
      order.pop_front();
    }
  }
};
Graveyard& streams() {
  static Graveyard* g = new Graveyard;
  return *g;
}
Graveyard& events() {
  static Graveyard* g = new Graveyard;
  return *g;
}

std::string stale(Graveyard& g, Kind k, const char* what, const void* handle) {
  auto it = g.by.find(handle);
  std::string msg =
      it != g.by.end()
          ? fmt::format("{} {} is not a live {}: it was destroyed by {}", what, handle, what, it->second)
          : fmt::format("{} {} is not a live {} (destroyed or never created)", what, handle, what);
  ApiCall* api = ApiCall::current();
  note(k, api ? api->name() : "?", fmt::format("{}={}", what, handle), msg);
  return msg;
}

// Streams of `hws` with tasks the device has not finished by the host's current time.
std::string unfinished(ApiCall& api, const std::vector<sched::HwStream*>& hws) {
  bool any = false;
  for (const auto* hw : hws) any |= hw->completed < hw->issued;
  if (!any) return {};
  api.rt.waitFor([] { return false; }, api.th->clock);  // what has finished by now?
  std::string out;
  for (const auto* hw : hws) {
    if (hw->completed >= hw->issued) continue;
    const sched::Task* first = hw->queue.empty() ? nullptr : hw->queue.front().get();
    out += fmt::format("{}NPU {} stream {}: {} unfinished task(s){}", out.empty() ? "" : "; ", hw->device,
                       hw->id, hw->issued - hw->completed,
                       first ? fmt::format(", first task #{} '{}'", first->id, first->label) : std::string());
  }
  return out;
}

}  // namespace

void streamDestroyed(const Stream* s) { streams().add(s); }
void eventDestroyed(const Event* e) { events().add(e); }

std::string staleStream(const void* handle) { return stale(streams(), Kind::StaleStream, "stream", handle); }
std::string staleEvent(const void* handle) { return stale(events(), Kind::StaleEvent, "event", handle); }

aclError workLeftAtReset(ApiCall& api, int device, bool force) {
  if (mode() == Mode::Off) return ACL_SUCCESS;
  DeviceState& ds = api.rt.device(device);
  if (ds.refs == 0 || !ds.defaultCtx || (!force && ds.refs > 1)) return ACL_SUCCESS;  // stays open
  std::vector<sched::HwStream*> hws;
  for (Stream* s : ds.defaultCtx->streams) hws.push_back(s->hw);
  if (ds.defaultCtx->defaultStream) hws.push_back(ds.defaultCtx->defaultStream->hw);
  std::string left = unfinished(api, hws);
  if (left.empty()) return ACL_SUCCESS;
  return report(
      api, Kind::WorkLeft, ACL_ERROR_RT_PARAM_INVALID,
      fmt::format("device {} is reset while its streams still have work ({}); the reset waits for it, "
                  "but the program never synchronised",
                  device, left),
      fmt::format("deviceId={}", device));
}

aclError workLeftAtFinalize(ApiCall& api) {
  if (mode() == Mode::Off) return ACL_SUCCESS;
  std::vector<sched::HwStream*> hws;
  for (int d = 0; d < api.rt.deviceCount(); ++d)
    for (const auto& hw : api.rt.platform().device(d).sched->streams())
      if (!hw->internal && !hw->destroyed) hws.push_back(hw.get());
  std::string left = unfinished(api, hws);
  if (left.empty()) return ACL_SUCCESS;
  return report(
      api, Kind::WorkLeft, ACL_ERROR_RT_PARAM_INVALID,
      fmt::format("aclFinalize is called while streams still have work ({}); it waits for it, but the "
                  "program never synchronised",
                  left),
      "");
}

void deadlock(const std::string& what, const std::string& blocked, bool printed) {
  ApiCall* api = ApiCall::current();
  std::string msg = fmt::format("the host waits for {} but no device work can progress:\n{}", what, blocked);
  if (!msg.empty() && msg.back() == '\n') msg.pop_back();
  note(Kind::Deadlock, api ? api->name() : "?", "", msg, !printed);
}

}  // namespace npusim::rt::checks

#include "runtime/capture.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>
#include <utility>

namespace npusim::rt {

namespace {

// All capture state; guarded by the runtime lock like every runtime object.
struct Registry {
  std::set<CaptureModel*> models;                           // live aclmdlRI handles
  std::vector<CaptureModel*> active;                        // captures between Begin and End
  std::unordered_map<sched::HwStream*, Stream*> capturing;  // hardware queue -> capturing stream
  std::unordered_map<sched::HwStream*, std::vector<std::unique_ptr<sched::Task>>*> updating;  // -> new tasks
  int nextId = 1;
};

Registry& registry() {
  static Registry* r = new Registry();  // lives as long as the runtime (never destroyed)
  return *r;
}

// Models replay on the hardware queues of one simulation: aclFinalize forgets them.
[[maybe_unused]] const bool kForgottenAtEnd = (Runtime::onSimulationEnd([] {
                                                 Registry& r = registry();
                                                 for (CaptureModel* m : r.models) delete m;
                                                 r = Registry();
                                               }),
                                               true);

const char* kindName(sched::TaskKind k) {
  switch (k) {
    case sched::TaskKind::Copy:
      return "Copy";
    case sched::TaskKind::EventRecord:
      return "EventRecord";
    case sched::TaskKind::EventWait:
      return "EventWait";
    case sched::TaskKind::EventReset:
      return "EventReset";
    case sched::TaskKind::Operator:
      return "Operator";
    case sched::TaskKind::Marker:
      return "Marker";
    case sched::TaskKind::ModelExec:
      return "ModelExec";
    case sched::TaskKind::Builtin:
      return "Builtin";
  }
  return "?";
}

void joinLane(CaptureModel& m, Stream* s) {
  s->capture = &m;
  s->captureLane = static_cast<int>(m.lanes.size());
  CaptureLane lane;
  lane.stream = s;
  lane.userHw = s->hw;
  lane.streamId = s->hw->id;
  m.lanes.push_back(std::move(lane));
  registry().capturing[s->hw] = s;
}

// Records `t` on the stream's lane. The captured task shows on the stream's track as a
// zero-length "captured" mark at the host time of the call, where the call's flow arrow ends.
void append(HostThread& th, Stream* s, sched::Task&& t, int eventSlot, uint64_t flow) {
  CaptureModel& m = *s->capture;
  CaptureLane& lane = m.lanes[static_cast<size_t>(s->captureLane)];
  trace::TraceWriter& tw = Runtime::get().trace();
  if (tw.wants(trace::Level::Task)) {
    trace::Args a;
    a.add("model", static_cast<int64_t>(m.id)).add("index", static_cast<uint64_t>(lane.tasks.size()));
    tw.slice(s->hw->track, fmt::format("captured: {}", t.label), "capture", th.clock, 0, &a);
    if (flow) tw.flowEnd(s->hw->track, flow, "launch", th.clock);
  }
  t.flow = 0;
  // Its id in the model (aclrtGetThreadLastTaskId, aclrtTaskUpdateAsync); replays number their own.
  t.id = Runtime::get().reserveTaskIds(1);
  th.lastTaskId = t.id;
  lane.tasks.push_back(sched::ModelTask{std::move(t), eventSlot, nullptr, -1});
  th.lastCapture = &m;
  th.lastCaptureModelId = m.id;
  th.lastCaptureLane = s->captureLane;
  th.lastCaptureIndex = lane.tasks.size() - 1;
  th.lastCaptureMark = th.lastTaskId;
}

int slotOf(CaptureModel& m, Event* e) {
  if (e->capture == &m && e->captureSlot >= 0) return e->captureSlot;
  m.events.push_back(CaptureEventSlot{e, 0, 0, e});
  e->capture = &m;
  e->captureSlot = static_cast<int>(m.events.size()) - 1;
  return e->captureSlot;
}

// A failed event call inside a capture invalidates it (End then returns 507903).
aclError failCapture(ApiCall& api, CaptureModel* m, aclError code, const std::string& why) {
  if (m) invalidateCapture(m, why);
  return api.fail(code, "{}", why);
}

sched::Task eventTask(sched::TaskKind kind, const char* label) {
  sched::Task t;
  t.kind = kind;
  t.label = label;
  return t;
}

}  // namespace

void divertForUpdate(sched::HwStream* hw, std::vector<std::unique_ptr<sched::Task>>* into) {
  if (into)
    registry().updating[hw] = into;
  else
    registry().updating.erase(hw);
}

bool divertToCapture(HostThread& th, sched::HwStream* hw, std::unique_ptr<sched::Task>& t, uint64_t flow) {
  Registry& r = registry();
  if (!r.updating.empty()) {
    auto u = r.updating.find(hw);
    if (u != r.updating.end()) {
      u->second->push_back(std::move(t));
      return true;
    }
  }
  if (r.capturing.empty()) return false;
  auto it = r.capturing.find(hw);
  if (it == r.capturing.end()) return false;
  append(th, it->second, std::move(*t), -1, flow);
  t.reset();
  return true;
}

// An external record or wait in a capture: a task on the user's own event, its index or target
// filled in per replay.
void appendExternal(ApiCall& api, CaptureModel& m, Stream* s, Event* e, sched::TaskKind kind,
                    const char* label) {
  api.charge(api.rt.costs().launch);
  sched::Task t = eventTask(kind, label);
  api.args.add("stream", s->hw->id).add("captured", static_cast<int64_t>(m.id)).add("external", 1);
  append(*api.th, s, std::move(t), -1, 0);
  sched::ModelTask& mt = m.lanes[static_cast<size_t>(s->captureLane)].tasks.back();
  mt.external = e->hw;
  mt.externalIndex = m.externals++;
}

bool captureRecordEvent(ApiCall& api, Event* e, Stream* s, bool external, aclError* ret) {
  external |= (e->flags & ACL_EVENT_EXTERNAL) != 0;  // an event made for use across the model's edge
  if (!s->capture || external) {
    // An eager record replaces the captured one: the event is no longer in capture. So does an
    // external one: streams outside the capture wait on the user's event, recorded by replays.
    e->capture = nullptr;
    e->captureSlot = -1;
    if (!s->capture) return false;
  }
  CaptureModel* m = s->capture;
  if (e->flags & ACL_EVENT_IPC) {
    *ret = failCapture(api, m, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "IPC events cannot be used in a capture");
    return true;
  }
  if (external) {
    appendExternal(api, *m, s, e, sched::TaskKind::EventRecord, "EventRecord");
    *ret = api.done();
    return true;
  }
  if (e->capture && e->capture != m) {
    *ret = failCapture(api, m, ACL_ERROR_STREAM_CAPTURE_CONFLICT,
                       fmt::format("the event was recorded in capture model {} but stream {} captures into "
                                   "model {}",
                                   e->capture->id, s->hw->id, m->id));
    return true;
  }
  api.charge(api.rt.costs().launch);
  int slot = slotOf(*m, e);
  sched::Task t = eventTask(sched::TaskKind::EventRecord, "EventRecord");
  t.recordIndex = ++m->events[static_cast<size_t>(slot)].records;
  api.args.add("stream", s->hw->id).add("captured", static_cast<int64_t>(m->id));
  append(*api.th, s, std::move(t), slot, 0);
  *ret = api.done();
  return true;
}

bool captureWaitEvent(ApiCall& api, Stream* s, Event* e, bool external, aclError* ret) {
  external |= (e->flags & ACL_EVENT_EXTERNAL) != 0;
  if (external) {  // outside a capture an ordinary wait; inside, a wait on the user's event
    if (!s->capture) return false;
    appendExternal(api, *s->capture, s, e, sched::TaskKind::EventWait, "EventWait");
    *ret = api.done();
    return true;
  }
  CaptureModel* m = e->capture;
  if (!m) {
    if (!s->capture) return false;
    // Nothing recorded this event inside the capture: the wait has no edge in the model.
    *ret = failCapture(api, s->capture, ACL_ERROR_RT_CAPTURE_DEPENDENCY,
                       fmt::format("stream {} captures into model {} but waits on an event that was not "
                                   "recorded in that capture",
                                   s->hw->id, s->capture->id));
    return true;
  }
  if (s->capture && s->capture != m) {
    *ret = failCapture(api, s->capture, ACL_ERROR_STREAM_CAPTURE_CONFLICT,
                       fmt::format("stream {} captures into model {} but the event belongs to model {}",
                                   s->hw->id, s->capture->id, m->id));
    return true;
  }
  if (s->isDefault) {
    *ret = failCapture(api, m, ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
                       "the default stream cannot join a capture (it would wait on a captured event)");
    return true;
  }
  if (s->device != m->device) {
    *ret = failCapture(api, m, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                       fmt::format("stream {} is on device {} but the capture is on device {}", s->hw->id,
                                   s->device, m->device));
    return true;
  }
  CaptureEventSlot& slot = m->events[static_cast<size_t>(e->captureSlot)];
  if (slot.records == slot.resetBase) {
    *ret = failCapture(api, m, ACL_ERROR_RT_CAPTURE_DEPENDENCY,
                       "the event was reset in the capture after its last record: the wait has nothing to "
                       "wait for");
    return true;
  }
  if (!s->capture) joinLane(*m, s);  // the event pulls the stream into the capture
  api.charge(api.rt.costs().launch);
  sched::Task t = eventTask(sched::TaskKind::EventWait, "EventWait");
  t.waitTarget = slot.records;
  api.args.add("stream", s->hw->id).add("captured", static_cast<int64_t>(m->id));
  append(*api.th, s, std::move(t), e->captureSlot, 0);
  *ret = api.done();
  return true;
}

bool captureResetEvent(ApiCall& api, Event* e, Stream* s, aclError* ret) {
  if (s->capture && (e->flags & ACL_EVENT_EXTERNAL)) {  // resets the user's event at every replay
    appendExternal(api, *s->capture, s, e, sched::TaskKind::EventReset, "EventReset");
    *ret = api.done();
    return true;
  }
  if (!s->capture) {
    if (e->capture && s->isDefault) {
      *ret = failCapture(api, e->capture, ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
                         "the default stream cannot reset an event that is in a capture");
      return true;
    }
    return false;
  }
  CaptureModel* m = s->capture;
  if (e->capture && e->capture != m) {
    *ret = failCapture(api, m, ACL_ERROR_STREAM_CAPTURE_CONFLICT,
                       fmt::format("the event belongs to capture model {}, stream {} to model {}",
                                   e->capture->id, s->hw->id, m->id));
    return true;
  }
  api.charge(api.rt.costs().launch);
  int slot = slotOf(*m, e);
  CaptureEventSlot& es = m->events[static_cast<size_t>(slot)];
  es.resetBase = es.records;
  api.args.add("stream", s->hw->id).add("captured", static_cast<int64_t>(m->id));
  append(*api.th, s, eventTask(sched::TaskKind::EventReset, "EventReset"), slot, 0);
  *ret = api.done();
  return true;
}

aclError checkUnsafeCall(ApiCall& api, aclError code) {
  // Context::IsCaptureModeSupport (acl-api.md §5.1): modes order GLOBAL < THREAD_LOCAL <
  // RELAXED; the context's mode is the strictest active capture, the thread's the strictest
  // capture it began.
  constexpr int kNone = 3;
  Context* ctx = api.rt.currentContext();
  int ctxMode = kNone, threadMode = kNone;
  const CaptureModel* blocking = nullptr;
  for (const CaptureModel* m : registry().active) {
    if (ctx && m->ctx != ctx) continue;
    if (static_cast<int>(m->mode) < ctxMode) ctxMode = m->mode, blocking = m;
    if (m->beginThread == api.th) threadMode = std::min(threadMode, static_cast<int>(m->mode));
  }
  if (ctxMode == kNone) return ACL_SUCCESS;
  const int mine = api.th->captureMode;
  bool refused = false;
  if (mine == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
    refused =
        ctxMode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL || threadMode == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL;
  else if (mine == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL)
    refused = threadMode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL ||
              threadMode == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL;
  if (!refused) return ACL_SUCCESS;
  static const char* const names[] = {"GLOBAL", "THREAD_LOCAL", "RELAXED"};
  return api.fail(code,
                  "a synchronous call is not allowed while capture model {} is active (context mode {}, this "
                  "thread's mode {}); switch this thread to RELAXED with "
                  "aclmdlRICaptureThreadExchangeMode to run it uncaptured",
                  blocking ? blocking->id : 0, names[ctxMode], names[mine]);
}

bool anyStreamCapturing(const Context* ctx) {
  for (const auto& [hw, s] : registry().capturing)
    if (!ctx || s->ctx == ctx) return true;
  return false;
}

CaptureModel* startCapture(ApiCall& api, Stream* origin, aclmdlRICaptureMode mode) {
  Registry& r = registry();
  auto* m = new CaptureModel();
  m->id = r.nextId++;
  m->device = origin->device;
  m->mode = mode;
  m->beginThread = api.th;
  m->ctx = origin->ctx;
  r.models.insert(m);
  r.active.push_back(m);
  joinLane(*m, origin);
  return m;
}

CaptureModel* startBuild(ApiCall& api, Context* ctx) {
  Registry& r = registry();
  auto* m = new CaptureModel();
  m->id = r.nextId++;
  m->device = ctx->device;
  m->mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;  // building restricts no other call
  m->beginThread = api.th;
  m->ctx = ctx;
  m->state = CaptureModel::State::Building;
  m->built = true;
  r.models.insert(m);
  return m;
}

void bindStream(CaptureModel& m, Stream* s, bool head) {
  joinLane(m, s);
  m.lanes.back().head = head;
  m.bound.push_back(s);
}

void activateLane(ApiCall& api, Stream* active, Stream* s, std::function<bool()> condition) {
  CaptureModel& m = *s->capture;
  CaptureLane& target = m.lanes[static_cast<size_t>(active->captureLane)];
  if (target.activationSlot < 0) {
    m.events.push_back(CaptureEventSlot{nullptr, 0, 0});
    target.activationSlot = static_cast<int>(m.events.size()) - 1;
  }
  api.charge(api.rt.costs().launch);
  api.args.add("stream", s->hw->id).add("activates", active->hw->id).add("model", static_cast<int64_t>(m.id));
  if (!condition) {
    target.activatedAlways = true;
    sched::Task t = eventTask(sched::TaskKind::EventRecord, "ActiveStream");
    t.recordIndex = ++m.events[static_cast<size_t>(target.activationSlot)].records;
    append(*api.th, s, std::move(t), target.activationSlot, 0);
    return;
  }
  // A switch: the replay's copy of the task gets the slot's event; it records when the condition holds.
  sched::Task t = eventTask(sched::TaskKind::Builtin, "SwitchStream");
  t.run = [condition](sched::Task& self) {
    if (!condition()) return;
    self.event->completedRecords = std::max<uint64_t>(self.event->completedRecords, 1);
    self.event->signaled.notify(sc_core::SC_ZERO_TIME);
  };
  append(*api.th, s, std::move(t), target.activationSlot, 0);
}

CaptureModel* newBranch(CaptureModel& parent) {
  Registry& r = registry();
  auto* m = new CaptureModel();
  m->id = r.nextId++;
  m->device = parent.device;
  m->ctx = parent.ctx;
  m->state = CaptureModel::State::Pending;
  r.models.insert(m);
  parent.branches.push_back(m);
  return m;
}

void captureInto(ApiCall& api, Stream* s, CaptureModel* m, aclmdlRICaptureMode mode) {
  Registry& r = registry();
  m->state = CaptureModel::State::Capturing;
  m->mode = mode;
  m->beginThread = api.th;
  r.active.push_back(m);
  joinLane(*m, s);
}

size_t appendToLane(ApiCall& api, Stream* s, sched::Task&& t) {
  api.charge(api.rt.costs().launch);
  append(*api.th, s, std::move(t), -1, 0);
  return s->capture->lanes[static_cast<size_t>(s->captureLane)].tasks.size() - 1;
}

std::string finishBuild(CaptureModel* m) {
  for (const auto& check : m->buildChecks)
    if (std::string why = check(); !why.empty()) return why;
  bool anyHead = false, anyEnd = false;
  for (const CaptureLane& lane : m->lanes) anyHead |= lane.head, anyEnd |= lane.endsModel;
  if (!anyHead) return "no stream was bound with ACL_MODEL_STREAM_FLAG_HEAD: nothing would start the model";
  for (const CaptureLane& lane : m->lanes) {
    if (lane.head) continue;
    if (lane.activationSlot < 0)
      return fmt::format(
          "stream {} is bound without the head flag but no aclrtActiveStream or aclrtSwitchStream activates "
          "it",
          lane.streamId);
    // Without an ending lane the model ends when every lane is done: a lane that may never start
    // would keep it running for ever.
    if (!lane.activatedAlways && !anyEnd)
      return fmt::format(
          "stream {} starts only if an aclrtSwitchStream condition holds: mark the model's end with "
          "aclmdlRIEndTask",
          lane.streamId);
  }
  // A lane that waits for its activation starts with a wait on its activation slot.
  for (CaptureLane& lane : m->lanes) {
    if (lane.head) continue;
    sched::Task wait = eventTask(sched::TaskKind::EventWait, "WaitActivation");
    wait.waitTarget = 1;
    lane.tasks.insert(lane.tasks.begin(),
                      sched::ModelTask{std::move(wait), lane.activationSlot, nullptr, -1});
  }
  finishCapture(m, true);
  return {};
}

void invalidateCapture(CaptureModel* m, const std::string& why) {
  if (m->state != CaptureModel::State::Capturing) return;
  m->state = CaptureModel::State::Invalidated;
  m->invalidReason = why;
}

std::string unjoinedReason(const CaptureModel& m) {
  if (m.lanes.size() <= 1) return {};
  // Every captured task must come before the origin stream's last task in the graph (stream
  // order plus record -> wait edges). Walk backwards from there; `reach[l]` is the length of
  // lane l's prefix known to precede it (what precedes a task on its lane always does).
  std::map<std::pair<int, uint64_t>, std::pair<size_t, size_t>> recordAt;  // (slot, record) -> node
  std::set<std::pair<int, uint64_t>> waited;
  for (size_t l = 0; l < m.lanes.size(); ++l) {
    const auto& tasks = m.lanes[l].tasks;
    for (size_t i = 0; i < tasks.size(); ++i) {
      const sched::ModelTask& mt = tasks[i];
      if (mt.externalIndex >= 0) continue;  // external events join nothing inside the model
      if (mt.task.kind == sched::TaskKind::EventRecord) recordAt[{mt.event, mt.task.recordIndex}] = {l, i};
      if (mt.task.kind == sched::TaskKind::EventWait) waited.insert({mt.event, mt.task.waitTarget});
    }
  }
  std::vector<size_t> reach(m.lanes.size(), 0);
  std::vector<std::pair<size_t, size_t>> todo;
  if (!m.lanes[0].tasks.empty()) todo.push_back({0, m.lanes[0].tasks.size() - 1});
  while (!todo.empty()) {
    auto [l, i] = todo.back();
    todo.pop_back();
    for (size_t j = reach[l]; j <= i; ++j) {
      const sched::ModelTask& mt = m.lanes[l].tasks[j];
      if (mt.task.kind != sched::TaskKind::EventWait || mt.externalIndex >= 0) continue;
      auto rec = recordAt.find({mt.event, mt.task.waitTarget});
      if (rec != recordAt.end()) todo.push_back(rec->second);
    }
    reach[l] = std::max(reach[l], i + 1);
  }
  for (size_t l = 1; l < m.lanes.size(); ++l) {
    const CaptureLane& lane = m.lanes[l];
    if (reach[l] >= lane.tasks.size()) continue;
    const sched::ModelTask& last = lane.tasks.back();
    if (last.task.kind != sched::TaskKind::EventRecord)
      return fmt::format(
          "stream {} joined the capture but its last task ({}) is not an event record: it never returned to "
          "origin stream {}, or a task was added to it after it returned",
          lane.streamId, last.task.label, m.lanes[0].streamId);
    if (!waited.count({last.event, last.task.recordIndex}))
      return fmt::format(
          "stream {}'s last event record is never waited on, so it does not return to origin "
          "stream {}",
          lane.streamId, m.lanes[0].streamId);
    return fmt::format(
        "stream {}'s last event record does not lead back to origin stream {} (the origin "
        "stream has no event wait after it)",
        lane.streamId, m.lanes[0].streamId);
  }
  return {};
}

void finishCapture(CaptureModel* m, bool keep) {
  Runtime& rt = Runtime::get();
  Registry& r = registry();
  for (CaptureLane& lane : m->lanes) {
    auto it = r.capturing.find(lane.userHw);
    if (it != r.capturing.end() && it->second->capture == m) {
      it->second->capture = nullptr;
      it->second->captureLane = -1;
      r.capturing.erase(it);
    }
    lane.stream = nullptr;
  }
  for (CaptureEventSlot& slot : m->events) {
    if (rt.validEvent(slot.event) && slot.event->capture == m) {
      slot.event->capture = nullptr;
      slot.event->captureSlot = -1;
    }
    slot.event = nullptr;
  }
  r.active.erase(std::remove(r.active.begin(), r.active.end(), m), r.active.end());
  if (!keep) {
    r.models.erase(m);
    delete m;
    return;
  }
  m->state = CaptureModel::State::Ready;
  if (!m->atStart.empty() && !m->lanes.empty()) {  // every replay first runs these, on the origin lane
    sched::Task t = eventTask(sched::TaskKind::Builtin, "ModelStart");
    t.run = [fns = m->atStart](sched::Task&) {
      for (const auto& f : fns) f();
    };
    m->lanes[0].tasks.insert(m->lanes[0].tasks.begin(), sched::ModelTask{std::move(t), -1, nullptr, -1});
  }
  auto g = std::make_shared<sched::ModelGraph>();
  g->id = m->id;
  g->device = m->device;
  g->events = static_cast<int>(m->events.size());
  g->externals = m->externals;
  sched::StreamScheduler& sched = *rt.platform().device(m->device).sched;
  for (size_t l = 0; l < m->lanes.size(); ++l) {
    CaptureLane& lane = m->lanes[l];
    if (lane.tasks.empty()) continue;
    // The model's own stream for the lane, like the model streams CANN creates at capture.
    int id = rt.device(m->device).nextStreamId++;
    sched::ModelLane ml;
    ml.hw = sched.createStream(
        id, false, fmt::format("Model {} stream {} (captured from stream {})", m->id, id, lane.streamId));
    ml.capturedStream = lane.streamId;
    ml.activation = lane.head ? -1 : lane.activationSlot;
    ml.endsModel = lane.endsModel;
    ml.tasks = std::move(lane.tasks);
    g->lanes.push_back(std::move(ml));
  }
  m->lanes.clear();
  m->graph = std::move(g);
}

void captureStreamDestroyed(Stream* s) {
  CaptureModel* m = s->capture;
  if (!m) return;
  if (s->captureLane == 0) {
    finishCapture(m, false);  // the origin is gone: so is the capture
    return;
  }
  invalidateCapture(m, fmt::format("stream {} was destroyed while it was capturing", s->hw->id));
  m->lanes[static_cast<size_t>(s->captureLane)].stream = nullptr;
  registry().capturing.erase(s->hw);
  s->capture = nullptr;
  s->captureLane = -1;
}

std::vector<CaptureModel*> liveModels() {
  const auto& models = registry().models;
  std::vector<CaptureModel*> out(models.begin(), models.end());
  std::sort(out.begin(), out.end(),
            [](const CaptureModel* a, const CaptureModel* b) { return a->id < b->id; });
  return out;
}

ModelTaskRef findModelTask(const void* handle) {
  const auto h = reinterpret_cast<uintptr_t>(handle);
  for (CaptureModel* m : liveModels()) {
    if (!m->graph) continue;
    for (sched::ModelLane& l : m->graph->lanes) {
      const auto first = reinterpret_cast<uintptr_t>(l.tasks.data());
      if (h < first || h >= first + l.tasks.size() * sizeof(sched::ModelTask)) continue;
      if ((h - first) % sizeof(sched::ModelTask) != 0) return {};  // inside a task, not at one
      const size_t index = (h - first) / sizeof(sched::ModelTask);
      return {m, &l, index, &l.tasks[index]};
    }
  }
  return {};
}

CaptureModel* findModel(aclmdlRI handle) {
  auto* m = static_cast<CaptureModel*>(handle);
  return registry().models.count(m) ? m : nullptr;
}

sched::ModelTask* lastCapturedTask(const HostThread& th, CaptureModel** model, CaptureLane** lane) {
  CaptureModel* m = th.lastCapture;
  // An eager launch since then changed lastTaskId: the thread's last task is not in a model.
  if (!m || !registry().models.count(m) || m->id != th.lastCaptureModelId ||
      th.lastCaptureMark != th.lastTaskId)
    return nullptr;
  if (m->state != CaptureModel::State::Capturing && m->state != CaptureModel::State::Invalidated &&
      m->state != CaptureModel::State::Building)
    return nullptr;  // ended: its lanes became the replayable graph
  if (th.lastCaptureLane < 0 || static_cast<size_t>(th.lastCaptureLane) >= m->lanes.size()) return nullptr;
  CaptureLane& l = m->lanes[static_cast<size_t>(th.lastCaptureLane)];
  if (th.lastCaptureIndex >= l.tasks.size()) return nullptr;
  *model = m;
  *lane = &l;
  return &l.tasks[th.lastCaptureIndex];
}

void destroyModel(ApiCall& api, CaptureModel* m) {
  for (auto& [func, userData] : m->onDestroy) func(userData);
  for (CaptureModel* b : m->branches)
    if (registry().models.count(b)) destroyModel(api, b);
  if (m->graph) {
    sched::StreamScheduler& sched = *api.rt.platform().device(m->device).sched;
    for (sched::ModelLane& lane : m->graph->lanes) sched.retireStream(lane.hw);
  }
  registry().models.erase(m);
  delete m;
}

namespace {

nlohmann::json taskJson(const sched::ModelTask& mt, size_t index) {
  const sched::Task& t = mt.task;
  nlohmann::json j = {{"index", index}, {"type", kindName(t.kind)}, {"label", t.label}};
  switch (t.kind) {
    case sched::TaskKind::Copy:
      j["bytes"] = t.copy.bytes();
      j["route"] = sched::routeName(t.route);
      break;
    case sched::TaskKind::EventRecord:
      j["event"] = mt.event;
      j["record"] = t.recordIndex;
      break;
    case sched::TaskKind::EventWait:
      j["event"] = mt.event;
      j["waits_for_record"] = t.waitTarget;
      break;
    case sched::TaskKind::EventReset:
      j["event"] = mt.event;
      break;
    case sched::TaskKind::Operator:
      if (t.op) j["args"] = t.op->argsSummary, j["tiles"] = t.op->work.tiles.size();
      break;
    default:
      break;
  }
  if (!mt.extendInfo.empty()) {
    // Kept as the program's JSON when it is JSON, as text otherwise.
    nlohmann::json info = nlohmann::json::parse(mt.extendInfo, nullptr, false);
    j["extend_info"] = info.is_discarded() ? nlohmann::json(mt.extendInfo) : info;
  }
  if (!mt.opInfo.empty()) j["op_info_bytes"] = mt.opInfo.size();
  return j;
}

}  // namespace

void writeModelJson(const CaptureModel& m, bool verbose, std::ostream& out) {
  const sched::ModelGraph& g = *m.graph;
  nlohmann::json j = {{"model", m.id},
                      {"device", m.device},
                      {"streams", g.lanes.size()},
                      {"tasks", g.taskCount()},
                      {"events", g.events}};
  nlohmann::json lanes = nlohmann::json::array();
  std::map<std::pair<int, uint64_t>, nlohmann::json> records;
  for (size_t l = 0; l < g.lanes.size(); ++l) {
    const sched::ModelLane& lane = g.lanes[l];
    nlohmann::json lj = {
        {"stream", lane.hw->id}, {"captured_from_stream", lane.capturedStream}, {"tasks", lane.tasks.size()}};
    if (verbose) {
      nlohmann::json tasks = nlohmann::json::array();
      for (size_t i = 0; i < lane.tasks.size(); ++i) tasks.push_back(taskJson(lane.tasks[i], i));
      lj["task_list"] = std::move(tasks);
    }
    for (size_t i = 0; i < lane.tasks.size(); ++i) {
      const sched::ModelTask& mt = lane.tasks[i];
      if (mt.task.kind == sched::TaskKind::EventRecord)
        records[{mt.event, mt.task.recordIndex}] = {{"stream", lane.hw->id}, {"index", i}};
    }
    lanes.push_back(std::move(lj));
  }
  // Dependencies between streams: each wait and the record that releases it.
  nlohmann::json edges = nlohmann::json::array();
  for (const sched::ModelLane& lane : g.lanes) {
    for (size_t i = 0; i < lane.tasks.size(); ++i) {
      const sched::ModelTask& mt = lane.tasks[i];
      if (mt.task.kind != sched::TaskKind::EventWait) continue;
      auto rec = records.find({mt.event, mt.task.waitTarget});
      if (rec == records.end()) continue;
      edges.push_back(
          {{"event", mt.event}, {"from", rec->second}, {"to", {{"stream", lane.hw->id}, {"index", i}}}});
    }
  }
  j["stream_list"] = std::move(lanes);
  j["edges"] = std::move(edges);
  out << j.dump(2) << "\n";
}

void printModel(const CaptureModel& m, std::ostream& out) {
  const sched::ModelGraph& g = *m.graph;
  out << fmt::format("[npusim] aclmdlRI model {}: device {}, {} streams, {} tasks, {} events\n", m.id,
                     m.device, g.lanes.size(), g.taskCount(), g.events);
  for (const sched::ModelLane& lane : g.lanes) {
    out << fmt::format("  stream {} (captured from stream {}): {} tasks\n", lane.hw->id, lane.capturedStream,
                       lane.tasks.size());
    for (size_t i = 0; i < lane.tasks.size(); ++i) {
      const sched::ModelTask& mt = lane.tasks[i];
      std::string extra;
      if (mt.task.kind == sched::TaskKind::EventRecord)
        extra = fmt::format(" event {} record {}", mt.event, mt.task.recordIndex);
      else if (mt.task.kind == sched::TaskKind::EventWait)
        extra = fmt::format(" event {} waits for record {}", mt.event, mt.task.waitTarget);
      out << fmt::format("    task {}: {}{}\n", i, mt.task.label, extra);
    }
  }
}

std::vector<uint64_t> resolveExternalEvents(const sched::ModelGraph& g) {
  std::vector<uint64_t> targets(static_cast<size_t>(g.externals), 0);
  std::map<const sched::HwEvent*, uint64_t> waited;  // the latest target this replay waits for, per event
  for (const sched::ModelLane& lane : g.lanes) {
    for (const sched::ModelTask& mt : lane.tasks) {
      if (mt.externalIndex < 0) continue;
      sched::HwEvent& e = *mt.external;
      if (mt.task.kind == sched::TaskKind::EventReset) {
        // A reset after a wait happens once the awaited record is in: later waits need a newer one.
        e.resetBase = std::max(e.issuedRecords, waited[&e]);
        continue;
      }
      // A record is the event's next one; a wait waits for the latest record issued before the
      // replay was submitted (or the next one, as an eager wait does).
      uint64_t& target = targets[static_cast<size_t>(mt.externalIndex)];
      if (mt.task.kind == sched::TaskKind::EventRecord)
        target = ++e.issuedRecords;
      else
        target = e.issuedRecords > e.resetBase ? e.issuedRecords : e.resetBase + 1;
      if (mt.task.kind == sched::TaskKind::EventWait) waited[&e] = target;
    }
  }
  return targets;
}

}  // namespace npusim::rt

// ACL entry points: task groups of a capture and their update (aclmdlRICaptureTaskGrpBegin/End,
// aclmdlRICaptureTaskUpdateBegin/End).
//
// A group is a run of operator tasks on a capturing stream. Its captured tasks and every replay's
// copies share each operator's description, so an update can replace it in place: the operators
// launched between UpdateBegin and UpdateEnd on a non-capturing stream are collected (as many as
// the group holds, operators only) and UpdateEnd launches an update task on that stream which, when
// it runs on the device, swaps them into the group. Replays whose group tasks start after that
// moment run the new operators (order them with an event, as CANN's sample does).
#include <memory>
#include <set>
#include <vector>

#include "acl/acl.h"
#include "models/sched/task.h"
#include "runtime/capture.h"
#include "runtime/runtime.h"
#include "runtime/sync_objects.h"

using npusim::rt::ApiCall;
using npusim::rt::CaptureModel;
using npusim::rt::Stream;

namespace {

struct TaskGroup {
  CaptureModel* model = nullptr;
  std::vector<std::shared_ptr<npusim::sched::OperatorTask>> ops;  // shared with every replay
};

struct Update {
  TaskGroup* group = nullptr;
  std::vector<std::unique_ptr<npusim::sched::Task>> tasks;
};

struct Groups {
  std::set<TaskGroup*> live;
  std::map<Stream*, std::unique_ptr<Update>> updating;
};

Groups& groups() {
  static auto* g = new Groups();  // read until the process ends
  return *g;
}

// Task groups belong to captured models of one simulation: aclFinalize forgets them.
[[maybe_unused]] const bool kForgottenAtEnd = (npusim::rt::Runtime::onSimulationEnd([] {
                                                 Groups& gs = groups();
                                                 for (TaskGroup* g : gs.live) delete g;
                                                 gs = Groups();
                                               }),
                                               true);

npusim::rt::CaptureLane* laneOf(Stream* s) {
  return s->capture ? &s->capture->lanes[static_cast<size_t>(s->captureLane)] : nullptr;
}

}  // namespace

extern "C" {

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream) {
  ApiCall api("aclmdlRICaptureTaskGrpBegin");
  if (!api.ok()) return api.notReady();
  aclError err;
  Stream* s = stream ? api.stream(stream, &err) : nullptr;
  if (!stream) return api.fail(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  if (!s) return err;
  npusim::rt::CaptureLane* lane = laneOf(s);
  if (!lane || s->capture->built || s->capture->state != CaptureModel::State::Capturing)
    return api.fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream {} is not capturing", s->hw->id);
  if (lane->groupStart >= 0)
    return api.fail(ACL_ERROR_INVALID_PARAM, "stream {} has a task group open", s->hw->id);
  lane->groupStart = static_cast<long>(lane->tasks.size());
  return api.done();
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp* handle) {
  ApiCall api("aclmdlRICaptureTaskGrpEnd");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!stream || !handle) return api.fail(ACL_ERROR_INVALID_PARAM, "stream or handle is NULL");
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  npusim::rt::CaptureLane* lane = laneOf(s);
  if (!lane || lane->groupStart < 0)
    return api.fail(ACL_ERROR_INVALID_PARAM, "stream {} has no task group open (aclmdlRICaptureTaskGrpBegin)",
                    s->hw->id);
  auto g = std::make_unique<TaskGroup>();
  g->model = s->capture;
  for (size_t i = static_cast<size_t>(lane->groupStart); i < lane->tasks.size(); ++i) {
    const npusim::sched::Task& t = lane->tasks[i].task;
    if (t.kind != npusim::sched::TaskKind::Operator) {
      lane->groupStart = -1;
      return api.fail(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, "task '{}' in the group is not an operator",
                      t.label);
    }
    g->ops.push_back(t.op);
  }
  lane->groupStart = -1;
  *handle = g.get();
  groups().live.insert(g.release());
  return api.done();
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle) {
  ApiCall api("aclmdlRICaptureTaskUpdateBegin");
  if (!api.ok()) return api.notReady();
  aclError err;
  auto* g = static_cast<TaskGroup*>(handle);
  if (!g || !groups().live.count(g)) return api.fail(ACL_ERROR_INVALID_PARAM, "handle is not a task group");
  if (!stream) return api.fail(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  if (s->capture) return api.fail(ACL_ERROR_RT_STREAM_CAPTURED, "stream {} is capturing", s->hw->id);
  if (groups().updating.count(s))
    return api.fail(ACL_ERROR_INVALID_PARAM, "stream {} is already updating", s->hw->id);
  auto u = std::make_unique<Update>();
  u->group = g;
  npusim::rt::divertForUpdate(s->hw, &u->tasks);
  groups().updating[s] = std::move(u);
  return api.done();
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) {
  ApiCall api("aclmdlRICaptureTaskUpdateEnd");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!stream) return api.fail(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  auto it = groups().updating.find(s);
  if (it == groups().updating.end())
    return api.fail(ACL_ERROR_INVALID_PARAM, "stream {} is not updating (aclmdlRICaptureTaskUpdateBegin)",
                    s->hw->id);
  std::unique_ptr<Update> u = std::move(it->second);
  groups().updating.erase(it);
  npusim::rt::divertForUpdate(s->hw, nullptr);
  if (u->tasks.size() != u->group->ops.size())
    return api.fail(ACL_ERROR_INVALID_PARAM, "the update has {} tasks but the group {}", u->tasks.size(),
                    u->group->ops.size());
  std::vector<std::shared_ptr<npusim::sched::OperatorTask>> fresh;
  for (const auto& t : u->tasks) {
    if (t->kind != npusim::sched::TaskKind::Operator)
      return api.fail(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, "update task '{}' is not an operator", t->label);
    fresh.push_back(t->op);
  }
  std::vector<std::shared_ptr<npusim::sched::OperatorTask>> slots = u->group->ops;
  npusim::rt::launchBuiltin(api, s, "TaskUpdate", [slots, fresh](npusim::sched::Task&) {
    for (size_t i = 0; i < slots.size(); ++i) *slots[i] = *fresh[i];
  });
  api.args.add("tasks", static_cast<uint64_t>(slots.size()));
  return api.done();
}

}  // extern "C"

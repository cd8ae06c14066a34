// ACL entry points: conditional tasks in a captured model (aclmdlRICondHandleCreate,
// aclmdlRICondHandleGetCondPtr, aclmdlRIAddCondTask, aclmdlRICaptureToModelRIBegin).
//
// A condition is a uint64 in device memory that the handle owns. aclmdlRIAddCondTask records, on a
// capturing stream, a task that reads it when the replay reaches it and runs branch models: IF
// runs branch 0 when the value is non-zero, else branch 1 (if there is one); WHILE runs its body
// while the value is non-zero (the body changes it); SWITCH runs branch `value` when it exists. The
// branches are models of their own, made by the call and captured afterwards with
// aclmdlRICaptureToModelRIBegin; a branch replays on the device inside the parent's task (each of
// its tasks dispatched as in any replay). With ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT every replay
// of the parent first sets the condition to the handle's default value.
#include <cstring>
#include <memory>
#include <set>
#include <vector>

#include "acl/acl.h"
#include "models/sched/stream_scheduler.h"
#include "models/sched/task.h"
#include "runtime/capture.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;
using npusim::rt::CaptureModel;
using npusim::rt::Stream;

namespace {

struct CondHandle {
  CaptureModel* model = nullptr;
  void* devPtr = nullptr;     // the condition's device address (8 bytes)
  uint64_t* value = nullptr;  // its backing, for the device-side tasks
};

std::set<CondHandle*>& handles() {
  static auto* h = new std::set<CondHandle*>();  // read until the process ends
  return *h;
}

// A condition lives in device memory of one simulation: aclFinalize forgets the handles (their
// memory goes with the platform).
[[maybe_unused]] const bool kForgottenAtEnd = (npusim::rt::Runtime::onSimulationEnd([] {
                                                 for (CondHandle* h : handles()) delete h;
                                                 handles().clear();
                                               }),
                                               true);

}  // namespace

extern "C" {

aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue, aclmdlRICondHandleFlag flag,
                                  aclmdlRICondHandle* handle) {
  ApiCall api("aclmdlRICondHandleCreate");
  if (!api.ok()) return api.notReady();
  if (!modelRI || !handle) return api.fail(ACL_ERROR_INVALID_PARAM, "modelRI or handle is NULL");
  CaptureModel* m = npusim::rt::findModel(modelRI);
  if (!m || m->state != CaptureModel::State::Capturing)
    return api.fail(ACL_ERROR_INVALID_PARAM, "modelRI {} is not a model being captured", modelRI);
  if (flag != 0 && flag != ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "flag {} is neither 0 nor ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT",
                    static_cast<int>(flag));
  auto* h = new CondHandle();
  h->model = m;
  h->devPtr = api.rt.memory().allocDevice(m->device, 8, 64, 64, "aclmdlRICondHandleCreate");
  if (!h->devPtr) {
    delete h;
    return api.fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "no device memory for the condition");
  }
  h->value =
      reinterpret_cast<uint64_t*>(api.rt.memory().hostView(api.rt.memory().classify(h->devPtr), h->devPtr));
  *h->value = defaultLaunchValue;
  if (flag == ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT) {
    uint64_t* value = h->value;
    m->atStart.push_back([value, defaultLaunchValue] { *value = defaultLaunchValue; });
  }
  handles().insert(h);
  *handle = h;
  return api.done();
}

aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t** ptr) {
  ApiCall api("aclmdlRICondHandleGetCondPtr");
  if (!api.ok()) return api.notReady();
  auto* h = static_cast<CondHandle*>(handle);
  if (!h || !handles().count(h) || !ptr)
    return api.fail(ACL_ERROR_INVALID_PARAM, "not a condition handle, or ptr is NULL");
  *ptr = static_cast<uint64_t*>(h->devPtr);
  return api.done();
}

aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags) {
  ApiCall api("aclmdlRIAddCondTask");
  if (!api.ok()) return api.notReady();
  aclError err;
  auto* h = static_cast<CondHandle*>(params.handle);
  if (!h || !handles().count(h))
    return api.fail(ACL_ERROR_INVALID_PARAM, "params.handle is not a condition handle");
  if (flags != 0) return api.fail(ACL_ERROR_INVALID_PARAM, "flags is reserved and must be 0");
  if (!params.modelRIArray) return api.fail(ACL_ERROR_INVALID_PARAM, "params.modelRIArray is NULL");
  const bool sizeOk = params.type == ACL_MODEL_RI_COND_TYPE_IF       ? params.size == 1 || params.size == 2
                      : params.type == ACL_MODEL_RI_COND_TYPE_WHILE  ? params.size == 1
                      : params.type == ACL_MODEL_RI_COND_TYPE_SWITCH ? params.size > 0
                                                                     : false;
  if (!sizeOk)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "condition type {} with {} branches (IF: 1 or 2, WHILE: 1, SWITCH: > 0)",
                    static_cast<int>(params.type), params.size);
  if (!stream) return api.fail(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  CaptureModel* m = s->capture;
  if (!m || m->built || m->state != CaptureModel::State::Capturing || m != h->model)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "stream {} must be capturing into the model the condition belongs to", s->hw->id);
  std::vector<CaptureModel*> branches;
  for (uint32_t i = 0; i < params.size; ++i) {
    branches.push_back(npusim::rt::newBranch(*m));
    params.modelRIArray[i] = branches.back();
  }
  const uint64_t* value = h->value;
  const aclmdlRICondTaskType type = params.type;
  npusim::sched::StreamScheduler* sched = api.rt.platform().device(m->device).sched.get();
  npusim::rt::Runtime* rt = &api.rt;
  npusim::sched::Task t;
  t.kind = npusim::sched::TaskKind::Builtin;
  t.label = type == ACL_MODEL_RI_COND_TYPE_IF      ? "CondIf"
            : type == ACL_MODEL_RI_COND_TYPE_WHILE ? "CondWhile"
                                                   : "CondSwitch";
  t.run = [value, type, branches, sched, rt](npusim::sched::Task& self) {
    // A branch that was never captured (or whose capture failed) runs nothing.
    auto runBranch = [&](size_t i) {
      if (i >= branches.size() || !branches[i]->graph) return;
      sched->runNested(self.stream, branches[i]->graph, rt->reserveTaskIds(branches[i]->graph->taskCount()));
    };
    if (type == ACL_MODEL_RI_COND_TYPE_IF) {
      runBranch(*value != 0 ? 0 : 1);
    } else if (type == ACL_MODEL_RI_COND_TYPE_WHILE) {
      while (*value != 0 && branches[0]->graph && branches[0]->graph->taskCount() > 0) runBranch(0);
    } else {
      runBranch(static_cast<size_t>(*value));
    }
  };
  api.args.add("stream", s->hw->id).add("branches", static_cast<uint64_t>(params.size));
  npusim::rt::appendToLane(api, s, std::move(t));
  return api.done();
}

aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI, aclmdlRICaptureMode mode) {
  ApiCall api("aclmdlRICaptureToModelRIBegin");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!stream || !modelRI) return api.fail(ACL_ERROR_INVALID_PARAM, "stream or modelRI is NULL");
  if (mode < ACL_MODEL_RI_CAPTURE_MODE_GLOBAL || mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
    return api.fail(ACL_ERROR_INVALID_PARAM, "mode {} is not a capture mode", static_cast<int>(mode));
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  CaptureModel* m = npusim::rt::findModel(modelRI);
  if (!m || m->state != CaptureModel::State::Pending)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "modelRI {} is not a branch of aclmdlRIAddCondTask awaiting its capture", modelRI);
  if (s->capture)
    return api.fail(ACL_ERROR_RT_STREAM_CAPTURED, "stream {} is already capturing (into model {})", s->hw->id,
                    s->capture->id);
  if (s->device != m->device)
    return api.fail(ACL_ERROR_INVALID_PARAM, "stream {} is on device {} but the model on device {}",
                    s->hw->id, s->device, m->device);
  npusim::rt::captureInto(api, s, m, mode);
  api.args.add("stream", s->hw->id).add("model", static_cast<int64_t>(m->id));
  return api.done();
}

}  // extern "C"

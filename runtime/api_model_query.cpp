// ACL entry points: looking into a finished model (captured or built). A model's streams are its
// lanes: the handle of a stream is its lane (not a stream the program can launch on; stream calls
// refuse it as an invalid stream). A task's handle is its template in the lane; its sequence id is
// its position in the lane, from 0.
#include <algorithm>
#include <cstdint>

#include "acl/acl.h"
#include "runtime/capture.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;
using npusim::rt::CaptureModel;
namespace sched = npusim::sched;

namespace {

const sched::ModelLane* findLane(const void* handle) {
  for (CaptureModel* m : npusim::rt::liveModels()) {
    if (!m->graph) continue;
    for (const sched::ModelLane& l : m->graph->lanes)
      if (&l == handle) return &l;
  }
  return nullptr;
}

// Fills `out` (up to *num entries) from `items`; *num returns how many were filled, or with a
// NULL `out` how many there are.
template <class T, class F>
void fill(T* out, uint32_t* num, size_t count, F item) {
  if (!out) {
    *num = static_cast<uint32_t>(count);
    return;
  }
  const size_t n = std::min<size_t>(*num, count);
  for (size_t i = 0; i < n; ++i) out[i] = item(i);
  *num = static_cast<uint32_t>(n);
}

aclmdlRITaskType typeOf(const sched::Task& t) {
  switch (t.kind) {
    case sched::TaskKind::Operator:
      return ACL_MODEL_RI_TASK_KERNEL;
    case sched::TaskKind::EventRecord:
      return ACL_MODEL_RI_TASK_EVENT_RECORD;
    case sched::TaskKind::EventWait:
      return ACL_MODEL_RI_TASK_EVENT_WAIT;
    case sched::TaskKind::EventReset:
      return ACL_MODEL_RI_TASK_EVENT_RESET;
    case sched::TaskKind::Builtin:
      if (t.label == "ValueWrite") return ACL_MODEL_RI_TASK_VALUE_WRITE;
      if (t.label == "ValueWait") return ACL_MODEL_RI_TASK_VALUE_WAIT;
      return ACL_MODEL_RI_TASK_DEFAULT;
    default:
      return ACL_MODEL_RI_TASK_DEFAULT;
  }
}

// The task behind `task`, for a call whose output `out` must not be NULL; fails `api` otherwise.
aclError lookUp(ApiCall& api, aclmdlRITask task, const void* out, const char* outName,
                npusim::rt::ModelTaskRef* ref) {
  if (!out) return api.fail(ACL_ERROR_INVALID_PARAM, "{} is NULL", outName);
  *ref = npusim::rt::findModelTask(task);
  if (!ref->task)
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not a task of a model (aclmdlRIGetTasksByStream)", task);
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream* streams, uint32_t* numStreams) {
  ApiCall api("aclmdlRIGetStreams");
  if (!api.ok()) return api.notReady();
  if (!numStreams) return api.fail(ACL_ERROR_INVALID_PARAM, "numStreams is NULL");
  CaptureModel* m = npusim::rt::findModel(modelRI);
  if (!m) return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not a model", modelRI);
  if (!m->graph)
    return api.fail(ACL_ERROR_RT_PARAM_INVALID, "model {} is not finished (capture or build still open)",
                    m->id);
  auto& lanes = m->graph->lanes;
  fill(streams, numStreams, lanes.size(), [&](size_t i) { return static_cast<aclrtStream>(&lanes[i]); });
  return api.done();
}

aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask* tasks, uint32_t* numTasks) {
  ApiCall api("aclmdlRIGetTasksByStream");
  if (!api.ok()) return api.notReady();
  if (!numTasks) return api.fail(ACL_ERROR_INVALID_PARAM, "numTasks is NULL");
  const sched::ModelLane* lane = findLane(stream);
  if (!lane)
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not a stream of a model (aclmdlRIGetStreams)", stream);
  fill(tasks, numTasks, lane->tasks.size(),
       [&](size_t i) { return static_cast<aclmdlRITask>(const_cast<sched::ModelTask*>(&lane->tasks[i])); });
  return api.done();
}

aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType* type) {
  ApiCall api("aclmdlRITaskGetType");
  if (!api.ok()) return api.notReady();
  npusim::rt::ModelTaskRef ref;
  if (aclError e = lookUp(api, task, type, "type", &ref)) return e;
  *type = typeOf(ref.task->task);
  return api.done();
}

aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t* id) {
  ApiCall api("aclmdlRITaskGetSeqId");
  if (!api.ok()) return api.notReady();
  npusim::rt::ModelTaskRef ref;
  if (aclError e = lookUp(api, task, id, "id", &ref)) return e;
  *id = static_cast<uint32_t>(ref.index);
  return api.done();
}

}  // extern "C"

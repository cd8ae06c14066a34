// ACL entry points that manage a finished model (captured or built): its id and name, callbacks
// run when it is destroyed, disabling tasks (aclmdlRITaskDisable marks, aclmdlRIUpdate applies:
// the task keeps its place in the lane, its replays do nothing), and aborting its replays.
#include <algorithm>
#include <cstring>

#include "acl/acl.h"
#include "models/sched/hw_stream.h"
#include "runtime/capture.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;
using npusim::rt::CaptureModel;
namespace sched = npusim::sched;

namespace {

constexpr size_t kMaxName = 512;  // longer names are cut (CANN reference)

CaptureModel* finished(ApiCall& api, aclmdlRI handle, aclError* err) {
  CaptureModel* m = handle ? npusim::rt::findModel(handle) : nullptr;
  if (!m) {
    *err = api.fail(ACL_ERROR_INVALID_PARAM, "{} is not a live model", handle);
    return nullptr;
  }
  if (!m->graph) {
    *err =
        api.fail(ACL_ERROR_RT_PARAM_INVALID, "model {} is not finished (capture or build still open)", m->id);
    return nullptr;
  }
  return m;
}

}  // namespace

extern "C" {

aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t* modelRIId) {
  ApiCall api("aclmdlRIGetId");
  if (!api.ok()) return api.notReady();
  if (!modelRIId) return api.fail(ACL_ERROR_INVALID_PARAM, "modelRIId is NULL");
  aclError err;
  CaptureModel* m = finished(api, modelRI, &err);
  if (!m) return err;
  *modelRIId = static_cast<uint32_t>(m->id);
  return api.done();
}

aclError aclmdlRISetName(aclmdlRI modelRI, const char* name) {
  ApiCall api("aclmdlRISetName");
  if (!api.ok()) return api.notReady();
  if (!name) return api.fail(ACL_ERROR_INVALID_PARAM, "name is NULL");
  aclError err;
  CaptureModel* m = finished(api, modelRI, &err);
  if (!m) return err;
  m->name.assign(name, strnlen(name, kMaxName));
  return api.done();
}

aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char* name) {
  ApiCall api("aclmdlRIGetName");
  if (!api.ok()) return api.notReady();
  if (!name || maxLen == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "name is NULL or maxLen is 0");
  aclError err;
  CaptureModel* m = finished(api, modelRI, &err);
  if (!m) return err;
  const size_t n = std::min<size_t>(m->name.size(), maxLen - 1);
  std::memcpy(name, m->name.data(), n);
  name[n] = '\0';
  return api.done();
}

aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void* userData) {
  ApiCall api("aclmdlRIDestroyRegisterCallback");
  if (!api.ok()) return api.notReady();
  if (!func) return api.fail(ACL_ERROR_INVALID_PARAM, "func is NULL");
  aclError err;
  CaptureModel* m = finished(api, modelRI, &err);
  if (!m) return err;
  m->onDestroy.emplace_back(func, userData);
  return api.done();
}

aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func) {
  ApiCall api("aclmdlRIDestroyUnregisterCallback");
  if (!api.ok()) return api.notReady();
  aclError err;
  CaptureModel* m = finished(api, modelRI, &err);
  if (!m) return err;
  auto it =
      std::find_if(m->onDestroy.begin(), m->onDestroy.end(), [&](const auto& c) { return c.first == func; });
  if (it == m->onDestroy.end())
    return api.fail(ACL_ERROR_INVALID_PARAM, "this callback is not registered on model {}", m->id);
  m->onDestroy.erase(it);
  return api.done();
}

aclError aclmdlRITaskDisable(aclmdlRITask task) {
  ApiCall api("aclmdlRITaskDisable");
  if (!api.ok()) return api.notReady();
  sched::ModelTask* t = npusim::rt::findModelTask(task).task;
  if (!t)
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not a task of a live model (aclmdlRIGetTasksByStream)",
                    task);
  t->disabling = true;
  return api.done();
}

aclError aclmdlRIUpdate(aclmdlRI modelRI) {
  ApiCall api("aclmdlRIUpdate");
  if (!api.ok()) return api.notReady();
  aclError err;
  CaptureModel* m = finished(api, modelRI, &err);
  if (!m) return err;
  // Replays already submitted keep the tasks they were given; later ones see the change.
  uint64_t changed = 0;
  for (sched::ModelLane& l : m->graph->lanes)
    for (sched::ModelTask& t : l.tasks) {
      changed += t.disabling != t.disabled;
      t.disabled = t.disabling;
    }
  npusim::rt::applyTaskParams(*m);
  api.args.add("model", m->id).add("tasks_changed", changed);
  return api.done();
}

// Tasks of its replays that have not started are discarded; the model can be executed again.
aclError aclmdlRIAbort(aclmdlRI modelRI) {
  ApiCall api("aclmdlRIAbort");
  if (!api.ok()) return api.notReady();
  aclError err;
  CaptureModel* m = finished(api, modelRI, &err);
  if (!m) return err;
  api.rt.waitFor([] { return false; }, api.th->clock);  // the device as of the host's time
  for (sched::ModelLane& l : m->graph->lanes) l.hw->discardThrough = l.hw->issued;
  return api.done();
}

}  // extern "C"

// ACL entry points: the parameters of a finished model's tasks (aclmdlRITaskGetParams,
// aclmdlRITaskSetParams, aclmdlRIKernelTaskGetAttribute). A kernel task launched from a kernel
// binary reports its function, packed arguments, block count and launch attributes; new kernel
// parameters are kept until aclmdlRIUpdate, from which the task's later executions run them.
// Event tasks report their event. What npusim does not keep about a task (the operands of value
// write/wait tasks, the arguments of aclnn operators and <<<>>> launches) is refused, saying so.
#include <cstring>
#include <functional>
#include <map>
#include <memory>

#include "acl/acl.h"
#include "models/sched/model_graph.h"
#include "runtime/capture.h"
#include "runtime/kernel_exec.h"
#include "runtime/runtime.h"
#include "runtime/sync_objects.h"

using npusim::rt::ApiCall;
using npusim::rt::CaptureModel;
namespace sched = npusim::sched;
namespace kernels = npusim::rt::kernels;

namespace {

// Parameters set and not yet applied: aclmdlRIUpdate runs each change on its task.
using Change = std::function<void(sched::ModelTask&)>;
std::map<const sched::ModelTask*, Change>& pending() {
  static auto* p = new std::map<const sched::ModelTask*, Change>();
  return *p;
}

// The tasks they change belong to models that aclFinalize deletes: the changes go with them, so a
// task of a later model at the same address starts with none.
[[maybe_unused]] const bool kForgottenAtEnd =
    (npusim::rt::Runtime::onSimulationEnd([] { pending().clear(); }), true);

const kernels::Launch* kernelOf(const sched::ModelTask& t) {
  return t.task.kind == sched::TaskKind::Operator && t.task.op ? kernels::launchOf(*t.task.op) : nullptr;
}

// The user's event behind an event task: the captured event of its slot, or the external event.
aclrtEvent eventOf(ApiCall& api, const CaptureModel& m, const sched::ModelTask& t) {
  if (t.external) {
    for (npusim::rt::Event* e : api.rt.liveEvents())
      if (e->hw == t.external) return e;
    return nullptr;
  }
  if (t.event < 0 || static_cast<size_t>(t.event) >= m.events.size()) return nullptr;
  npusim::rt::Event* e = m.events[static_cast<size_t>(t.event)].user;
  return api.rt.validEvent(e) ? e : nullptr;  // NULL once the event was destroyed
}

aclError lookUp(ApiCall& api, aclmdlRITask task, const void* params, npusim::rt::ModelTaskRef* out) {
  if (!params) return api.fail(ACL_ERROR_INVALID_PARAM, "params is NULL");
  *out = npusim::rt::findModelTask(task);
  if (!out->task)
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not a task of a model (aclmdlRIGetTasksByStream)", task);
  return ACL_SUCCESS;
}

}  // namespace

namespace npusim::rt {

void applyTaskParams(CaptureModel& m) {
  for (sched::ModelLane& l : m.graph->lanes)
    for (sched::ModelTask& t : l.tasks) {
      auto it = pending().find(&t);
      if (it == pending().end()) continue;
      it->second(t);
      pending().erase(it);
    }
}

}  // namespace npusim::rt

extern "C" {

aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams* params) {
  ApiCall api("aclmdlRITaskGetParams");
  if (!api.ok()) return api.notReady();
  npusim::rt::ModelTaskRef f;
  if (aclError e = lookUp(api, task, params, &f)) return e;
  const sched::Task& t = f.task->task;
  std::memset(params, 0, sizeof *params);
  switch (t.kind) {
    case sched::TaskKind::Operator: {
      const kernels::Launch* k = kernelOf(*f.task);
      if (!k || !k->packed)
        return api.fail(
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "task '{}' is not a kernel launched from a kernel binary (an aclnn operator or a <<<>>> "
            "launch): npusim keeps no argument buffer for it",
            t.label);
      params->type = ACL_MODEL_RI_TASK_KERNEL;
      aclmdlRIKernelTaskParams& p = params->kernelTaskParams;
      p.funcHandle = const_cast<void*>(k->funcHandle);
      p.args = const_cast<uint8_t*>(k->args.data());
      p.argsSize = k->args.size();
      p.isHostArgs = 1;
      p.numBlocks = k->blockDim;
      p.cfg = nullptr;  // the attributes: aclmdlRIKernelTaskGetAttribute
      return api.done();
    }
    case sched::TaskKind::EventRecord:
      params->type = ACL_MODEL_RI_TASK_EVENT_RECORD;
      params->eventRecordTaskParams.event = eventOf(api, *f.model, *f.task);
      return api.done();
    case sched::TaskKind::EventWait:
      params->type = ACL_MODEL_RI_TASK_EVENT_WAIT;
      params->eventWaitTaskParams.event = eventOf(api, *f.model, *f.task);
      return api.done();
    case sched::TaskKind::EventReset:
      params->type = ACL_MODEL_RI_TASK_EVENT_RESET;
      params->eventResetTaskParams.event = eventOf(api, *f.model, *f.task);
      return api.done();
    default:
      break;
  }
  if (const auto* w = t.run.target<npusim::rt::ValueWriteBody>()) {
    params->type = ACL_MODEL_RI_TASK_VALUE_WRITE;
    params->valueWriteTaskParams.devAddr = w->devAddr;
    params->valueWriteTaskParams.value = w->value;
    return api.done();
  }
  if (const auto* w = t.run.target<npusim::rt::ValueWaitBody>()) {
    params->type = ACL_MODEL_RI_TASK_VALUE_WAIT;
    params->valueWaitTaskParams.devAddr = w->devAddr;
    params->valueWaitTaskParams.value = w->value;
    params->valueWaitTaskParams.flag = w->flag;
    return api.done();
  }
  return api.fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                  "task '{}': npusim reports the parameters of kernel, event and value tasks only", t.label);
}

aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams* params) {
  ApiCall api("aclmdlRITaskSetParams");
  if (!api.ok()) return api.notReady();
  npusim::rt::ModelTaskRef f;
  if (aclError e = lookUp(api, task, params, &f)) return e;
  sched::Task& t = f.task->task;
  // Value tasks: a new word (on the model's device) and value, and for a wait its comparison.
  if (t.run.target<npusim::rt::ValueWriteBody>()) {
    if (params->type != ACL_MODEL_RI_TASK_VALUE_WRITE)
      return api.fail(ACL_ERROR_INVALID_PARAM, "task '{}' is a value write, params->type is {}", t.label,
                      static_cast<int>(params->type));
    const aclmdlRIValueWriteTaskParams& p = params->valueWriteTaskParams;
    aclError err;
    uint64_t* word = npusim::rt::valueWordOn(api, p.devAddr, f.model->device, &err);
    if (!word) return err;
    npusim::rt::ValueWriteBody body{p.devAddr, word, p.value};
    pending()[f.task] = [body](sched::ModelTask& mt) {
      *mt.task.run.target<npusim::rt::ValueWriteBody>() = body;
    };
    return api.done();
  }
  if (auto* w = t.run.target<npusim::rt::ValueWaitBody>()) {
    if (params->type != ACL_MODEL_RI_TASK_VALUE_WAIT)
      return api.fail(ACL_ERROR_INVALID_PARAM, "task '{}' is a value wait, params->type is {}", t.label,
                      static_cast<int>(params->type));
    const aclmdlRIValueWaitTaskParams& p = params->valueWaitTaskParams;
    if (p.flag > ACL_STREAM_WAIT_VALUE_NOR)
      return api.fail(ACL_ERROR_INVALID_PARAM, "flag {} is not an ACL_STREAM_WAIT_VALUE_* comparison",
                      p.flag);
    aclError err;
    uint64_t* word = npusim::rt::valueWordOn(api, p.devAddr, f.model->device, &err);
    if (!word) return err;
    npusim::rt::ValueWaitBody body{p.devAddr, word, p.value, p.flag, w->device};
    pending()[f.task] = [body](sched::ModelTask& mt) {
      *mt.task.run.target<npusim::rt::ValueWaitBody>() = body;
    };
    return api.done();
  }
  const kernels::Launch* k = kernelOf(*f.task);
  if (params->type != ACL_MODEL_RI_TASK_KERNEL || !k || !k->packed)
    return api.fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "npusim sets the parameters of kernel tasks launched from a kernel binary and of value "
                    "tasks only (task '{}', type {})",
                    t.label, static_cast<int>(params->type));
  const aclmdlRIKernelTaskParams& p = params->kernelTaskParams;
  // Arguments in device memory are read now, as the update would copy them.
  const void* args = p.args;
  if (p.args && !p.isHostArgs) {
    npusim::rt::PointerInfo info = api.rt.memory().classify(p.args);
    if (info.kind != npusim::rt::PointerKind::Device ||
        !api.rt.memory().rangeInside(info, p.args, p.argsSize))
      return api.fail(ACL_ERROR_INVALID_PARAM, "args {} ({} bytes) is not inside device memory", p.args,
                      p.argsSize);
    args = api.rt.memory().hostView(info, p.args);
  }
  auto fresh = std::make_shared<kernels::Launch>();
  if (aclError e = kernels::bindPacked(api, p.funcHandle, p.numBlocks, args, p.argsSize, p.cfg, fresh.get()))
    return e;
  // Attributes not given stay as launched.
  if (!p.cfg || !p.cfg->numAttrs) fresh->attrs = k->attrs;
  pending()[f.task] = [fresh](sched::ModelTask& mt) {
    kernels::replaceLaunch(*mt.task.op, std::move(*fresh));
  };
  return api.done();
}

aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
                                        aclrtLaunchKernelAttrValue* attrValue) {
  ApiCall api("aclmdlRIKernelTaskGetAttribute");
  if (!api.ok()) return api.notReady();
  npusim::rt::ModelTaskRef f;
  if (aclError e = lookUp(api, task, attrValue, &f)) return e;
  if (f.task->task.kind != sched::TaskKind::Operator)
    return api.fail(ACL_ERROR_INVALID_PARAM, "task '{}' is not a kernel task", f.task->task.label);
  if (attrId < ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE || attrId > ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING)
    return api.fail(ACL_ERROR_INVALID_PARAM, "unknown launch attribute {}", static_cast<int>(attrId));
  std::memset(attrValue, 0, sizeof *attrValue);
  // What the launch's configuration set; otherwise the defaults a launch without it runs with:
  // vector cores, normal scheduling, no dynamic buffer, no offset, prefetch, dump or timeout.
  // (an aclnn operator: the cores its work runs on).
  const kernels::Launch* k = kernelOf(*f.task);
  if (attrId == ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE)
    attrValue->engineType =
        !k && f.task->task.op && f.task->task.op->work.cube ? ACL_RT_ENGINE_TYPE_AIC : ACL_RT_ENGINE_TYPE_AIV;
  if (k)
    for (const aclrtLaunchKernelAttr& a : k->attrs)
      if (a.id == attrId) *attrValue = a.value;
  return api.done();
}

}  // extern "C"

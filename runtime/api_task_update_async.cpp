// ACL entry point: updating a model's kernel task from the device (aclrtTaskUpdateAsync).
//
// CANN's "tiling key sink": a kernel task of a model (taskStream bound to it, the task's id from
// aclrtGetThreadLastTaskId) is switched to another kernel of a binary and block count by an
// update task on execStream, itself a task of a model. Each time the update task runs on the
// device it reads the kernel's entry (the address aclrtGetFunctionAddr gives) from funcEntryAddr
// and the block count from blockDimAddr, and rewrites the target task's descriptor: executions
// of the target that start after that moment run the new kernel with the task's own arguments.
// The update costs the write of one task descriptor at the SDMA rate.
//
// Codes (hicann/runtime src/runtime/api/api_c_standard_soc.cc rtsLaunchUpdateTask and
// api_error.cc ModelTaskUpdate): info NULL 100000; a NULL stream, address or handle, an unknown
// update kind 107000; a stream not bound to a model 107005. npusim also checks on the host what
// the device would find: an unknown task id 107000, a task that is not a binary's kernel 507009.
// An entry that names no kernel of the binary, or a block count outside 1..65535, fails the
// update task on the device with 107000.
//
// A random-number task (ACL_RT_UPDATE_RANDOM_TASK) takes a new seed, count, result and counter
// from an aclrtRandomNumTaskInfo in device memory at srcAddr (size: exactly that struct), its
// distribution staying; here execStream may be any stream (CANN copies the descriptor with a
// memcpy task): the target's executions after the update has run use them. Malformed contents
// fail the update task with 107000 and change nothing.
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "acl/acl.h"
#include "models/common/sim_time.h"
#include "npusim/config.h"
#include "runtime/capture.h"
#include "runtime/kernel_exec.h"
#include "runtime/random_task.h"
#include "runtime/runtime.h"
#include "runtime/sync_objects.h"

using npusim::rt::ApiCall;
using npusim::rt::CaptureModel;
using npusim::rt::Stream;
namespace sched = npusim::sched;
namespace kernels = npusim::rt::kernels;

namespace {

// A task descriptor (SQE) of the STARS task scheduler is 64 bytes (hicann/runtime
// src/runtime/core/inc/stars/stars.hpp, RT_STARS_SQE_LEN): what the update writes.
constexpr uint64_t kDescriptorBytes = 64;

// The model `s` is bound to or captures into (nullptr: none).
CaptureModel* modelOf(Stream* s) {
  if (s->capture) return s->capture;
  for (CaptureModel* m : npusim::rt::liveModels())
    for (Stream* b : m->bound)
      if (b == s) return m;
  return nullptr;
}

// The task with id `taskId` on the lane of `s` in `m`, wherever the model keeps its lanes now.
sched::ModelTask* taskOf(CaptureModel& m, Stream* s, uint64_t taskId) {
  auto find = [taskId](std::vector<sched::ModelTask>& tasks) -> sched::ModelTask* {
    for (sched::ModelTask& t : tasks)
      if (t.task.id == taskId) return &t;
    return nullptr;
  };
  if (m.graph) {
    for (sched::ModelLane& l : m.graph->lanes)
      if (l.capturedStream == s->hw->id) return find(l.tasks);
    return nullptr;
  }
  for (npusim::rt::CaptureLane& l : m.lanes)
    if (l.stream == s) return find(l.tasks);
  return nullptr;
}

// Host view of `bytes` of device memory at `p` on `device`, or nullptr.
const uint8_t* deviceWord(ApiCall& api, const void* p, uint64_t bytes, int device) {
  npusim::rt::PointerInfo info = api.rt.memory().classify(p);
  if (!p || info.kind != npusim::rt::PointerKind::Device || info.device != device ||
      !api.rt.memory().rangeInside(info, p, bytes))
    return nullptr;
  return static_cast<const uint8_t*>(api.rt.memory().hostView(info, p));
}

// The update task's body on the device.
struct KernelUpdate {
  std::shared_ptr<sched::OperatorTask> target;
  const uint8_t* entry = nullptr;   // 8 bytes: the new kernel's entry address
  const uint8_t* blocks = nullptr;  // 4 bytes: its block count
  std::map<uint64_t, aclrtFuncHandle> kernels;
  double rate = 0;  // bytes per second

  void operator()(sched::Task& t) const {
    npusim::waitUntil(npusim::simNow() + npusim::transferTicks(kDescriptorBytes, rate));
    uint64_t address = 0;
    uint32_t numBlocks = 0;
    std::memcpy(&address, entry, sizeof address);
    std::memcpy(&numBlocks, blocks, sizeof numBlocks);
    auto it = kernels.find(address);
    const kernels::Launch* old = kernels::launchOf(*target);
    kernels::Launch fresh;
    if (it == kernels.end() || !old || !kernels::rebound(*old, it->second, numBlocks, &fresh).empty()) {
      t.error = ACL_ERROR_RT_PARAM_INVALID;  // the device finds no such kernel or block count
      return;
    }
    kernels::replaceLaunch(*target, std::move(fresh));
  }
};

// The random-number task update's body on the device: the task's new seed, count, results and
// counter, read from device memory in the layout of aclrtRandomNumTaskInfo.
struct RandomUpdate {
  std::function<std::string(const aclrtRandomNumTaskInfo&, int)> apply;
  const uint8_t* src = nullptr;
  int device = 0;
  double rate = 0;  // bytes per second

  void operator()(sched::Task& t) const {
    npusim::waitUntil(npusim::simNow() + npusim::transferTicks(sizeof(aclrtRandomNumTaskInfo), rate));
    aclrtRandomNumTaskInfo in;
    std::memcpy(&in, src, sizeof in);
    if (!apply(in, device).empty()) t.error = ACL_ERROR_RT_PARAM_INVALID;  // malformed: nothing changed
  }
};

}  // namespace

extern "C" aclError aclrtTaskUpdateAsync(aclrtStream taskStream, uint32_t taskId, aclrtTaskUpdateInfo* info,
                                         aclrtStream execStream) {
  ApiCall api("aclrtTaskUpdateAsync");
  if (!api.ok()) return api.notReady();
  if (!info) return api.fail(ACL_ERROR_INVALID_PARAM, "info is NULL");
  if (!taskStream || !execStream)
    return api.fail(ACL_ERROR_RT_PARAM_INVALID, "taskStream or execStream is NULL");
  const bool random = info->id == ACL_RT_UPDATE_RANDOM_TASK;
  if (!random && info->id != ACL_RT_UPDATE_AIC_AIV_TASK)
    return api.fail(ACL_ERROR_RT_PARAM_INVALID,
                    "info->id {} is neither ACL_RT_UPDATE_RANDOM_TASK nor ACL_RT_UPDATE_AIC_AIV_TASK",
                    static_cast<int>(info->id));
  const aclrtAicAivTaskUpdateAttr& a = info->val.aicAivTaskAttr;
  const aclrtRandomTaskUpdateAttr& r = info->val.randomTaskAttr;
  if (random && !r.srcAddr) return api.fail(ACL_ERROR_RT_PARAM_INVALID, "srcAddr is NULL");
  if (random && r.size != sizeof(aclrtRandomNumTaskInfo))
    return api.fail(ACL_ERROR_RT_PARAM_INVALID, "size is {}; an aclrtRandomNumTaskInfo takes {} bytes",
                    r.size, sizeof(aclrtRandomNumTaskInfo));
  if (!random && (!a.binHandle || !a.funcEntryAddr || !a.blockDimAddr))
    return api.fail(ACL_ERROR_RT_PARAM_INVALID, "binHandle, funcEntryAddr or blockDimAddr is NULL");
  aclError err;
  Stream* target = api.stream(taskStream, &err);
  if (!target) return err;
  Stream* exec = api.stream(execStream, &err);
  if (!exec) return err;
  CaptureModel* m = modelOf(target);
  if (!m)
    return api.fail(ACL_ERROR_RT_STREAM_MODEL,
                    "taskStream {} is not bound to a model (aclmdlRIBindStream or a capture)",
                    target->hw->id);
  // A kernel update is a task of a model: it runs at each of its model's executions.
  if (!random && (!exec->capture || (exec->capture->state != CaptureModel::State::Capturing &&
                                     exec->capture->state != CaptureModel::State::Building)))
    return api.fail(
        ACL_ERROR_RT_STREAM_MODEL,
        "execStream {} is not a stream of a model being built or captured: a kernel task's update "
        "runs inside a model",
        exec->hw->id);
  sched::ModelTask* mt = taskOf(*m, target, taskId);
  if (!mt)
    return api.fail(ACL_ERROR_RT_PARAM_INVALID,
                    "model {} has no task {} on stream {} (aclrtGetThreadLastTaskId)", m->id, taskId,
                    target->hw->id);
  const double rate = api.rt.platform().config().getFloat("dma.channel_gbps") * 1e9;
  api.args.add("task", static_cast<uint64_t>(taskId)).add("taskStream", target->hw->id);
  if (random) {
    RandomUpdate u;
    u.apply = npusim::rt::randomTaskUpdater(mt->task);
    if (!u.apply)
      return api.fail(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, "task {} ('{}') is not a random-number task",
                      taskId, mt->task.label);
    u.device = m->device;
    u.src = deviceWord(api, r.srcAddr, r.size, u.device);
    if (!u.src)
      return api.fail(ACL_ERROR_RT_PARAM_INVALID, "srcAddr {} is not {} bytes of device memory on device {}",
                      r.srcAddr, r.size, u.device);
    u.rate = rate;
    npusim::rt::launchBuiltin(api, exec, "TaskUpdate", u);
    return api.done();
  }
  const kernels::Launch* k =
      mt->task.kind == sched::TaskKind::Operator && mt->task.op ? kernels::launchOf(*mt->task.op) : nullptr;
  if (!k || !k->packed)
    return api.fail(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT,
                    "task {} ('{}') is not a kernel launched from a kernel binary", taskId, mt->task.label);
  KernelUpdate u;
  u.target = mt->task.op;
  u.entry = deviceWord(api, a.funcEntryAddr, 8, m->device);
  u.blocks = deviceWord(api, a.blockDimAddr, 4, m->device);
  if (!u.entry || !u.blocks)
    return api.fail(
        ACL_ERROR_RT_PARAM_INVALID,
        "funcEntryAddr {} (8 bytes) or blockDimAddr {} (4 bytes) is not device memory on device {}",
        a.funcEntryAddr, a.blockDimAddr, m->device);
  if (aclError e = kernels::entriesOf(api, a.binHandle, &u.kernels)) return e;
  u.rate = rate;
  npusim::rt::launchBuiltin(api, exec, "TaskUpdate", u);
  return api.done();
}

// ACL entry points: stream and device properties. Priorities, flags and ids of streams; failure
// mode, stop and abort (tasks skipped by the stream scheduler, shown as "skipped" in the trace);
// lifecycle callbacks; device attributes from the configuration; utilisation from the simulated
// AI cores; saturation mode and overflow switch (recorded, see docs/runtime-surface.md);
// cube/vector core limits per device, stream and thread.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "models/sched/hw_stream.h"
#include "models/sched/task.h"
#include "npusim/config.h"
#include "runtime/runtime.h"
#include "runtime/state_callbacks.h"

using npusim::Tick;
using npusim::rt::ApiCall;
using npusim::rt::Stream;

namespace {

constexpr uint32_t kLeastPriority = 7;  // aclrtCreateStreamWithConfig accepts 0..7, 0 the highest
constexpr uint32_t kGreatestPriority = 0;

struct DeviceProps {
  aclrtFloatOverflowMode satMode = ACL_RT_OVERFLOW_MODE_INFNAN;  // the A2 default (acl-api.md)
  uint32_t resLimit[2] = {0, 0};                                 // 0 = every core
  Tick utilSince = 0;
  std::vector<Tick> utilBusy;  // per core, at utilSince
};

struct PropsRegistry {
  std::map<int, DeviceProps> devices;
  std::map<std::string, std::pair<aclrtStreamStateCallback, void*>> streamCallbacks;
  std::map<std::string, std::pair<aclrtDeviceStateCallback, void*>> deviceCallbacks;
  std::map<const npusim::rt::HostThread*, aclrtStream> threadStream;  // aclrtUseStreamResInCurrentThread
  std::map<std::string, std::pair<aclrtDeviceTaskAbortCallback, void*>> abortCallbacks;
};

PropsRegistry& registry() {
  static auto* r = new PropsRegistry();
  return *r;
}

// Device properties and the threads' streams belong to one simulation; the callbacks stay.
[[maybe_unused]] const bool kForgottenAtEnd = (npusim::rt::Runtime::onSimulationEnd([] {
                                                 registry().devices.clear();
                                                 registry().threadStream.clear();
                                               }),
                                               true);

bool validDevice(ApiCall& api, int32_t d, aclError* err) {
  if (d >= 0 && d < api.rt.deviceCount()) return true;
  *err = api.fail(ACL_ERROR_INVALID_PARAM, "device {} does not exist (0..{})", d, api.rt.deviceCount() - 1);
  return false;
}

bool validLimitType(ApiCall& api, aclrtDevResLimitType type, aclError* err) {
  if (type == ACL_RT_DEV_RES_CUBE_CORE || type == ACL_RT_DEV_RES_VECTOR_CORE) return true;
  *err = api.fail(ACL_ERROR_INVALID_PARAM, "resource type {} is neither cube nor vector cores",
                  static_cast<int>(type));
  return false;
}

uint32_t physicalCores(ApiCall& api, int device, aclrtDevResLimitType type) {
  const auto& cores = *api.rt.platform().device(device).cores;
  return static_cast<uint32_t>(type == ACL_RT_DEV_RES_CUBE_CORE ? cores.cubeCores() : cores.vectorCores());
}

uint32_t deviceLimit(ApiCall& api, int device, aclrtDevResLimitType type) {
  uint32_t v = registry().devices[device].resLimit[type];
  return v ? v : physicalCores(api, device, type);
}

aclError checkLimit(ApiCall& api, int device, aclrtDevResLimitType type, uint32_t value) {
  uint32_t phys = physicalCores(api, device, type);
  if (value == 0 || value > phys)
    return api.fail(ACL_ERROR_INVALID_PARAM, "limit {} is outside 1..{} (the device's {} cores)", value, phys,
                    type == ACL_RT_DEV_RES_CUBE_CORE ? "cube" : "vector");
  return ACL_SUCCESS;
}

template <typename F>
aclError withStream(const char* name, aclrtStream stream, F&& f) {
  ApiCall api(name);
  if (!api.ok()) return api.notReady();
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  return f(api, s);
}

// A stop or abort is a command the host submits like a task: its launch cost on the host, then the
// doorbell to the device. It acts on what the stream is doing when it arrives, so a kernel launched
// just before it has started by then, as on the device.
Tick commandArrives(ApiCall& api) {
  api.charge(api.rt.costs().launch);
  return api.th->clock + api.rt.costs().doorbell;
}

// The kernel the stream is executing when the command arrives is stopped: the device reports it as a
// vector-core exception (the CANN sample's aclrtStreamAbort on a running kernel shows 507035).
// Other running tasks (copies, waits) complete. Runtime lock held, kernel at the command's arrival.
void stopRunningKernel(npusim::sched::HwStream* hw) {
  if (!hw->running || hw->queue.empty()) return;
  const npusim::sched::Task& t = *hw->queue.front();
  if (t.seq != hw->running || t.kind != npusim::sched::TaskKind::Operator) return;
  hw->killSeq = t.seq;
  hw->killError = ACL_ERROR_RT_VECTOR_CORE_EXCEPTION;
}

}  // namespace

namespace npusim::rt {

void streamStateChanged(aclrtStream stream, aclrtStreamState state) {
  auto cbs = registry().streamCallbacks;  // a callback may register or unregister
  for (auto& [name, cb] : cbs) cb.first(stream, state, cb.second);
}

void deviceStateChanged(int32_t device, aclrtDeviceState state) {
  auto cbs = registry().deviceCallbacks;
  for (auto& [name, cb] : cbs) cb.first(device, state, cb.second);
}

}  // namespace npusim::rt

extern "C" {

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t* priority) {
  return withStream("aclrtStreamGetPriority", stream, [&](ApiCall& api, Stream* s) {
    if (!priority) return api.fail(ACL_ERROR_INVALID_PARAM, "priority is NULL");
    *priority = s->priority;
    return api.done();
  });
}

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t* flags) {
  return withStream("aclrtStreamGetFlags", stream, [&](ApiCall& api, Stream* s) {
    if (!flags) return api.fail(ACL_ERROR_INVALID_PARAM, "flags is NULL");
    *flags = s->flags;
    return api.done();
  });
}

aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId) {
  return withStream("aclrtStreamGetId", stream, [&](ApiCall& api, Stream* s) {
    if (!streamId) return api.fail(ACL_ERROR_INVALID_PARAM, "streamId is NULL");
    *streamId = s->hw->id;
    return api.done();
  });
}

aclError aclrtDeviceGetStreamPriorityRange(int32_t* leastPriority, int32_t* greatestPriority) {
  ApiCall api("aclrtDeviceGetStreamPriorityRange");
  if (!leastPriority || !greatestPriority) return api.fail(ACL_ERROR_INVALID_PARAM, "an argument is NULL");
  *leastPriority = static_cast<int32_t>(kLeastPriority);
  *greatestPriority = static_cast<int32_t>(kGreatestPriority);
  return api.done();
}

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
  return withStream("aclrtSetStreamFailureMode", stream, [&](ApiCall& api, Stream* s) {
    if (mode != ACL_CONTINUE_ON_FAILURE && mode != ACL_STOP_ON_FAILURE)
      return api.fail(ACL_ERROR_INVALID_PARAM,
                      "mode {} is neither ACL_CONTINUE_ON_FAILURE nor ACL_STOP_ON_FAILURE", mode);
    s->hw->stopOnFailure = mode == ACL_STOP_ON_FAILURE;
    return api.done();
  });
}

// The running kernel is stopped and every task issued so far that has not started is discarded;
// the stream stays usable.
aclError aclrtStreamAbort(aclrtStream stream) {
  return withStream("aclrtStreamAbort", stream, [&](ApiCall& api, Stream* s) {
    api.rt.waitFor([] { return false; }, commandArrives(api));
    stopRunningKernel(s->hw);
    s->hw->discardThrough = s->hw->issued;
    api.args.add("stream", s->hw->id).add("discarded_through", s->hw->issued);
    return api.done();
  });
}

// The running kernel is stopped and nothing later runs; synchronising the stream reports
// ACL_ERROR_RT_INTERNAL_ERROR (as the CANN sample shows) until it is destroyed.
aclError aclrtStreamStop(aclrtStream stream) {
  return withStream("aclrtStreamStop", stream, [&](ApiCall& api, Stream* s) {
    api.rt.waitFor([] { return false; }, commandArrives(api));
    stopRunningKernel(s->hw);
    s->hw->stopOnFailure = s->hw->failed = true;
    s->stopped = true;
    api.args.add("stream", s->hw->id);
    return api.done();
  });
}

aclError aclrtRegStreamStateCallback(const char* regName, aclrtStreamStateCallback callback, void* args) {
  ApiCall api("aclrtRegStreamStateCallback");
  if (!regName || !*regName) return api.fail(ACL_ERROR_INVALID_PARAM, "regName is NULL or empty");
  if (callback)
    registry().streamCallbacks[regName] = {callback, args};
  else
    registry().streamCallbacks.erase(regName);  // NULL unregisters the name
  return api.done();
}

aclError aclrtRegDeviceStateCallback(const char* regName, aclrtDeviceStateCallback callback, void* args) {
  ApiCall api("aclrtRegDeviceStateCallback");
  if (!regName || !*regName) return api.fail(ACL_ERROR_INVALID_PARAM, "regName is NULL or empty");
  if (callback)
    registry().deviceCallbacks[regName] = {callback, args};
  else
    registry().deviceCallbacks.erase(regName);
  return api.done();
}

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t* value) {
  ApiCall api("aclrtGetDeviceInfo");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!validDevice(api, static_cast<int32_t>(deviceId), &err)) return err;
  if (!value) return api.fail(ACL_ERROR_INVALID_PARAM, "value is NULL");
  const npusim::Config& cfg = api.rt.platform().config();
  switch (attr) {
    case ACL_DEV_ATTR_AICORE_CORE_NUM:
    case ACL_DEV_ATTR_CUBE_CORE_NUM:
      *value = cfg.getInt("aicore.cube_cores");  // an AI core is a cube core with its vector pair
      break;
    case ACL_DEV_ATTR_VECTOR_CORE_NUM:
      *value = cfg.getInt("aicore.vector_cores");
      break;
    case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
      *value = static_cast<int64_t>(api.rt.platform().hbmCapacity());
      break;
    case ACL_DEV_ATTR_PHY_CHIP_ID:
      *value = deviceId;
      break;
    case ACL_DEV_ATTR_SMP_ID:
    case ACL_DEV_ATTR_IS_VIRTUAL:
      *value = 0;
      break;
    default:
      return api.fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "attribute {} is not modelled by npusim",
                      static_cast<int>(attr));
  }
  return api.done();
}

aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType, int32_t* value) {
  ApiCall api("aclrtGetDeviceCapability");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!validDevice(api, deviceId, &err)) return err;
  if (!value) return api.fail(ACL_ERROR_INVALID_PARAM, "value is NULL");
  if (devFeatureType != ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV &&
      devFeatureType != ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV)
    return api.fail(ACL_ERROR_INVALID_PARAM, "feature {} is unknown", static_cast<int>(devFeatureType));
  // The TS CPU updates AI-core tasks on Atlas A2 (aclrtTaskUpdateAsync, simulated:
  // runtime/api_task_update_async.cpp); cross-device queue events do not exist in the simulated device.
  *value = devFeatureType == ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV ? ACL_DEV_FEATURE_SUPPORT
                                                                           : ACL_DEV_FEATURE_NOT_SUPPORT;
  return api.done();
}

// Busy share of the cube and vector cores since the previous query of the device (or the
// start), up to the host's current time; memory: the share of HBM allocated.
aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo* info) {
  ApiCall api("aclrtGetDeviceUtilizationRate");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!validDevice(api, deviceId, &err)) return err;
  if (!info) return api.fail(ACL_ERROR_INVALID_PARAM, "utilizationInfo is NULL");
  Tick now = api.th->clock;
  api.rt.waitFor([] { return false; }, now);  // the device as of the host's time
  const auto& cores = *api.rt.platform().device(deviceId).cores;
  DeviceProps& d = registry().devices[deviceId];
  const auto& stats = cores.stats();
  d.utilBusy.resize(stats.size(), 0);
  Tick span = now > d.utilSince ? now - d.utilSince : 0;
  auto percent = [&](size_t first, size_t n) {
    Tick busy = 0;
    for (size_t i = first; i < first + n; ++i) busy += stats[i].busy - d.utilBusy[i];
    if (span == 0 || n == 0) return 0;
    return static_cast<int32_t>(
        std::min<long double>(100.0L, 100.0L * busy / (static_cast<long double>(span) * n)));
  };
  size_t cube = static_cast<size_t>(cores.cubeCores()), vec = static_cast<size_t>(cores.vectorCores());
  info->cubeUtilization = percent(0, cube);
  info->vectorUtilization = percent(cube, vec);
  info->aicpuUtilization = 0;  // no AI CPU tasks are simulated
  auto& mem = api.rt.memory().device(deviceId);
  info->memoryUtilization =
      static_cast<int32_t>(100.0L * mem.used() / static_cast<long double>(mem.capacity()));
  for (size_t i = 0; i < stats.size(); ++i) d.utilBusy[i] = stats[i].busy;
  d.utilSince = now;
  return api.done();
}

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) {
  ApiCall api("aclrtSetDeviceSatMode");
  if (!api.ok()) return api.notReady();
  if (mode != ACL_RT_OVERFLOW_MODE_SATURATION && mode != ACL_RT_OVERFLOW_MODE_INFNAN)
    return api.fail(ACL_ERROR_INVALID_PARAM, "mode {} is neither saturation nor inf/nan",
                    static_cast<int>(mode));
  auto* ctx = api.rt.currentContext();
  if (!ctx) return api.fail(ACL_ERROR_RT_CONTEXT_NULL, "no current device (call aclrtSetDevice first)");
  registry().devices[ctx->device].satMode = mode;
  return api.done();
}

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode) {
  ApiCall api("aclrtGetDeviceSatMode");
  if (!api.ok()) return api.notReady();
  if (!mode) return api.fail(ACL_ERROR_INVALID_PARAM, "mode is NULL");
  auto* ctx = api.rt.currentContext();
  if (!ctx) return api.fail(ACL_ERROR_RT_CONTEXT_NULL, "no current device (call aclrtSetDevice first)");
  *mode = registry().devices[ctx->device].satMode;
  return api.done();
}

aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag) {
  return withStream("aclrtSetStreamOverflowSwitch", stream, [&](ApiCall& api, Stream* s) {
    if (flag > 1) return api.fail(ACL_ERROR_INVALID_PARAM, "flag {} is neither 0 (off) nor 1 (on)", flag);
    s->overflowSwitch = flag;
    s->hw->overflowCheck = flag != 0;
    return api.done();
  });
}

aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t* flag) {
  return withStream("aclrtGetStreamOverflowSwitch", stream, [&](ApiCall& api, Stream* s) {
    if (!flag) return api.fail(ACL_ERROR_INVALID_PARAM, "flag is NULL");
    *flag = s->overflowSwitch;
    return api.done();
  });
}

aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t* value) {
  ApiCall api("aclrtGetDeviceResLimit");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!validDevice(api, deviceId, &err) || !validLimitType(api, type, &err)) return err;
  if (!value) return api.fail(ACL_ERROR_INVALID_PARAM, "value is NULL");
  *value = deviceLimit(api, deviceId, type);
  return api.done();
}

aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value) {
  ApiCall api("aclrtSetDeviceResLimit");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!validDevice(api, deviceId, &err) || !validLimitType(api, type, &err)) return err;
  if (aclError e = checkLimit(api, deviceId, type, value)) return e;
  registry().devices[deviceId].resLimit[type] = value;
  return api.done();
}

aclError aclrtResetDeviceResLimit(int32_t deviceId) {
  ApiCall api("aclrtResetDeviceResLimit");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!validDevice(api, deviceId, &err)) return err;
  auto& d = registry().devices[deviceId];
  d.resLimit[0] = d.resLimit[1] = 0;
  return api.done();
}

aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t* value) {
  return withStream("aclrtGetStreamResLimit", stream, [&](ApiCall& api, Stream* s) {
    aclError err;
    if (!validLimitType(api, type, &err)) return err;
    if (!value) return api.fail(ACL_ERROR_INVALID_PARAM, "value is NULL");
    *value = s->resLimit[type] ? s->resLimit[type] : deviceLimit(api, s->device, type);
    return api.done();
  });
}

aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value) {
  return withStream("aclrtSetStreamResLimit", stream, [&](ApiCall& api, Stream* s) {
    aclError err;
    if (!validLimitType(api, type, &err)) return err;
    if (aclError e = checkLimit(api, s->device, type, value)) return e;
    s->resLimit[type] = value;
    return api.done();
  });
}

aclError aclrtResetStreamResLimit(aclrtStream stream) {
  return withStream("aclrtResetStreamResLimit", stream, [&](ApiCall& api, Stream* s) {
    s->resLimit[0] = s->resLimit[1] = 0;
    return api.done();
  });
}

aclError aclrtUseStreamResInCurrentThread(aclrtStream stream) {
  return withStream("aclrtUseStreamResInCurrentThread", stream, [&](ApiCall& api, Stream* s) {
    registry().threadStream[api.th] = s;
    return api.done();
  });
}

aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream) {
  return withStream("aclrtUnuseStreamResInCurrentThread", stream, [&](ApiCall& api, Stream* s) {
    auto& m = registry().threadStream;
    auto it = m.find(api.th);
    if (it == m.end() || it->second != s)
      return api.fail(ACL_ERROR_INVALID_PARAM, "this thread does not use stream {}'s limits", s->hw->id);
    m.erase(it);
    return api.done();
  });
}

// The limits in force for the calling thread: its stream's (aclrtUseStreamResInCurrentThread),
// else its current device's.
aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t* value) {
  ApiCall api("aclrtGetResInCurrentThread");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!validLimitType(api, type, &err)) return err;
  if (!value) return api.fail(ACL_ERROR_INVALID_PARAM, "value is NULL");
  auto& m = registry().threadStream;
  auto it = m.find(api.th);
  if (it != m.end()) {
    std::string why;
    if (Stream* s = api.rt.resolveStream(it->second, &err, &why)) {
      *value = s->resLimit[type] ? s->resLimit[type] : deviceLimit(api, s->device, type);
      return api.done();
    }
    m.erase(it);  // the stream is gone
  }
  auto* ctx = api.rt.currentContext();
  if (!ctx) return api.fail(ACL_ERROR_RT_CONTEXT_NULL, "no current device (call aclrtSetDevice first)");
  *value = deviceLimit(api, ctx->device, type);
  return api.done();
}

// Stream attributes: the failure mode and overflow switch are the ones the dedicated calls set;
// the custom tag and the operator-info switch are kept for the program (the trace names no tag).
aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                 aclrtStreamAttrValue* value) {
  return withStream("aclrtSetStreamAttribute", stream, [&](ApiCall& api, Stream* s) {
    if (!value) return api.fail(ACL_ERROR_INVALID_PARAM, "value is NULL");
    switch (stmAttrType) {
      case ACL_STREAM_ATTR_FAILURE_MODE:
        return api.done(aclrtSetStreamFailureMode(stream, value->failureMode));
      case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
        return api.done(aclrtSetStreamOverflowSwitch(stream, value->overflowSwitch));
      case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        s->userTag = value->userCustomTag;
        return api.done();
      case ACL_STREAM_ATTR_CACHE_OP_INFO:
        if (value->cacheOpInfoSwitch > 1)
          return api.fail(ACL_ERROR_INVALID_PARAM, "cacheOpInfoSwitch {} is neither 0 nor 1",
                          value->cacheOpInfoSwitch);
        s->cacheOpInfo = value->cacheOpInfoSwitch;
        return api.done();
      case ACL_STREAM_ATTR_PRIORITY:
        if (value->streamPriority > kLeastPriority)
          return api.fail(ACL_ERROR_INVALID_PARAM, "priority {} is outside {}..{}", value->streamPriority,
                          kGreatestPriority, kLeastPriority);
        s->priority = value->streamPriority;
        return api.done();
    }
    return api.fail(ACL_ERROR_INVALID_PARAM, "attribute {} is not an aclrtStreamAttr",
                    static_cast<int>(stmAttrType));
  });
}

aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                 aclrtStreamAttrValue* value) {
  return withStream("aclrtGetStreamAttribute", stream, [&](ApiCall& api, Stream* s) {
    if (!value) return api.fail(ACL_ERROR_INVALID_PARAM, "value is NULL");
    *value = aclrtStreamAttrValue{};
    switch (stmAttrType) {
      case ACL_STREAM_ATTR_FAILURE_MODE:
        value->failureMode = s->hw->stopOnFailure ? ACL_STOP_ON_FAILURE : ACL_CONTINUE_ON_FAILURE;
        return api.done();
      case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
        value->overflowSwitch = s->overflowSwitch;
        return api.done();
      case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        value->userCustomTag = s->userTag;
        return api.done();
      case ACL_STREAM_ATTR_CACHE_OP_INFO:
        value->cacheOpInfoSwitch = s->cacheOpInfo;
        return api.done();
      case ACL_STREAM_ATTR_PRIORITY:
        value->streamPriority = s->priority;
        return api.done();
    }
    return api.fail(ACL_ERROR_INVALID_PARAM, "attribute {} is not an aclrtStreamAttr",
                    static_cast<int>(stmAttrType));
  });
}

// A persistent stream (ACL_STREAM_PERSISTENT) keeps what was issued to it; cleaning discards the
// tasks that have not run, so the program can issue new ones without destroying the stream.
aclError aclrtPersistentTaskClean(aclrtStream stream) {
  return withStream("aclrtPersistentTaskClean", stream, [&](ApiCall& api, Stream* s) {
    if (!(s->flags & ACL_STREAM_PERSISTENT))
      return api.fail(ACL_ERROR_INVALID_PARAM, "stream {} was not created with ACL_STREAM_PERSISTENT",
                      s->hw->id);
    api.rt.waitFor([] { return false; }, api.th->clock);
    s->hw->discardThrough = s->hw->issued;
    return api.done();
  });
}

aclError aclrtSetDeviceTaskAbortCallback(const char* regName, aclrtDeviceTaskAbortCallback callback,
                                         void* args) {
  ApiCall api("aclrtSetDeviceTaskAbortCallback");
  if (!api.ok()) return api.notReady();
  if (!regName || !*regName) return api.fail(ACL_ERROR_INVALID_PARAM, "regName is NULL or empty");
  auto& cbs = registry().abortCallbacks;
  if (!callback) {  // NULL unregisters
    if (!cbs.erase(regName))
      return api.fail(ACL_ERROR_INVALID_PARAM, "no abort callback is registered as '{}'", regName);
    return api.done();
  }
  if (cbs.count(regName)) return api.fail(ACL_ERROR_INVALID_PARAM, "'{}' is already registered", regName);
  cbs[regName] = {callback, args};
  return api.done();
}

// Every task issued to the device's streams that has not started is discarded, between the
// registered callbacks' PRE and POST calls. Simulated tasks that have started always finish, so
// the abort never times out.
aclError aclrtDeviceTaskAbort(int32_t deviceId, uint32_t timeout) {
  ApiCall api("aclrtDeviceTaskAbort");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!validDevice(api, deviceId, &err)) return err;
  auto cbs = registry().abortCallbacks;
  for (auto& [name, cb] : cbs)
    if (int32_t r = cb.first(deviceId, ACL_RT_DEVICE_TASK_ABORT_PRE, timeout, cb.second))
      return api.fail(ACL_ERROR_RT_PARAM_INVALID, "abort callback '{}' failed before the abort with {}", name,
                      r);
  api.rt.waitFor([] { return false; }, api.th->clock);
  uint64_t streams = 0;
  for (npusim::rt::Context* ctx : api.rt.contexts()) {
    if (ctx->device != deviceId) continue;
    std::vector<Stream*> all(ctx->streams.begin(), ctx->streams.end());
    if (ctx->defaultStream) all.push_back(ctx->defaultStream);
    for (Stream* s : all) {
      s->hw->discardThrough = s->hw->issued;
      ++streams;
    }
  }
  for (auto& [name, cb] : cbs)
    if (int32_t r = cb.first(deviceId, ACL_RT_DEVICE_TASK_ABORT_POST, timeout, cb.second))
      return api.fail(ACL_ERROR_RT_PARAM_INVALID, "abort callback '{}' failed after the abort with {}", name,
                      r);
  api.args.add("device", deviceId).add("streams", streams);
  return api.done();
}

}  // extern "C"

// ACL entry points: initialisation, devices, contexts, run mode and error queries.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "acl/acl.h"
#include "runtime/checks.h"
#include "runtime/dump.h"
#include "runtime/init_callbacks.h"
#include "runtime/runtime.h"
#include "runtime/state_callbacks.h"

using npusim::rt::ApiCall;
using npusim::rt::Context;
using npusim::rt::Runtime;

namespace {
aclError checkDevice(ApiCall& api, int32_t id) {
  if (id < 0 || id >= api.rt.deviceCount())
    return api.fail(ACL_ERROR_RT_INVALID_DEVICEID,
                    "device id {} is out of range: the platform has {} devices (0..{})", id,
                    api.rt.deviceCount(), api.rt.deviceCount() - 1);
  return ACL_SUCCESS;
}
}  // namespace

extern "C" {

aclError aclInit(const char* configPath) {
  ApiCall api("aclInit");
  if (!api.ok()) return api.notReady();
  std::string text;
  if (configPath) {
    std::ifstream in(configPath);
    if (!in) return api.fail(ACL_ERROR_INVALID_FILE, "cannot open the configuration file '{}'", configPath);
    text.assign((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!text.empty() && !nlohmann::json::accept(text))
      return api.fail(ACL_ERROR_PARSE_FILE, "'{}' is not valid JSON", configPath);
  }
  Runtime& rt = api.rt;
  if (rt.initCount > 0) {
    rt.initCount++;
    return api.fail(ACL_ERROR_REPEAT_INITIALIZE,
                    "aclInit was already called (the call is counted and can be ignored)");
  }
  std::string why;  // the configuration's "dump" section (runtime/api_dump.cpp)
  if (aclError e = npusim::rt::dump::applyConfig(text, &why)) return api.fail(e, "{}: {}", configPath, why);
  if (aclError e = npusim::rt::runInitCallbacks(text))
    return api.fail(e, "an init callback (aclInitCallbackRegister) failed with {}", e);
  rt.initCount = 1;
  rt.everInitialised = true;
  return api.done();
}

aclError aclFinalize() {
  ApiCall api("aclFinalize");
  if (!api.ok() && api.rt.ended())
    return api.fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize called without a matching aclInit");
  if (!api.ok()) return api.notReady();
  Runtime& rt = api.rt;
  if (rt.initCount == 0)
    return api.fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize called without a matching aclInit");
  rt.initCount = 0;
  const aclError callbacks = npusim::rt::runFinalizeCallbacks();
  aclError left = npusim::rt::checks::workLeftAtFinalize(api);
  rt.finalizeDevices(*api.th);
  rt.endSimulation();
  if (left) return left;  // strict checks: finalised, but the misuse is reported
  if (callbacks)
    return api.fail(callbacks, "a finalize callback (aclFinalizeCallbackRegister) failed with {}", callbacks);
  return api.done();
}

aclError aclFinalizeReference(uint64_t* refCount) {
  ApiCall api("aclFinalizeReference");
  if (!api.ok() && api.rt.ended())
    return api.fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalizeReference called without aclInit");
  if (!api.ok()) return api.notReady();
  Runtime& rt = api.rt;
  if (rt.initCount == 0)
    return api.fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalizeReference called without aclInit");
  aclError left = ACL_SUCCESS;
  if (--rt.initCount == 0) {
    if (aclError e = npusim::rt::runFinalizeCallbacks()) left = e;
    if (aclError e = npusim::rt::checks::workLeftAtFinalize(api)) left = e;
    rt.finalizeDevices(*api.th);
    rt.endSimulation();
  }
  if (refCount) *refCount = static_cast<uint64_t>(rt.initCount);
  if (left) return left;
  return api.done();
}

const char* aclGetRecentErrMsg() {
  std::lock_guard<std::recursive_mutex> lock(Runtime::get().mu);
  return npusim::rt::takeRecentError();
}

aclError aclrtGetLastError(aclrtLastErrLevel level) {
  (void)level;
  return npusim::rt::lastError(true);
}

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
  (void)level;
  return npusim::rt::lastError(false);
}

aclError aclrtGetRunMode(aclrtRunMode* runMode) {
  ApiCall api("aclrtGetRunMode");
  if (!api.ok()) return api.notReady();
  if (!runMode) return api.fail(ACL_ERROR_INVALID_PARAM, "runMode is NULL");
  *runMode = ACL_HOST;
  return api.done();
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  ApiCall api("aclrtGetDeviceCount");
  if (!api.ok()) return api.notReady();
  if (!count) return api.fail(ACL_ERROR_INVALID_PARAM, "count is NULL");
  *count = static_cast<uint32_t>(api.rt.deviceCount());
  return api.done();
}

aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid* uuid) {
  ApiCall api("aclrtDeviceGetUuid");
  if (!api.ok()) return api.notReady();
  if (!uuid) return api.fail(ACL_ERROR_INVALID_PARAM, "uuid is NULL");
  if (aclError e = checkDevice(api, deviceId)) return e;
  // Fixed and distinct per device: "npusim" + the device index, big-endian, in the last 4 bytes
  // (a version-4-style layout is not needed: programs compare and print the bytes).
  std::memset(uuid->bytes, 0, sizeof(uuid->bytes));
  std::memcpy(uuid->bytes, "npusim", 6);
  for (int i = 0; i < 4; ++i)
    uuid->bytes[15 - i] = static_cast<char>((static_cast<uint32_t>(deviceId) >> (8 * i)) & 0xff);
  return api.done();
}

aclError aclrtSetDevice(int32_t deviceId) {
  ApiCall api("aclrtSetDevice");
  if (!api.ok()) return api.notReady();
  api.args.add("device", deviceId);
  if (aclError e = checkDevice(api, deviceId)) return e;
  npusim::rt::deviceStateChanged(deviceId, ACL_RT_DEVICE_STATE_SET_PRE);
  api.rt.openDevice(deviceId);
  api.th->device = deviceId;
  api.th->ctx = api.rt.device(deviceId).defaultCtx.get();
  npusim::rt::deviceStateChanged(deviceId, ACL_RT_DEVICE_STATE_SET_POST);
  return api.done();
}

static aclError resetDevice(const char* name, int32_t deviceId, bool force) {
  ApiCall api(name);
  if (!api.ok()) return api.notReady();
  api.args.add("device", deviceId);
  if (aclError e = checkDevice(api, deviceId)) return e;
  aclError left = npusim::rt::checks::workLeftAtReset(api, deviceId, force);
  npusim::rt::deviceStateChanged(deviceId, ACL_RT_DEVICE_STATE_RESET_PRE);
  api.rt.closeDevice(deviceId, force);
  npusim::rt::deviceStateChanged(deviceId, ACL_RT_DEVICE_STATE_RESET_POST);
  if (left) return left;  // strict checks: the reset happened, the call still reports the misuse
  return api.done();
}

aclError aclrtResetDevice(int32_t deviceId) { return resetDevice("aclrtResetDevice", deviceId, false); }
aclError aclrtResetDeviceForce(int32_t deviceId) {
  return resetDevice("aclrtResetDeviceForce", deviceId, true);
}

aclError aclrtGetDevice(int32_t* deviceId) {
  ApiCall api("aclrtGetDevice");
  if (!api.ok()) return api.notReady();
  if (!deviceId) return api.fail(ACL_ERROR_INVALID_PARAM, "deviceId is NULL");
  Context* ctx = api.rt.currentContext();
  if (!ctx)
    return api.fail(ACL_ERROR_RT_CONTEXT_NULL, "no device is set for this thread (call aclrtSetDevice)");
  *deviceId = ctx->device;
  return api.done();
}

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  ApiCall api("aclrtCreateContext");
  if (!api.ok()) return api.notReady();
  if (!context) return api.fail(ACL_ERROR_INVALID_PARAM, "context is NULL");
  if (aclError e = checkDevice(api, deviceId)) return e;
  Runtime& rt = api.rt;
  rt.openDevice(deviceId);  // an explicit context keeps its device open
  auto* ctx = new Context();
  ctx->device = deviceId;
  rt.contexts().insert(ctx);
  ctx->defaultStream = rt.createStream(ctx, 0, 0, true);
  api.th->ctx = ctx;
  api.th->device = deviceId;
  *context = ctx;
  return api.done();
}

aclError aclrtDestroyContext(aclrtContext context) {
  ApiCall api("aclrtDestroyContext");
  if (!api.ok()) return api.notReady();
  Runtime& rt = api.rt;
  if (!context || !rt.validContext(context))
    return api.fail(ACL_ERROR_INVALID_PARAM, "context {} is not a live context", context);
  auto* ctx = static_cast<Context*>(context);
  if (ctx->isDefault)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "the default context is released by aclrtResetDevice, not destroyed");
  for (auto* s : std::vector<npusim::rt::Stream*>(ctx->streams.begin(), ctx->streams.end())) {
    rt.drain(*api.th, s->hw);
    rt.destroyStream(s);
  }
  rt.drain(*api.th, ctx->defaultStream->hw);
  rt.destroyStream(ctx->defaultStream);
  int dev = ctx->device;
  rt.contexts().erase(ctx);
  if (api.th->ctx == ctx) api.th->ctx = nullptr;
  delete ctx;
  rt.closeDevice(dev, false);
  return api.done();
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  ApiCall api("aclrtSetCurrentContext");
  if (!api.ok()) return api.notReady();
  if (!context || !api.rt.validContext(context))
    return api.fail(ACL_ERROR_INVALID_PARAM, "context {} is not a live context", context);
  auto* ctx = static_cast<Context*>(context);
  api.th->ctx = ctx;
  api.th->device = ctx->device;
  return api.done();
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  ApiCall api("aclrtGetCurrentContext");
  if (!api.ok()) return api.notReady();
  if (!context) return api.fail(ACL_ERROR_INVALID_PARAM, "context is NULL");
  Context* ctx = api.rt.currentContext();
  if (!ctx)
    return api.fail(ACL_ERROR_RT_CONTEXT_NULL,
                    "no current context (call aclrtSetDevice or aclrtCreateContext)");
  *context = ctx;
  return api.done();
}

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream* stream) {
  ApiCall api("aclrtCtxGetCurrentDefaultStream");
  if (!api.ok()) return api.notReady();
  if (!stream) return api.fail(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  Context* ctx = api.rt.currentContext();
  if (!ctx) return api.fail(ACL_ERROR_RT_CONTEXT_NULL, "no current context");
  *stream = ctx->defaultStream;
  return api.done();
}

}  // extern "C"

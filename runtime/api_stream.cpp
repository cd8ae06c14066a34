// ACL entry points: streams and device-wide synchronisation.
#include "acl/acl.h"
#include "runtime/capture.h"
#include "runtime/exceptions.h"
#include "runtime/kernel_exec.h"
#include "runtime/runtime.h"
#include "runtime/state_callbacks.h"

using npusim::kTickMax;
using npusim::Tick;
using npusim::rt::ApiCall;
using npusim::rt::Context;
using npusim::rt::Runtime;
using npusim::rt::Stream;

namespace {

aclError createStream(ApiCall& api, aclrtStream* stream, uint32_t priority, uint32_t flags) {
  if (!stream) return api.fail(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  aclError err;
  Context* ctx = api.context(&err);
  if (!ctx) return err;
  if (api.rt.device(ctx->device).liveStreams >= api.rt.costs().maxStreams)
    return api.fail(ACL_ERROR_RT_NO_STREAM_RESOURCE, "device {} already has {} streams (sched.max_streams)",
                    ctx->device, api.rt.costs().maxStreams);
  Stream* s = api.rt.createStream(ctx, flags, priority, false);
  api.args.add("stream", s->hw->id).add("device", ctx->device);
  *stream = s;
  npusim::rt::streamStateChanged(s, ACL_RT_STREAM_STATE_CREATE_POST);
  return api.done();
}

// Result of a synchronisation for the API: timeouts and deadlocks become error codes.
aclError waitResult(ApiCall& api, Runtime::Wait w, const char* what) {
  if (w == Runtime::Wait::Timeout)
    return api.fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "timed out waiting for {}", what);
  if (w == Runtime::Wait::Deadlock)
    return api.fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                    "deadlock: {} can never finish (a task waits for an event that is never recorded)", what);
  return api.done();
}

aclError synchronize(ApiCall& api, aclrtStream stream, int32_t timeoutMs) {
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  api.args.add("stream", s->hw->id);
  if (s->capture)
    return api.fail(ACL_ERROR_RT_STREAM_CAPTURED, "stream {} is capturing: it cannot be synchronised",
                    s->hw->id);
  Tick limit = timeoutMs < 0 ? kTickMax : api.th->clock + static_cast<Tick>(timeoutMs) * npusim::kMs;
  Runtime::Wait w = api.rt.drain(*api.th, s->hw, limit);
  if (w == Runtime::Wait::Timeout) api.th->clock = std::max(api.th->clock, limit);
  if (w == Runtime::Wait::Done) {
    npusim::rt::kernels::flushOutput(s->device);
    std::string why;
    const int32_t e = npusim::rt::takeStreamError(s->hw, &why);
    if (s->stopped)  // what the stopped kernel reported is superseded
      return api.fail(
          ACL_ERROR_RT_INTERNAL_ERROR,
          "stream {} was stopped by aclrtStreamStop: it runs nothing more and can only be destroyed",
          s->hw->id);
    if (e) return api.fail(e, "{}", why);
  }
  return waitResult(api, w, "the stream");
}

}  // namespace

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) {
  ApiCall api("aclrtCreateStream");
  if (!api.ok()) return api.notReady();
  return createStream(api, stream, 0, 0);
}

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
  ApiCall api("aclrtCreateStreamWithConfig");
  if (!api.ok()) return api.notReady();
  if (priority > 7) return api.fail(ACL_ERROR_INVALID_PARAM, "priority {} is outside 0..7", priority);
  return createStream(api, stream, priority, flag);
}

static aclError destroyStream(const char* name, aclrtStream stream) {
  ApiCall api(name);
  if (!api.ok()) return api.notReady();
  if (!stream)
    return api.fail(ACL_ERROR_INVALID_PARAM, "stream is NULL (the default stream cannot be destroyed)");
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  if (s->isDefault)
    return api.fail(ACL_ERROR_INVALID_PARAM, "a default stream is released by aclrtResetDevice");
  api.args.add("stream", s->hw->id);
  if (s->capture)
    return api.fail(ACL_ERROR_RT_STREAM_CAPTURED,
                    "stream {} is capturing: end the capture before destroying it", s->hw->id);
  Runtime::Wait w = api.rt.drain(*api.th, s->hw);  // outstanding tasks finish first
  if (w == Runtime::Wait::Deadlock) return waitResult(api, w, "the stream being destroyed");
  npusim::rt::kernels::flushOutput(s->device);
  npusim::rt::streamStateChanged(s, ACL_RT_STREAM_STATE_DESTROY_PRE);
  npusim::rt::takeStreamError(s->hw);
  api.rt.destroyStream(s);
  return api.done();
}

aclError aclrtDestroyStream(aclrtStream stream) { return destroyStream("aclrtDestroyStream", stream); }
aclError aclrtDestroyStreamForce(aclrtStream stream) {
  return destroyStream("aclrtDestroyStreamForce", stream);
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  ApiCall api("aclrtSynchronizeStream");
  if (!api.ok()) return api.notReady();
  return synchronize(api, stream, -1);
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  ApiCall api("aclrtSynchronizeStreamWithTimeout");
  if (!api.ok()) return api.notReady();
  if (timeout < -1 || timeout == 0)
    return api.fail(ACL_ERROR_RT_PARAM_INVALID, "timeout {} ms is invalid (use -1 or a positive value)",
                    timeout);
  return synchronize(api, stream, timeout);
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
  ApiCall api("aclrtStreamQuery");
  if (!api.ok()) return api.notReady();
  if (!status) return api.fail(ACL_ERROR_INVALID_PARAM, "status is NULL");
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  if (s->capture)
    return api.fail(ACL_ERROR_RT_STREAM_CAPTURED, "stream {} is capturing: it cannot be queried", s->hw->id);
  // What has the device finished by the host's current time?
  Tick now = api.th->clock;
  api.rt.waitFor([] { return false; }, now);
  auto* hw = s->hw;
  bool done =
      hw->completed == hw->issued && (hw->issued == 0 || hw->lastEnd + api.rt.costs().completion <= now);
  *status = done ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
  return api.done();
}

static aclError syncDevice(const char* name, int32_t timeout) {
  ApiCall api(name);
  if (!api.ok()) return api.notReady();
  if (timeout < -1 || timeout == 0)
    return api.fail(ACL_ERROR_RT_PARAM_INVALID, "timeout {} ms is invalid (use -1 or a positive value)",
                    timeout);
  Context* ctx = api.rt.currentContext();
  if (!ctx) return api.fail(ACL_ERROR_RT_CONTEXT_NULL, "no current device (call aclrtSetDevice)");
  if (npusim::rt::anyStreamCapturing(ctx))
    return api.fail(ACL_ERROR_RT_STREAM_CAPTURED, "a stream of the current context is capturing");
  Tick limit = timeout < 0 ? kTickMax : api.th->clock + static_cast<Tick>(timeout) * npusim::kMs;
  for (const auto& hw : api.rt.platform().device(ctx->device).sched->streams()) {
    if (hw->destroyed) continue;
    Runtime::Wait w = api.rt.drain(*api.th, hw.get(), limit);
    if (w == Runtime::Wait::Timeout) api.th->clock = std::max(api.th->clock, limit);
    if (w != Runtime::Wait::Done) return waitResult(api, w, "the device");
    std::string why;
    if (int32_t e = npusim::rt::takeStreamError(hw.get(), &why)) {
      npusim::rt::kernels::flushOutput(ctx->device);
      return api.fail(e, "{}", why);
    }
  }
  npusim::rt::kernels::flushOutput(ctx->device);
  return api.done();
}

aclError aclrtSynchronizeDevice(void) { return syncDevice("aclrtSynchronizeDevice", -1); }
aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
  return syncDevice("aclrtSynchronizeDeviceWithTimeout", timeout);
}

}  // extern "C"

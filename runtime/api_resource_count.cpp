// ACL entry points: how many streams and events the current device can still create — the
// configured limits (sched.max_streams, sched.max_events) less the live ones, as the create calls
// count them (0: the next create fails with ACL_ERROR_RT_NO_STREAM_RESOURCE / _NO_EVENT_RESOURCE).
#include "acl/acl.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;

namespace {

// *out = limit - live objects (member `live` of the current device's state), never below 0.
aclError available(const char* name, uint32_t* out, int npusim::rt::DeviceState::*live,
                   int npusim::HostCosts::*limit) {
  ApiCall api(name);
  if (!api.ok()) return api.notReady();
  if (!out) return api.fail(ACL_ERROR_INVALID_PARAM, "the count pointer is NULL");
  aclError err;
  npusim::rt::Context* ctx = api.context(&err);
  if (!ctx) return err;
  const int used = api.rt.device(ctx->device).*live, max = api.rt.costs().*limit;
  *out = static_cast<uint32_t>(used < max ? max - used : 0);
  return api.done();
}

}  // namespace

extern "C" {

aclError aclrtGetStreamAvailableNum(uint32_t* streamCount) {
  return available("aclrtGetStreamAvailableNum", streamCount, &npusim::rt::DeviceState::liveStreams,
                   &npusim::HostCosts::maxStreams);
}

aclError aclrtGetEventAvailNum(uint32_t* eventCount) {
  return available("aclrtGetEventAvailNum", eventCount, &npusim::rt::DeviceState::liveEvents,
                   &npusim::HostCosts::maxEvents);
}

}  // extern "C"

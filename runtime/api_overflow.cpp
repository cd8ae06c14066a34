// ACL entry points: the overflow status of a device (runtime/overflow.h). The status is one flag
// per device, set by checked operators (their outputs are scanned for Inf/NaN after the functional
// kernel ran; in timing-only mode no data exists and the flag stays clear) and read or cleared by
// builtin tasks in stream order. aclrtGetOverflowStatus writes it as a uint64 (0 or 1) at the start
// of the caller's buffer and zeroes the rest of it.
#include <algorithm>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "models/sched/hw_stream.h"
#include "models/sched/task.h"
#include "runtime/overflow.h"
#include "runtime/runtime.h"
#include "runtime/sync_objects.h"

using npusim::rt::ApiCall;
using npusim::rt::Stream;

namespace {

std::vector<bool>& status() {
  static auto* s = new std::vector<bool>();  // per device; read until the process ends
  return *s;
}

void setStatus(int device, bool value) {
  auto& s = status();
  if (static_cast<size_t>(device) >= s.size()) s.resize(static_cast<size_t>(device) + 1, false);
  s[static_cast<size_t>(device)] = value;
}

bool statusOf(int device) {
  const auto& s = status();
  return static_cast<size_t>(device) < s.size() && s[static_cast<size_t>(device)];
}

}  // namespace

void npusim::rt::overflow::taskCompleted(const sched::Task& t) {
  if (t.kind != sched::TaskKind::Operator || !t.stream || !t.stream->overflowCheck || !t.op ||
      !t.op->overflowed)
    return;
  if (t.op->overflowed()) setStatus(t.stream->device, true);
}

extern "C" {

aclError aclrtGetOverflowStatus(void* outputAddr, size_t outputSize, aclrtStream stream) {
  ApiCall api("aclrtGetOverflowStatus");
  if (!api.ok()) return api.notReady();
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  if (!outputAddr || outputSize < 8)
    return api.fail(ACL_ERROR_INVALID_PARAM, "outputAddr is NULL or outputSize {} is below the 8-byte status",
                    outputSize);
  npusim::rt::PointerInfo info = api.rt.memory().classify(outputAddr);
  if (info.kind != npusim::rt::PointerKind::Device || info.device != s->device ||
      !api.rt.memory().rangeInside(info, outputAddr, outputSize))
    return api.fail(ACL_ERROR_INVALID_PARAM, "[{}, +{}) is not device memory on the stream's device {}",
                    outputAddr, outputSize, s->device);
  auto* out = static_cast<uint8_t*>(api.rt.memory().hostView(info, outputAddr));
  const int device = s->device;
  npusim::rt::launchBuiltin(api, s, "OverflowStatus", [out, outputSize, device](npusim::sched::Task&) {
    std::memset(out, 0, outputSize);
    const uint64_t flag = statusOf(device) ? 1 : 0;
    std::memcpy(out, &flag, 8);
  });
  return api.done();
}

aclError aclrtResetOverflowStatus(aclrtStream stream) {
  ApiCall api("aclrtResetOverflowStatus");
  if (!api.ok()) return api.notReady();
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  const int device = s->device;
  npusim::rt::launchBuiltin(api, s, "OverflowReset",
                            [device](npusim::sched::Task&) { setStatus(device, false); });
  return api.done();
}

}  // extern "C"

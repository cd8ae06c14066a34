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

struct Overflow {
  std::vector<bool> status;    // per device
  std::vector<void*> address;  // aclrtCtxGetFloatOverflowAddr's device copy (null until asked for)
};

Overflow& overflow() {
  static auto* o = new Overflow();  // read until the process ends
  return *o;
}

// The flags and their device copies belong to one simulation's devices: aclFinalize forgets them.
[[maybe_unused]] const bool kForgottenAtEnd =
    (npusim::rt::Runtime::onSimulationEnd([] { overflow() = Overflow(); }), true);

std::vector<bool>& status() { return overflow().status; }

void*& statusAddress(int device) {
  std::vector<void*>& a = overflow().address;
  if (static_cast<size_t>(device) >= a.size()) a.resize(static_cast<size_t>(device) + 1, nullptr);
  return a[static_cast<size_t>(device)];
}

void setStatus(int device, bool value) {
  auto& s = status();
  if (static_cast<size_t>(device) >= s.size()) s.resize(static_cast<size_t>(device) + 1, false);
  s[static_cast<size_t>(device)] = value;
  if (void* addr = statusAddress(device)) {
    npusim::rt::MemoryManager& mem = npusim::rt::Runtime::get().memory();
    const uint64_t flag = value ? 1 : 0;
    std::memcpy(mem.hostView(mem.classify(addr), addr), &flag, 8);
  }
}

bool statusOf(int device) {
  const auto& s = status();
  return static_cast<size_t>(device) < s.size() && s[static_cast<size_t>(device)];
}

aclError getStatus(const char* name, void* outputAddr, uint64_t outputSize, aclrtStream stream) {
  ApiCall api(name);
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

aclError resetStatus(const char* name, aclrtStream stream) {
  ApiCall api(name);
  if (!api.ok()) return api.notReady();
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  const int device = s->device;
  npusim::rt::launchBuiltin(api, s, "OverflowReset",
                            [device](npusim::sched::Task&) { setStatus(device, false); });
  return api.done();
}

aclError badCheckMode(const char* name, uint32_t checkMode) {
  ApiCall api(name);
  return api.fail(ACL_ERROR_INVALID_PARAM, "checkMode {} is neither 0 nor 1", checkMode);
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
  return getStatus("aclrtGetOverflowStatus", outputAddr, outputSize, stream);
}

aclError aclrtResetOverflowStatus(aclrtStream stream) {
  return resetStatus("aclrtResetOverflowStatus", stream);
}

// The float-overflow names of the same status (the A2 device has one per device).
aclError aclrtGetFloatOverflowStatus(void* outputAddr, uint64_t outputSize, aclrtStream stream) {
  return getStatus("aclrtGetFloatOverflowStatus", outputAddr, outputSize, stream);
}

aclError aclrtResetFloatOverflowStatus(aclrtStream stream) {
  return resetStatus("aclrtResetFloatOverflowStatus", stream);
}

aclError aclrtNpuGetFloatOverFlowStatus(void* outputAddr, uint64_t outputSize, uint32_t checkMode,
                                        aclrtStream stream) {
  if (checkMode > 1) return badCheckMode("aclrtNpuGetFloatOverFlowStatus", checkMode);
  return getStatus("aclrtNpuGetFloatOverFlowStatus", outputAddr, outputSize, stream);
}

aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream) {
  if (checkMode > 1) return badCheckMode("aclrtNpuClearFloatOverFlowStatus", checkMode);
  return resetStatus("aclrtNpuClearFloatOverFlowStatus", stream);
}

// The status as device memory of the current context's device: 8 bytes (0 or 1) that follow every
// change of the flag, for kernels that read it themselves.
aclError aclrtCtxGetFloatOverflowAddr(void** overflowAddr) {
  ApiCall api("aclrtCtxGetFloatOverflowAddr");
  if (!api.ok()) return api.notReady();
  if (!overflowAddr) return api.fail(ACL_ERROR_INVALID_PARAM, "overflowAddr is NULL");
  aclError err;
  npusim::rt::Context* ctx = api.context(&err);
  if (!ctx) return err;
  void*& addr = statusAddress(ctx->device);
  if (!addr) {
    addr = api.rt.memory().allocDevice(ctx->device, 8, 64, 64, "aclrtCtxGetFloatOverflowAddr");
    if (!addr) return api.fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "device {} is out of memory", ctx->device);
    setStatus(ctx->device, statusOf(ctx->device));
  }
  *overflowAddr = addr;
  return api.done();
}

}  // extern "C"

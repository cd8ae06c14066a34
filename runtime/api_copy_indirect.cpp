// ACL entry points for copies whose addresses the device reads when the copy starts: copy
// descriptors (aclrtGetMemcpyDescSize, aclrtSetMemcpyDesc, aclrtMemcpyAsyncWithDesc) and copies
// through pointers with offsets (aclrtMemcpyAsyncWithOffset). Both are copies inside one device
// (ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, the only kind the CANN reference allows), timed by the DMA
// engine like any device-local copy; a descriptor or pointer that names no valid device range when
// the copy starts fails the task (the stream reports it at its next synchronisation).
#include <cstring>

#include "acl/acl.h"
#include "runtime/checks.h"
#include "runtime/copy_plan.h"
#include "runtime/op_launch.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;
using npusim::rt::CopyPlan;
using npusim::rt::PointerInfo;
using npusim::rt::PointerKind;
using npusim::rt::Stream;

namespace {

// What a descriptor holds, in the device memory the program gave for it.
struct MemcpyDesc {
  uint64_t magic;
  uint64_t src, dst, count;
};
constexpr uint64_t kDescMagic = 0x6e7075736d646573ull;  // "npusmdes"
constexpr size_t kDescBytes = 64;

// Device memory of `device` holding [p, p+bytes), or nullptr.
const PointerInfo* deviceRange(const npusim::rt::MemoryManager& mem, const void* p, uint64_t bytes,
                               int device, PointerInfo* out) {
  *out = mem.classify(p);
  if (!p || out->kind != PointerKind::Device || out->device != device || !mem.rangeInside(*out, p, bytes))
    return nullptr;
  return out;
}

// Fills the copy from src to dst (both on `device`) into the task as it starts.
void resolveInto(npusim::sched::Task& t, const void* src, const void* dst, uint64_t count, int device) {
  npusim::rt::MemoryManager& mem = npusim::rt::Runtime::get().memory();
  PointerInfo si, di;
  if (!deviceRange(mem, src, count, device, &si) || !deviceRange(mem, dst, count, device, &di)) {
    t.error = ACL_ERROR_RT_PARAM_INVALID;  // the device finds no such memory
    return;
  }
  npusim::sched::CopyShape& c = t.copy;
  c.width = c.dpitch = c.spitch = count;
  c.height = 1;
  c.srcAddr = si.offset;
  c.dstAddr = di.offset;
  if (npusim::rt::functionalEnabled()) {
    c.srcPtr = mem.hostView(si, src);
    c.dstPtr = mem.hostView(di, dst);
  }
}

aclError innerKind(ApiCall& api, aclrtMemcpyKind kind) {
  if (kind == ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) return ACL_SUCCESS;
  return api.fail(ACL_ERROR_INVALID_PARAM,
                  "kind {} is not ACL_MEMCPY_INNER_DEVICE_TO_DEVICE (the only kind allowed)",
                  static_cast<int>(kind));
}

// A device-local copy on `s` whose shape `resolve` fills when it starts.
aclError launchResolved(ApiCall& api, Stream* s, const char* label,
                        std::function<void(npusim::sched::Task&)> resolve) {
  CopyPlan plan;
  plan.engine = s->device;
  plan.route = npusim::sched::CopyRoute::DeviceLocal;
  plan.label = label;
  plan.resolve = std::move(resolve);
  return npusim::rt::launchAsync(api, s, plan);
}

}  // namespace

extern "C" {

aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t* descSize) {
  ApiCall api("aclrtGetMemcpyDescSize");
  if (!api.ok()) return api.notReady();
  if (!descSize) return api.fail(ACL_ERROR_INVALID_PARAM, "descSize is NULL");
  if (aclError e = innerKind(api, kind)) return e;
  *descSize = kDescBytes;
  return api.done();
}

aclError aclrtSetMemcpyDesc(void* desc, aclrtMemcpyKind kind, void* srcAddr, void* dstAddr, size_t count,
                            void* config) {
  ApiCall api("aclrtSetMemcpyDesc");
  if (!api.ok()) return api.notReady();
  if (aclError e = innerKind(api, kind)) return e;
  if (config) return api.fail(ACL_ERROR_INVALID_PARAM, "config is reserved and must be NULL");
  if (!srcAddr || !dstAddr || count == 0)
    return api.fail(ACL_ERROR_INVALID_PARAM, "srcAddr or dstAddr is NULL, or count is 0");
  npusim::rt::MemoryManager& mem = api.rt.memory();
  const PointerInfo di = mem.classify(desc);
  if (!desc || di.kind != PointerKind::Device || !mem.rangeInside(di, desc, kDescBytes))
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "desc {} is not {} bytes of device memory (aclrtGetMemcpyDescSize)", desc, kDescBytes);
  const MemcpyDesc d{kDescMagic, reinterpret_cast<uintptr_t>(srcAddr), reinterpret_cast<uintptr_t>(dstAddr),
                     count};
  std::memcpy(mem.hostView(di, desc), &d, sizeof d);
  return api.done();
}

aclError aclrtMemcpyAsyncWithDesc(void* desc, aclrtMemcpyKind kind, aclrtStream stream) {
  ApiCall api("aclrtMemcpyAsyncWithDesc");
  if (!api.ok()) return api.notReady();
  if (aclError e = innerKind(api, kind)) return e;
  // The real runtime takes no default stream here: the descriptor's copy needs a named one.
  if (!stream) return api.fail(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  PointerInfo di;
  if (!deviceRange(api.rt.memory(), desc, kDescBytes, s->device, &di))
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "desc {} is not {} bytes of device memory on the stream's device {}", desc, kDescBytes,
                    s->device);
  const uint8_t* view = api.rt.memory().hostView(di, desc);
  const int device = s->device;
  return launchResolved(api, s, "Memcpy D2D (descriptor)", [view, device](npusim::sched::Task& t) {
    MemcpyDesc d;
    std::memcpy(&d, view, sizeof d);
    if (d.magic != kDescMagic) {
      t.error = ACL_ERROR_RT_PARAM_INVALID;  // never set with aclrtSetMemcpyDesc
      return;
    }
    resolveInto(t, reinterpret_cast<const void*>(d.src), reinterpret_cast<const void*>(d.dst), d.count,
                device);
  });
}

// dst and src point at the base addresses of the copy's destination and source.
aclError aclrtMemcpyAsyncWithOffset(void** dst, size_t destMax, size_t dstDataOffset, const void** src,
                                    size_t count, size_t srcDataOffset, aclrtMemcpyKind kind,
                                    aclrtStream stream) {
  ApiCall api("aclrtMemcpyAsyncWithOffset");
  if (!api.ok()) return api.notReady();
  if (aclError e = innerKind(api, kind)) return e;
  if (!dst || !src) return api.fail(ACL_ERROR_INVALID_PARAM, "dst or src is NULL");
  if (count == 0) return api.done();
  if (count > destMax)
    return api.fail(ACL_ERROR_RT_PARAM_INVALID, "count {} exceeds destMax {}", count, destMax);
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  npusim::rt::MemoryManager& mem = api.rt.memory();
  // Each base address is read when the copy starts from device memory (a pointer table that
  // earlier tasks may fill); a host variable is read now, as the call may return before then.
  struct Base {
    const uint8_t* slot = nullptr;  // device-memory pointer slot, or null
    uintptr_t value = 0;            // the address, when read now
    uintptr_t get() const {
      uintptr_t v = value;
      if (slot) std::memcpy(&v, slot, sizeof v);
      return v;
    }
  };
  auto base = [&](const void* p) {
    Base b;
    const PointerInfo info = mem.classify(p);
    if (info.kind == PointerKind::Device && mem.rangeInside(info, p, sizeof(void*)))
      b.slot = mem.hostView(info, p);
    else
      std::memcpy(&b.value, p, sizeof b.value);
    return b;
  };
  const Base d = base(dst), sr = base(src);
  const int device = s->device;
  return launchResolved(api, s, "Memcpy D2D (offset)",
                        [d, sr, dstDataOffset, srcDataOffset, count, device](npusim::sched::Task& t) {
                          resolveInto(t, reinterpret_cast<const void*>(sr.get() + srcDataOffset),
                                      reinterpret_cast<const void*>(d.get() + dstDataOffset), count, device);
                        });
}

}  // extern "C"

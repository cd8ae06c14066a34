// ACL entry points: device and pinned-host memory allocation.
#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "runtime/checks.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;
using npusim::rt::Context;

namespace {

uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

bool isHuge1G(aclrtMemMallocPolicy p) {
  int base = static_cast<int>(p) & 0xff;
  return base == ACL_MEM_MALLOC_HUGE1G_ONLY || base == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
}

// Shared by every device allocator: `padding` is the extra bytes after ALIGN_UP(size, 32).
// `onDevice` >= 0 places it on that device instead of the current context's.
aclError mallocDevice(ApiCall& api, void** devPtr, size_t size, uint64_t padding, uint64_t align,
                      const char* name, int onDevice = -1) {
  if (!devPtr) return api.fail(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
  if (size == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "size is 0");
  Context* ctx = api.rt.currentContext();
  if (!ctx) return api.fail(ACL_ERROR_RT_CONTEXT_NULL, "no current device (call aclrtSetDevice first)");
  const int device = onDevice >= 0 ? onDevice : ctx->device;
  api.charge(api.rt.costs().alloc);
  uint64_t padded = alignUp(size, 32) + padding;
  if (padded < size) return api.fail(ACL_ERROR_INVALID_PARAM, "size {} overflows", size);
  // Large allocations start on 2 MiB (huge-page) boundaries, as the driver maps them.
  if (padded >= (1u << 20)) align = std::max<uint64_t>(align, 2u << 20);
  void* p = api.rt.memory().allocDevice(device, size, padded, align, name);
  api.args.add("bytes", static_cast<uint64_t>(size)).add("device", device);
  if (!p) {
    auto& m = api.rt.memory().device(device);
    return api.fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                    "device {} is out of memory: {} bytes asked, {} of {} in use", device, padded, m.used(),
                    m.capacity());
  }
  *devPtr = p;
  return api.done();
}

aclError freeDevice(ApiCall& api, void* devPtr) {
  if (!devPtr) return api.fail(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
  api.charge(api.rt.costs().alloc);
  if (aclError e = npusim::rt::checks::beforeFree(api, devPtr)) return e;
  std::string why;
  if (!api.rt.memory().freeDevice(devPtr, &why)) return api.fail(ACL_ERROR_RT_PARAM_INVALID, "{}", why);
  return api.done();
}

// Reads an allocation configuration: the device it names (-1: none). Module ids and VA flags
// only tag the memory on hardware; they change nothing here.
aclError readConfig(ApiCall& api, const aclrtMallocConfig* cfg, int* device) {
  *device = -1;
  if (!cfg) return ACL_SUCCESS;
  if (cfg->numAttrs > 0 && !cfg->attrs) return api.fail(ACL_ERROR_INVALID_PARAM, "cfg->attrs is NULL");
  for (size_t i = 0; i < cfg->numAttrs; ++i) {
    const aclrtMallocAttribute& a = cfg->attrs[i];
    switch (a.attr) {
      case ACL_RT_MEM_ATTR_RSV:
      case ACL_RT_MEM_ATTR_MODULE_ID:
      case ACL_RT_MEM_ATTR_VA_FLAG:
        break;
      case ACL_RT_MEM_ATTR_DEVICE_ID:
        if (a.value.deviceId >= static_cast<uint32_t>(api.rt.deviceCount()))
          return api.fail(ACL_ERROR_INVALID_PARAM, "cfg attrs[{}]: device {} does not exist ({} devices)", i,
                          a.value.deviceId, api.rt.deviceCount());
        *device = static_cast<int>(a.value.deviceId);
        break;
      default:
        return api.fail(ACL_ERROR_INVALID_PARAM, "cfg attrs[{}]: unknown attribute {}", i,
                        static_cast<int>(a.attr));
    }
  }
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtMallocWithCfg(void** devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig* cfg) {
  ApiCall api("aclrtMallocWithCfg");
  if (!api.ok()) return api.notReady();
  int device;
  if (aclError e = readConfig(api, cfg, &device)) return e;
  return mallocDevice(api, devPtr, size, isHuge1G(policy) ? 0 : 32, 64, "aclrtMallocWithCfg", device);
}

// The task scheduler's memory is device memory like any other here (no separate pool is modelled).
aclError aclrtMallocForTaskScheduler(void** devPtr, size_t size, aclrtMemMallocPolicy policy,
                                     aclrtMallocConfig* cfg) {
  ApiCall api("aclrtMallocForTaskScheduler");
  if (!api.ok()) return api.notReady();
  int device;
  if (aclError e = readConfig(api, cfg, &device)) return e;
  return mallocDevice(api, devPtr, size, isHuge1G(policy) ? 0 : 32, 64, "aclrtMallocForTaskScheduler",
                      device);
}

aclError aclrtMallocHostWithCfg(void** ptr, uint64_t size, aclrtMallocConfig* cfg) {
  ApiCall api("aclrtMallocHostWithCfg");
  if (!api.ok()) return api.notReady();
  int device;
  if (aclError e = readConfig(api, cfg, &device)) return e;
  return aclrtMallocHost(ptr, size);
}

// Frees once every device has finished its queued work (the plain frees require the caller to
// have synchronised).
aclError aclrtFreeWithDevSync(void* devPtr) {
  ApiCall api("aclrtFreeWithDevSync");
  if (!api.ok()) return api.notReady();
  if (!devPtr) return api.fail(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
  if (aclError e = aclrtSynchronizeDevice()) return api.done(e);
  return api.done(aclrtFree(devPtr));
}

aclError aclrtFreeHostWithDevSync(void* hostPtr) {
  ApiCall api("aclrtFreeHostWithDevSync");
  if (!api.ok()) return api.notReady();
  if (!hostPtr) return api.fail(ACL_ERROR_INVALID_PARAM, "hostPtr is NULL");
  if (aclError e = aclrtSynchronizeDevice()) return api.done(e);
  return api.done(aclrtFreeHost(hostPtr));
}

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  ApiCall api("aclrtMalloc");
  if (!api.ok()) return api.notReady();
  return mallocDevice(api, devPtr, size, isHuge1G(policy) ? 0 : 32, 64, "aclrtMalloc");
}

aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  ApiCall api("aclrtMallocAlign32");
  if (!api.ok()) return api.notReady();
  (void)policy;
  return mallocDevice(api, devPtr, size, 0, 64, "aclrtMallocAlign32");
}

aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  ApiCall api("aclrtMallocCached");
  if (!api.ok()) return api.notReady();
  return mallocDevice(api, devPtr, size, isHuge1G(policy) ? 0 : 32, 64, "aclrtMallocCached");
}

aclError acldvppMalloc(void** devPtr, size_t size) {
  ApiCall api("acldvppMalloc");
  if (!api.ok()) return api.notReady();
  return mallocDevice(api, devPtr, size, 32, 128, "acldvppMalloc");
}

aclError aclrtFree(void* devPtr) {
  ApiCall api("aclrtFree");
  if (!api.ok()) return api.notReady();
  if (devPtr && api.rt.memory().isManaged(devPtr)) {  // aclrtMemAllocManaged memory
    api.charge(api.rt.costs().alloc);
    api.rt.memory().freeManaged(devPtr);
    return api.done();
  }
  return freeDevice(api, devPtr);
}

aclError acldvppFree(void* devPtr) {
  ApiCall api("acldvppFree");
  if (!api.ok()) return api.notReady();
  return freeDevice(api, devPtr);
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  ApiCall api("aclrtMallocHost");
  if (!api.ok()) return api.notReady();
  if (!hostPtr) return api.fail(ACL_ERROR_INVALID_PARAM, "hostPtr is NULL");
  if (size == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "size is 0");
  api.charge(api.rt.costs().alloc);
  void* p = api.rt.memory().allocHost(size);
  if (!p) return api.fail(ACL_ERROR_BAD_ALLOC, "cannot allocate {} bytes of host memory", size);
  api.args.add("bytes", static_cast<uint64_t>(size));
  *hostPtr = p;
  return api.done();
}

aclError aclrtFreeHost(void* hostPtr) {
  ApiCall api("aclrtFreeHost");
  if (!api.ok()) return api.notReady();
  if (!hostPtr) return api.fail(ACL_ERROR_INVALID_PARAM, "hostPtr is NULL");
  if (api.rt.memory().isRegisteredHost(hostPtr))
    return api.fail(ACL_ERROR_RT_PARAM_INVALID,
                    "{} was registered with aclrtHostRegister: use aclrtHostUnregister", hostPtr);
  if (api.rt.memory().isManaged(hostPtr))
    return api.fail(ACL_ERROR_RT_PARAM_INVALID, "{} is managed memory (aclrtMemAllocManaged): use aclrtFree",
                    hostPtr);
  api.charge(api.rt.costs().alloc);
  bool deferred = false;
  if (aclError e = npusim::rt::checks::beforeFreeHost(api, hostPtr, &deferred)) return e;
  if (deferred) return api.done();  // a queued copy still uses the block: freed when it completes
  if (!api.rt.memory().freeHost(hostPtr))
    return api.fail(ACL_ERROR_RT_PARAM_INVALID,
                    "{} was not returned by aclrtMallocHost (or was already freed)", hostPtr);
  return api.done();
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* freeBytes, size_t* total) {
  ApiCall api("aclrtGetMemInfo");
  if (!api.ok()) return api.notReady();
  if (!freeBytes || !total) return api.fail(ACL_ERROR_INVALID_PARAM, "free or total is NULL");
  Context* ctx = api.rt.currentContext();
  if (!ctx) return api.fail(ACL_ERROR_RT_CONTEXT_NULL, "no current device (call aclrtSetDevice first)");
  auto& m = api.rt.memory().device(ctx->device);
  switch (attr) {
    case ACL_HBM_MEM:
    case ACL_HBM_MEM_HUGE:
    case ACL_HBM_MEM_NORMAL:
    case ACL_HBM_MEM_P2P_HUGE:
    case ACL_HBM_MEM_P2P_NORMAL:
    case ACL_HBM_MEM_HUGE1G:
    case ACL_HBM_MEM_P2P_HUGE1G:
      *total = m.capacity();
      *freeBytes = m.capacity() - m.used();
      break;
    default:  // DDR and other kinds: the simulated device has HBM only
      *total = 0;
      *freeBytes = 0;
      break;
  }
  return api.done();
}

}  // extern "C"

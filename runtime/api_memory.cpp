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
aclError mallocDevice(ApiCall& api, void** devPtr, size_t size, uint64_t padding, uint64_t align,
                      const char* name) {
  if (!devPtr) return api.fail(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
  if (size == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "size is 0");
  Context* ctx = api.rt.currentContext();
  if (!ctx) return api.fail(ACL_ERROR_RT_CONTEXT_NULL, "no current device (call aclrtSetDevice first)");
  api.charge(api.rt.costs().alloc);
  uint64_t padded = alignUp(size, 32) + padding;
  if (padded < size) return api.fail(ACL_ERROR_INVALID_PARAM, "size {} overflows", size);
  // Large allocations start on 2 MiB (huge-page) boundaries, as the driver maps them.
  if (padded >= (1u << 20)) align = std::max<uint64_t>(align, 2u << 20);
  void* p = api.rt.memory().allocDevice(ctx->device, size, padded, align, name);
  api.args.add("bytes", static_cast<uint64_t>(size)).add("device", ctx->device);
  if (!p) {
    auto& m = api.rt.memory().device(ctx->device);
    return api.fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                    "device {} is out of memory: {} bytes asked, {} of {} in use", ctx->device, padded,
                    m.used(), m.capacity());
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

}  // namespace

extern "C" {

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

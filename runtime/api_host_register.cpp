// ACL entry points: host memory registration (zero copy). A registered range becomes pinned host
// memory: asynchronous copies may use it directly, and the device reaches it by DMA across PCIe
// (reads of host memory as completions, writes as posted TLPs), exactly as aclrtMallocHost memory.
// The device address is the host address (unified addressing). Registering costs the host
// allocation time (host.alloc_ns) for pinning the pages.
#include "acl/acl.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;

namespace {

aclError registerRange(ApiCall& api, void* ptr, uint64_t size) {
  if (!ptr || size == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "ptr is NULL or size is 0");
  npusim::rt::PointerInfo info = api.rt.memory().classify(ptr);
  if (info.kind == npusim::rt::PointerKind::Device)
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is device memory, not host memory", ptr);
  api.charge(api.rt.costs().alloc);
  if (!api.rt.memory().registerHost(ptr, size))
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "[{}, +{}) overlaps memory registered before, or pinned memory it does not lie inside",
                    ptr, size);
  api.args.add("bytes", size);
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtHostRegister(void* ptr, uint64_t size, aclrtHostRegisterType type, void** devPtr) {
  ApiCall api("aclrtHostRegister");
  if (!api.ok()) return api.notReady();
  if (!devPtr) return api.fail(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
  if (type != ACL_HOST_REGISTER_MAPPED && type != ACL_HOST_REGISTER_IOMEMORY &&
      type != ACL_HOST_REGISTER_READONLY)
    return api.fail(ACL_ERROR_INVALID_PARAM, "type {} is not an aclrtHostRegisterType",
                    static_cast<int>(type));
  if (aclError e = registerRange(api, ptr, size)) return e;
  *devPtr = ptr;
  return api.done();
}

aclError aclrtHostRegisterV2(void* ptr, uint64_t size, uint32_t flag) {
  ApiCall api("aclrtHostRegisterV2");
  if (!api.ok()) return api.notReady();
  constexpr uint64_t kKnown =
      ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY | ACL_HOST_REG_PINNED;
  if (flag & ~kKnown) return api.fail(ACL_ERROR_INVALID_PARAM, "unknown flag bits 0x{:x}", flag);
  if (aclError e = registerRange(api, ptr, size)) return e;
  return api.done();
}

aclError aclrtHostGetDevicePointer(void* pHost, void** pDevice, uint32_t flag) {
  ApiCall api("aclrtHostGetDevicePointer");
  if (!api.ok()) return api.notReady();
  if (!pHost || !pDevice) return api.fail(ACL_ERROR_INVALID_PARAM, "pHost or pDevice is NULL");
  if (flag != 0) return api.fail(ACL_ERROR_INVALID_PARAM, "flag must be 0");
  if (!api.rt.memory().isDeviceMapped(pHost))
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not inside memory registered with aclrtHostRegister",
                    pHost);
  *pDevice = pHost;
  return api.done();
}

aclError aclrtHostUnregister(void* ptr) {
  ApiCall api("aclrtHostUnregister");
  if (!api.ok()) return api.notReady();
  if (!api.rt.memory().unregisterHost(ptr))
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not the start of a registered range", ptr);
  api.charge(api.rt.costs().alloc);
  return api.done();
}

}  // extern "C"

// ACL entry points that ask about memory: what a pointer is (aclrtPointerGetAttributes,
// aclrtCheckMemType, aclrtMemGetAddressRange), how much a device uses (aclrtGetMemUsageInfo),
// its error record (aclrtGetMemUceInfo, aclrtMemUceRepair), whether engines can map host memory, and the
// cache maintenance calls, which have nothing to do: simulated memory is coherent between the host and the
// device (no CPU or device cache holds stale data), so they only check their range.
#include <cstring>

#include "acl/acl.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;
using npusim::rt::PointerInfo;
using npusim::rt::PointerKind;

namespace {

constexpr uint32_t kSmallPage = 4096, kHugePage = 2u << 20;

// Checks that [ptr, ptr+size) is device memory of one allocation (or a mapping).
aclError deviceRange(ApiCall& api, const void* ptr, size_t size) {
  if (!ptr) return api.fail(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
  if (size == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "size is 0");
  const PointerInfo info = api.rt.memory().classify(ptr);
  if (info.kind != PointerKind::Device || !api.rt.memory().rangeInside(info, ptr, size))
    return api.fail(ACL_ERROR_INVALID_PARAM, "[{}, +{}) is not inside one device allocation", ptr, size);
  return ACL_SUCCESS;
}

aclError coherent(const char* name, void* devPtr, size_t size) {
  ApiCall api(name);
  if (!api.ok()) return api.notReady();
  if (aclError e = deviceRange(api, devPtr, size)) return e;
  return api.done();
}

// The memory type bits of aclrtCheckMemType that `p` has (0: none of them).
uint32_t memTypeOf(ApiCall& api, const void* p) {
  const PointerInfo info = api.rt.memory().classify(p);
  if (info.kind != PointerKind::Device) return 0;
  if (!info.alloc) return ACL_RT_MEM_TYPE_RSVD;  // a virtual-memory mapping
  return info.alloc->api == "acldvppMalloc" ? ACL_RT_MEM_TYPE_DVPP : ACL_RT_MEM_TYPE_DEV;
}

}  // namespace

extern "C" {

aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes) {
  ApiCall api("aclrtPointerGetAttributes");
  if (!api.ok()) return api.notReady();
  if (!ptr || !attributes) return api.fail(ACL_ERROR_INVALID_PARAM, "ptr or attributes is NULL");
  std::memset(attributes, 0, sizeof *attributes);
  npusim::rt::MemoryManager& mem = api.rt.memory();
  const PointerInfo info = mem.classify(ptr);
  attributes->pageSize = kSmallPage;
  if (info.kind == PointerKind::Device) {
    attributes->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    attributes->location.id = static_cast<uint32_t>(info.device);
    // Allocations of 1 MiB and more are placed on 2 MiB pages (api_memory.cpp).
    if (!info.alloc || info.alloc->size >= (1u << 20)) attributes->pageSize = kHugePage;
  } else if (info.kind == PointerKind::PinnedHost) {
    const void* block = mem.pinnedBlock(ptr);
    attributes->location.type =
        block && mem.isManaged(block) ? ACL_MEM_LOCATION_TYPE_MANAGED : ACL_MEM_LOCATION_TYPE_HOST;
  } else {
    attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
  }
  return api.done();
}

aclError aclrtCheckMemType(void** addrList, uint32_t size, uint32_t memType, uint32_t* checkResult,
                           uint32_t reserve) {
  ApiCall api("aclrtCheckMemType");
  if (!api.ok()) return api.notReady();
  (void)reserve;
  if (!addrList || !checkResult || size == 0)
    return api.fail(ACL_ERROR_INVALID_PARAM, "addrList or checkResult is NULL, or size is 0");
  const uint32_t known = ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP | ACL_RT_MEM_TYPE_RSVD;
  if (memType == 0 || (memType & ~known) != 0)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "memType {:#x} is not a combination of ACL_RT_MEM_TYPE_DEV/DVPP/RSVD", memType);
  // 1 when every address is memory of one of the asked types.
  *checkResult = 1;
  for (uint32_t i = 0; i < size; ++i)
    if ((memTypeOf(api, addrList[i]) & memType) == 0) *checkResult = 0;
  return api.done();
}

aclError aclrtMemGetAddressRange(void* ptr, void** pbase, size_t* psize) {
  ApiCall api("aclrtMemGetAddressRange");
  if (!api.ok()) return api.notReady();
  if (!ptr || (!pbase && !psize))
    return api.fail(ACL_ERROR_INVALID_PARAM, "ptr is NULL, or both outputs are");
  npusim::rt::MemoryManager& mem = api.rt.memory();
  const PointerInfo info = mem.classify(ptr);
  if (info.kind != PointerKind::Device || !info.alloc)
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not inside a device allocation", ptr);
  const uintptr_t base = mem.device(info.alloc->device).base() + info.alloc->offset;
  if (pbase) *pbase = reinterpret_cast<void*>(base);
  if (psize) *psize = info.alloc->requested;
  return api.done();
}

aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo* memUsageInfo, size_t inputNum,
                              size_t* outputNum) {
  ApiCall api("aclrtGetMemUsageInfo");
  if (!api.ok()) return api.notReady();
  if (!memUsageInfo || !outputNum || inputNum == 0)
    return api.fail(ACL_ERROR_INVALID_PARAM, "memUsageInfo or outputNum is NULL, or inputNum is 0");
  if (deviceId < 0 || deviceId >= api.rt.deviceCount())
    return api.fail(ACL_ERROR_INVALID_PARAM, "device {} does not exist ({} devices)", deviceId,
                    api.rt.deviceCount());
  // One user of device memory: the program's allocations (npusim keeps no runtime-internal pools).
  const npusim::rt::DeviceMemory& d = api.rt.memory().device(deviceId);
  std::memset(memUsageInfo, 0, sizeof *memUsageInfo);
  std::strncpy(memUsageInfo->name, "app", sizeof memUsageInfo->name - 1);
  memUsageInfo->curMemSize = d.used();
  memUsageInfo->memPeakSize = d.peak();
  *outputNum = 1;
  return api.done();
}

// The device's record of uncorrectable memory errors: the simulated HBM makes none, so it is empty
// and every range is already sound. arraySize 0 is a valid question (the record needs no room).
aclError aclrtGetMemUceInfo(int32_t deviceId, aclrtMemUceInfo* memUceInfoArray, size_t arraySize,
                            size_t* retSize) {
  ApiCall api("aclrtGetMemUceInfo");
  if (!api.ok()) return api.notReady();
  (void)arraySize;
  if (!memUceInfoArray || !retSize)
    return api.fail(ACL_ERROR_INVALID_PARAM, "memUceInfoArray or retSize is NULL");
  if (deviceId < 0 || deviceId >= api.rt.deviceCount())
    return api.fail(ACL_ERROR_RT_INVALID_DEVICEID, "device {} does not exist ({} devices)", deviceId,
                    api.rt.deviceCount());
  *retSize = 0;
  return api.done();
}

// Repairs the ranges aclrtGetMemUceInfo reported. The record is always empty here, so nothing needs
// remapping: the call checks what the real one checks (at most ACL_RT_MAX_RECORD_PA_NUM_PER_DEV
// entries, reserved fields zero, the device current in this thread) and that each entry is memory of
// that device, then leaves the record empty, as a successful repair does.
aclError aclrtMemUceRepair(int32_t deviceId, aclrtMemUceInfo* memUceInfoArray, size_t arraySize) {
  ApiCall api("aclrtMemUceRepair");
  if (!api.ok()) return api.notReady();
  if (!memUceInfoArray) return api.fail(ACL_ERROR_INVALID_PARAM, "memUceInfoArray is NULL");
  if (arraySize > ACL_RT_MAX_RECORD_PA_NUM_PER_DEV)
    return api.fail(ACL_ERROR_INVALID_PARAM, "arraySize {} is above ACL_RT_MAX_RECORD_PA_NUM_PER_DEV ({})",
                    arraySize, ACL_RT_MAX_RECORD_PA_NUM_PER_DEV);
  for (size_t i = 0; i < arraySize; ++i)
    for (size_t r : memUceInfoArray[i].reserved)
      if (r != 0) return api.fail(ACL_ERROR_INVALID_PARAM, "memUceInfoArray[{}].reserved is not all 0", i);
  if (deviceId < 0 || deviceId >= api.rt.deviceCount())
    return api.fail(ACL_ERROR_RT_INVALID_DEVICEID, "device {} does not exist ({} devices)", deviceId,
                    api.rt.deviceCount());
  aclError err;
  const npusim::rt::Context* ctx = api.context(&err);
  if (!ctx) return err;
  if (ctx->device != deviceId)
    return api.fail(ACL_ERROR_RT_CONTEXT_NULL,
                    "device {} is not the current device ({}): call aclrtSetDevice", deviceId, ctx->device);
  for (size_t i = 0; i < arraySize; ++i) {
    const aclrtMemUceInfo& u = memUceInfoArray[i];
    const PointerInfo info = api.rt.memory().classify(u.addr);
    if (!u.addr || u.len == 0 || info.kind != PointerKind::Device || info.device != deviceId ||
        !api.rt.memory().rangeInside(info, u.addr, u.len))
      return api.fail(ACL_ERROR_INVALID_PARAM, "memUceInfoArray[{}] [{}, +{}) is not memory of device {}", i,
                      u.addr, u.len, deviceId);
  }
  return api.done();
}

aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
                                     aclrtHostMemMapCapability* capabilities) {
  ApiCall api("aclrtHostMemMapCapabilities");
  if (!api.ok()) return api.notReady();
  if (!capabilities) return api.fail(ACL_ERROR_INVALID_PARAM, "capabilities is NULL");
  if (deviceId >= static_cast<uint32_t>(api.rt.deviceCount()))
    return api.fail(ACL_ERROR_INVALID_PARAM, "device {} does not exist ({} devices)", deviceId,
                    api.rt.deviceCount());
  if (hacType < ACL_RT_HAC_TYPE_STARS || hacType > ACL_RT_HAC_TYPE_CCU)
    return api.fail(ACL_ERROR_INVALID_PARAM, "hacType {} is not an aclrtHacType", static_cast<int>(hacType));
  // The engines npusim models reading registered host memory: AI cores (zero copy) and the DMA.
  const bool mapped = hacType == ACL_RT_HAC_TYPE_AIC || hacType == ACL_RT_HAC_TYPE_AIV ||
                      hacType == ACL_RT_HAC_TYPE_PCIEDMA || hacType == ACL_RT_HAC_TYPE_SDMA;
  *capabilities = mapped ? ACL_RT_HOST_MEM_MAP_SUPPORTED : ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
  return api.done();
}

aclError aclrtMemFlush(void* devPtr, size_t size) { return coherent("aclrtMemFlush", devPtr, size); }

aclError aclrtMemInvalidate(void* devPtr, size_t size) {
  return coherent("aclrtMemInvalidate", devPtr, size);
}

aclError aclrtDeviceL2CacheFlush(void* rsv) {
  ApiCall api("aclrtDeviceL2CacheFlush");
  if (!api.ok()) return api.notReady();
  if (rsv) return api.fail(ACL_ERROR_INVALID_PARAM, "rsv is reserved and must be NULL");
  aclError err;
  if (!api.context(&err)) return err;
  return api.done();  // no device cache is modelled, so none holds data to write back
}

}  // extern "C"

// ACL entry points: virtual memory. Reserved address ranges come from a window of the process's
// address space reserved PROT_NONE at a fixed hint (so a host dereference faults, and addresses are
// the same in every run); physical allocations come from a device's HBM; a mapping makes a
// virtual range device memory for every copy, memset and operator (MemoryManager::mapRange), timed
// on the physical pages; mappings placed back to back are one contiguous range. Shareable handles work
// between the handles of one process; a physical allocation lives until its last handle is freed and its last
// mapping removed. Each call charges the host allocation cost (host.alloc_ns), as the driver's page-table
// work does.
#include <sys/mman.h>
#include <unistd.h>

#include <map>
#include <memory>
#include <set>

#include "acl/acl.h"
#include "runtime/runtime.h"
#include "runtime/unsupported.h"

using npusim::rt::ApiCall;

namespace {

constexpr uint64_t kGranularity = 2ull << 20;     // 2 MiB pages, as aclrtMalloc's huge pages
constexpr uint64_t kGranularity1G = 1ull << 30;   // the HUGE1G attributes
constexpr uintptr_t kVaBase = 0x400000000000ULL;  // 64 TiB, above the device windows (16 TiB + 1 TiB each)
constexpr uint64_t kVaSize = 4ull << 40;

// Physical memory on one device, shared by every handle naming it.
struct Physical {
  int device = 0;
  uint64_t offset = 0, size = 0;
  aclrtPhysicalMemProp prop{};
  ~Physical() { npusim::rt::Runtime::get().memory().device(device).release(offset, size); }
};

struct Handle {
  std::shared_ptr<Physical> phys;
};

struct Mapping {
  uint64_t size = 0;
  std::shared_ptr<Physical> phys;  // keeps the pages while mapped
  // aclrtMemSetAccess: the access each device was given (aclrtMapMem gives the memory's own device
  // read-write; aclrtMemMapNoAccess none). Kept and reported; copies do not check it.
  std::map<uint32_t, aclrtMemAccessFlags> access;
};

struct Reservation {
  uint64_t size = 0;
  std::map<uintptr_t, Mapping> mappings;  // by virtual address
};

struct Vmm {
  uintptr_t base = 0;
  std::unique_ptr<npusim::rt::RangeAllocator> ranges;
  std::map<uintptr_t, Reservation> reservations;
  std::set<Handle*> handles;
  std::map<uint64_t, std::weak_ptr<Physical>> exported;  // shareable handle -> memory (while it lives)
  uint64_t nextShareable = 1;
};

Vmm& vmm() {
  static auto* v = new Vmm();  // mappings may outlive static destruction order
  return *v;
}

// Mappings, handles and the window belong to one simulation's device memory: aclFinalize
// releases them, and the next simulation reserves a fresh window.
[[maybe_unused]] const bool kForgottenAtEnd = (npusim::rt::Runtime::onSimulationEnd([] {
                                                 Vmm& v = vmm();
                                                 for (Handle* h : v.handles) delete h;
                                                 if (v.base) munmap(reinterpret_cast<void*>(v.base), kVaSize);
                                                 v = Vmm();
                                               }),
                                               true);

bool ensureWindow(ApiCall& api, aclError* err) {
  Vmm& v = vmm();
  if (v.base) return true;
  int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
  void* hint = reinterpret_cast<void*>(kVaBase);
#ifdef MAP_FIXED_NOREPLACE
  void* va = mmap(hint, kVaSize, PROT_NONE, flags | MAP_FIXED_NOREPLACE, -1, 0);
  if (va == MAP_FAILED) va = mmap(hint, kVaSize, PROT_NONE, flags, -1, 0);
#else
  void* va = mmap(hint, kVaSize, PROT_NONE, flags, -1, 0);
#endif
  if (va == MAP_FAILED) {
    *err = api.fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "cannot reserve the virtual-memory window");
    return false;
  }
  v.base = reinterpret_cast<uintptr_t>(va);
  v.ranges = std::make_unique<npusim::rt::RangeAllocator>(kVaSize);
  api.rt.memory().setVirtualWindow(v.base, kVaSize);
  return true;
}

bool is1G(aclrtMemAttr a) {
  return a == ACL_HBM_MEM_HUGE1G || a == ACL_HBM_MEM_P2P_HUGE1G || a == ACL_MEM_HUGE1G ||
         a == ACL_MEM_P2P_HUGE1G;
}

// Validates a physical-memory property; returns its granularity (0 after failing `api`).
uint64_t granularityOf(ApiCall& api, const aclrtPhysicalMemProp* prop, aclError* err) {
  if (!prop) {
    *err = api.fail(ACL_ERROR_INVALID_PARAM, "prop is NULL");
    return 0;
  }
  if (prop->location.type != ACL_MEM_LOCATION_TYPE_DEVICE ||
      prop->location.id >= static_cast<uint32_t>(api.rt.deviceCount())) {
    *err = api.fail(ACL_ERROR_INVALID_PARAM, "prop->location must be a device (type {}, id {})",
                    static_cast<int>(prop->location.type), prop->location.id);
    return 0;
  }
  if (prop->allocationType != ACL_MEM_ALLOCATION_TYPE_PINNED) {
    *err = api.fail(ACL_ERROR_INVALID_PARAM, "prop->allocationType must be ACL_MEM_ALLOCATION_TYPE_PINNED");
    return 0;
  }
  return is1G(prop->memAttr) ? kGranularity1G : kGranularity;
}

Handle* handleArg(ApiCall& api, aclrtDrvMemHandle h, aclError* err) {
  auto* p = static_cast<Handle*>(h);
  if (!p || !vmm().handles.count(p)) {
    *err = api.fail(ACL_ERROR_INVALID_PARAM, "handle is not a live physical-memory handle");
    return nullptr;
  }
  return p;
}

// The reservation containing [va, va+size), or nullptr.
Reservation* reservationOf(uintptr_t va, uint64_t size, uintptr_t* start) {
  auto& rs = vmm().reservations;
  auto it = rs.upper_bound(va);
  if (it == rs.begin()) return nullptr;
  --it;
  if (va + size < va || va + size > it->first + it->second.size) return nullptr;
  *start = it->first;
  return &it->second;
}

aclrtDrvMemHandle newHandle(std::shared_ptr<Physical> phys) {
  auto* h = new Handle{std::move(phys)};
  vmm().handles.insert(h);
  return h;
}

}  // namespace

extern "C" {

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp* prop, aclrtMemGranularityOptions option,
                                          size_t* granularity) {
  ApiCall api("aclrtMemGetAllocationGranularity");
  if (!api.ok()) return api.notReady();
  if (!granularity) return api.fail(ACL_ERROR_INVALID_PARAM, "granularity is NULL");
  if (option != ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM && option != ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED)
    return api.fail(ACL_ERROR_INVALID_PARAM, "option {} is neither MINIMUM nor RECOMMENDED",
                    static_cast<int>(option));
  aclError err;
  uint64_t g = granularityOf(api, prop, &err);
  if (!g) return err;
  *granularity = g;
  return api.done();
}

aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr,
                                uint64_t flags) {
  ApiCall api("aclrtReserveMemAddress");
  if (!api.ok()) return api.notReady();
  if (!virPtr) return api.fail(ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
  if (expectPtr) return api.fail(ACL_ERROR_INVALID_PARAM, "expectPtr must be NULL");
  if (flags > 1) return api.fail(ACL_ERROR_INVALID_PARAM, "flags {} is not a page type (0 or 1)", flags);
  if (size == 0 || size % kGranularity)
    return api.fail(ACL_ERROR_INVALID_PARAM, "size {} is not a positive multiple of the 2 MiB granularity",
                    size);
  if (alignment & (alignment - 1))
    return api.fail(ACL_ERROR_INVALID_PARAM, "alignment {} is not a power of two", alignment);
  aclError err;
  if (!ensureWindow(api, &err)) return err;
  api.charge(api.rt.costs().alloc);
  Vmm& v = vmm();
  uint64_t off = v.ranges->allocate(size, std::max<uint64_t>(alignment, kGranularity));
  if (off == UINT64_MAX)
    return api.fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "no free virtual range of {} bytes", size);
  uintptr_t va = v.base + off;
  v.reservations[va].size = size;
  *virPtr = reinterpret_cast<void*>(va);
  api.args.addHex("va", va).add("bytes", static_cast<uint64_t>(size));
  return api.done();
}

aclError aclrtReleaseMemAddress(void* virPtr) {
  ApiCall api("aclrtReleaseMemAddress");
  if (!api.ok()) return api.notReady();
  Vmm& v = vmm();
  auto it = v.reservations.find(reinterpret_cast<uintptr_t>(virPtr));
  if (it == v.reservations.end())
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not a reserved range", virPtr);
  if (!it->second.mappings.empty())
    return api.fail(ACL_ERROR_INVALID_PARAM, "the range still has {} mapping(s): unmap them first",
                    it->second.mappings.size());
  api.charge(api.rt.costs().alloc);
  v.ranges->release(it->first - v.base, it->second.size);
  v.reservations.erase(it);
  return api.done();
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size, const aclrtPhysicalMemProp* prop,
                             uint64_t flags) {
  ApiCall api("aclrtMallocPhysical");
  if (!api.ok()) return api.notReady();
  if (!handle) return api.fail(ACL_ERROR_INVALID_PARAM, "handle is NULL");
  if (flags != 0) return api.fail(ACL_ERROR_INVALID_PARAM, "flags must be 0");
  aclError err;
  uint64_t g = granularityOf(api, prop, &err);
  if (!g) return err;
  if (size == 0 || size % g)
    return api.fail(ACL_ERROR_INVALID_PARAM, "size {} is not a positive multiple of the granularity {}", size,
                    g);
  api.charge(api.rt.costs().alloc);
  int dev = static_cast<int>(prop->location.id);
  auto& mem = api.rt.memory().device(dev);
  uint64_t off = mem.allocate(size, g);
  if (off == UINT64_MAX)
    return api.fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "device {} has no {} free bytes of HBM", dev, size);
  auto phys = std::make_shared<Physical>();
  phys->device = dev;
  phys->offset = off;
  phys->size = size;
  phys->prop = *prop;
  *handle = newHandle(std::move(phys));
  api.args.add("device", dev).add("bytes", static_cast<uint64_t>(size));
  return api.done();
}

aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
  ApiCall api("aclrtFreePhysical");
  if (!api.ok()) return api.notReady();
  aclError err;
  Handle* h = handleArg(api, handle, &err);
  if (!h) return err;
  api.charge(api.rt.costs().alloc);
  vmm().handles.erase(h);
  delete h;  // the pages go when no other handle or mapping holds them
  return api.done();
}

}  // extern "C"

namespace {

aclError mapMem(const char* name, void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                uint64_t flags, bool access) {
  ApiCall api(name);
  if (!api.ok()) return api.notReady();
  if (flags != 0) return api.fail(ACL_ERROR_INVALID_PARAM, "flags must be 0");
  aclError err;
  Handle* h = handleArg(api, handle, &err);
  if (!h) return err;
  uintptr_t va = reinterpret_cast<uintptr_t>(virPtr), start = 0;
  Reservation* r = reservationOf(va, size, &start);
  if (!r)
    return api.fail(ACL_ERROR_INVALID_PARAM, "[{}, +{}) is not inside one reserved range", virPtr, size);
  uint64_t g = is1G(h->phys->prop.memAttr) ? kGranularity1G : kGranularity;
  if (size == 0 || size % g || offset % g || (va - start) % g)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "address, size and offset must be multiples of the granularity {}", g);
  if (offset + size > h->phys->size || offset + size < offset)
    return api.fail(ACL_ERROR_INVALID_PARAM, "offset {} + size {} exceeds the {} bytes of the handle", offset,
                    size, h->phys->size);
  auto next = r->mappings.lower_bound(va);
  bool overlaps = (next != r->mappings.end() && next->first < va + size) ||
                  (next != r->mappings.begin() && std::prev(next)->first + std::prev(next)->second.size > va);
  if (overlaps)
    return api.fail(ACL_ERROR_INVALID_PARAM, "[{}, +{}) overlaps an existing mapping", virPtr, size);
  api.charge(api.rt.costs().alloc);
  r->mappings[va] = Mapping{size, h->phys, {}};
  if (access)
    r->mappings[va].access[static_cast<uint32_t>(h->phys->device)] = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
  api.rt.memory().mapRange(va, size, h->phys->device, h->phys->offset + offset);
  api.args.addHex("va", va).add("bytes", static_cast<uint64_t>(size)).add("device", h->phys->device);
  return api.done();
}

}  // namespace

extern "C" {

aclError aclrtMapMem(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags) {
  return mapMem("aclrtMapMem", virPtr, size, offset, handle, flags, true);
}

// The same mapping without page tables on any device until aclrtMemSetAccess gives them.
aclError aclrtMemMapNoAccess(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                             uint64_t flags) {
  return mapMem("aclrtMemMapNoAccess", virPtr, size, offset, handle, flags, false);
}

aclError aclrtUnmapMem(void* virPtr) {
  ApiCall api("aclrtUnmapMem");
  if (!api.ok()) return api.notReady();
  uintptr_t va = reinterpret_cast<uintptr_t>(virPtr), start = 0;
  Reservation* r = reservationOf(va, 1, &start);
  auto it = r ? r->mappings.find(va) : decltype(r->mappings.end()){};
  if (!r || it == r->mappings.end())
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not the start of a mapping", virPtr);
  api.charge(api.rt.costs().alloc);
  api.rt.memory().unmapRange(va);
  r->mappings.erase(it);
  return api.done();
}

// Access from the physical memory's own device is always read-write; another device's access
// follows peer access (aclrtDeviceEnablePeerAccess), which the copy checks already enforce.
aclError aclrtMemSetAccess(void* virPtr, size_t size, aclrtMemAccessDesc* desc, size_t count) {
  ApiCall api("aclrtMemSetAccess");
  if (!api.ok()) return api.notReady();
  if (!desc || count == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "desc is NULL or count is 0");
  uintptr_t start = 0;
  if (!reservationOf(reinterpret_cast<uintptr_t>(virPtr), size, &start) || size == 0)
    return api.fail(ACL_ERROR_INVALID_PARAM, "[{}, +{}) is not inside one reserved range", virPtr, size);
  for (size_t i = 0; i < count; ++i) {
    const aclrtMemAccessDesc& d = desc[i];
    if (d.location.type != ACL_MEM_LOCATION_TYPE_DEVICE ||
        d.location.id >= static_cast<uint32_t>(api.rt.deviceCount()))
      return api.fail(ACL_ERROR_INVALID_PARAM, "desc[{}].location must be a device", i);
    if (d.flags != ACL_RT_MEM_ACCESS_FLAGS_NONE && d.flags != ACL_RT_MEM_ACCESS_FLAGS_READ &&
        d.flags != ACL_RT_MEM_ACCESS_FLAGS_READWRITE)
      return api.fail(ACL_ERROR_INVALID_PARAM, "desc[{}].flags {} is unknown", i, static_cast<int>(d.flags));
  }
  const uintptr_t va = reinterpret_cast<uintptr_t>(virPtr);
  Reservation* r = reservationOf(va, size, &start);
  for (auto& [mva, m] : r->mappings)
    if (mva < va + size && mva + m.size > va)
      for (size_t i = 0; i < count; ++i) m.access[desc[i].location.id] = desc[i].flags;
  return api.done();
}

aclError aclrtMemGetAccess(void* virPtr, aclrtMemLocation* location, uint64_t* flag) {
  ApiCall api("aclrtMemGetAccess");
  if (!api.ok()) return api.notReady();
  if (!location || !flag) return api.fail(ACL_ERROR_INVALID_PARAM, "location or flag is NULL");
  if (location->type != ACL_MEM_LOCATION_TYPE_DEVICE && location->type != ACL_MEM_LOCATION_TYPE_HOST)
    return api.fail(ACL_ERROR_INVALID_PARAM, "location.type must be HOST or DEVICE");
  uintptr_t start = 0;
  const uintptr_t va = reinterpret_cast<uintptr_t>(virPtr);
  Reservation* r = reservationOf(va, 1, &start);
  auto it = r ? r->mappings.find(va) : decltype(r->mappings.end()){};
  if (!r || it == r->mappings.end())
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not the start of a mapping (aclrtMapMem)", virPtr);
  auto a = location->type == ACL_MEM_LOCATION_TYPE_DEVICE ? it->second.access.find(location->id)
                                                          : it->second.access.end();
  *flag = a == it->second.access.end() ? ACL_RT_MEM_ACCESS_FLAGS_NONE : a->second;
  return api.done();
}

aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType,
                                         uint64_t flags, uint64_t* shareableHandle) {
  ApiCall api("aclrtMemExportToShareableHandle");
  if (!api.ok()) return api.notReady();
  if (!shareableHandle) return api.fail(ACL_ERROR_INVALID_PARAM, "shareableHandle is NULL");
  if (handleType != ACL_MEM_HANDLE_TYPE_NONE)
    return api.fail(ACL_ERROR_INVALID_PARAM, "handleType must be NONE");
  if (flags > ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
    return api.fail(ACL_ERROR_INVALID_PARAM, "flags {} unknown", flags);
  aclError err;
  Handle* h = handleArg(api, handle, &err);
  if (!h) return err;
  Vmm& v = vmm();
  uint64_t id = v.nextShareable++;
  v.exported[id] = h->phys;
  *shareableHandle = id;
  return api.done();
}

aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
                                           aclrtDrvMemHandle* handle) {
  ApiCall api("aclrtMemImportFromShareableHandle");
  if (!api.ok()) return api.notReady();
  if (!handle) return api.fail(ACL_ERROR_INVALID_PARAM, "handle is NULL");
  if (deviceId < 0 || deviceId >= api.rt.deviceCount())
    return api.fail(ACL_ERROR_INVALID_PARAM, "device {} does not exist", deviceId);
  auto it = vmm().exported.find(shareableHandle);
  std::shared_ptr<Physical> phys = it == vmm().exported.end() ? nullptr : it->second.lock();
  if (!phys) {  // not this process's: another process exported it (or nobody did)
    const std::string what =
        fmt::format("shareable handle {} was not exported by this process", shareableHandle);
    return api.done(npusim::rt::refuseCrossProcess("aclrtMemImportFromShareableHandle", what.c_str()));
  }
  *handle = newHandle(std::move(phys));
  return api.done();
}

aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t* pid, size_t pidNum) {
  ApiCall api("aclrtMemSetPidToShareableHandle");
  if (!api.ok()) return api.notReady();
  if (!pid || pidNum == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "pid is NULL or pidNum is 0");
  if (!vmm().exported.count(shareableHandle))
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not an exported shareable handle", shareableHandle);
  for (size_t i = 0; i < pidNum; ++i)
    if (pid[i] != getpid()) {
      const std::string other = fmt::format("pid {} is another process", pid[i]);
      return api.done(npusim::rt::refuseCrossProcess("aclrtMemSetPidToShareableHandle", other.c_str()));
    }
  return api.done();
}

aclError aclrtMemRetainAllocationHandle(void* virPtr, aclrtDrvMemHandle* handle) {
  ApiCall api("aclrtMemRetainAllocationHandle");
  if (!api.ok()) return api.notReady();
  if (!handle) return api.fail(ACL_ERROR_INVALID_PARAM, "handle is NULL");
  uintptr_t va = reinterpret_cast<uintptr_t>(virPtr), start = 0;
  Reservation* r = reservationOf(va, 1, &start);
  if (r) {
    auto it = r->mappings.upper_bound(va);
    if (it != r->mappings.begin() && va < std::prev(it)->first + std::prev(it)->second.size) {
      *handle = newHandle(std::prev(it)->second.phys);
      return api.done();
    }
  }
  return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not inside a mapping", virPtr);
}

aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle, aclrtPhysicalMemProp* prop) {
  ApiCall api("aclrtMemGetAllocationPropertiesFromHandle");
  if (!api.ok()) return api.notReady();
  if (!prop) return api.fail(ACL_ERROR_INVALID_PARAM, "prop is NULL");
  aclError err;
  Handle* h = handleArg(api, handle, &err);
  if (!h) return err;
  *prop = h->phys->prop;
  return api.done();
}

}  // extern "C"

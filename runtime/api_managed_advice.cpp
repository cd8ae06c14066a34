// ACL entry points: advice, attributes and prefetch of managed memory (aclrtMemAllocManaged).
// Advice is kept per 2 MiB page (the granularity the CANN reference gives) and read back as the
// reference says: a range answers a value only when all its pages agree (-2, or INVALID, when
// they do not). A prefetch is the migration made explicit: a DMA copy of the range across PCIe to
// the device (or back to the host) on the stream, in the trace as "Prefetch"; the data stays
// where it is (npusim keeps managed memory in one place, docs/runtime-surface.md).
#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <vector>

#include "acl/acl.h"
#include "runtime/copy_plan.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;

namespace {

constexpr uint64_t kPage = 2ull << 20;
constexpr int32_t kMixed = -2, kHost = -1;

struct Location {
  aclrtMemManagedLocationType type = ACL_MEM_LOCATIONTYPE_INVALID;
  int32_t id = 0;
  bool operator==(const Location& o) const {
    return type == o.type && (type == ACL_MEM_LOCATIONTYPE_HOST || id == o.id);
  }
  int32_t asId() const {
    return type == ACL_MEM_LOCATIONTYPE_HOST ? kHost : type == ACL_MEM_LOCATIONTYPE_INVALID ? kMixed : id;
  }
};

struct Page {
  bool readMostly = false;
  Location preferred, lastPrefetch;
  std::set<int32_t> accessedBy;  // ids (-1: the host)
};

std::map<uintptr_t, std::vector<Page>>& advice() {
  static auto* a = new std::map<uintptr_t, std::vector<Page>>();  // by managed block start
  return *a;
}

// Managed blocks are released at aclFinalize: their advice goes too, so a block of a later
// simulation at the same address starts without any.
[[maybe_unused]] const bool kForgottenAtEnd =
    (npusim::rt::Runtime::onSimulationEnd([] { advice().clear(); }), true);

// The pages of [ptr, ptr+size) inside one managed block, or an error.
aclError pagesOf(ApiCall& api, const void* ptr, uint64_t size, std::vector<Page*>* out) {
  npusim::rt::MemoryManager& mem = api.rt.memory();
  const void* block = ptr ? mem.pinnedBlock(ptr) : nullptr;
  if (!block || !mem.isManaged(block))
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not managed memory (aclrtMemAllocManaged)", ptr);
  const uint64_t blockSize = mem.pinnedSize(block);
  const uint64_t off = reinterpret_cast<uintptr_t>(ptr) - reinterpret_cast<uintptr_t>(block);
  if (size == 0 || size > blockSize - off)
    return api.fail(ACL_ERROR_INVALID_PARAM, "[{}, +{}) is not inside the managed block of {} bytes", ptr,
                    size, blockSize);
  auto& pages = advice()[reinterpret_cast<uintptr_t>(block)];
  pages.resize((blockSize + kPage - 1) / kPage);
  out->clear();
  for (uint64_t p = off / kPage; p <= (off + size - 1) / kPage; ++p) out->push_back(&pages[p]);
  return ACL_SUCCESS;
}

aclError checkLocation(ApiCall& api, const aclrtMemManagedLocation& l) {
  if (l.type == ACL_MEM_LOCATIONTYPE_HOST) return ACL_SUCCESS;
  if (l.type == ACL_MEM_LOCATIONTYPE_DEVICE && l.id >= 0 && l.id < api.rt.deviceCount()) return ACL_SUCCESS;
  return api.fail(ACL_ERROR_INVALID_PARAM,
                  "location (type {}, id {}) is neither the host nor a simulated device",
                  static_cast<int>(l.type), l.id);
}

// The value all pages share, or `mixed`.
template <typename F, typename T>
T common(const std::vector<Page*>& pages, F get, T mixed) {
  T v = get(*pages.front());
  for (const Page* p : pages)
    if (!(get(*p) == v)) return mixed;
  return v;
}

aclError readAttribute(ApiCall& api, aclrtMemManagedRangeAttribute attr, const std::vector<Page*>& pages,
                       void* data, size_t dataSize) {
  if (!data) return api.fail(ACL_ERROR_INVALID_PARAM, "data is NULL");
  auto put = [&](int32_t v) {
    if (dataSize != 4)
      return api.fail(ACL_ERROR_INVALID_PARAM, "dataSize must be 4 for this attribute (got {})", dataSize);
    std::memcpy(data, &v, 4);
    return ACL_SUCCESS;
  };
  auto loc = [&](Location Page::*field) {
    return common(
        pages, [field](const Page& p) { return p.*field; }, Location{});
  };
  switch (attr) {
    case ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
      return put(common(
                     pages, [](const Page& p) { return p.readMostly; }, false)
                     ? 1
                     : 0);
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION:
      return put(loc(&Page::preferred).asId());
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
      return put(loc(&Page::preferred).type);
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
      return put(loc(&Page::preferred).id);
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION:
      return put(loc(&Page::lastPrefetch).asId());
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE:
      return put(loc(&Page::lastPrefetch).type);
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID:
      return put(loc(&Page::lastPrefetch).id);
    case ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY: {
      if (dataSize == 0 || dataSize % 4 != 0)
        return api.fail(ACL_ERROR_INVALID_PARAM, "dataSize must be a multiple of 4 (got {})", dataSize);
      // The ids every page of the range is accessed by; the rest of the array is -2.
      std::set<int32_t> ids = pages.front()->accessedBy;
      for (const Page* p : pages) {
        std::set<int32_t> both;
        std::set_intersection(ids.begin(), ids.end(), p->accessedBy.begin(), p->accessedBy.end(),
                              std::inserter(both, both.begin()));
        ids = both;
      }
      auto* out = static_cast<int32_t*>(data);
      size_t i = 0;
      for (auto it = ids.begin(); it != ids.end() && i < dataSize / 4; ++it) out[i++] = *it;
      for (; i < dataSize / 4; ++i) out[i] = kMixed;
      return ACL_SUCCESS;
    }
  }
  return api.fail(ACL_ERROR_INVALID_PARAM, "attribute {} is not an aclrtMemManagedRangeAttribute",
                  static_cast<int>(attr));
}

// One prefetch: a DMA copy of the range over PCIe on `stream`, to the device or back to the host.
aclError prefetch(ApiCall& api, const void* ptr, size_t size, aclrtMemManagedLocation location,
                  npusim::rt::Stream* s) {
  std::vector<Page*> pages;
  if (aclError e = pagesOf(api, ptr, size, &pages)) return e;
  if (aclError e = checkLocation(api, location)) return e;
  if (location.type == ACL_MEM_LOCATIONTYPE_DEVICE && location.id != s->device)
    return api.fail(ACL_ERROR_INVALID_PARAM, "the stream belongs to device {}, not to device {}", s->device,
                    location.id);
  for (Page* p : pages) p->lastPrefetch = Location{location.type, location.id};
  npusim::rt::CopyPlan plan;
  plan.engine = s->device;
  const bool toDevice = location.type == ACL_MEM_LOCATIONTYPE_DEVICE;
  plan.route = toDevice ? npusim::sched::CopyRoute::HostToDevice : npusim::sched::CopyRoute::DeviceToHost;
  plan.label = toDevice ? "Prefetch H2D (managed)" : "Prefetch D2H (managed)";
  plan.shape.width = plan.shape.dpitch = plan.shape.spitch = size;  // timed; no bytes move
  return npusim::rt::launchAsync(api, s, plan);
}

}  // namespace

extern "C" {

aclError aclrtMemManagedAdvise(const void* const ptr, uint64_t size, aclrtMemManagedAdviseType advise,
                               aclrtMemManagedLocation location) {
  ApiCall api("aclrtMemManagedAdvise");
  if (!api.ok()) return api.notReady();
  std::vector<Page*> pages;
  if (aclError e = pagesOf(api, ptr, size, &pages)) return e;
  const bool needsLocation = advise != ACL_MEM_ADVISE_SET_READ_MOSTLY &&
                             advise != ACL_MEM_ADVISE_UNSET_READ_MOSTLY &&
                             advise != ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION;
  if (needsLocation)
    if (aclError e = checkLocation(api, location)) return e;
  const int32_t id = location.type == ACL_MEM_LOCATIONTYPE_HOST ? kHost : location.id;
  for (Page* p : pages) {
    switch (advise) {
      case ACL_MEM_ADVISE_SET_READ_MOSTLY:
        p->readMostly = true;
        break;
      case ACL_MEM_ADVISE_UNSET_READ_MOSTLY:
        p->readMostly = false;
        break;
      case ACL_MEM_ADVISE_SET_PREFERRED_LOCATION:
        p->preferred = Location{location.type, location.id};
        break;
      case ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
        p->preferred = Location{};
        break;
      case ACL_MEM_ADVISE_SET_ACCESSED_BY:
        p->accessedBy.insert(id);
        break;
      case ACL_MEM_ADVISE_UNSET_ACCESSED_BY:
        p->accessedBy.erase(id);
        break;
      default:
        return api.fail(ACL_ERROR_INVALID_PARAM, "advise {} is not an aclrtMemManagedAdviseType",
                        static_cast<int>(advise));
    }
  }
  return api.done();
}

aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void* ptr, size_t size,
                                void* data, size_t dataSize) {
  ApiCall api("aclrtMemManagedGetAttr");
  if (!api.ok()) return api.notReady();
  std::vector<Page*> pages;
  if (aclError e = pagesOf(api, ptr, size, &pages)) return e;
  if (aclError e = readAttribute(api, attribute, pages, data, dataSize)) return e;
  return api.done();
}

aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute* attributes, size_t numAttributes,
                                 const void* ptr, size_t size, void** data, size_t* dataSizes) {
  ApiCall api("aclrtMemManagedGetAttrs");
  if (!api.ok()) return api.notReady();
  if (!attributes || !data || !dataSizes || numAttributes == 0)
    return api.fail(ACL_ERROR_INVALID_PARAM, "attributes, data or dataSizes is NULL, or numAttributes is 0");
  std::vector<Page*> pages;
  if (aclError e = pagesOf(api, ptr, size, &pages)) return e;
  for (size_t i = 0; i < numAttributes; ++i)
    if (aclError e = readAttribute(api, attributes[i], pages, data[i], dataSizes[i])) return e;
  return api.done();
}

aclError aclrtMemManagedPrefetchAsync(const void* ptr, size_t size, aclrtMemManagedLocation location,
                                      uint32_t flags, aclrtStream stream) {
  ApiCall api("aclrtMemManagedPrefetchAsync");
  if (!api.ok()) return api.notReady();
  if (flags != 0) return api.fail(ACL_ERROR_INVALID_PARAM, "flags must be 0 (got {})", flags);
  aclError err;
  npusim::rt::Stream* s = api.stream(stream, &err);
  if (!s) return err;
  if (aclError e = prefetch(api, ptr, size, location, s)) return e;
  return api.done();
}

aclError aclrtMemManagedPrefetchBatchAsync(const void** ptrs, size_t* sizes, size_t count,
                                           aclrtMemManagedLocation* prefetchLocs, size_t* prefetchLocIdxs,
                                           size_t numPrefetchLocs, uint64_t flags, aclrtStream stream) {
  ApiCall api("aclrtMemManagedPrefetchBatchAsync");
  if (!api.ok()) return api.notReady();
  if (flags != 0) return api.fail(ACL_ERROR_INVALID_PARAM, "flags must be 0 (got {})", flags);
  if (!ptrs || !sizes || !prefetchLocs || !prefetchLocIdxs || count == 0 || numPrefetchLocs == 0 ||
      numPrefetchLocs > count || prefetchLocIdxs[0] != 0)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "an array is NULL, a count is 0, or the location indexes do not start at 0");
  aclError err;
  npusim::rt::Stream* s = api.stream(stream, &err);
  if (!s) return err;
  // Location k applies from ptrs[prefetchLocIdxs[k]] up to the next index.
  for (size_t k = 0; k < numPrefetchLocs; ++k) {
    const size_t end = k + 1 < numPrefetchLocs ? prefetchLocIdxs[k + 1] : count;
    if (end <= prefetchLocIdxs[k] || end > count)
      return api.fail(ACL_ERROR_INVALID_PARAM, "prefetchLocIdxs must rise within 0..{}", count - 1);
    for (size_t i = prefetchLocIdxs[k]; i < end; ++i)
      if (aclError e = prefetch(api, ptrs[i], sizes[i], prefetchLocs[k], s)) return e;
  }
  return api.done();
}

}  // extern "C"

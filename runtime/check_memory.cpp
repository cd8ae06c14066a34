// Memory checks: ranges against allocations and their padding, frees (double, invalid, while
// a queued task still uses the memory), alignment and pageable memory in asynchronous copies.
#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <deque>
#include <map>
#include <unordered_map>
#include <vector>

#include "runtime/checks.h"
#include "runtime/copy_plan.h"
#include "runtime/runtime.h"

namespace npusim::rt::checks {

namespace {

constexpr size_t kFreedHistory = 4096;  // freed allocations remembered for messages
constexpr uint64_t kAsyncAlignment = 64;

struct MemoryState {
  std::map<uintptr_t, FreedAllocation> freed;  // by start address, most recent per address
  std::deque<uintptr_t> freedOrder;
  std::map<uintptr_t, uint64_t> freedHost;  // pinned blocks freed: start -> 1
  std::deque<uintptr_t> freedHostOrder;
  // Allocations used by tasks that have not completed: task id -> allocation ids, and the
  // number of such tasks per allocation id.
  std::unordered_map<uint64_t, std::vector<uint64_t>> taskAllocs;
  std::unordered_map<uint64_t, uint32_t> inflight;
  // The same for pinned host blocks (by start address), and blocks the program freed while a
  // queued copy still used them: they are released when the last such copy completes.
  std::unordered_map<uint64_t, uintptr_t> taskHost;
  std::unordered_map<uintptr_t, uint32_t> hostInflight;
  std::unordered_map<uintptr_t, bool> zombies;
};
MemoryState& state() {
  static MemoryState* s = new MemoryState;  // never destroyed: used by the fault handler
  return *s;
}

uintptr_t addr(const void* p) { return reinterpret_cast<uintptr_t>(p); }

uintptr_t startOf(Runtime& rt, const Allocation& a) {
  return addr(rt.memory().device(a.device).address(a.offset));
}

// The first page of [p, p+bytes) that no mapping of the process covers, or 0. The driver pins
// pageable host memory before it copies and fails where there is none; copying would crash here.
// msync(MS_ASYNC) fails with ENOMEM on unmapped pages and does nothing else to anonymous memory.
uintptr_t firstUnmapped(const void* p, uint64_t bytes) {
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  if (bytes == 0 || addr(p) + bytes < addr(p)) return 0;
  uintptr_t lo = addr(p) / page * page, hi = (addr(p) + bytes + page - 1) / page * page;
  auto mapped = [](uintptr_t a, uintptr_t b) {
    return msync(reinterpret_cast<void*>(a), b - a, MS_ASYNC) == 0 || errno != ENOMEM;
  };
  if (mapped(lo, hi)) return 0;
  while (hi - lo > page) {  // bisect to the first unmapped page
    uintptr_t mid = lo + (hi - lo) / page / 2 * page;
    if (mapped(lo, mid))
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

std::string describe(const Allocation& a) {
  return fmt::format("allocation #{} ({} bytes requested, {} reserved, made by {})", a.id, a.requested,
                     a.size, a.api);
}

void remember(uintptr_t start, const Allocation& a, const char* freedBy) {
  MemoryState& s = state();
  if (!s.freed.count(start)) s.freedOrder.push_back(start);
  s.freed[start] = FreedAllocation{a, freedBy};
  if (s.freedOrder.size() > kFreedHistory) {
    s.freed.erase(s.freedOrder.front());
    s.freedOrder.pop_front();
  }
}

// "task #12 'Memcpy H2D' on NPU 0 stream 3" for a task still in a queue.
std::string describeTask(Runtime& rt, uint64_t id) {
  for (int d = 0; d < rt.deviceCount(); ++d)
    for (const auto& hw : rt.platform().device(d).sched->streams())
      for (const auto& t : hw->queue)
        if (t->id == id)
          return fmt::format(
              "task #{} '{}' on NPU {} {}", id, t->label, d,
              hw->internal ? std::string("sync-copy queue") : fmt::format("stream {}", hw->id));
  return fmt::format("task #{}", id);
}

}  // namespace

const FreedAllocation* findFreed(const void* p) {
  MemoryState& s = state();
  auto it = s.freed.upper_bound(addr(p));
  // Freed ranges may overlap (an address reused, then freed again): look at a few neighbours.
  for (int i = 0; i < 8 && it != s.freed.begin(); ++i) {
    --it;
    if (addr(p) - it->first < it->second.alloc.size) return &it->second;
  }
  return nullptr;
}

aclError deviceRange(ApiCall& api, const PointerInfo& info, const void* p, uint64_t bytes, const char* what) {
  if (info.kind == PointerKind::PinnedHost) {
    if (api.rt.memory().rangeInside(info, p, bytes)) return ACL_SUCCESS;
    return report(
        api, Kind::OutOfBounds, ACL_ERROR_RT_PARAM_INVALID,
        fmt::format("{} range [{}, +{}) runs past the end of its aclrtMallocHost block", what, p, bytes));
  }
  if (info.kind == PointerKind::PageableHost) {
    if (uintptr_t hole = firstUnmapped(p, bytes))
      return report(api, Kind::OutOfBounds, ACL_ERROR_RT_PARAM_INVALID,
                    fmt::format("{} range [{}, +{}) reaches host memory the process has not mapped, {} bytes "
                                "in (at {:#x}): the count is larger than the program's buffer",
                                what, p, bytes, std::max(hole, addr(p)) - addr(p), hole));
    if (const void* b = api.rt.memory().quarantinedBlock(p, bytes))
      return report(
          api, Kind::UseAfterFree, ACL_ERROR_RT_PARAM_INVALID,
          fmt::format("{} range [{}, +{}) reaches host memory {} that {} already freed", what, p, bytes, b,
                      api.rt.memory().releasedAtFinalize(b) ? "aclFinalize" : "aclrtFreeHost"));
    return ACL_SUCCESS;
  }
  if (!info.alloc) {
    if (const FreedAllocation* f = findFreed(p))
      return report(
          api, Kind::UseAfterFree, ACL_ERROR_RT_PARAM_INVALID,
          fmt::format("{} address {} is device memory that is not allocated: it was in {}, freed by {}", what,
                      p, describe(f->alloc), f->freedBy));
    return report(
        api, Kind::NotAllocated, ACL_ERROR_RT_PARAM_INVALID,
        fmt::format("{} address {} is device memory that is not allocated (freed or never allocated)", what,
                    p));
  }
  const Allocation& a = *info.alloc;
  if (a.mapping) {  // mappings placed back to back in a reserved range are one range
    const uintptr_t end = api.rt.memory().mappedRunEnd(p);
    if (addr(p) + bytes < addr(p) || addr(p) + bytes > end)
      return report(api, Kind::OutOfBounds, ACL_ERROR_RT_PARAM_INVALID,
                    fmt::format("{} range [{}, +{}) runs into unmapped virtual memory at {:#x} (the end of "
                                "the mappings made by aclrtMapMem there)",
                                what, p, bytes, end));
    return ACL_SUCCESS;
  }
  uint64_t off = info.offset - a.offset;  // by device offset
  if (off + bytes < off || off + bytes > a.extent)
    return report(
        api, Kind::OutOfBounds, ACL_ERROR_RT_PARAM_INVALID,
        fmt::format("{} range [{}, +{}) runs past the end of allocation #{} ({} bytes requested, {} "
                    "reserved, made by {}) and of its last {}-byte device page",
                    what, p, bytes, a.id, a.requested, a.size, a.api, devicePageFor(a.size)));
  // The driver checks a copy against the pages an allocation holds, not its size (docs/checks.md).
  if (off + bytes > a.size)
    return report(api, Kind::PaddingAccess, ACL_ERROR_RT_PARAM_INVALID,
                  fmt::format("{} range [{}, +{}) runs {} bytes past the end of allocation #{} ({} bytes "
                              "requested, {} reserved, made by {}) into the rest of its last device page: "
                              "hardware lets it through, but it is not the program's memory",
                              what, p, bytes, off + bytes - a.size, a.id, a.requested, a.size, a.api));
  if (off + bytes > a.requested)
    return report(
        api, Kind::PaddingAccess, ACL_ERROR_RT_PARAM_INVALID,
        fmt::format("{} range [{}, +{}) reaches {} bytes into the padding of allocation #{} ({} bytes "
                    "requested, {} reserved, made by {}): the padding is not the program's memory",
                    what, p, bytes, off + bytes - a.requested, a.id, a.requested, a.size, a.api));
  return ACL_SUCCESS;
}

aclError asyncAlignment(ApiCall& api, const void* dst, const void* src) {
  const char* bad = addr(dst) % kAsyncAlignment ? "dst" : addr(src) % kAsyncAlignment ? "src" : nullptr;
  if (!bad) return ACL_SUCCESS;
  return report(api, Kind::UnalignedAsync, ACL_ERROR_RT_ADDR_UNALIGNED,
                fmt::format("{} address {} is not 64-byte aligned: asynchronous copies need 64-byte aligned "
                            "source and destination addresses",
                            bad, bad[0] == 'd' ? dst : src));
}

aclError pageableAsync(ApiCall& api, const CopyPlan& plan) {
  bool hostDst = plan.hostOnly || plan.route == sched::CopyRoute::DeviceToHost;
  const void* host = hostDst ? static_cast<const void*>(plan.shape.dstPtr) : plan.shape.srcPtr;
  return report(
      api, Kind::PageableAsync, ACL_ERROR_RT_PARAM_INVALID,
      fmt::format("host memory {} is pageable (not from aclrtMallocHost): the runtime synchronises the "
                  "stream and copies synchronously, so the call blocks the host",
                  host));
}

aclError beforeFree(ApiCall& api, void* p) {
  Runtime& rt = api.rt;
  MemoryManager& mem = rt.memory();
  std::string args = fmt::format("devPtr={}", p);
  const Allocation* a = mem.findAllocation(p);
  if (a && startOf(rt, *a) != addr(p))
    return report(api, Kind::InvalidFree, ACL_ERROR_RT_PARAM_INVALID,
                  fmt::format("{} is inside {} at offset {}, not its start", p, describe(*a),
                              addr(p) - startOf(rt, *a)),
                  args);
  if (!a) {
    PointerInfo info = mem.classify(p);
    const FreedAllocation* f = info.kind == PointerKind::Device ? findFreed(p) : nullptr;
    if (f && startOf(rt, f->alloc) == addr(p))
      return report(
          api, Kind::DoubleFree, ACL_ERROR_RT_PARAM_INVALID,
          fmt::format("{} was already freed: {} was freed by {}", p, describe(f->alloc), f->freedBy), args);
    if (info.kind == PointerKind::PinnedHost)
      return report(api, Kind::InvalidFree, ACL_ERROR_RT_PARAM_INVALID,
                    fmt::format("{} is host memory from aclrtMallocHost: release it with aclrtFreeHost", p),
                    args);
    return report(api, Kind::InvalidFree, ACL_ERROR_RT_PARAM_INVALID,
                  fmt::format("{} was not returned by a device allocation (or was already freed)", p), args);
  }
  MemoryState& s = state();
  if (mode() != Mode::Off) {
    auto busy = s.inflight.find(a->id);
    if (busy != s.inflight.end()) {
      // Tasks the device has finished by the host's current time do not count.
      rt.waitFor([] { return false; }, api.th->clock);
      busy = s.inflight.find(a->id);
    }
    if (busy != s.inflight.end()) {
      std::string tasks;
      int listed = 0;
      for (const auto& [task, ids] : s.taskAllocs) {
        for (uint64_t id : ids) {
          if (id != a->id) continue;
          if (listed++ < 4) tasks += (tasks.empty() ? "" : "; ") + describeTask(rt, task);
          break;
        }
      }
      if (aclError e =
              report(api, Kind::FreeInFlight, ACL_ERROR_RT_PARAM_INVALID,
                     fmt::format("{} is freed while {} unfinished task(s) still use it ({}); aclrtFree does "
                                 "not wait for them: synchronise the stream first",
                                 describe(*a), busy->second, tasks),
                     args))
        return e;
    }
  }
  remember(addr(p), *a, api.name());
  return ACL_SUCCESS;
}

aclError beforeFreeHost(ApiCall& api, void* p, bool* deferred) {
  MemoryManager& mem = api.rt.memory();
  MemoryState& s = state();
  std::string args = fmt::format("hostPtr={}", p);
  if (mem.isPinnedStart(p) && s.hostInflight.count(addr(p))) {
    api.rt.waitFor([] { return false; }, api.th->clock);  // finished by the host's time?
    auto busy = s.hostInflight.find(addr(p));
    if (busy != s.hostInflight.end()) {
      if (aclError e =
              report(api, Kind::FreeInFlight, ACL_ERROR_RT_PARAM_INVALID,
                     fmt::format("host memory {} from aclrtMallocHost is freed while {} unfinished copy "
                                 "task(s) still use it; aclrtFreeHost does not wait for them: synchronise "
                                 "the stream first",
                                 p, busy->second),
                     args))
        return e;
      mem.forgetHost(p);
      s.zombies[addr(p)] = true;
      *deferred = true;
    }
  }
  if (mem.isPinnedStart(p) || *deferred) {
    if (!s.freedHost.count(addr(p))) s.freedHostOrder.push_back(addr(p));
    s.freedHost[addr(p)] = 1;
    if (s.freedHostOrder.size() > kFreedHistory) {
      s.freedHost.erase(s.freedHostOrder.front());
      s.freedHostOrder.pop_front();
    }
    return ACL_SUCCESS;
  }
  PointerInfo info = mem.classify(p);
  if (info.kind == PointerKind::Device)
    return report(api, Kind::InvalidFree, ACL_ERROR_RT_PARAM_INVALID,
                  fmt::format("{} is device memory: release it with aclrtFree", p), args);
  if (info.kind == PointerKind::PinnedHost)
    return report(api, Kind::InvalidFree, ACL_ERROR_RT_PARAM_INVALID,
                  fmt::format("{} is inside an aclrtMallocHost block but not its start", p), args);
  if (s.freedHost.count(addr(p)))
    return report(api, Kind::DoubleFree, ACL_ERROR_RT_PARAM_INVALID,
                  fmt::format("{} was returned by aclrtMallocHost and already freed", p), args);
  return report(api, Kind::InvalidFree, ACL_ERROR_RT_PARAM_INVALID,
                fmt::format("{} was not returned by aclrtMallocHost (or was already freed)", p), args);
}

void taskLaunched(const sched::Task& t, int device) {
  Runtime& rt = Runtime::get();
  MemoryManager& mem = rt.memory();
  MemoryState& s = state();
  if (t.kind == sched::TaskKind::Copy) {
    const void* host = t.route == sched::CopyRoute::HostToDevice   ? static_cast<const void*>(t.copy.srcPtr)
                       : t.route == sched::CopyRoute::DeviceToHost ? static_cast<const void*>(t.copy.dstPtr)
                                                                   : nullptr;
    if (const void* block = host ? mem.pinnedBlock(host) : nullptr) {
      s.hostInflight[addr(block)]++;
      s.taskHost.emplace(t.id, addr(block));
    }
  }
  if (mode() == Mode::Off) return;
  std::vector<uint64_t> ids;
  auto use = [&](const void* va) {
    if (const Allocation* a = mem.findAllocation(va)) ids.push_back(a->id);
  };
  auto onDevice = [&](int d, uint64_t offset) { use(mem.device(d).address(offset)); };
  if (t.kind == sched::TaskKind::Copy) {
    switch (t.route) {
      case sched::CopyRoute::HostToDevice:
      case sched::CopyRoute::Fill:
        onDevice(device, t.copy.dstAddr);
        break;
      case sched::CopyRoute::DeviceToHost:
        onDevice(device, t.copy.srcAddr);
        break;
      case sched::CopyRoute::DeviceLocal:
        onDevice(device, t.copy.srcAddr);
        onDevice(device, t.copy.dstAddr);
        break;
      case sched::CopyRoute::PeerWrite:
        onDevice(device, t.copy.srcAddr);
        if (t.peer >= 0 && t.peer < mem.deviceCount()) onDevice(t.peer, t.copy.dstAddr);
        break;
    }
  } else if (t.kind == sched::TaskKind::Operator && t.op) {
    for (const void* b : t.op->buffers) use(b);
  }
  if (ids.empty()) return;
  for (uint64_t id : ids) s.inflight[id]++;
  s.taskAllocs.emplace(t.id, std::move(ids));
}

void taskCompleted(const sched::Task& t) {
  MemoryState& s = state();
  if (!s.taskHost.empty()) {
    auto h = s.taskHost.find(t.id);
    if (h != s.taskHost.end()) {
      auto c = s.hostInflight.find(h->second);
      if (c != s.hostInflight.end() && --c->second == 0) {
        s.hostInflight.erase(c);
        if (s.zombies.erase(h->second)) std::free(reinterpret_cast<void*>(h->second));
      }
      s.taskHost.erase(h);
    }
  }
  if (s.taskAllocs.empty()) return;
  auto it = s.taskAllocs.find(t.id);
  if (it == s.taskAllocs.end()) return;
  for (uint64_t id : it->second) {
    auto c = s.inflight.find(id);
    if (c != s.inflight.end() && --c->second == 0) s.inflight.erase(c);
  }
  s.taskAllocs.erase(it);
}

}  // namespace npusim::rt::checks

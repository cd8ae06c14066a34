#include "runtime/memory.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace npusim::rt {

namespace {
// Fixed hints make device addresses the same in every run (deterministic traces and logs).
constexpr uintptr_t kDeviceVaBase = 0x100000000000ULL;    // 16 TiB
constexpr uintptr_t kDeviceVaStride = 0x010000000000ULL;  // 1 TiB per device
}  // namespace

DeviceMemory::DeviceMemory(int device, uint64_t capacity) : device_(device), capacity_(capacity) {
  // One sparse shared-memory file seen through two mappings: the backing the models use, and
  // the device addresses, PROT_NONE except while a kernel runs (exposeAllocations).
  const int fd = memfd_create("npusim-hbm", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(capacity_)) != 0) {
    const int e = errno;
    if (fd >= 0) close(fd);
    throw std::runtime_error(fmt::format("npusim: cannot create {} bytes of sparse device memory: {}",
                                         capacity_, std::strerror(e)));
  }
  void* hint = reinterpret_cast<void*>(kDeviceVaBase + kDeviceVaStride * static_cast<uintptr_t>(device));
  int flags = MAP_SHARED | MAP_NORESERVE;
#ifdef MAP_FIXED_NOREPLACE
  void* va = mmap(hint, capacity_, PROT_NONE, flags | MAP_FIXED_NOREPLACE, fd, 0);
  if (va == MAP_FAILED) va = mmap(hint, capacity_, PROT_NONE, flags, fd, 0);
#else
  void* va = mmap(hint, capacity_, PROT_NONE, flags, fd, 0);
#endif
  void* b = va == MAP_FAILED ? MAP_FAILED : mmap(nullptr, capacity_, PROT_READ | PROT_WRITE, flags, fd, 0);
  const int e = errno;
  fd_ = fd;  // kept for the aliases of virtual-memory mappings
  if (va == MAP_FAILED)
    throw std::runtime_error(fmt::format("npusim: cannot reserve {} bytes of device address space: {}",
                                         capacity_, std::strerror(e)));
  base_ = reinterpret_cast<uintptr_t>(va);
  if (b == MAP_FAILED)
    throw std::runtime_error(
        fmt::format("npusim: cannot map {} bytes of sparse device memory: {}", capacity_, std::strerror(e)));
  backing_ = static_cast<uint8_t*>(b);
  free_[0] = capacity_;
}

DeviceMemory::~DeviceMemory() {
  munmap(reinterpret_cast<void*>(base_), capacity_);
  munmap(backing_, capacity_);
  close(fd_);
}

bool DeviceMemory::alias(uintptr_t at, uint64_t offset, uint64_t size, bool readWrite) const {
  void* p = mmap(reinterpret_cast<void*>(at), size, readWrite ? PROT_READ | PROT_WRITE : PROT_NONE,
                 MAP_SHARED | MAP_FIXED | MAP_NORESERVE, fd_, static_cast<off_t>(offset));
  return p != MAP_FAILED;
}

void DeviceMemory::setAccess(uint64_t offset, uint64_t size, bool readWrite) {
  const uint64_t page = 4096, a = offset / page * page, e = (offset + size + page - 1) / page * page;
  mprotect(reinterpret_cast<void*>(base_ + a), e - a, readWrite ? PROT_READ | PROT_WRITE : PROT_NONE);
}

uint64_t DeviceMemory::allocate(uint64_t size, uint64_t align, uint64_t counted) {
  if (counted == UINT64_MAX) counted = size;
  // First fit by address: deterministic and keeps early allocations at low addresses.
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    uint64_t start = (it->first + align - 1) / align * align;
    uint64_t end = it->first + it->second;
    if (start + size > end || start + size < start) continue;
    uint64_t fOff = it->first, fEnd = end;
    free_.erase(it);
    if (start > fOff) free_[fOff] = start - fOff;
    if (start + size < fEnd) free_[start + size] = fEnd - (start + size);
    used_ += counted;
    peak_ = std::max(peak_, used_);
    return start;
  }
  return UINT64_MAX;
}

void DeviceMemory::release(uint64_t offset, uint64_t size, uint64_t counted) {
  used_ -= counted == UINT64_MAX ? size : counted;
  // Give the pages back so long runs keep a flat resident size.
  uint64_t page = 4096;
  uint64_t a = (offset + page - 1) / page * page, e = (offset + size) / page * page;
  if (e > a) madvise(backing_ + a, e - a, MADV_REMOVE);
  auto next = free_.lower_bound(offset);
  uint64_t start = offset, len = size;
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      start = prev->first;
      len += prev->second;
      free_.erase(prev);
    }
  }
  next = free_.lower_bound(start + len);
  if (next != free_.end() && next->first == start + len) {
    len += next->second;
    free_.erase(next);
  }
  free_[start] = len;
}

bool DeviceMemory::contains(const void* p) const {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  return a >= base_ && a < base_ + capacity_;
}

void MemoryManager::addDevice(int device, uint64_t capacity) {
  if (static_cast<size_t>(device) != devices_.size())
    throw std::logic_error("devices must be added in order");
  devices_.push_back(std::make_unique<DeviceMemory>(device, capacity));
}

void* MemoryManager::allocDevice(int device, uint64_t requested, uint64_t padded, uint64_t align,
                                 const char* api) {
  DeviceMemory& m = *devices_[static_cast<size_t>(device)];
  // The driver hands out whole pages: the rest of the last page belongs to this allocation.
  const uint64_t page = devicePageFor(padded);
  const uint64_t extent = (padded + page - 1) / page * page;
  if (extent < padded) return nullptr;  // no address space is that large
  uint64_t off = m.allocate(extent, align, padded);
  if (off == UINT64_MAX) return nullptr;
  void* p = m.address(off);
  Allocation a;
  a.device = device;
  a.offset = off;
  a.requested = requested;
  a.size = padded;
  a.extent = extent;
  a.id = ++nextId_;
  a.api = api;
  allocations_[reinterpret_cast<uintptr_t>(p)] = a;
  return p;
}

bool MemoryManager::freeDevice(void* p, std::string* why) {
  auto it = allocations_.find(reinterpret_cast<uintptr_t>(p));
  if (it == allocations_.end()) {
    const Allocation* inside = findAllocation(p);
    if (inside)
      *why = fmt::format("{} is inside allocation #{} but not its start", p, inside->id);
    else
      *why = fmt::format("{} was not returned by a device allocation (or was already freed)", p);
    return false;
  }
  devices_[static_cast<size_t>(it->second.device)]->release(it->second.offset, it->second.extent,
                                                            it->second.size);
  allocations_.erase(it);
  return true;
}

void MemoryManager::exposeAllocations(int device, bool readWrite) {
  DeviceMemory& m = *devices_[static_cast<size_t>(device)];
  for (const auto& [start, a] : allocations_)
    if (a.device == device) m.setAccess(a.offset, a.extent, readWrite);
  for (const auto& [va, a] : mapped_)
    if (a.device == device && windowBase_)
      mprotect(reinterpret_cast<void*>(va), a.size, readWrite ? PROT_READ | PROT_WRITE : PROT_NONE);
}

MemoryManager::~MemoryManager() {
  for (const auto& [start, size] : quarantine_) std::free(reinterpret_cast<void*>(start));
  // aclFinalize releases the pinned and managed blocks the program did not free, as in CANN;
  // registered ranges are the program's own memory.
  for (const auto& [start, size] : pinned_)
    if (!registered_.count(start)) std::free(reinterpret_cast<void*>(start));
  if (shadowBase_) munmap(reinterpret_cast<void*>(shadowBase_), windowSize_);
}

void* MemoryManager::allocHost(uint64_t size) {
  void* p = nullptr;
  if (posix_memalign(&p, 64, size) != 0) return nullptr;
  pinned_[reinterpret_cast<uintptr_t>(p)] = size;
  return p;
}

bool MemoryManager::freeHost(void* p) {
  auto it = pinned_.find(reinterpret_cast<uintptr_t>(p));
  if (it == pinned_.end() || isRegisteredHost(p)) return false;
  uint64_t size = it->second;
  pinned_.erase(it);
  // Its registered (device-mapped) ranges end with it.
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  mappedPinned_.erase(mappedPinned_.lower_bound(a), mappedPinned_.lower_bound(a + size));
  quarantine(a, size);
  return true;
}

void MemoryManager::quarantine(uintptr_t start, uint64_t size) {
  if (size > kHostQuarantineBytes) {
    std::free(reinterpret_cast<void*>(start));
    return;
  }
  quarantine_[start] = size;
  quarantineOrder_.push_back(start);
  quarantineBytes_ += size;
  while (quarantineBytes_ > kHostQuarantineBytes) {
    uintptr_t old = quarantineOrder_.front();
    quarantineOrder_.pop_front();
    quarantineBytes_ -= quarantine_[old];
    quarantine_.erase(old);
    releasedAtFinalize_.erase(old);
    std::free(reinterpret_cast<void*>(old));
  }
}

void MemoryManager::quarantineHostOf(MemoryManager& ended) {
  for (uintptr_t start : ended.quarantineOrder_) quarantine(start, ended.quarantine_.at(start));
  releasedAtFinalize_.insert(ended.releasedAtFinalize_.begin(), ended.releasedAtFinalize_.end());
  for (const auto& [start, size] : ended.pinned_)
    if (!ended.registered_.count(start)) {
      if (size <= kHostQuarantineBytes) releasedAtFinalize_.insert(start);
      quarantine(start, size);
    }
  ended.quarantine_.clear();
  ended.quarantineOrder_.clear();
  ended.quarantineBytes_ = 0;
  ended.releasedAtFinalize_.clear();
  ended.pinned_.clear();
}

const void* MemoryManager::quarantinedBlock(const void* p, uint64_t bytes) const {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto it = quarantine_.upper_bound(a);
  if (it != quarantine_.begin()) {
    auto prev = std::prev(it);
    if (a < prev->first + prev->second) return reinterpret_cast<const void*>(prev->first);
  }
  if (it != quarantine_.end() && it->first - a < bytes) return reinterpret_cast<const void*>(it->first);
  return nullptr;
}

bool MemoryManager::forgetHost(void* p) {
  auto it = pinned_.find(reinterpret_cast<uintptr_t>(p));
  if (it == pinned_.end()) return false;
  pinned_.erase(it);
  return true;
}

const void* MemoryManager::pinnedBlock(const void* p) const {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto it = pinned_.upper_bound(a);
  if (it == pinned_.begin()) return nullptr;
  --it;
  return a < it->first + it->second ? reinterpret_cast<const void*>(it->first) : nullptr;
}

const Allocation* MemoryManager::findAllocation(const void* p) const {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto it = allocations_.upper_bound(a);
  if (it == allocations_.begin()) return nullptr;
  --it;
  if (a >= it->first && a < it->first + it->second.size) return &it->second;
  return nullptr;
}

PointerInfo MemoryManager::classify(const void* p) const {
  PointerInfo info;
  for (size_t d = 0; d < devices_.size(); ++d) {
    if (devices_[d]->contains(p)) {
      info.kind = PointerKind::Device;
      info.device = static_cast<int>(d);
      info.offset = devices_[d]->offsetOf(p);
      info.alloc = findAllocation(p);
      return info;
    }
  }
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto m = mapped_.upper_bound(a);
  if (m != mapped_.begin() && a < std::prev(m)->first + std::prev(m)->second.size) {
    --m;
    info.kind = PointerKind::Device;
    info.device = m->second.device;
    info.offset = m->second.offset + (a - m->first);
    info.alloc = &m->second;
    return info;
  }
  auto it = pinned_.upper_bound(a);
  if (it != pinned_.begin()) {
    --it;
    if (a >= it->first && a < it->first + it->second) info.kind = PointerKind::PinnedHost;
  }
  return info;
}

bool MemoryManager::rangeInside(const PointerInfo& info, const void* p, uint64_t bytes) const {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  if (info.kind == PointerKind::Device) {
    if (!info.alloc) return false;
    if (a + bytes < a) return false;
    if (info.alloc->mapping) return a + bytes <= mappedRunEnd(p);  // back-to-back mappings are one range
    return info.offset + bytes <= info.alloc->offset + info.alloc->size;
  }
  if (info.kind == PointerKind::PinnedHost) {
    auto it = std::prev(pinned_.upper_bound(a));
    return a + bytes <= it->first + it->second;
  }
  return true;  // pageable host memory: the program owns it
}

uint8_t* MemoryManager::hostView(const PointerInfo& info, const void* p) const {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  if (info.kind == PointerKind::Device && windowBase_ && a >= windowBase_ && a < windowBase_ + windowSize_)
    return reinterpret_cast<uint8_t*>(shadowBase_ + (a - windowBase_));  // contiguous across mappings
  if (info.kind == PointerKind::Device)
    return devices_[static_cast<size_t>(info.device)]->backing(info.offset);
  return static_cast<uint8_t*>(const_cast<void*>(p));
}

uint64_t RangeAllocator::allocate(uint64_t size, uint64_t align) {
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    uint64_t start = (it->first + align - 1) / align * align, end = it->first + it->second;
    if (start + size > end || start + size < start) continue;
    uint64_t from = it->first;
    free_.erase(it);
    if (start > from) free_[from] = start - from;
    if (start + size < end) free_[start + size] = end - (start + size);
    return start;
  }
  return UINT64_MAX;
}

void RangeAllocator::release(uint64_t offset, uint64_t size) {
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && next->first == offset + size) {
    size += next->second;
    free_.erase(next);
  }
  auto prev = free_.lower_bound(offset);
  if (prev != free_.begin() && std::prev(prev)->first + std::prev(prev)->second == offset) {
    std::prev(prev)->second += size;
    return;
  }
  free_[offset] = size;
}

void MemoryManager::setVirtualWindow(uintptr_t base, uint64_t size) {
  void* shadow = mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (shadow == MAP_FAILED) return;  // without a shadow each mapping stays a range of its own
  windowBase_ = base;
  windowSize_ = size;
  shadowBase_ = reinterpret_cast<uintptr_t>(shadow);
}

void MemoryManager::mapRange(uintptr_t va, uint64_t size, int device, uint64_t physOffset) {
  Allocation a;
  a.device = device;
  a.offset = physOffset;
  a.requested = a.size = a.extent = size;
  a.id = ++nextId_;
  a.api = "aclrtMapMem";
  a.mapping = true;
  mapped_[va] = a;
  if (windowBase_ && va >= windowBase_ && va + size <= windowBase_ + windowSize_) {
    const DeviceMemory& m = *devices_[static_cast<size_t>(device)];
    m.alias(va, physOffset, size, false);
    m.alias(shadowBase_ + (va - windowBase_), physOffset, size, true);
  }
}

bool MemoryManager::unmapRange(uintptr_t va) {
  auto it = mapped_.find(va);
  if (it == mapped_.end()) return false;
  if (windowBase_ && va >= windowBase_ && va < windowBase_ + windowSize_) {
    // Back to reserved, inaccessible address space in the window and in its shadow.
    const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED;
    mmap(reinterpret_cast<void*>(va), it->second.size, PROT_NONE, flags, -1, 0);
    mmap(reinterpret_cast<void*>(shadowBase_ + (va - windowBase_)), it->second.size, PROT_NONE, flags, -1, 0);
  }
  mapped_.erase(it);
  return true;
}

uintptr_t MemoryManager::mappedRunEnd(const void* p) const {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto it = mapped_.upper_bound(a);
  if (it == mapped_.begin() || a >= std::prev(it)->first + std::prev(it)->second.size) return 0;
  uintptr_t end = std::prev(it)->first + std::prev(it)->second.size;
  // Only the window's mappings are contiguous in the host's view (setVirtualWindow), and one
  // device's engines serve a copy: a run stops at memory of another device.
  if (!windowBase_ || a < windowBase_ || a >= windowBase_ + windowSize_) return end;
  const int device = std::prev(it)->second.device;
  for (; it != mapped_.end() && it->first == end && it->second.device == device; ++it) end += it->second.size;
  return end;
}

namespace {
// Whether [a, a + size) overlaps a range of `ranges` (start -> size).
bool overlapsAny(const std::map<uintptr_t, uint64_t>& ranges, uintptr_t a, uint64_t size) {
  auto next = ranges.lower_bound(a);
  if (next != ranges.end() && next->first < a + size) return true;
  return next != ranges.begin() && std::prev(next)->first + std::prev(next)->second > a;
}
}  // namespace

bool MemoryManager::registerHost(void* p, uint64_t size) {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  if (const void* block = pinnedBlock(p); block && !isRegisteredHost(block)) {
    const uintptr_t b = reinterpret_cast<uintptr_t>(block);
    if (a + size > b + pinned_.at(b) || overlapsAny(mappedPinned_, a, size)) return false;
    mappedPinned_[a] = size;
    return true;
  }
  auto next = pinned_.lower_bound(a);
  if (next != pinned_.end() && next->first < a + size) return false;
  if (next != pinned_.begin() && std::prev(next)->first + std::prev(next)->second > a) return false;
  pinned_[a] = size;
  registered_.insert(a);
  return true;
}

bool MemoryManager::unregisterHost(void* p) {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  if (mappedPinned_.erase(a)) return true;
  if (!registered_.erase(a)) return false;
  pinned_.erase(a);
  return true;
}

void* MemoryManager::allocManaged(uint64_t size) {
  void* p = allocHost(size);
  if (!p) return nullptr;
  std::memset(p, 0, size);  // the device hands out zeroed pages
  mappedPinned_[reinterpret_cast<uintptr_t>(p)] = size;
  managed_.insert(reinterpret_cast<uintptr_t>(p));
  return p;
}

bool MemoryManager::freeManaged(void* p) {
  if (!managed_.erase(reinterpret_cast<uintptr_t>(p))) return false;
  return freeHost(p);
}

bool MemoryManager::isDeviceMapped(const void* p) const {
  const void* block = pinnedBlock(p);
  if (!block) return false;
  if (isRegisteredHost(block)) return true;
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto it = mappedPinned_.upper_bound(a);
  return it != mappedPinned_.begin() && a < std::prev(it)->first + std::prev(it)->second;
}

}  // namespace npusim::rt

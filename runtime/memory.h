#pragma once
// Device and pinned-host memory as the runtime hands it out. Each device owns a range of
// virtual addresses that the host cannot dereference (reserved PROT_NONE, so a host access
// faults at once) and a sparse backing store (touched pages only) that the models read and
// write. Both map one shared-memory file, so a custom kernel can use device addresses directly
// while it runs (docs/kernels.md). Allocation follows ACL's rules: sizes padded to
// ALIGN_UP(size, 32) + 32 (no +32 for aclrtMallocAlign32 and 1G policies), 64-byte aligned
// starts (128 for DVPP).
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace npusim::rt {

// The page the device driver backs an allocation of `padded` bytes with: 2 MiB huge pages from
// 1 MiB on (api_memory.cpp), else 4 KiB (DEVMM_DEV_PAGE_SIZE in the Ascend driver's svm code).
inline uint64_t devicePageFor(uint64_t padded) { return padded >= (1u << 20) ? (2u << 20) : 4096; }

struct Allocation {
  int device = -1;
  uint64_t offset = 0;     // in the device's memory
  uint64_t requested = 0;  // size the user asked for
  uint64_t size = 0;       // padded size actually reserved
  // The allocation rounded up to the driver's pages (4 KiB, or 2 MiB from 1 MiB on): the device
  // addresses it owns. A copy may reach into this slack as on hardware (docs/checks.md).
  uint64_t extent = 0;
  uint64_t id = 0;
  std::string api;       // the call that made it
  bool mapping = false;  // a virtual-memory mapping (aclrtMapMem), not an allocation
};

enum class PointerKind { Device, PinnedHost, PageableHost };

struct PointerInfo {
  PointerKind kind = PointerKind::PageableHost;
  int device = -1;
  const Allocation* alloc = nullptr;  // device allocation containing the pointer (or null)
  uint64_t offset = 0;                // device memory offset
};

// First-fit allocation of ranges in [0, capacity), by address (virtual-memory reservations).
class RangeAllocator {
 public:
  explicit RangeAllocator(uint64_t capacity) { free_[0] = capacity; }
  // Returns the start, or UINT64_MAX when no free range fits.
  uint64_t allocate(uint64_t size, uint64_t align);
  void release(uint64_t offset, uint64_t size);

 private:
  std::map<uint64_t, uint64_t> free_;  // offset -> size, coalesced
};

class DeviceMemory {
 public:
  DeviceMemory(int device, uint64_t capacity);
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  // Returns the offset, or UINT64_MAX when the memory is exhausted. `counted` (default: size)
  // is what the reservation adds to used(): an allocation counts its padded size, not its pages.
  uint64_t allocate(uint64_t size, uint64_t align, uint64_t counted = UINT64_MAX);
  void release(uint64_t offset, uint64_t size, uint64_t counted = UINT64_MAX);

  bool contains(const void* p) const;
  uint64_t offsetOf(const void* p) const { return reinterpret_cast<uintptr_t>(p) - base_; }
  void* address(uint64_t offset) const { return reinterpret_cast<void*>(base_ + offset); }
  uint8_t* backing(uint64_t offset) const { return backing_ + offset; }
  uint64_t capacity() const { return capacity_; }
  // Lets host code touch device addresses [offset, offset+size) (rounded out to pages) or not.
  void setAccess(uint64_t offset, uint64_t size, bool readWrite);
  // Maps [offset, offset+size) of this memory at host address `at` too (replacing what was
  // there), readable and writable or PROT_NONE. False when the system refuses.
  bool alias(uintptr_t at, uint64_t offset, uint64_t size, bool readWrite) const;
  uint64_t used() const { return used_; }
  uint64_t peak() const { return peak_; }  // the most ever in use at once
  uintptr_t base() const { return base_; }
  int device() const { return device_; }

 private:
  int device_;
  uint64_t capacity_;
  uintptr_t base_ = 0;
  uint8_t* backing_ = nullptr;
  int fd_ = -1;  // the shared-memory file, for aliases
  uint64_t used_ = 0;
  uint64_t peak_ = 0;
  std::map<uint64_t, uint64_t> free_;  // offset -> size, coalesced
};

class MemoryManager {
 public:
  MemoryManager() = default;
  ~MemoryManager();
  MemoryManager(const MemoryManager&) = delete;
  MemoryManager& operator=(const MemoryManager&) = delete;
  void addDevice(int device, uint64_t capacity);
  DeviceMemory& device(int d) { return *devices_[static_cast<size_t>(d)]; }
  int deviceCount() const { return static_cast<int>(devices_.size()); }

  // Device allocations.
  void* allocDevice(int device, uint64_t requested, uint64_t padded, uint64_t align, const char* api);
  bool freeDevice(void* p, std::string* why);
  // Pinned host memory (aclrtMallocHost). A freed block is kept (quarantined) until
  // kHostQuarantineBytes of newer freed blocks follow it, so that a copy from a freed block is
  // found and named (checks) and never makes the simulator touch memory it gave back.
  static constexpr uint64_t kHostQuarantineBytes = 64ull << 20;
  void* allocHost(uint64_t size);
  bool freeHost(void* p);
  // Start of a quarantined (freed) pinned block overlapping [p, p+bytes), or nullptr.
  const void* quarantinedBlock(const void* p, uint64_t bytes) const;
  // Takes the pinned blocks of an ended simulation (aclFinalize releases them) and its freed
  // ones into this quarantine, so a copy that still names one is refused, not a use after free.
  void quarantineHostOf(MemoryManager& ended);
  // Whether the quarantined block at `block` was released by aclFinalize (else by aclrtFreeHost).
  bool releasedAtFinalize(const void* block) const {
    return releasedAtFinalize_.count(reinterpret_cast<uintptr_t>(block)) != 0;
  }
  // Forgets the pinned block at `p` without freeing it (the caller frees it later with
  // std::free, when no queued copy uses it any more). False when `p` is not a block start.
  bool forgetHost(void* p);

  // While a kernel runs on `device`, its code reaches device memory at the device addresses:
  // every live allocation becomes readable and writable (true) or PROT_NONE again (false).
  void exposeAllocations(int device, bool readWrite);

  PointerInfo classify(const void* p) const;
  // True when [p, p+bytes) lies inside one live allocation (device) or one pinned block.
  bool rangeInside(const PointerInfo& info, const void* p, uint64_t bytes) const;
  // Host-usable pointer for a device or host address (backing for device memory).
  uint8_t* hostView(const PointerInfo& info, const void* p) const;
  const Allocation* findAllocation(const void* p) const;
  uint64_t liveAllocations() const { return allocations_.size(); }
  bool isPinnedStart(const void* p) const { return pinned_.count(reinterpret_cast<uintptr_t>(p)) != 0; }
  // Start of the pinned block containing `p`, or nullptr.
  const void* pinnedBlock(const void* p) const;
  // Size of the pinned block starting at `block` (0 when none starts there).
  uint64_t pinnedSize(const void* block) const {
    auto it = pinned_.find(reinterpret_cast<uintptr_t>(block));
    return it == pinned_.end() ? 0 : it->second;
  }
  // Virtual memory (aclrtMapMem): [va, va+size) reads and writes device `device`'s memory at
  // physOffset. classify() treats such an address as device memory, each mapping as one allocation.
  // Inside the window given by setVirtualWindow, the pages are mapped at `va` (PROT_NONE except
  // while a kernel runs) and at the same place in a host-accessible shadow of the window, so
  // mappings placed back to back are one contiguous range to copies, memsets and kernels.
  void setVirtualWindow(uintptr_t base, uint64_t size);
  void mapRange(uintptr_t va, uint64_t size, int device, uint64_t physOffset);
  bool unmapRange(uintptr_t va);  // false when no mapping starts at va
  // For an address inside a mapping: where the run of back-to-back mappings containing it ends
  // (the first unmapped byte). 0 when `p` is not mapped.
  uintptr_t mappedRunEnd(const void* p) const;

  // Registered host memory (aclrtHostRegister): pinned for DMA like aclrtMallocHost blocks, but
  // the program's own memory, never freed by the runtime. A range inside one aclrtMallocHost
  // block is already pinned: registering it maps it for the device (as the CANN zero-copy sample
  // does). False when it overlaps other pinned memory or a range registered before.
  bool registerHost(void* p, uint64_t size);
  bool unregisterHost(void* p);  // false when `p` is not a registered start
  bool isRegisteredHost(const void* p) const {
    return registered_.count(reinterpret_cast<uintptr_t>(p)) != 0;
  }
  // Whether `p` lies in registered memory (either kind): the device may address it directly.
  bool isDeviceMapped(const void* p) const;
  // Managed memory (aclrtMemAllocManaged): a pinned block mapped for the device, which host and
  // device code both address directly. freeManaged is false when `p` is not a managed start.
  void* allocManaged(uint64_t size);
  bool freeManaged(void* p);
  bool isManaged(const void* p) const { return managed_.count(reinterpret_cast<uintptr_t>(p)) != 0; }

 private:
  std::vector<std::unique_ptr<DeviceMemory>> devices_;
  std::map<uintptr_t, Allocation> allocations_;  // by address
  std::map<uintptr_t, uint64_t> pinned_;         // start -> size
  std::map<uintptr_t, Allocation> mapped_;       // virtual-memory mappings by virtual address
  uintptr_t windowBase_ = 0, shadowBase_ = 0;    // the virtual-memory window and its shadow
  uint64_t windowSize_ = 0;
  std::set<uintptr_t> registered_;                  // pinned_ entries that aclrtHostRegister made
  std::set<uintptr_t> managed_;                     // pinned_ entries that aclrtMemAllocManaged made
  std::map<uintptr_t, uint64_t> mappedPinned_;      // registered ranges inside aclrtMallocHost blocks
  void quarantine(uintptr_t start, uint64_t size);  // frees the oldest beyond the budget
  std::map<uintptr_t, uint64_t> quarantine_;        // freed pinned blocks: start -> size
  std::deque<uintptr_t> quarantineOrder_;           // oldest first
  uint64_t quarantineBytes_ = 0;
  std::set<uintptr_t> releasedAtFinalize_;  // quarantined blocks aclFinalize released
  uint64_t nextId_ = 0;
};

}  // namespace npusim::rt

#pragma once
// The API-sequence fuzz input: a sequence of ACL calls with arguments drawn from small pools of
// valid and invalid values (live, freed and wild device pointers, offsets around allocation
// ends, destroyed and bogus handles, odd sizes, kinds and device ids). The runtime must refuse
// what is wrong with an error code and never crash, hang or corrupt itself.
//
// The harness itself stays a correct C++ program: host pointers it passes are always real
// memory for the bytes a call may touch (the simulator cannot check pageable memory, and a
// real program overflowing its own buffer is not a simulator bug); everything on the device
// side and every handle is arbitrary. At the end of an input everything is released so inputs
// do not accumulate state.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "fuzz/fuzz_input.h"

namespace npusim::fuzz {

class ApiSequence {
 public:
  static constexpr size_t kHostBytes = 64 * 1024;
  static constexpr int kSlots = 8;

  ApiSequence() {
    pageable_ = static_cast<uint8_t*>(std::aligned_alloc(64, kHostBytes));
    std::memset(pageable_, 0x5a, kHostBytes);
  }
  ~ApiSequence() { std::free(pageable_); }
  ApiSequence(const ApiSequence&) = delete;
  ApiSequence& operator=(const ApiSequence&) = delete;

  void run(const uint8_t* data, size_t size) {
    Input in(data, size);
    for (int ops = 0; !in.empty() && ops < 512; ++ops) step(in);
    cleanup();
  }

 private:
  // ---- argument pools ----
  int32_t device(Input& in) {
    static const int32_t ids[] = {0, 0, 1, 4, 7, -1, 8, 1000};
    return in.pickFrom(ids);
  }
  size_t size(Input& in) {
    static const size_t sizes[] = {0,    1,     31,       32,       33,         64,   100,
                                   4096, 65536, 1u << 20, SIZE_MAX, 1ull << 40, 4097, 96};
    return in.pickFrom(sizes);
  }
  uint64_t offset(Input& in) {
    static const uint64_t offs[] = {0, 0, 1, 8, 32, 63, 64, 96, 100, 128, 4095, 4096, 65536, 1u << 20};
    return in.pickFrom(offs);
  }
  aclrtMemcpyKind kind(Input& in) {
    static const int kinds[] = {0, 1, 2, 3, 4, 5, 1, 2, 4, 7, -1, 99};
    return static_cast<aclrtMemcpyKind>(in.pickFrom(kinds));
  }

  // A pointer and how many bytes from it the harness may let the runtime touch on the host
  // (SIZE_MAX: not host memory the harness must protect).
  struct Ptr {
    void* p = nullptr;
    size_t hostRoom = SIZE_MAX;
  };
  Ptr pointer(Input& in) {
    switch (in.pick(6)) {
      case 0:
        return {};
      case 1:
      case 2: {  // device memory: live or freed, at an offset that may pass the end
        if (dev_.empty()) return {};
        uint8_t* base = static_cast<uint8_t*>(dev_[in.pick(dev_.size())]);
        return {base + offset(in), SIZE_MAX};
      }
      case 3: {  // pinned host memory; a freed block is not the harness's memory any more
        int i = static_cast<int>(in.pick(2));
        uint64_t off = offset(in) % kHostBytes;
        if (!pinned_[i]) return {pageable_ + off, kHostBytes - off};
        return {static_cast<uint8_t*>(pinned_[i]) + off, SIZE_MAX};  // the runtime checks pinned ranges
      }
      case 4: {
        uint64_t off = offset(in) % kHostBytes;
        return {pageable_ + off, kHostBytes - off};
      }
      default: {  // a device address nobody allocated: far past an allocation, inside the device's
                  // 64 GiB range (allocations start at its low end; its base differs under ASan)
        if (dev_.empty()) return {};
        uint8_t* base = static_cast<uint8_t*>(dev_[in.pick(dev_.size())]);
        return {base + (in.u32() << 12) % (32ULL << 30), SIZE_MAX};
      }
    }
  }
  aclrtStream stream(Input& in) {
    switch (in.pick(4)) {
      case 0:
        return nullptr;  // default stream
      case 1:
        return reinterpret_cast<aclrtStream>(static_cast<uintptr_t>(0x1234));
      default:
        return streams_.empty() ? nullptr : streams_[in.pick(streams_.size())];
    }
  }
  aclrtEvent event(Input& in) {
    if (events_.empty() || in.pick(8) == 0)
      return reinterpret_cast<aclrtEvent>(static_cast<uintptr_t>(0x4321));
    return events_[in.pick(events_.size())];
  }

  // ---- the calls ----
  void step(Input& in) {
    switch (in.pick(24)) {
      case 0:
        aclrtSetDevice(device(in));
        break;
      case 1:
        if (in.pick(2))
          aclrtResetDevice(device(in));
        else
          aclrtResetDeviceForce(device(in));
        break;
      case 2:
      case 3: {
        void* p = nullptr;
        size_t n = size(in);
        aclError e;
        switch (in.pick(4)) {
          case 0:
            e = aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST);
            break;
          case 1:
            e = aclrtMallocAlign32(&p, n, ACL_MEM_MALLOC_HUGE1G_ONLY);
            break;
          case 2:
            e = aclrtMallocCached(&p, n, ACL_MEM_MALLOC_NORMAL_ONLY);
            break;
          default:
            e = acldvppMalloc(&p, n);
            break;
        }
        if (e == ACL_SUCCESS && p) {
          devLive_.insert(p);
          if (dev_.size() < 32) dev_.push_back(p);
        }
        break;
      }
      case 4: {
        Ptr p = pointer(in);
        if (in.pick(2)) {
          if (aclrtFree(p.p) == ACL_SUCCESS) devLive_.erase(p.p);
        } else {
          if (acldvppFree(p.p) == ACL_SUCCESS) devLive_.erase(p.p);
        }
        break;
      }
      case 5: {
        int i = static_cast<int>(in.pick(2));
        if (!pinned_[i]) {
          void* p = nullptr;
          if (aclrtMallocHost(&p, kHostBytes) == ACL_SUCCESS) pinned_[i] = p;
        } else if (in.pick(4) == 0) {
          aclrtFreeHost(pointer(in).p);  // often not a pinned block
        } else if (aclrtFreeHost(pinned_[i]) == ACL_SUCCESS) {
          pinned_[i] = nullptr;
        }
        break;
      }
      case 6:
      case 7:
      case 8: {
        Ptr dst = pointer(in), src = pointer(in);
        size_t count = size(in) % (1u << 21), destMax = in.pick(4) ? count : size(in);
        count = std::min({count, dst.hostRoom, src.hostRoom});
        aclrtMemcpyKind k = kind(in);
        if (in.pick(2))
          aclrtMemcpy(dst.p, destMax, src.p, count, k);
        else
          aclrtMemcpyAsync(dst.p, destMax, src.p, count, k, stream(in));
        break;
      }
      case 9: {
        Ptr dst = pointer(in), src = pointer(in);
        size_t width = size(in) % 4097, height = in.pick(9), dpitch = width + offset(in) % 256,
               spitch = width + offset(in) % 256;
        if (in.pick(8) == 0) dpitch = width / 2;  // invalid pitch
        auto fit = [&](const Ptr& p, size_t pitch) {
          while (height > 0 && (height - 1) * pitch + width > p.hostRoom) --height;
        };
        fit(dst, dpitch);
        fit(src, spitch);
        aclrtMemcpyKind k = kind(in);
        if (in.pick(2))
          aclrtMemcpy2d(dst.p, dpitch, src.p, spitch, width, height, k);
        else
          aclrtMemcpy2dAsync(dst.p, dpitch, src.p, spitch, width, height, k, stream(in));
        break;
      }
      case 10:
      case 11: {
        Ptr dst = pointer(in);
        size_t count = std::min(size(in) % (1u << 21), dst.hostRoom),
               maxCount = in.pick(4) ? count : size(in);
        int32_t value = in.byte();
        if (in.pick(2))
          aclrtMemset(dst.p, maxCount, value, count);
        else
          aclrtMemsetAsync(dst.p, maxCount, value, count, stream(in));
        break;
      }
      case 12: {
        aclrtStream s = nullptr;
        aclError e =
            in.pick(2) ? aclrtCreateStream(&s) : aclrtCreateStreamWithConfig(&s, in.pick(10), in.byte());
        if (e == ACL_SUCCESS && s) {
          liveStreams_.insert(s);
          if (streams_.size() < kSlots) streams_.push_back(s);
        }
        break;
      }
      case 13: {
        aclrtStream s = stream(in);
        aclError e = in.pick(2) ? aclrtDestroyStream(s) : aclrtDestroyStreamForce(s);
        if (e == ACL_SUCCESS) liveStreams_.erase(s);
        break;
      }
      case 14:
        switch (in.pick(3)) {
          case 0:
            aclrtSynchronizeStream(stream(in));
            break;
          case 1:
            aclrtSynchronizeStreamWithTimeout(stream(in), static_cast<int32_t>(in.pick(4)) - 1);
            break;
          default: {
            aclrtStreamStatus st;
            aclrtStreamQuery(stream(in), in.pick(8) ? &st : nullptr);
            break;
          }
        }
        break;
      case 15: {
        aclrtEvent e = nullptr;
        aclError r = in.pick(2) ? aclrtCreateEvent(&e) : aclrtCreateEventWithFlag(&e, in.byte());
        if (r == ACL_SUCCESS && e) {
          liveEvents_[e] = false;
          if (events_.size() < kSlots) events_.push_back(e);
        }
        break;
      }
      case 16: {
        aclrtEvent e = event(in);
        auto it = liveEvents_.find(e);
        if (it != liveEvents_.end() && it->second) release(e);
        if (aclrtDestroyEvent(e) == ACL_SUCCESS) liveEvents_.erase(e);
        break;
      }
      case 17: {
        aclrtEvent e = event(in);
        if (in.pick(3))
          aclrtRecordEvent(e, stream(in));
        else
          aclrtResetEvent(e, stream(in));
        break;
      }
      case 18: {
        aclrtEvent e = event(in);
        if (aclrtStreamWaitEvent(stream(in), e) == ACL_SUCCESS && liveEvents_.count(e)) liveEvents_[e] = true;
        break;
      }
      case 19: {
        aclrtEvent e = event(in);
        switch (in.pick(4)) {
          case 0:
            aclrtSynchronizeEvent(e);
            break;
          case 1: {
            aclrtEventRecordedStatus st;
            aclrtQueryEventStatus(e, &st);
            break;
          }
          case 2: {
            float ms = 0;
            aclrtEventElapsedTime(&ms, e, event(in));
            break;
          }
          default:
            aclrtSynchronizeEventWithTimeout(e, static_cast<int32_t>(in.pick(4)) - 1);
            break;
        }
        break;
      }
      case 20:
        if (in.pick(2))
          aclrtSynchronizeDevice();
        else
          aclrtSynchronizeDeviceWithTimeout(static_cast<int32_t>(in.pick(4)) - 1);
        break;
      case 21: {
        size_t f = 0, t = 0;
        aclrtGetMemInfo(static_cast<aclrtMemAttr>(in.pick(8)), &f, &t);
        int32_t can = 0;
        aclrtDeviceCanAccessPeer(&can, device(in), device(in));
        if (in.pick(2))
          aclrtDeviceEnablePeerAccess(device(in), in.pick(4) ? 0 : 1);
        else
          aclrtDeviceDisablePeerAccess(device(in));
        break;
      }
      case 22: {
        switch (in.pick(3)) {
          case 0: {
            aclrtContext c = nullptr;
            if (aclrtCreateContext(&c, device(in)) == ACL_SUCCESS && c) contexts_.insert(c);
            break;
          }
          case 1: {
            if (contexts_.empty()) break;
            auto it = contexts_.begin();
            std::advance(it, in.pick(contexts_.size()));
            aclrtContext c = *it;
            if (aclrtDestroyContext(c) == ACL_SUCCESS) contexts_.erase(c);
            break;
          }
          default:
            if (!contexts_.empty()) aclrtSetCurrentContext(*contexts_.begin());
            break;
        }
        break;
      }
      default:
        if (in.pick(2))
          aclInit(nullptr);
        else
          aclFinalize();
        break;
    }
  }

  // Records `e` on a fresh stream so every stream waiting on it can finish: a stream blocked
  // forever would keep its simulation thread for the rest of the process.
  void release(aclrtEvent e) {
    aclrtSetDevice(0);
    aclrtStream s = nullptr;
    if (aclrtCreateStream(&s) != ACL_SUCCESS) return;
    aclrtRecordEvent(e, s);
    aclrtSynchronizeStream(s);
    aclrtDestroyStream(s);
    liveEvents_[e] = false;
  }

  void cleanup() {
    for (auto& [e, waited] : liveEvents_)
      if (waited) release(e);
    for (auto& [e, waited] : liveEvents_) aclrtDestroyEvent(e);
    for (aclrtStream s : liveStreams_) aclrtDestroyStreamForce(s);
    for (aclrtContext c : contexts_) aclrtDestroyContext(c);
    for (void* p : devLive_) aclrtFree(p);
    for (void*& p : pinned_) {
      if (p) aclrtFreeHost(p);
      p = nullptr;
    }
    for (int d = 0; d < 8; ++d) aclrtResetDeviceForce(d);
    events_.clear();
    liveEvents_.clear();
    streams_.clear();
    liveStreams_.clear();
    contexts_.clear();
    dev_.clear();
    devLive_.clear();
  }

  uint8_t* pageable_ = nullptr;
  void* pinned_[2] = {nullptr, nullptr};
  std::vector<void*> dev_;  // device pointers handed out (live or freed)
  std::set<void*> devLive_;
  std::vector<aclrtStream> streams_;  // created (live or destroyed)
  std::set<aclrtStream> liveStreams_;
  std::vector<aclrtEvent> events_;         // created (live or destroyed)
  std::map<aclrtEvent, bool> liveEvents_;  // live -> a stream may be blocked waiting on it
  std::set<aclrtContext> contexts_;
};

inline void runApiSequence(const uint8_t* data, size_t size) {
  static ApiSequence* seq = new ApiSequence;  // one harness per process, like the runtime
  seq->run(data, size);
}

}  // namespace npusim::fuzz

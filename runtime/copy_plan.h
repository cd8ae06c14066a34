#pragma once
// Turns a copy or memset request into what the device must do: which memories are
// involved, which device's DMA engine runs it, along which route, with which checks.
// Shared by the synchronous and asynchronous, 1D and 2D entry points.
#include <cstdint>
#include <functional>

#include "acl/acl.h"
#include "models/sched/task.h"
#include "runtime/memory.h"
#include "runtime/runtime.h"

namespace npusim::rt {

struct CopyPlan {
  bool hostOnly = false;  // H2H: done by the CPU
  bool pageable = false;  // the host side is not pinned (aclrtMallocHost) memory
  int engine = -1;        // device whose DMA engine runs the copy
  sched::CopyRoute route = sched::CopyRoute::HostToDevice;
  int peer = -1;
  sched::CopyShape shape;
  const char* label = "Memcpy";
  uint32_t fillPattern = 0;
  // Copies whose addresses the device reads when it starts (descriptors): fills the task's shape.
  std::function<void(sched::Task&)>
      resolve;  // memsets: the 4-byte pattern the range repeats (models/common/fill_pattern.h)
};

// "ACL_MEMCPY_HOST_TO_DEVICE" for an aclrtMemcpyKind value, nullptr for a value that is none.
const char* memcpyKindName(uint64_t kind);

// Checks pointers, kind, ranges and peer access. Returns ACL_SUCCESS or fails `api`. A kind that
// disagrees with the pointers fails the call, unless `kindReserved` (aclrtMemcpy, whose kind
// CANN documents as reserved: the runtime decides the direction from the pointers), where it is
// the warning copy_kind_ignored and the pointers' direction is used.
aclError planCopy(ApiCall& api, void* dst, const void* src, uint64_t width, uint64_t height, uint64_t dpitch,
                  uint64_t spitch, aclrtMemcpyKind kind, CopyPlan* plan, bool kindReserved = false);
// A memset of `count` bytes with the byte `value`; set plan->fillPattern for a wider pattern.
aclError planMemset(ApiCall& api, void* dst, uint64_t count, int32_t value, CopyPlan* plan);

// Synchronous execution on the engine's internal queue (pageable memory goes through pinned
// staging buffers, pipelined with the DMA). Advances the calling thread's clock.
aclError runSync(ApiCall& api, const CopyPlan& plan);
// Asynchronous launch on a stream (plan must be pinned/device memory only).
aclError launchAsync(ApiCall& api, Stream* stream, const CopyPlan& plan);

}  // namespace npusim::rt

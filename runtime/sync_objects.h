#pragma once
// Device-side synchronisation objects (runtime/api_sync.cpp): notifies and value waits.
#include <cstdint>
#include <functional>

#include "acl/acl_base.h"
#include "models/sched/task.h"

namespace npusim::rt {
// Scheduler completion hook: a task on `device` finished and may have written device memory,
// so value waits on that device re-read their word.
void deviceMemoryWritten(int device);

class ApiCall;
struct Stream;
// Launches a builtin task `label` on `s` (charging the launch cost); `run` is its body on the device.
void launchBuiltin(ApiCall& api, Stream* s, const char* label, std::function<void(sched::Task&)> run);

// The bodies of value write and wait tasks, named so that a captured task's operands can be read
// and replaced (aclmdlRITaskGetParams / SetParams). `word` is the host view of `devAddr`.
struct ValueWriteBody {
  void* devAddr = nullptr;
  uint64_t* word = nullptr;
  uint64_t value = 0;
  void operator()(sched::Task& t) const;
};
struct ValueWaitBody {
  void* devAddr = nullptr;
  uint64_t* word = nullptr;
  uint64_t value = 0;
  uint32_t flag = 0;
  int device = 0;
  void operator()(sched::Task& t) const;
};
// The host view of the 8-byte aligned word of device memory at `devAddr` on `device`; on bad
// input fails `api` and returns nullptr with *err set.
uint64_t* valueWordOn(ApiCall& api, void* devAddr, int device, aclError* err);
}  // namespace npusim::rt

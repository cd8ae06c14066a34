#pragma once
// Device-side synchronisation objects (runtime/api_sync.cpp): notifies and value waits.
#include <functional>

#include "models/sched/task.h"

namespace npusim::rt {
// Scheduler completion hook: a task on `device` finished and may have written device memory,
// so value waits on that device re-read their word.
void deviceMemoryWritten(int device);

class ApiCall;
struct Stream;
// Launches a builtin task `label` on `s` (charging the launch cost); `run` is its body on the device.
void launchBuiltin(ApiCall& api, Stream* s, const char* label, std::function<void(sched::Task&)> run);
}  // namespace npusim::rt

#pragma once
// Device-side task failures as the host sees them (runtime/api_exception.cpp): a failed task
// leaves an exception record; the stream's next synchronisation returns its error code, the
// registered exception callbacks run when the host observes it, and aclrtGetErrorVerbose /
// aclrtQueryDeviceStatus report the device's latest failure.
#include <cstdint>
#include <string>

namespace npusim::sched {
struct Task;
struct HwStream;
}  // namespace npusim::sched

namespace npusim::rt {
// Scheduler completion hook: records the failure of `t` (t.error != 0).
void taskFailed(const sched::Task& t);
// Scheduler completion hook for a model's execution: a failure among the replay's tasks (on the
// model's own streams, which no program synchronises) becomes the executing stream's error.
void modelRunCompleted(const sched::Task& t);
// The error of the first failed task on `hw` not yet reported by a synchronisation (0 if none);
// clears it. `why` (may be null) receives the message for the synchronisation's error.
int32_t takeStreamError(const sched::HwStream* hw, std::string* why = nullptr);
// Runs the registered callbacks for failures recorded since the last delivery. Called when the
// outermost ACL call of a thread returns.
void deliverExceptions();
}  // namespace npusim::rt

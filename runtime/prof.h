#pragma once
// Profiling state shared by the aclprof*/mstx entry points (runtime/api_prof.cpp) and the runtime,
// which reports every completed device task so model subscriptions get the simulated operator times.
namespace npusim::sched {
struct Task;
}

namespace npusim::rt::prof {
// Called with the runtime lock held when a device task finishes.
void taskCompleted(const sched::Task& t);
}  // namespace npusim::rt::prof

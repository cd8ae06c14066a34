#pragma once
// Floating-point overflow detection (aclrtSetStreamOverflowSwitch, aclrtGetOverflowStatus,
// aclrtResetOverflowStatus; runtime/api_overflow.cpp): an operator on a stream with the switch on
// that leaves an Inf or NaN in a floating-point output sets its device's overflow status.
namespace npusim::sched {
struct Task;
}

namespace npusim::rt::overflow {
// Called with the runtime lock held when a device task finishes.
void taskCompleted(const sched::Task& t);
}  // namespace npusim::rt::overflow

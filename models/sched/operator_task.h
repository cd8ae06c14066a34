#pragma once
// An operator as a task carries it: the AI-core work, the functional kernel run when the task
// executes, and what the trace and the misuse checks need to know about it.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/aicore/op_work.h"

namespace npusim::sched {

struct OperatorTask {
  std::string name;         // "aclnnAdd"
  std::string argsSummary;  // "self=[4,2] fp32, other=[4,2] fp32, out=[4,2] fp32" (trace args)
  aicore::OpWork work;
  std::function<void()> compute;  // functional kernel; runs when the task executes (may be empty)
  // After `compute`: whether a floating-point output holds an Inf or NaN (overflow detection,
  // asked only for streams with the overflow switch on; may be empty).
  std::function<bool()> overflowed;
  // Runs when the task starts, before the cores time `work`: a custom kernel runs functionally
  // here and fills `work` with what its blocks did (may be empty).
  std::function<void(aicore::OpWork&)> before;
  std::vector<const void*> buffers;  // device memory it reads or writes (checks: freed while queued)
  // Workspace bytes to take from the stream's user allocator (aclrtAllocatorRegister) because the
  // program launched the operator without a workspace; 0 = none needed.
  uint64_t allocatorWorkspace = 0;
};

}  // namespace npusim::sched

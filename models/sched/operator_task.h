#pragma once
// An operator as a task carries it: the AI-core work, the functional kernel run when the task
// executes, and what the trace and the misuse checks need to know about it.
#include <functional>
#include <string>
#include <vector>

#include "models/aicore/op_work.h"

namespace npusim::sched {

struct OperatorTask {
  std::string name;         // "aclnnAdd"
  std::string argsSummary;  // "self=[4,2] fp32, other=[4,2] fp32, out=[4,2] fp32" (trace args)
  aicore::OpWork work;
  std::function<void()> compute;     // functional kernel; runs when the task executes (may be empty)
  std::vector<const void*> buffers;  // device memory it reads or writes (checks: freed while queued)
};

}  // namespace npusim::sched

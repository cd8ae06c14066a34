#pragma once
// Random-number tasks (aclrtRandomNumAsync, runtime/api_random.cpp) as a task update sees them.
#include <functional>
#include <string>

#include "acl/acl.h"
#include "models/sched/task.h"

namespace npusim::rt {

// For a random-number task `t`: a function that points it, and every copy of it (a captured
// task's replays), at the seed, count, results and counter of `in` on `device`, the distribution
// staying as launched (aclrtRandomTaskUpdateAttr). It returns empty, or why `in` is malformed
// (nothing changed then). nullptr when `t` is not a random-number task.
std::function<std::string(const aclrtRandomNumTaskInfo& in, int device)> randomTaskUpdater(
    const sched::Task& t);

}  // namespace npusim::rt

#pragma once
// Runtime settings that other parts of the runtime apply (runtime/api_runtime_settings.cpp keeps
// them).
#include "models/common/tick.h"

namespace npusim::rt {

// aclrtSetOpWaitTimeout: how long a later aclrtStreamWaitEvent task waits before it fails
// (0: for ever).
Tick opWaitTimeout();

}  // namespace npusim::rt

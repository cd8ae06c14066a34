#pragma once
// Event entry points shared by their flagged variants (runtime/api_sync.cpp): each opens its
// own ApiCall under `name`.
#include "acl/acl.h"
#include "models/common/tick.h"

namespace npusim::rt {
class Runtime;
aclError recordEvent(const char* name, aclrtEvent event, aclrtStream stream);
aclError streamWaitEvent(const char* name, aclrtStream stream, aclrtEvent event);
// Device time as the device's system counter reads it (sched.timestamp_hz ticks).
uint64_t timestampTicks(const Runtime& rt, Tick t);
}  // namespace npusim::rt

#pragma once
// Event entry points shared by their flagged variants (runtime/api_sync.cpp): each opens its
// own ApiCall under `name`.
#include "acl/acl.h"
#include "models/common/tick.h"

namespace npusim::rt {
class Runtime;
// `external`: ACL_EVENT_RECORD_EXTERNAL / ACL_EVENT_WAIT_EXTERNAL, which matter only in a capture
// (docs/capture.md, "External events").
aclError recordEvent(const char* name, aclrtEvent event, aclrtStream stream, bool external = false);
aclError streamWaitEvent(const char* name, aclrtStream stream, aclrtEvent event, bool external = false);
// Device time as the device's system counter reads it (sched.timestamp_hz ticks).
uint64_t timestampTicks(const Runtime& rt, Tick t);
}  // namespace npusim::rt

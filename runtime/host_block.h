#pragma once
// Blocking a runtime call on another host thread (data channels and queues: a receive waits for a
// send). The call releases the runtime lock and parks its thread, so the others may run ahead; when
// the condition holds it re-enters the runtime's ordering of calls at the time the others reached
// (docs/architecture.md "Host threads"), which keeps the result deterministic.
#include <cstdint>
#include <functional>

#include "acl/acl_base.h"
#include "runtime/runtime.h"

namespace npusim::rt {

// Waits until ready() (checked with the runtime lock held). timeoutMs: -1 for ever, 0 no wait, else
// wall-clock milliseconds (the other thread's progress is real time, not simulated). Returns
// ACL_SUCCESS, or `timeoutCode` when the time ran out.
aclError blockUntil(ApiCall& api, int32_t timeoutMs, const std::function<bool()>& ready,
                    aclError timeoutCode);

}  // namespace npusim::rt

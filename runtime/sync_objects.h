#pragma once
// Device-side synchronisation objects (runtime/api_sync.cpp): notifies and value waits.

namespace npusim::rt {
// Scheduler completion hook: a task on `device` finished and may have written device memory,
// so value waits on that device re-read their word.
void deviceMemoryWritten(int device);
}  // namespace npusim::rt

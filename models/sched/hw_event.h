#pragma once
// An event as the hardware sees it: a flag that record tasks set (with a timestamp) and
// wait tasks poll. Records are counted so a wait refers to the record issued before it.
#include <cstdint>
#include <systemc>

#include "models/common/tick.h"
#include "traces/trace_writer.h"

namespace npusim::sched {

struct HwEvent {
  uint64_t issuedRecords = 0;     // record tasks launched so far (host side)
  uint64_t completedRecords = 0;  // record tasks executed (device side)
  uint64_t resetBase = 0;         // records issued before the last reset
  Tick timestamp = 0;             // device time of the latest executed record
  uint64_t lastRecordTask = 0;    // id of the record task that set the timestamp (trace flows)
  trace::Track lastRecordTrack;   // where that record ran (for flow arrows to the waits)
  Tick lastRecordStart = 0;
  sc_core::sc_event signaled;  // notified when a record executes
};

}  // namespace npusim::sched

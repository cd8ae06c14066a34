#pragma once
// A host thread as the simulator sees it: its own simulated clock (advanced by the cost of
// each runtime call and by waiting for the device), its trace track, and its ACL state
// (current device and context).
#include "models/common/tick.h"
#include "traces/trace_writer.h"

namespace npusim::rt {

struct Context;

struct HostThread {
  int index = 0;   // order of the thread's first runtime call
  Tick clock = 0;  // simulated host time of this thread
  trace::Track track;
  int device = -1;
  Context* ctx = nullptr;
};

}  // namespace npusim::rt

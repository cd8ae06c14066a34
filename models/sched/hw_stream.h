#pragma once
// One hardware stream queue: tasks run in order, one at a time; different streams run
// concurrently. A SystemC thread per stream executes the queue; an idle stream costs nothing,
// and a destroyed one is reused, thread and all, by a later stream (SystemC never frees threads).
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <systemc>

#include "models/common/latency_histogram.h"
#include "models/sched/task.h"
#include "traces/trace_writer.h"

namespace npusim::sched {

struct StreamStats {
  uint64_t tasks = 0;
  Tick busy = 0;             // executing (including engine/event waits inside a task)
  Tick queued = 0;           // submitted but not started (behind earlier tasks)
  Tick engineWait = 0;       // waiting for a free DMA channel / AI cores
  Tick eventWait = 0;        // waiting on events
  LatencyHistogram latency;  // submit -> end

  void merge(const StreamStats& o) {
    tasks += o.tasks;
    busy += o.busy;
    queued += o.queued;
    engineWait += o.engineWait;
    eventWait += o.eventWait;
    latency.merge(o.latency);
  }
};

struct HwStream {
  int device = 0;
  int id = 0;             // stream id shown to users
  bool internal = false;  // runtime-internal queue (synchronous copies)
  std::deque<std::unique_ptr<Task>> queue;
  uint64_t issued = 0;         // tasks launched
  uint64_t completed = 0;      // tasks finished
  Tick lastEnd = 0;            // end time of the latest finished task
  sc_core::sc_event wake;      // a task arrived
  sc_core::sc_event progress;  // a task finished
  trace::Track track;
  StreamStats stats;
  bool destroyed = false;  // the runtime let go of it; it idles once the queue is empty
  bool finished = false;   // destroyed and drained (at finishedAt): the scheduler may reuse it
  Tick finishedAt = 0;
  uint64_t serial = 0;  // creation order on its device
  // Failure handling (aclrtSetStreamFailureMode, aclrtStreamStop/Abort): with stopOnFailure a
  // failed task makes the stream skip what follows; `discardBefore` skips tasks up to that seq.
  bool stopOnFailure = false;
  bool overflowCheck = false;  // aclrtSetStreamOverflowSwitch: its operators' outputs are checked
  bool failed = false;
  uint64_t discardThrough = 0;
  uint64_t running = 0;  // seq of the task executing now (0: none)
  // aclrtStreamAbort/Stop: the task with this seq, running when the host stopped it, fails with
  // `killError` (an ACL code chosen by the runtime) instead of succeeding.
  uint64_t killSeq = 0;
  int32_t killError = 0;
  // A forward jump (aclrtSwitchLabelByIndex in a model): tasks with seq in [skipFrom, skipTo] are skipped.
  uint64_t skipFrom = 1, skipTo = 0;
};

}  // namespace npusim::sched

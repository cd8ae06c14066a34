#pragma once
// A captured task graph (aclmdlRI) as the device replays it. Each captured stream becomes a
// lane: a hardware stream the model owns, holding that stream's tasks in capture order. Event
// edges between lanes use model-private events, created afresh for every replay so that
// replays never see each other's records (or the user's).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/sched/task.h"

namespace npusim::sched {

struct HwStream;

// One captured task: a template copied for every replay. `event` is the model-private event
// slot of an event record/wait/reset (-1 for other tasks); the template's recordIndex /
// waitTarget count records of that slot within one replay.
struct ModelTask {
  Task task;
  int event = -1;
  // An external event record/wait (ACL_EVENT_RECORD_EXTERNAL / ACL_EVENT_WAIT_EXTERNAL): the
  // user's own event, whose record index / wait target each replay takes from the ModelExec
  // task's externalTargets[externalIndex] (resolved when the replay is submitted).
  std::shared_ptr<HwEvent> external;
  int externalIndex = -1;
  // aclmdlRITaskDisable marks it (`disabling`); aclmdlRIUpdate makes that take effect: a disabled
  // task keeps its place in the lane (labels count positions) but does nothing.
  bool disabling = false, disabled = false;
  // What the program attached to the task while it was captured (aclrtCacheLastTaskExtendInfo,
  // aclrtCacheLastTaskOpInfo): shown by aclmdlRIDebugJsonPrint.
  std::string extendInfo{};
  std::vector<uint8_t> opInfo{};
};

struct ModelLane {
  HwStream* hw = nullptr;  // the model's own stream that runs this lane
  int capturedStream = 0;  // user-visible id of the stream it was captured from (trace, dumps)
  // Built models: the event slot whose record starts this lane (-1: a head lane), and whether the
  // model ends when this lane's tasks are done (aclmdlRIEndTask). When some lane ends the model,
  // lanes that are not done then (never activated, say) are cancelled.
  int activation = -1;
  bool endsModel = false;
  std::vector<ModelTask> tasks;
};

struct ModelGraph {
  int id = 0;
  int device = 0;
  std::vector<ModelLane> lanes;  // lane 0: the origin stream (aclmdlRICaptureBegin's)
  int events = 0;                // model-private event slots
  int externals = 0;             // external event records and waits (ModelTask::externalIndex)
  uint64_t runsStarted = 0;      // replays the device has begun
  uint64_t runsCompleted = 0;    // replays whose every task has finished

  uint64_t taskCount() const {
    uint64_t n = 0;
    for (const ModelLane& l : lanes) n += l.tasks.size();
    return n;
  }
};

}  // namespace npusim::sched

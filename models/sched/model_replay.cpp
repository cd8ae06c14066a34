// Replay of a captured model on the device (TaskKind::ModelExec): the scheduler itself puts
// every captured task on the model's lanes at once, so a replay costs one host submission
// plus the device-side dispatch of each task, never a host launch per task.
#include <memory>
#include <vector>

#include "models/sched/model_graph.h"
#include "models/sched/stream_scheduler.h"

namespace npusim::sched {

void StreamScheduler::runModel(HwStream* s, Task& t) {
  ModelGraph& g = *t.model;
  g.runsStarted++;
  // Fresh private events: record/wait counts restart at zero in every replay.
  std::vector<std::shared_ptr<HwEvent>> events(static_cast<size_t>(g.events));
  for (auto& e : events) e = std::make_shared<HwEvent>();

  const Tick at = static_cast<Tick>(sc_core::sc_time_stamp().value());
  const bool traced = trace_.wants(trace::Level::Task);
  uint64_t nextId = t.firstModelTaskId;
  std::vector<uint64_t> targets(g.lanes.size(), 0);
  for (size_t l = 0; l < g.lanes.size(); ++l) {
    ModelLane& lane = g.lanes[l];
    // An arrow from the model's span to the first task of each lane it starts.
    uint64_t laneFlow = 0;
    if (traced && !lane.tasks.empty()) {
      laneFlow = trace_.newFlowId();
      trace_.flowStart(s->track, laneFlow, "launch", t.start);
    }
    for (size_t i = 0; i < lane.tasks.size(); ++i) {
      const ModelTask& mt = lane.tasks[i];
      auto task = std::make_unique<Task>(mt.task);
      task->id = nextId++;
      task->submit = at;
      task->flow = i == 0 ? laneFlow : 0;
      if (mt.event >= 0) task->event = events[static_cast<size_t>(mt.event)];
      if (mt.externalIndex >= 0) {  // the user's event, at the record this replay was given
        const uint64_t target = t.externalTargets[static_cast<size_t>(mt.externalIndex)];
        task->event = mt.external;
        (task->kind == TaskKind::EventRecord ? task->recordIndex : task->waitTarget) = target;
      }
      submit(lane.hw, std::move(task));
    }
    targets[l] = lane.hw->issued;
  }
  for (size_t l = 0; l < g.lanes.size(); ++l) {
    HwStream* hw = g.lanes[l].hw;
    while (hw->completed < targets[l]) sc_core::wait(hw->progress);
  }
  g.runsCompleted++;
}

}  // namespace npusim::sched

// Replay of a captured model on the device (TaskKind::ModelExec): the scheduler itself puts
// every captured task on the model's lanes at once, so a replay costs one host submission
// plus the device-side dispatch of each task, never a host launch per task.
#include <algorithm>
#include <memory>
#include <vector>

#include "models/common/sim_time.h"
#include "models/sched/hw_event.h"
#include "models/sched/model_graph.h"
#include "models/sched/stream_scheduler.h"

namespace npusim::sched {

void StreamScheduler::runModel(HwStream* s, Task& t) {
  ModelGraph& g = *t.model;
  g.runsStarted++;
  // Fresh private events: record/wait counts restart at zero in every replay.
  std::vector<std::shared_ptr<HwEvent>> events(static_cast<size_t>(g.events));
  for (auto& e : events) e = std::make_shared<HwEvent>();

  const Tick at = simNow();
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
      if (mt.disabled) {
        task->kind = TaskKind::Marker;
        task->label = "disabled: " + task->label;
      }
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
  // The model ends with its ending lanes (every lane if none is marked); then the lanes still
  // pending are cancelled: their queued tasks are skipped and a lane still waiting for its
  // activation is released into that skip.
  bool anyEnd = false;
  for (const ModelLane& lane : g.lanes) anyEnd |= lane.endsModel;
  for (size_t l = 0; l < g.lanes.size(); ++l) {
    if (anyEnd && !g.lanes[l].endsModel) continue;
    HwStream* hw = g.lanes[l].hw;
    while (hw->completed < targets[l]) sc_core::wait(hw->progress);
  }
  if (anyEnd) {
    for (size_t l = 0; l < g.lanes.size(); ++l) {
      ModelLane& lane = g.lanes[l];
      if (lane.hw->completed >= targets[l]) continue;
      lane.hw->discardThrough = std::max(lane.hw->discardThrough, lane.hw->issued);
      if (lane.activation >= 0) {
        HwEvent& e = *events[static_cast<size_t>(lane.activation)];
        e.completedRecords = std::max<uint64_t>(e.completedRecords, 1);
        e.signaled.notify(sc_core::SC_ZERO_TIME);
      }
    }
    for (size_t l = 0; l < g.lanes.size(); ++l)
      while (g.lanes[l].hw->completed < targets[l]) sc_core::wait(g.lanes[l].hw->progress);
  }
  g.runsCompleted++;
}

void StreamScheduler::runNested(HwStream* s, std::shared_ptr<ModelGraph> g, uint64_t firstTaskId) {
  Task t;
  t.kind = TaskKind::ModelExec;
  t.start = simNow();
  t.firstModelTaskId = firstTaskId;
  t.externalTargets.assign(static_cast<size_t>(g->externals), 0);
  t.model = std::move(g);
  runModel(s, t);
}

}  // namespace npusim::sched

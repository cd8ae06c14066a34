#pragma once
// The hardware stream scheduler of one device: one queue per stream, in order within a
// stream, concurrent across streams. It fetches each task when its SQE becomes visible,
// pays the dispatch latency, runs it on its engine (DMA, AI cores, event logic) and
// reports completion.
#include <functional>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "models/aicore/ai_core_cluster.h"
#include "models/dma/dma_engine.h"
#include "models/sched/hw_event.h"
#include "models/sched/hw_stream.h"
#include "traces/trace_writer.h"

namespace npusim {
class Config;
}

namespace npusim::sched {

// What the statistics report per stream. One record folds together the destroyed streams beyond
// the first kMaxRetiredRecords (foldedStreams > 0), so that memory stays flat however many
// streams a program creates and destroys.
struct StreamRecord {
  int id = 0;
  bool internal = false;
  uint64_t serial = 0;
  uint64_t foldedStreams = 0;
  StreamStats stats;
};

class StreamScheduler : public sc_core::sc_module {
 public:
  static constexpr size_t kMaxRetiredRecords = 1024;

  using CompletionHook = std::function<void(const Task&)>;
  StreamScheduler(sc_core::sc_module_name name, int device, const Config& cfg, dma::DmaEngine& dma,
                  aicore::AiCoreCluster& cores, trace::TraceWriter& trace, int tracePid, CompletionHook hook);

  // `trackName` names the stream's trace track (default "Stream <id>").
  HwStream* createStream(int id, bool internal, const std::string& trackName = {});
  // Marks a stream as gone: once its queue is empty it idles until a later createStream reuses
  // it (its statistics are kept).
  void retireStream(HwStream* s);
  // Host side: appends the task (t->submit must be set); the stream wakes at t->submit.
  void submit(HwStream* s, std::unique_ptr<Task> t);
  // The simulation is ending: every stream thread idle on an empty queue returns once the
  // kernel runs its next delta cycle, so SystemC frees its stack (it never frees a thread that
  // has not returned). No task may be submitted afterwards.
  void endThreads();

  // Every hardware stream: live ones, and destroyed ones (draining, or idle for reuse).
  const std::vector<std::unique_ptr<HwStream>>& streams() const { return streams_; }
  // Every stream that ran tasks, live and destroyed, in creation order.
  std::vector<StreamRecord> streamStatistics() const;
  Tick dispatchLatency() const { return dispatch_; }

  // Replays `g` from a task running on `s` (a conditional task of another model) and returns when
  // the replay has ended; its tasks take ids from `firstTaskId` on.
  void runNested(HwStream* s, std::shared_ptr<ModelGraph> g, uint64_t firstTaskId);

 private:
  void streamThread(HwStream* s);
  void takeDispatchTurn(const HwStream* s);
  void execute(HwStream* s, Task& t);
  void runModel(HwStream* s, Task& t);  // TaskKind::ModelExec (models/sched/model_replay.cpp)
  void traceTask(HwStream* s, const Task& t);
  HwStream* reuseFinishedStream();

  int device_;
  dma::DmaEngine& dma_;
  aicore::AiCoreCluster& cores_;
  trace::TraceWriter& trace_;
  int pid_;
  CompletionHook hook_;
  Tick dispatch_;
  // Streams dispatching a task at the current time, by (id, internal), and the event that lets
  // the next one go (takeDispatchTurn).
  std::multiset<std::pair<int, int>> dispatching_;
  sc_core::sc_event dispatchTurn_;
  std::vector<std::unique_ptr<HwStream>> streams_;
  std::vector<StreamRecord> retired_;  // destroyed streams that ran tasks
  StreamRecord folded_;                // destroyed streams beyond kMaxRetiredRecords
  uint64_t created_ = 0;
  size_t finished_ = 0;  // destroyed, drained streams waiting for reuse
  bool ending_ = false;  // endThreads() was called
};

}  // namespace npusim::sched

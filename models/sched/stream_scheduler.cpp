#define SC_INCLUDE_DYNAMIC_PROCESSES  // sc_spawn: streams are created while the simulation runs
#include "models/sched/stream_scheduler.h"

#include <fmt/format.h>

#include <algorithm>

#include "models/common/sim_time.h"
#include "models/sched/model_graph.h"
#include "npusim/config.h"

namespace npusim::sched {

namespace {
Tick now() { return simNow(); }
sc_core::sc_time ticks(Tick t) { return toScTime(t); }
}  // namespace

StreamScheduler::StreamScheduler(sc_core::sc_module_name name, int device, const Config& cfg,
                                 dma::DmaEngine& dma, aicore::AiCoreCluster& cores, trace::TraceWriter& trace,
                                 int tracePid, CompletionHook hook)
    : sc_module(name),
      device_(device),
      dma_(dma),
      cores_(cores),
      trace_(trace),
      pid_(tracePid),
      hook_(std::move(hook)) {
  dispatch_ = nsToTick(cfg.getFloat("sched.dispatch_ns"));
}

HwStream* StreamScheduler::createStream(int id, bool internal, const std::string& trackName) {
  HwStream* s = reuseFinishedStream();
  if (!s) {
    streams_.push_back(std::make_unique<HwStream>());
    s = streams_.back().get();
    s->device = device_;
    // The serial keeps the process name unique when a stream id comes back.
    sc_core::sc_spawn_options opts;
    opts.set_stack_size(256 * 1024);
    sc_core::sc_spawn([this, s] { streamThread(s); },
                      fmt::format("npu{}_stream{}_{}", device_, id, created_).c_str(), &opts);
  }
  s->id = id;
  s->internal = internal;
  s->serial = created_++;
  if (trace_.wants(trace::Level::Task))
    s->track = trace_.thread(pid_,
                             !trackName.empty() ? trackName
                             : internal         ? std::string("Sync copies")
                                                : fmt::format("Stream {}", id),
                             id);
  return s;
}

// SystemC never frees a process, even one that has ended, so a stream's thread outlives the
// stream: a destroyed, drained stream is kept idle and taken by the next createStream. Only
// at a later simulated time, so that no process can still be inside a delta cycle that touches
// its events. Its statistics move to the retired records first.
HwStream* StreamScheduler::reuseFinishedStream() {
  if (finished_ == 0) return nullptr;
  Tick t = now();
  for (const auto& p : streams_) {
    HwStream* s = p.get();
    if (!s->finished || s->finishedAt >= t) continue;
    if (s->stats.tasks > 0) {
      StreamRecord r{s->id, s->internal, s->serial, 0, std::move(s->stats)};
      if (retired_.size() < kMaxRetiredRecords) {
        retired_.push_back(std::move(r));
      } else {
        folded_.serial = r.serial;
        folded_.foldedStreams++;
        folded_.stats.merge(r.stats);
      }
    }
    s->stats = StreamStats{};
    s->issued = s->completed = s->discardThrough = s->skipTo = s->running = s->killSeq = 0;
    s->skipFrom = 1;
    s->failed = s->stopOnFailure = false;
    s->lastEnd = 0;
    s->destroyed = s->finished = false;
    finished_--;
    return s;
  }
  return nullptr;
}

std::vector<StreamRecord> StreamScheduler::streamStatistics() const {
  std::vector<StreamRecord> out = retired_;
  for (const auto& s : streams_)
    if (s->stats.tasks > 0) out.push_back(StreamRecord{s->id, s->internal, s->serial, 0, s->stats});
  std::sort(out.begin(), out.end(),
            [](const StreamRecord& a, const StreamRecord& b) { return a.serial < b.serial; });
  if (folded_.stats.tasks > 0) out.push_back(folded_);
  return out;
}

void StreamScheduler::retireStream(HwStream* s) {
  s->destroyed = true;
  s->wake.notify(sc_core::SC_ZERO_TIME);
}

void StreamScheduler::submit(HwStream* s, std::unique_ptr<Task> t) {
  t->stream = s;
  t->seq = ++s->issued;
  Tick n = now();
  Tick delay = t->submit > n ? t->submit - n : 0;
  s->queue.push_back(std::move(t));
  s->wake.notify(ticks(delay));
}

void StreamScheduler::endThreads() {
  ending_ = true;
  for (const auto& s : streams_) s->wake.notify(sc_core::SC_ZERO_TIME);
}

void StreamScheduler::streamThread(HwStream* s) {
  for (;;) {
    while (s->queue.empty()) {
      if (ending_) return;
      if (s->destroyed && !s->finished) {  // idle until createStream reuses it
        s->finished = true;
        s->finishedAt = now();
        finished_++;
      }
      sc_core::wait(s->wake);
    }
    Task& t = *s->queue.front();
    if (t.submit > now()) sc_core::wait(ticks(t.submit - now()));
    sc_core::wait(ticks(dispatch_));
    takeDispatchTurn(s);
    t.start = now();
    if ((s->stopOnFailure && s->failed) || t.seq <= s->discardThrough ||
        (t.seq >= s->skipFrom && t.seq <= s->skipTo))
      t.skipped = true;  // the stream stopped, failed, or was aborted: the task does not run
    else {
      s->running = t.seq;
      execute(s, t);
      s->running = 0;
      if (t.seq == s->killSeq && !t.error) t.error = s->killError;
    }
    if (t.error && s->stopOnFailure) s->failed = true;  // continue-on-failure streams run on
    t.end = now();

    StreamStats& st = s->stats;
    st.tasks++;
    st.busy += t.end - t.start;
    st.queued += t.start - std::min(t.start, t.submit + dispatch_);
    st.engineWait += t.engineWait;
    st.eventWait += t.eventWait;
    st.latency.add(t.end - t.submit);
    traceTask(s, t);

    std::unique_ptr<Task> done = std::move(s->queue.front());
    s->queue.pop_front();
    s->completed++;
    s->lastEnd = t.end;
    s->progress.notify(sc_core::SC_ZERO_TIME);
    if (hook_) hook_(*done);
  }
}

// Streams that dispatch at the same simulated time start their tasks in stream order, one per
// delta cycle. SystemC wakes same-time processes in an order that depends on the history of its
// event queue, and the host threads' submissions reach it at kernel times that depend on the OS
// schedule; the engines arbitrate same-time requests in call order, so without this two runs of
// one multi-threaded program could time their copies differently.
void StreamScheduler::takeDispatchTurn(const HwStream* s) {
  const std::pair<int, int> key{s->id, s->internal ? 1 : 0};
  dispatching_.insert(key);
  sc_core::wait(sc_core::SC_ZERO_TIME);  // every stream dispatching now has registered
  while (*dispatching_.begin() != key) sc_core::wait(dispatchTurn_);
  dispatching_.erase(dispatching_.begin());
  dispatchTurn_.notify(sc_core::SC_ZERO_TIME);
}

void StreamScheduler::execute(HwStream* s, Task& t) {
  switch (t.kind) {
    case TaskKind::Copy:
      if (t.run) t.run(t);  // a copy whose addresses the device reads when it starts (descriptors)
      if (!t.error) dma_.run(t);
      break;
    case TaskKind::EventRecord: {
      HwEvent& e = *t.event;
      e.completedRecords = std::max(e.completedRecords, t.recordIndex);
      e.timestamp = now();
      e.lastRecordTask = t.id;
      e.lastRecordTrack = s->track;
      e.lastRecordStart = t.start;
      e.signaled.notify(sc_core::SC_ZERO_TIME);
      break;
    }
    case TaskKind::EventWait: {
      HwEvent& e = *t.event;
      Tick t0 = now();
      while (e.completedRecords < t.waitTarget) {
        if (!t.waitTimeout) {
          sc_core::wait(e.signaled);
          continue;
        }
        const Tick waited = now() - t0;
        if (waited >= t.waitTimeout) {
          t.error = t.timeoutError;  // the scheduler gives up on the wait, as the TS does
          break;
        }
        sc_core::wait(ticks(t.waitTimeout - waited), e.signaled);
      }
      t.eventWait = now() - t0;
      if (t.error) break;  // timed out: no record released it
      if (trace_.wants(trace::Level::Task) && e.lastRecordTask) {
        // Arrow from the record to a zero-length "released" mark at the release time (an
        // arrow must point from the earlier-starting slice to the later one).
        uint64_t id = trace_.newFlowId();
        trace_.slice(s->track, "released", "event", now(), 0);
        trace_.flowStart(e.lastRecordTrack, id, "event", e.lastRecordStart);
        trace_.flowEnd(s->track, id, "event", now());
      }
      break;
    }
    case TaskKind::Operator: {
      t.op->work.fault = 0;
      if (t.op->before) t.op->before(t.op->work);
      cores_.run(t.op->work, t.op->name, t.id);
      if (t.op->compute) t.op->compute();
      if (t.op->work.fault) t.error = t.op->work.fault;  // a kernel fault: the cores still did its work
      break;
    }
    case TaskKind::ModelExec:
      runModel(s, t);
      break;
    case TaskKind::Builtin:
      if (t.run) t.run(t);
      break;
    case TaskKind::EventReset:
    case TaskKind::Marker:
      break;
  }
}

void StreamScheduler::traceTask(HwStream* s, const Task& t) {
  if (!trace_.wants(trace::Level::Task)) return;
  trace::Args a;
  a.add("task", t.id).add("stream", s->id).add("seq", t.seq);
  if (t.kind == TaskKind::Copy) {
    a.add("bytes", t.copy.bytes()).add("route", routeName(t.route));
    if (t.end > t.start)
      a.add("GB/s", static_cast<double>(t.copy.bytes()) / tickToSec(t.end - t.start) / 1e9);
  }
  if (t.kind == TaskKind::Operator && t.op) a.add("args", t.op->argsSummary);
  if (t.kind == TaskKind::ModelExec && t.model)
    a.add("model", t.model->id).add("tasks", t.model->taskCount());
  if (t.engineWait) a.add("engine_wait_us", tickToUs(t.engineWait));
  if (t.error) a.add("error", static_cast<int64_t>(t.error));
  if (t.skipped) a.add("skipped", 1);
  if (t.eventWait) a.add("event_wait_us", tickToUs(t.eventWait));
  a.add("queued_us", tickToUs(t.start - std::min(t.start, t.submit)));
  trace_.slice(s->track, t.label, "task", t.start, t.end - t.start, &a);
  if (t.flow) trace_.flowEnd(s->track, t.flow, "launch", t.start);
  // Queueing (submitted, not yet started) as an async slice: these overlap across tasks.
  if (t.start > t.submit + dispatch_)
    trace_.asyncBegin(pid_, fmt::format("queued: {}", t.label), "queue", t.id, t.submit),
        trace_.asyncEnd(pid_, fmt::format("queued: {}", t.label), "queue", t.id, t.start);
}

}  // namespace npusim::sched

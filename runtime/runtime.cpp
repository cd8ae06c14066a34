#include "runtime/runtime.h"

#include <fmt/format.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <systemc>

#if defined(__SANITIZE_ADDRESS__)  // GCC
#define NPUSIM_ASAN 1
#elif defined(__has_feature)  // Clang
#if __has_feature(address_sanitizer)
#define NPUSIM_ASAN 1
#endif
#endif
#ifdef NPUSIM_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#include "models/common/sim_time.h"
#include "runtime/capture.h"
#include "runtime/checks.h"
#include "runtime/dump.h"
#include "runtime/exceptions.h"
#include "runtime/kernel_exec.h"
#include "runtime/overflow.h"
#include "runtime/plugins.h"
#include "runtime/prof.h"
#include "runtime/summary.h"
#include "runtime/sync_objects.h"
#include "traces/stats_summary.h"

namespace npusim::rt {

using sc_core::SC_PS;
using sc_core::sc_time;

Runtime& Runtime::get() {
  static Runtime* r = new Runtime();  // never destroyed: outputs are written by an atexit hook
  return *r;
}

Tick Runtime::kernelNow() const { return simNow(); }

namespace {
void atExit() {
  Runtime& rt = Runtime::get();
  std::lock_guard<std::recursive_mutex> lock(rt.mu);
  if (rt.dirty) rt.writeOutputs();
  rt.trace().close();
  rt.stopKernel();  // the platform stays: other threads and static destructors may still use it
}

std::vector<std::function<void()>>& simulationEndHooks() {
  static auto* hooks = new std::vector<std::function<void()>>();  // registered statically
  return *hooks;
}

}  // namespace

#ifdef NPUSIM_ASAN
// libsystemc tells AddressSanitizer of its coroutine switches (weak __sanitizer_*_switch_fiber).
// After a thread that returned switches out for the last time, ASan still takes the host thread
// to run on that thread's stack, which SystemC then frees; LeakSanitizer would scan it at exit
// and fault. So once the threads have ended, name the host thread's own stack again.
static void resyncSanitizerStack() {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* bottom = nullptr;
  size_t size = 0;
  pthread_attr_getstack(&attr, &bottom, &size);
  pthread_attr_destroy(&attr);
  void* fakeStack = nullptr;
  __sanitizer_start_switch_fiber(&fakeStack, bottom, size);
  __sanitizer_finish_switch_fiber(fakeStack, nullptr, nullptr);
}
#else
static void resyncSanitizerStack() {}
#endif

void Runtime::onSimulationEnd(std::function<void()> forget) {
  simulationEndHooks().push_back(std::move(forget));
}

void Runtime::stopKernel() {
  if (!platform_ || sc_core::sc_end_of_simulation_invoked()) return;
  // Quietly: SystemC reports "Simulation stopped by user." as info of this type.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_stop();  // outside sc_start this runs every end_of_simulation at once
}

bool Runtime::ensure(std::string* err) {
  if (platform_) return true;
  if (!configError_.empty() || ended_) {
    if (err) *err = ended_ ? std::string("aclFinalize ended the simulation") : configError_;
    return false;
  }
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  try {
    Config cfg = Config::fromEnvironment();
    if (!processReady_) setUpProcess(cfg);
    buildSimulation(cfg);
  } catch (const std::exception& e) {
    configError_ = e.what();
    platform_.reset();
    std::fprintf(stderr, "npusim: configuration error: %s\n", e.what());
    if (err) *err = configError_;
    return false;
  }
  return true;
}

void Runtime::setUpProcess(const Config& cfg) {
  const char* tracePath = std::getenv("NPUSIM_TRACE");
  if (tracePath && *tracePath) {
    std::string lv = cfg.getString("trace.level");
    trace::Level level = lv == "api"           ? trace::Level::Api
                         : lv == "transaction" ? trace::Level::Transaction
                                               : trace::Level::Task;
    std::string why;
    if (!trace_.open(tracePath, level, &why)) throw ConfigError("NPUSIM_TRACE: " + why);
    hostPid_ = trace_.process("Host", 0);
  }
  const char* stats = std::getenv("NPUSIM_STATS");
  if (stats && *stats) statsPath_ = stats;
  const char* summary = std::getenv("NPUSIM_SUMMARY");
  summary_ = summary && *summary && std::string(summary) != "0";
  const char* plugins = std::getenv("NPUSIM_PLUGINS");
  if (plugins && *plugins) loadPlugins(plugins);  // registrations outlive every simulation
  processReady_ = true;
}

void Runtime::buildSimulation(const Config& cfg) {
  costs_ = hostCostsFromConfig(cfg);
  platform_ = std::make_unique<Platform>(cfg, trace_, [this](const sched::Task& t) { onTaskComplete(t); });
  devices_.resize(static_cast<size_t>(platform_->deviceCount()));
  for (int d = 0; d < platform_->deviceCount(); ++d) {
    memory_->addDevice(d, platform_->hbmCapacity());
    const DeviceMemory& m = memory_->device(d);
    platform_->setAddressSpace(d, {m.base(), m.capacity(), m.backing(0)});
    devices_[static_cast<size_t>(d)].syncQueue = platform_->device(d).sched->createStream(-1, true);
  }
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaboration and initialisation, at time 0
  if (simulations_ > 0) {
    // After an ended simulation every clock starts again at 0, so the same work takes the same
    // times in every simulation; the trace places this one after the last (rounded up to a
    // microsecond), so the timeline stays one.
    Tick last = endedAt_;
    for (auto& t : threads_) last = std::max(last, t->clock), t->clock = 0;
    frontier_ = 0;
    trace_.shiftTime((last + kUs - 1) / kUs * kUs);
  }
  if (++simulations_ == 1) {
    installAbnormalEndHandlers();  // before the fault reporter, which passes other faults on to it
    checks::installFaultReporter();
    std::atexit(atExit);
  }
}

void Runtime::endSimulation() {
  if (!platform_) return;
  writeOutputs();
  // The stream threads return, so SystemC frees their stacks: it never deletes a thread that
  // has not, and a process cycling aclInit/aclFinalize kept ~10 stacks (20 memory maps) per
  // cycle. They return in one delta cycle; a process that ended in a delta cycle is deleted in
  // the next, hence two. Both at the current time: no simulated time passes.
  if (!sc_core::sc_end_of_simulation_invoked()) {
    platform_->endThreads();
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    resyncSanitizerStack();
  }
  stopKernel();
  endedAt_ = kernelNow();
  for (const auto& forget : simulationEndHooks()) forget();
  // Handles the program did not release are invalid from here on, as in CANN.
  for (Event* e : events_) {
    checks::eventDestroyed(e);
    delete e;
  }
  events_.clear();
  for (Stream* s : streams_) {
    captureStreamDestroyed(s);
    checks::streamDestroyed(s);
    delete s;
  }
  streams_.clear();
  for (Context* c : contexts_)
    if (!c->isDefault) delete c;
  contexts_.clear();
  for (auto& t : threads_) t->ctx = nullptr, t->device = -1;
  devices_.clear();
  platform_.reset();  // the modules go while their context is still the current one
  auto fresh = std::make_unique<MemoryManager>();
  fresh->quarantineHostOf(*memory_);
  memory_ = std::move(fresh);
  // The first simulation's context is never deleted: libsystemc's own static events belong to it
  // and unregister from it at exit. A later one goes now that its modules and every runtime
  // object holding its events are gone, so a program cycling aclInit/aclFinalize does not
  // collect process stacks and memory maps (docs/architecture.md "Ending").
  if (simulations_ > 1) delete sc_core::sc_curr_simcontext;
  sc_core::sc_curr_simcontext = nullptr;  // the next use creates a fresh context
  sc_core::sc_default_global_context = nullptr;
  ended_ = true;
}

namespace {
thread_local HostThread* tMine = nullptr;
thread_local Runtime* tOwner = nullptr;
// Marks the thread Done when it exits, so the others stop waiting for it.
struct ThreadExitGuard {
  ~ThreadExitGuard() {
    if (tMine && tOwner) tOwner->threadFinished(tMine);
  }
};
thread_local ThreadExitGuard tExitGuard;
}  // namespace

HostThread* Runtime::registerChild(HostThread* parent) {
  threads_.push_back(std::make_unique<HostThread>());
  HostThread* t = threads_.back().get();
  t->index = static_cast<int>(threads_.size()) - 1;
  t->clock = parent ? parent->clock : frontier_;
  if (trace_.wants(trace::Level::Api))
    t->track = trace_.thread(
        hostPid_,
        t->index == 0 ? std::string("Host thread 0 (main)") : fmt::format("Host thread {}", t->index),
        t->index);
  progress_++;
  return t;
}

void Runtime::bindThread(HostThread* t) {
  tMine = t;
  tOwner = this;
  (void)&tExitGuard;  // odr-use: constructs the guard for this thread
}

void Runtime::threadFinished(HostThread* t) {
  std::lock_guard<std::recursive_mutex> lock(mu);
  t->state = HostState::Done;
  progress_++;
  cv.notify_all();
}

HostThread* Runtime::findThread(unsigned long pthreadId) {
  for (auto& t : threads_)
    if (t->pthread == pthreadId) return t.get();
  return nullptr;
}

HostThread* Runtime::currentThreadIfKnown() { return tOwner == this ? tMine : nullptr; }

std::unique_lock<std::recursive_mutex> Runtime::lockForCall() {
  HostThread* th = currentThreadIfKnown();
  if (th) th->entering = true;
  std::unique_lock<std::recursive_mutex> lock(mu);
  if (th) th->entering = false;
  return lock;
}

HostThread& Runtime::thread() {
  if (!tMine || tOwner != this) {
    // A thread the runtime did not see being created starts at the latest time any call began.
    bindThread(registerChild(nullptr));
    tMine->pthread = static_cast<unsigned long>(pthread_self());
    tMine->tid = static_cast<int>(gettid());
  }
  return *tMine;
}

bool Runtime::earlierThreadExists(const HostThread& th, Tick clock) const {
  for (const auto& u : threads_) {
    if (u.get() == &th) continue;
    bool mayAct = u->state == HostState::Native || (u->state == HostState::Waiting && u->woken);
    if (!mayAct) continue;
    if (u->clock < clock || (u->clock == clock && u->index < th.index)) return true;
  }
  return false;
}

Tick Runtime::otherThreadsHorizon(const HostThread& th) const {
  Tick h = kTickMax;
  for (const auto& u : threads_) {
    if (u.get() == &th) continue;
    bool mayAct = u->state == HostState::Native || (u->state == HostState::Waiting && u->woken);
    if (mayAct) h = std::min(h, u->clock);
  }
  return h;
}

bool Runtime::anyWaiterSatisfied() const {
  for (const auto& u : threads_)
    if (u->state == HostState::Waiting && !u->woken && u->waitingFor && (*u->waitingFor)()) return true;
  return false;
}

void Runtime::wakeSatisfiedWaiters() {
  bool any = false;
  for (auto& u : threads_) {
    if (u->state == HostState::Waiting && !u->woken && u->waitingFor && (*u->waitingFor)()) {
      observe(*u, kernelNow());
      u->woken = true;
      any = true;
    }
  }
  if (any) {
    progress_++;
    cv.notify_all();
  }
}

namespace {
// CPU time a host thread has used so far, in ns (0 when it cannot be read).
uint64_t cpuTimeNs(const HostThread& u) {
  clockid_t id;
  timespec ts{};
  if (!u.pthread || pthread_getcpuclockid(static_cast<pthread_t>(u.pthread), &id) != 0 ||
      clock_gettime(id, &ts) != 0)
    return 0;
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

constexpr uint64_t kBusyParkNs = 2000000000;  // as the two wall-clock seconds of an idle thread

// Whether the OS has the thread running or ready to run (state R in /proc): it is computing, or
// waiting only for a CPU on a loaded machine, so it is not idle whatever the wall clock says.
// A thread that has not started yet (tid 0) is about to run.
bool threadRunnable(const HostThread& u) {
  const int tid = u.tid;
  if (tid == 0) return true;
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
  FILE* f = std::fopen(path, "r");
  if (!f) return false;  // exited
  char buf[512];
  const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  buf[n] = '\0';
  const char* close = std::strrchr(buf, ')');  // the name in parentheses may hold anything
  return close && close[1] == ' ' && close[2] == 'R';
}
}  // namespace

bool Runtime::parkedThreadMayAct(const HostThread& self) {
  // A thread blocked in the OS (a condition variable, a join, I/O) uses no CPU; one computing
  // does. 5 ms of CPU in the window is far above a blocked thread's wake-ups.
  constexpr uint64_t kBusyNs = 5000000;
  constexpr auto kWatch = std::chrono::seconds(1);
  const auto now = std::chrono::steady_clock::now();
  bool may = false;
  for (auto& u : threads_) {
    if (u.get() == &self || u->state != HostState::Parked) continue;
    const uint64_t cpu = cpuTimeNs(*u);
    if (cpu > u->cpuSeenNs + kBusyNs) {
      u->cpuSeenNs = cpu;
      u->cpuSeenAt = now;
      may = true;
    } else if (now - u->cpuSeenAt < kWatch) {
      may = true;
    }
  }
  return may;
}

void Runtime::parkIdleThreads(const HostThread& self) {
  for (auto& u : threads_) {
    if (u.get() == &self || u->state != HostState::Native || u->queued || u->entering) continue;
    // Wall time without calls is no sign of idleness on a loaded machine, where a runnable thread
    // may wait long for a CPU: a runnable thread is parked only once it has computed (or spun)
    // for kBusyParkNs of its own CPU time without a call.
    if (threadRunnable(*u)) {
      const uint64_t cpu = cpuTimeNs(*u);
      if (u->busyFromCalls != u->calls) {
        u->busyFromCalls = u->calls;
        u->busyFromCpuNs = cpu;
      }
      if (cpu < u->busyFromCpuNs + kBusyParkNs) continue;
    }
    u->cpuSeenNs = cpuTimeNs(*u);
    u->cpuSeenAt = std::chrono::steady_clock::now();
    if (!u->parkWarned)
      std::fprintf(
          stderr,
          "npusim: host thread %d made no ACL call for a while; treating it as idle (its later calls "
          "start at the current simulated time, which may make timings nondeterministic)\n",
          u->index);
    u->parkWarned = true;
    u->state = HostState::Parked;
  }
  progress_++;
}

void Runtime::enterCall(HostThread& th, std::unique_lock<std::recursive_mutex>& lock) {
  if (th.state == HostState::Parked) th.clock = std::max(th.clock, frontier_);
  th.state = HostState::Native;
  auto idleSince = std::chrono::steady_clock::now();
  uint64_t seen = progress_;
  th.queued = true;
  for (;;) {
    if (!earlierThreadExists(th, th.clock)) {
      // Threads blocked on the device that would wake before this call go first.
      bool waiting = false;
      for (const auto& u : threads_) waiting |= u.get() != &th && u->state == HostState::Waiting && !u->woken;
      if (!waiting || !platform_) break;
      while (kernelNow() < th.clock && sc_core::sc_pending_activity() && !anyWaiterSatisfied()) {
        std::function<bool()> any = [this] { return anyWaiterSatisfied(); };
        waiter_ = &any;
        sc_core::sc_start(sc_time(static_cast<double>(th.clock - kernelNow()), SC_PS));
        waiter_ = nullptr;
        platform_->flushCounters(kernelNow());
      }
      wakeSatisfiedWaiters();
      if (!earlierThreadExists(th, th.clock)) break;
    }
    cv.wait_for(lock, std::chrono::milliseconds(20));
    if (progress_ != seen) {
      seen = progress_;
      idleSince = std::chrono::steady_clock::now();
    } else if (std::chrono::steady_clock::now() - idleSince > std::chrono::seconds(2)) {
      parkIdleThreads(th);
    }
  }
  th.queued = false;
  th.state = HostState::InCall;
  frontier_ = std::max(frontier_, th.clock);
  progress_++;
}

void Runtime::leaveCall(HostThread& th) {
  th.state = HostState::Native;
  th.calls++;
  progress_++;
  cv.notify_all();
}

void Runtime::sleepHost(HostThread& th, Tick duration, std::unique_lock<std::recursive_mutex>& lock) {
  if (th.state == HostState::Parked) th.clock = std::max(th.clock, frontier_);
  const Tick begin = th.clock;
  th.clock += duration;
  enterCall(th, lock);
  leaveCall(th);
  if (duration > 0 && trace_.wants(trace::Level::Api)) {
    trace_.slice(th.track, "sleep", "host", begin, duration, nullptr);
    dirty = true;
  }
}

void Runtime::openDevice(int d) {
  DeviceState& ds = device(d);
  if (ds.refs++ == 0 || !ds.defaultCtx) {
    ds.defaultCtx = std::make_unique<Context>();
    ds.defaultCtx->device = d;
    ds.defaultCtx->isDefault = true;
    contexts_.insert(ds.defaultCtx.get());
    ds.defaultCtx->defaultStream = createStream(ds.defaultCtx.get(), 0, 0, true);
  }
}

void Runtime::closeDevice(int d, bool force) {
  DeviceState& ds = device(d);
  if (ds.refs == 0) return;
  ds.refs = force ? 0 : ds.refs - 1;
  if (ds.refs > 0 || !ds.defaultCtx) return;
  Context* ctx = ds.defaultCtx.get();
  HostThread& th = thread();
  for (Stream* s : std::vector<Stream*>(ctx->streams.begin(), ctx->streams.end())) {
    drain(th, s->hw);
    destroyStream(s);
  }
  drain(th, ctx->defaultStream->hw);
  destroyStream(ctx->defaultStream);
  contexts_.erase(ctx);
  for (auto& t : threads_)
    if (t->ctx == ctx) t->ctx = nullptr, t->device = -1;
  ds.defaultCtx.reset();
  ds.peers.clear();
}

Context* Runtime::currentContext() {
  HostThread& th = thread();
  if (th.ctx && contexts_.count(th.ctx)) return th.ctx;
  th.ctx = nullptr;
  return nullptr;
}

Stream* Runtime::createStream(Context* ctx, uint32_t flags, uint32_t priority, bool isDefault,
                              const std::string& trackName) {
  DeviceState& ds = device(ctx->device);
  auto* s = new Stream();
  s->device = ctx->device;
  s->ctx = ctx;
  s->isDefault = isDefault;
  s->flags = flags;
  s->priority = priority;
  int id = isDefault && ctx->isDefault ? 0 : ds.nextStreamId++;
  s->hw = platform_->device(ctx->device).sched->createStream(id, false, trackName);
  streams_.insert(s);
  if (!isDefault) ctx->streams.insert(s);
  ds.liveStreams++;
  return s;
}

void Runtime::destroyStream(Stream* s) {
  captureStreamDestroyed(s);
  checks::streamDestroyed(s);
  platform_->device(s->device).sched->retireStream(s->hw);
  if (s->ctx) s->ctx->streams.erase(s);
  device(s->device).liveStreams--;
  streams_.erase(s);
  delete s;
}

Stream* Runtime::resolveStream(aclrtStream handle, aclError* err, std::string* why) {
  if (!handle) {
    Context* ctx = currentContext();
    if (!ctx) {
      *err = ACL_ERROR_RT_CONTEXT_NULL;
      *why = "the default stream needs a current device or context (call aclrtSetDevice first)";
      return nullptr;
    }
    return ctx->defaultStream;
  }
  Stream* s = static_cast<Stream*>(handle);
  if (!streams_.count(s)) {
    *err = ACL_ERROR_RT_PARAM_INVALID;
    *why = checks::staleStream(handle);
    return nullptr;
  }
  return s;
}

Event* Runtime::createEvent(int device, EventKind kind, uint32_t flags) {
  auto* e = new Event();
  e->id = nextEventId_++;
  e->device = device;
  e->kind = kind;
  e->flags = flags;
  events_.insert(e);
  if (device >= 0) this->device(device).liveEvents++;
  return e;
}

void Runtime::destroyEvent(Event* e) {
  checks::eventDestroyed(e);
  if (e->device >= 0) device(e->device).liveEvents--;
  events_.erase(e);
  delete e;  // queued tasks keep the hardware event alive through their shared_ptr
}

uint64_t Runtime::launch(HostThread& th, sched::HwStream* hw, std::unique_ptr<sched::Task> t, uint64_t flow) {
  // A capturing stream records the task into its model instead of running it.
  if (divertToCapture(th, hw, t, flow)) return 0;
  // A full submission queue blocks the host until the device retires a task.
  if (hw->issued - hw->completed >= costs_.sqDepth) {
    waitFor([&] { return hw->issued - hw->completed < costs_.sqDepth; });
    observe(th, kernelNow());
  }
  t->id = ++nextTaskId_;
  t->submit = std::max(th.clock + costs_.doorbell, kernelNow());
  t->flow = flow;
  t->hostThread = th.index;
  uint64_t id = t->id;
  th.lastTaskId = id;
  checks::taskLaunched(*t, hw->device);
  platform_->device(hw->device).sched->submit(hw, std::move(t));
  return id;
}

void Runtime::signalWaiters() {
  if (waiter_ && (*waiter_)()) sc_core::sc_pause();
}

void Runtime::onTaskComplete(const sched::Task& t) {
  checks::taskCompleted(t);
  if (t.error) taskFailed(t);
  if (t.kind == sched::TaskKind::ModelExec) modelRunCompleted(t);
  deviceMemoryWritten(t.stream ? t.stream->device : 0);
  prof::taskCompleted(t);
  overflow::taskCompleted(t);
  dump::taskCompleted(t);
  if (waiter_ && (*waiter_)()) sc_core::sc_pause();
}

Runtime::Wait Runtime::waitFor(const std::function<bool()>& pred, Tick limit) {
  HostThread* th = currentThreadIfKnown();
  const bool cooperative = th && th->depth == 1 && th->lock && threads_.size() > 1;
  if (th) {
    th->state = HostState::Waiting;
    th->waitingFor = &pred;
    th->woken = false;
  }
  Wait result = Wait::Done;
  auto idleSince = std::chrono::steady_clock::now();
  uint64_t seen = progress_;
  // Lets the other threads act; parks those that make no call for two wall-clock seconds.
  auto waitForOthers = [&] {
    cv.wait_for(*th->lock, std::chrono::milliseconds(20));
    if (progress_ != seen) {
      seen = progress_;
      idleSince = std::chrono::steady_clock::now();
    } else if (std::chrono::steady_clock::now() - idleSince > std::chrono::seconds(2)) {
      parkIdleThreads(*th);
    }
  };
  for (bool first = true;; first = false) {
    if (pred()) {
      // Satisfied before it waited: the call was ordered by enterCall and no time passes. (The
      // kernel may already be past this thread's clock, run there by other threads: observing
      // its time would make the clock depend on the OS schedule.)
      if (!cooperative || first) break;
      // A released thread leaves its call in (clock, index) order with every thread that may
      // act, like a call entering: what it records on leaving must not depend on whether the OS
      // runs it before or after a thread with an earlier clock makes its next call. (A thread
      // that runs its own code and never calls, e.g. waiting on a condition variable for this
      // one, is parked after two wall-clock seconds, as for a call.)
      if (!th->woken) {
        observe(*th, kernelNow());
        th->woken = true;
        progress_++;
      }
      if (!earlierThreadExists(*th, th->clock)) {
        // Device work that ends before this thread's clock is simulated before it leaves, as
        // for a call (the kernel still never passes a thread that can submit work).
        const Tick until = std::min(th->clock, otherThreadsHorizon(*th));
        if (kernelNow() < until && sc_core::sc_pending_activity() && !anyWaiterSatisfied()) {
          std::function<bool()> any = [this] { return anyWaiterSatisfied(); };
          const std::function<bool()>* saved = waiter_;
          waiter_ = &any;
          sc_core::sc_start(sc_time(static_cast<double>(until - kernelNow()), SC_PS));
          waiter_ = saved;
          platform_->flushCounters(kernelNow());
          wakeSatisfiedWaiters();
          continue;
        }
        break;
      }
      cv.notify_all();
      waitForOthers();
      continue;
    }
    Tick now = kernelNow();
    if (limit != kTickMax && now >= limit) {
      result = Wait::Timeout;
      break;
    }
    // The kernel may not pass the clock of another thread that can still submit work.
    Tick horizon = cooperative ? std::min(limit, otherThreadsHorizon(*th)) : limit;
    if (now < horizon && sc_core::sc_pending_activity()) {
      std::function<bool()> any = [this, &pred] { return pred() || anyWaiterSatisfied(); };
      const std::function<bool()>* saved = waiter_;
      waiter_ = &any;
      if (horizon == kTickMax)
        sc_core::sc_start();
      else
        sc_core::sc_start(sc_time(static_cast<double>(horizon - now), SC_PS));
      waiter_ = saved;
      platform_->flushCounters(kernelNow());
      if (cooperative) wakeSatisfiedWaiters();
      continue;
    }
    bool othersMayAct = cooperative && otherThreadsHorizon(*th) != kTickMax;
    if (!sc_core::sc_pending_activity() && !othersMayAct) {
      if (cooperative && parkedThreadMayAct(*th)) {  // busy in its own code: it will call
        waitForOthers();
        continue;
      }
      result = Wait::Deadlock;
      break;
    }
    if (!cooperative) {  // nothing can change while this thread holds the lock
      result = Wait::Deadlock;
      break;
    }
    // Another thread with an earlier clock must act first.
    progress_++;
    cv.notify_all();
    seen = progress_;
    waitForOthers();
  }
  if (th) {
    th->state = th->depth > 0 ? HostState::InCall : HostState::Native;
    th->waitingFor = nullptr;
    th->woken = false;
  }
  return result;
}

void Runtime::observe(HostThread& th, Tick deviceTime) {
  Tick seen = deviceTime + costs_.completion;
  if (seen > th.clock) th.clock = seen + costs_.wakeup;
}

Runtime::Wait Runtime::drain(HostThread& th, sched::HwStream* hw, Tick limit) {
  uint64_t target = hw->issued;
  Wait w = waitFor([hw, target] { return hw->completed >= target; }, limit);
  if (w == Wait::Done) {
    if (target) observe(th, hw->lastEnd);
  } else if (w == Wait::Deadlock) {
    std::string what = hw->internal ? "sync copies" : fmt::format("stream {}", hw->id);
    std::string blocked = describeBlocked();
    std::fprintf(stderr,
                 "npusim: deadlock: the host waits for NPU %d %s but no device work can progress.\n%s",
                 hw->device, what.c_str(), blocked.c_str());
    checks::deadlock(fmt::format("NPU {} {}", hw->device, what), blocked, true);
  }
  return w;
}

std::string Runtime::describeBlocked() const {
  std::string out;
  for (int d = 0; d < static_cast<int>(devices_.size()); ++d) {
    for (const auto& s : platform_->device(d).sched->streams()) {
      if (s->queue.empty()) continue;
      const sched::Task& t = *s->queue.front();
      out += fmt::format(
          "  NPU {} stream {}: task #{} '{}' blocked{} ({} tasks queued)\n", d, s->id, t.id, t.label,
          t.kind == sched::TaskKind::EventWait ? " waiting for an event record that was never issued" : "",
          s->queue.size());
    }
  }
  return out;
}

void Runtime::finalizeDevices(HostThread& th) {
  for (int d = 0; d < deviceCount(); ++d) {
    for (const auto& s : platform_->device(d).sched->streams()) {
      if (s->destroyed || s->completed == s->issued) continue;
      drain(th, s.get());
    }
  }
  kernels::flushOutput(-1);  // custom kernels' printf output not yet shown
  for (int d = 0; d < deviceCount(); ++d) closeDevice(d, true);
}

void Runtime::writeOutputs() {
  if (!platform_) return;
  dirty = false;
  Tick end = kernelNow();
  for (const auto& t : threads_) end = std::max(end, t->clock);
  platform_->flushAllCounters();
  if (abnormalSignal_ && trace_.enabled()) {
    trace::Args args;
    const char* abbrev = sigabbrev_np(abnormalSignal_);
    args.add("signal", abnormalSignal_).add("name", fmt::format("SIG{}", abbrev ? abbrev : "?"));
    trace_.globalInstant(fmt::format("program ended by SIG{}", abbrev ? abbrev : "?"), "abnormal_end",
                         hostPid_, end, &args);
  }
  trace_.flush();
  auto unsupported = unsupportedCalls();
  if (!unsupported.empty()) {
    std::string list;
    for (const auto& [name, n] : unsupported) list += fmt::format(" {} ({}x)", name, n);
    std::fprintf(
        stderr,
        "npusim: calls npusim refused (ACL_ERROR_API_NOT_SUPPORT or ACL_ERROR_RT_FEATURE_NOT_SUPPORT; "
        "the reason is in aclGetRecentErrMsg):%s\n",
        list.c_str());
  }
  if (statsPath_.empty() && !summary_) return;  // statistics cost O(streams ever created)
  nlohmann::json stats = buildStatistics(*this, end);
  if (!statsPath_.empty()) {
    std::ofstream out(statsPath_);
    if (out)
      out << stats.dump(2) << "\n";
    else
      std::fprintf(stderr, "npusim: cannot write statistics to %s\n", statsPath_.c_str());
  }
  if (summary_) std::fputs(("\n" + trace::formatRunSummary(stats)).c_str(), stderr);
}

// ---- ApiCall ----

namespace {
thread_local ApiCall* tCall = nullptr;
}  // namespace

ApiCall* ApiCall::current() { return tCall; }

ApiCall::ApiCall(const char* name) : rt(Runtime::get()), lock_(rt.lockForCall()), name_(name), outer_(tCall) {
  tCall = this;
  // Only aclInit starts a new simulation after aclFinalize ended one.
  if (rt.ended() && std::strcmp(name, "aclInit") == 0) rt.startAfterEnd();
  if (!rt.ensure(nullptr)) {
    ok_ = false;
    return;
  }
  th = &rt.thread();
  if (++th->depth == 1) {
    th->lock = &lock_;
    rt.enterCall(*th, lock_);
  }
  rt.dirty = true;
  begin_ = th->clock;
  th->clock += rt.costs().apiCall;
}

Context* ApiCall::context(aclError* err) {
  Context* ctx = rt.currentContext();
  if (!ctx)
    *err = fail(ACL_ERROR_RT_CONTEXT_NULL, "no current device or context (call aclrtSetDevice first)");
  return ctx;
}

Stream* ApiCall::stream(aclrtStream handle, aclError* err) {
  std::string why;
  Stream* s = rt.resolveStream(handle, err, &why);
  if (!s) fail(*err, "{}", why);
  return s;
}

aclError ApiCall::notReady() {
  if (rt.ended())
    return fail(ACL_ERROR_UNINITIALIZE, "aclFinalize ended the simulation; call aclInit to start a new one");
  return fail(ACL_ERROR_INVALID_PARAM, "the simulator configuration is invalid: {}", rt.configError());
}

ApiCall::~ApiCall() {
  tCall = outer_;
  noteResult(ret_);
  if (!th) return;
  if (--th->depth == 0) {
    th->lock = nullptr;
    rt.leaveCall(*th);
    deliverExceptions();  // after the slice's end time is known, before the call returns
  }
  trace::TraceWriter& tw = rt.trace();
  if (!tw.wants(trace::Level::Api)) return;
  if (ret_ != ACL_SUCCESS) args.add("error", static_cast<int64_t>(ret_));
  tw.slice(th->track, name_, "api", begin_, th->clock - begin_, args.empty() ? nullptr : &args);
  if (flow) tw.flowStart(th->track, flow, "launch", begin_);
  if (rt.ended()) tw.flush();  // aclFinalize's own slice: the trace is complete up to here
}

}  // namespace npusim::rt

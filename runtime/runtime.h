#pragma once
// The runtime core shared by every ACL entry point: the platform (built once per process
// from NPUSIM_CONFIG/NPUSIM_SET), host threads and their clocks, runtime objects, task
// launch, and the lazy advance of the SystemC kernel when the host must observe the device.
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "models/host/host_cpu.h"
#include "models/platform/platform.h"
#include "runtime/errors.h"
#include "runtime/host_thread.h"
#include "runtime/memory.h"
#include "runtime/objects.h"
#include "traces/trace_writer.h"

namespace npusim::rt {

// Writes the trace and statistics when the program ends on a signal (runtime/abnormal_end.cpp).
void installAbnormalEndHandlers();

struct DeviceState {
  int refs = 0;  // aclrtSetDevice count (plus explicit contexts)
  std::unique_ptr<Context> defaultCtx;
  sched::HwStream* syncQueue = nullptr;  // runtime-internal queue of synchronous copies
  int nextStreamId = 1;
  int liveStreams = 0;
  int liveEvents = 0;
  std::set<int> peers;  // peer devices this device may access
};

using npusim::HostCosts;

class Runtime {
 public:
  static Runtime& get();
  std::recursive_mutex mu;
  // Takes `mu` for the calling program thread, marking it as entering while it waits for the
  // lock: a thread blocked on the lock is about to call, not idle (parkIdleThreads).
  std::unique_lock<std::recursive_mutex> lockForCall();

  // Builds the platform on first use; false (with the reason) when the configuration is bad or
  // aclFinalize ended the simulation (only aclInit starts a new one: startAfterEnd).
  bool ensure(std::string* err);
  Platform& platform() { return *platform_; }
  bool built() const { return platform_ != nullptr; }
  const std::string& configError() const { return configError_; }
  MemoryManager& memory() { return *memory_; }

  // Ends the simulation (aclFinalize): writes the outputs, stops the kernel so every module's
  // end_of_simulation runs once, then releases the platform, device memory and every object.
  // The next aclInit builds a fresh SystemC context and platform, and every clock starts again
  // at 0 (docs/architecture.md "Ending").
  void endSimulation();
  bool ended() const { return ended_ && !platform_; }
  void startAfterEnd() { ended_ = false; }
  // Stops the kernel at process exit when no aclFinalize ended the simulation.
  void stopKernel();
  // Simulations started in this process (1 after the first platform is built).
  int simulations() const { return simulations_; }
  // `forget` drops what a file keeps of one simulation (handles, SystemC events, tasks); run by
  // endSimulation before the platform is released. Registered from static initialisers.
  static void onSimulationEnd(std::function<void()> forget);
  trace::TraceWriter& trace() { return trace_; }
  const HostCosts& costs() const { return costs_; }
  HostThread& thread();
  // Registers a thread created by `parent` (pthread_create) so it counts from the start, at the
  // parent's clock; `self` binds it when the child starts running.
  HostThread* registerChild(HostThread* parent);
  void bindThread(HostThread* t);
  void threadFinished(HostThread* t);
  HostThread* findThread(unsigned long pthreadId);
  HostThread* currentThreadIfKnown();

  // Conservative ordering of calls across host threads: a call at clock c proceeds once no
  // other thread can still act earlier (their clocks are later, or they are blocked on the
  // device and the kernel has been advanced to c without waking them).
  void enterCall(HostThread& th, std::unique_lock<std::recursive_mutex>& lock);
  void leaveCall(HostThread& th);
  // A sleep of `duration` in the program's own code (runtime/host_sleep.cpp): host time, like
  // npusimHostWork, and it returns when a call at the thread's new clock could proceed.
  void sleepHost(HostThread& th, Tick duration, std::unique_lock<std::recursive_mutex>& lock);
  std::condition_variable_any cv;
  DeviceState& device(int d) { return devices_[static_cast<size_t>(d)]; }
  int deviceCount() const { return static_cast<int>(devices_.size()); }
  Tick kernelNow() const;

  // Objects.
  void openDevice(int d);               // refcount++, default context and stream on first use
  void closeDevice(int d, bool force);  // refcount--, frees the default context at zero
  Context* currentContext();
  // `trackName` names its trace track (default "Stream <id>").
  Stream* createStream(Context* ctx, uint32_t flags, uint32_t priority, bool isDefault,
                       const std::string& trackName = {});
  void destroyStream(Stream* s);  // after the caller drained it
  // nullptr = default stream of the thread's current context. Sets *err on failure.
  Stream* resolveStream(aclrtStream handle, aclError* err, std::string* why);
  bool validEvent(aclrtEvent e) const { return events_.count(static_cast<Event*>(e)) != 0; }
  const std::set<Event*>& liveEvents() const { return events_; }
  bool validContext(aclrtContext c) const { return contexts_.count(static_cast<Context*>(c)) != 0; }
  Event* createEvent(int device, EventKind kind, uint32_t flags);
  void destroyEvent(Event* e);
  std::set<Context*>& contexts() { return contexts_; }

  // Launches a task on a hardware queue at the thread's current clock (after the caller has
  // charged the launch cost). Blocks the host while the queue is full. Returns the task id.
  uint64_t launch(HostThread& th, sched::HwStream* hw, std::unique_ptr<sched::Task> t, uint64_t flow);
  // `n` consecutive task ids for tasks the device creates itself (a captured model's replay).
  uint64_t reserveTaskIds(uint64_t n) {
    uint64_t first = nextTaskId_ + 1;
    nextTaskId_ += n;
    return first;
  }

  enum class Wait { Done, Timeout, Deadlock };
  // Runs the device models until `pred` holds (or simulated time reaches `limit`).
  Wait waitFor(const std::function<bool()>& pred, Tick limit = kTickMax);
  // A device model changed something a waiting host thread may be waiting for (not a task
  // completion, which already does this): stops the kernel if a waiter is now satisfied.
  void signalWaiters();
  // The host saw a completion that happened on the device at `deviceTime`.
  void observe(HostThread& th, Tick deviceTime);
  // Blocks the thread until the hardware queue has finished everything issued so far.
  Wait drain(HostThread& th, sched::HwStream* hw, Tick limit = kTickMax);
  std::string describeBlocked() const;

  // aclInit / aclFinalize bookkeeping.
  int initCount = 0;
  bool everInitialised = false;
  void finalizeDevices(HostThread& th);
  void writeOutputs();
  // The program is ending on signal `sig` (runtime/abnormal_end.cpp): the outputs say so.
  void recordAbnormalEnd(int sig) { abnormalSignal_ = sig; }
  int abnormalSignal() const { return abnormalSignal_; }
  bool dirty = false;  // something happened since the outputs were last written
  uint64_t nextFlow() { return trace_.wants(trace::Level::Api) ? trace_.newFlowId() : 0; }

 private:
  Runtime() = default;
  void onTaskComplete(const sched::Task& t);
  std::unique_ptr<Platform> platform_;
  std::string configError_;
  bool processReady_ = false;  // trace, outputs and exit hooks set up (once per process)
  bool ended_ = false;         // aclFinalize ended the simulation and no aclInit followed
  int simulations_ = 0;
  Tick endedAt_ = 0;  // where the ended simulation's kernel stopped
  std::unique_ptr<MemoryManager> memory_ = std::make_unique<MemoryManager>();
  void setUpProcess(const Config& cfg);
  void buildSimulation(const Config& cfg);
  trace::TraceWriter trace_;
  int hostPid_ = 0;
  HostCosts costs_{};
  std::vector<DeviceState> devices_;
  std::vector<std::unique_ptr<HostThread>> threads_;
  std::set<Context*> contexts_;
  std::set<Stream*> streams_;
  std::set<Event*> events_;
  uint32_t nextEventId_ = 0;  // Event::id of the next event
  uint64_t nextTaskId_ = 0;
  const std::function<bool()>* waiter_ = nullptr;
  bool anyWaiterSatisfied() const;
  // The earliest (clock, index) among other threads that may still call: Native ones and
  // those whose wait was satisfied.
  bool earlierThreadExists(const HostThread& th, Tick clock) const;
  Tick otherThreadsHorizon(const HostThread& th) const;
  void wakeSatisfiedWaiters();
  void parkIdleThreads(const HostThread& self);
  // Whether a parked thread may still act: it keeps using the CPU (busy in its own code), or has
  // not been watched for long enough to tell. A wait for the device is a deadlock only when no
  // thread may act (docs/architecture.md "Host threads").
  bool parkedThreadMayAct(const HostThread& self);
  uint64_t progress_ = 0;  // bumps whenever any thread changes state or clock
  Tick frontier_ = 0;      // latest clock at which any call began
  std::string statsPath_;
  bool summary_ = false;
  int abnormalSignal_ = 0;
  friend nlohmann::json buildStatistics(Runtime& rt, Tick end);
};

// One ACL entry point in progress: holds the runtime lock, charges host time, and emits the
// call as a slice on the host thread's trace track when it returns.
class ApiCall {
 public:
  explicit ApiCall(const char* name);
  ~ApiCall();
  ApiCall(const ApiCall&) = delete;
  ApiCall& operator=(const ApiCall&) = delete;

  bool ok() const { return ok_; }  // false when the platform could not be built
  aclError notReady();             // the error to return when !ok()
  template <typename... A>
  aclError fail(aclError code, fmt::format_string<A...> f, A&&... a) {
    ret_ = code;
    return setRecentError(name_, fmt::format(f, std::forward<A>(a)...), code);
  }
  aclError done(aclError code = ACL_SUCCESS) { return ret_ = code; }
  // The stream a handle names (nullptr = the current context's default stream); on failure
  // records the error and returns nullptr with *err set.
  Stream* stream(aclrtStream handle, aclError* err);
  // The thread's current context; without one records ACL_ERROR_RT_CONTEXT_NULL and returns
  // nullptr with *err set.
  Context* context(aclError* err);
  void charge(Tick t) { th->clock += t; }
  const char* name() const { return name_; }
  static ApiCall* current();  // the innermost call in progress on this thread (or nullptr)

  Runtime& rt;
  HostThread* th = nullptr;
  trace::Args args;
  uint64_t flow = 0;

 private:
  std::unique_lock<std::recursive_mutex> lock_;  // initialised after rt, from rt.lockForCall()
  const char* name_;
  Tick begin_ = 0;
  aclError ret_ = ACL_SUCCESS;
  bool ok_ = true;
  ApiCall* outer_ = nullptr;
};

}  // namespace npusim::rt

// ACL entry points: host callbacks. aclrtLaunchCallback puts a task on the stream; when the device
// reaches it, the callback is reported to the thread subscribed to the stream (aclrtSubscribeReport),
// which runs it inside aclrtProcessReport; with ACL_CALLBACK_BLOCK the stream waits until it has
// run. aclrtLaunchHostFunc always blocks the stream: on a stream subscribed with
// aclrtSubscribeHostFunc the function runs in that thread's aclrtProcessHostFunc, otherwise on the
// runtime's own callback thread (simulated: the report reaches the host, the function runs, the
// host rings the doorbell). Times: the report takes sched.completion_ns and the wake-up
// host.wakeup_ns; the release of a blocked stream takes the doorbell latency.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <pthread.h>

#include <deque>
#include <map>
#include <memory>
#include <systemc>

#include "acl/acl.h"
#include "models/common/sim_time.h"
#include "runtime/runtime.h"

using npusim::simNow;
using npusim::Tick;
using npusim::rt::ApiCall;
using npusim::rt::Stream;

namespace {

sc_core::sc_time ticks(Tick t) { return sc_core::sc_time(static_cast<double>(t), sc_core::SC_PS); }

struct Report {
  void (*fn)(void*) = nullptr;
  void* data = nullptr;
  bool block = false;
  Tick arrived = 0;  // device time the task reported it
  bool done = false;
  sc_core::sc_event doneEvent;
};

// One subscription kind (reports or host functions): which thread serves each stream, and the
// reports waiting for each thread.
struct Subscriptions {
  std::map<const npusim::sched::HwStream*, uint64_t> threadOf;
  std::map<uint64_t, std::deque<std::shared_ptr<Report>>> pending;
  std::map<uint64_t, int> streamsOf;  // subscribed streams per thread
};

Subscriptions& reports() {
  static auto* s = new Subscriptions();
  return *s;
}
Subscriptions& hostFuncs() {
  static auto* s = new Subscriptions();
  return *s;
}

// Subscriptions name the hardware queues of one simulation: aclFinalize forgets them.
[[maybe_unused]] const bool kForgottenAtEnd = (npusim::rt::Runtime::onSimulationEnd([] {
                                                 reports() = Subscriptions();
                                                 hostFuncs() = Subscriptions();
                                               }),
                                               true);

aclError subscribe(const char* name, Subscriptions& subs, uint64_t threadId, aclrtStream stream) {
  ApiCall api(name);
  if (!api.ok()) return api.notReady();
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  if (subs.threadOf.count(s->hw))
    return api.fail(ACL_ERROR_RT_STREAM_SUBSCRIBE, "stream {} is already subscribed by thread {}", s->hw->id,
                    subs.threadOf[s->hw]);
  subs.threadOf[s->hw] = threadId;
  subs.streamsOf[threadId]++;
  subs.pending[threadId];
  return api.done();
}

aclError unsubscribe(const char* name, Subscriptions& subs, uint64_t threadId, aclrtStream stream) {
  ApiCall api(name);
  if (!api.ok()) return api.notReady();
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  auto it = subs.threadOf.find(s->hw);
  if (it == subs.threadOf.end() || it->second != threadId)
    return api.fail(ACL_ERROR_RT_STREAM_NO_CB_REG, "thread {} is not subscribed to stream {}", threadId,
                    s->hw->id);
  subs.threadOf.erase(it);
  if (--subs.streamsOf[threadId] == 0) subs.streamsOf.erase(threadId);
  return api.done();
}

// Launches a task that reports `r` to `threadId`'s queue (or, with threadId 0 and no
// subscription, runs it on the runtime's callback thread) and, when blocking, waits for it.
void launchReport(ApiCall& api, Stream* s, Subscriptions* subs, uint64_t threadId, std::shared_ptr<Report> r,
                  const char* label) {
  api.charge(api.rt.costs().launch);
  auto t = std::make_unique<npusim::sched::Task>();
  t->kind = npusim::sched::TaskKind::Builtin;
  t->label = label;
  const Tick report = api.rt.costs().completion, wake = api.rt.costs().wakeup, bell = api.rt.costs().doorbell;
  t->run = [subs, threadId, r, report, wake, bell](npusim::sched::Task& task) {
    Tick t0 = simNow();
    if (!subs) {  // the runtime's own thread: report, wake up, run, ring the doorbell
      sc_core::wait(ticks(report + wake));
      r->fn(r->data);
      sc_core::wait(ticks(bell));
    } else {
      r->arrived = simNow();
      subs->pending[threadId].push_back(r);
      npusim::rt::Runtime::get().signalWaiters();
      if (r->block)
        while (!r->done) sc_core::wait(r->doneEvent);
    }
    task.eventWait = simNow() - t0;
  };
  api.flow = api.rt.nextFlow();
  api.args.add("stream", s->hw->id);
  api.rt.launch(*api.th, s->hw, std::move(t), api.flow);
}

aclError process(const char* name, Subscriptions& subs, int32_t timeout) {
  ApiCall api(name);
  if (!api.ok()) return api.notReady();
  if (timeout == 0 || timeout < -1)
    return api.fail(ACL_ERROR_INVALID_PARAM, "timeout {} ms is invalid (-1 or a positive value)", timeout);
  uint64_t self = static_cast<uint64_t>(pthread_self());
  if (!subs.streamsOf.count(self))
    return api.fail(ACL_ERROR_RT_THREAD_SUBSCRIBE, "this thread is not subscribed to any stream");
  auto& queue = subs.pending[self];
  Tick limit = timeout < 0 ? npusim::kTickMax : api.th->clock + static_cast<Tick>(timeout) * npusim::kMs;
  npusim::rt::Runtime::Wait w = api.rt.waitFor([&queue] { return !queue.empty(); }, limit);
  if (w != npusim::rt::Runtime::Wait::Done || queue.empty()) {
    if (limit != npusim::kTickMax) api.th->clock = std::max(api.th->clock, limit);
    return api.fail(ACL_ERROR_RT_REPORT_TIMEOUT, "no callback arrived within {} ms", timeout);
  }
  while (!queue.empty()) {
    std::shared_ptr<Report> r = queue.front();
    queue.pop_front();
    api.rt.observe(*api.th, r->arrived);
    r->fn(r->data);
    r->done = true;
    if (r->block) {  // the stream resumes when the host's doorbell reaches the device
      Tick at = api.th->clock + api.rt.costs().doorbell, now = api.rt.kernelNow();
      r->doneEvent.notify(ticks(at > now ? at - now : 0));
    }
  }
  return api.done();
}

}  // namespace

extern "C" {

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  return subscribe("aclrtSubscribeReport", reports(), threadId, stream);
}
aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  return unsubscribe("aclrtUnSubscribeReport", reports(), threadId, stream);
}
aclError aclrtProcessReport(int32_t timeout) { return process("aclrtProcessReport", reports(), timeout); }

aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
  return subscribe("aclrtSubscribeHostFunc", hostFuncs(), hostFuncThreadId, exeStream);
}
aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
  return unsubscribe("aclrtUnSubscribeHostFunc", hostFuncs(), hostFuncThreadId, exeStream);
}
aclError aclrtProcessHostFunc(int32_t timeout) {
  return process("aclrtProcessHostFunc", hostFuncs(), timeout);
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType,
                             aclrtStream stream) {
  ApiCall api("aclrtLaunchCallback");
  if (!api.ok()) return api.notReady();
  if (!fn) return api.fail(ACL_ERROR_INVALID_PARAM, "fn is NULL");
  if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK)
    return api.fail(ACL_ERROR_INVALID_PARAM, "blockType {} is unknown", static_cast<int>(blockType));
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  auto it = reports().threadOf.find(s->hw);
  if (it == reports().threadOf.end())
    return api.fail(ACL_ERROR_RT_STREAM_NO_CB_REG,
                    "stream {} has no thread subscribed (aclrtSubscribeReport)", s->hw->id);
  auto r = std::make_shared<Report>();
  r->fn = fn;
  r->data = userData;
  r->block = blockType == ACL_CALLBACK_BLOCK;
  launchReport(api, s, &reports(), it->second, std::move(r), "Callback");
  return api.done();
}

aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args) {
  ApiCall api("aclrtLaunchHostFunc");
  if (!api.ok()) return api.notReady();
  if (!fn) return api.fail(ACL_ERROR_INVALID_PARAM, "fn is NULL");
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  auto r = std::make_shared<Report>();
  r->fn = fn;
  r->data = args;
  r->block = true;
  auto it = hostFuncs().threadOf.find(s->hw);
  if (it == hostFuncs().threadOf.end())
    launchReport(api, s, nullptr, 0, std::move(r), "HostFunc");
  else
    launchReport(api, s, &hostFuncs(), it->second, std::move(r), "HostFunc");
  return api.done();
}

}  // extern "C"

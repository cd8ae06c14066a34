// ACL entry points: device synchronisation objects. A notify is a one-bit device flag: a record
// task sets it, a wait task blocks its stream until it is set and clears it (so each record
// releases one waiter, and records before a wait are not counted twice). Value write/wait act on
// an 8-byte word of device memory in stream order; a value wait re-reads its word whenever a task
// on its device finishes. Event flags and timestamps extend the events of api_event.cpp.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <cstring>
#include <memory>
#include <set>
#include <systemc>

#include "acl/acl.h"
#include "models/common/sim_time.h"
#include "runtime/event_helpers.h"
#include "runtime/runtime.h"
#include "runtime/sync_objects.h"

using npusim::simNow;
using npusim::Tick;
using npusim::rt::ApiCall;
using npusim::rt::launchBuiltin;
using npusim::rt::Stream;

namespace {

sc_core::sc_time ticks(Tick t) { return sc_core::sc_time(static_cast<double>(t), sc_core::SC_PS); }

struct NotifyFlag {
  bool set = false;
  sc_core::sc_event changed;
};

struct Notify {
  int device = 0;
  uint32_t id = 0;
  std::shared_ptr<NotifyFlag> flag = std::make_shared<NotifyFlag>();
};

struct SyncRegistry {
  std::set<Notify*> notifies;
  std::vector<uint32_t> nextNotifyId;  // per device
  // One "memory may have changed" event per device for value waits (created on first use).
  std::vector<std::unique_ptr<sc_core::sc_event>> memoryChanged;
  std::vector<int> valueWaiters;  // value-wait tasks running per device
};

SyncRegistry& registry() {
  static auto* r = new SyncRegistry();  // tasks may still run at exit
  return *r;
}

// Notifies and the memory events belong to one simulation: aclFinalize forgets them.
[[maybe_unused]] const bool kForgottenAtEnd = (npusim::rt::Runtime::onSimulationEnd([] {
                                                 SyncRegistry& r = registry();
                                                 for (Notify* n : r.notifies) delete n;
                                                 r = SyncRegistry();
                                               }),
                                               true);

sc_core::sc_event& memoryChanged(int device) {
  SyncRegistry& r = registry();
  size_t d = static_cast<size_t>(device);
  if (r.memoryChanged.size() <= d) {
    r.memoryChanged.resize(d + 1);
    r.valueWaiters.resize(d + 1, 0);
  }
  if (!r.memoryChanged[d]) r.memoryChanged[d] = std::make_unique<sc_core::sc_event>();
  return *r.memoryChanged[d];
}

Notify* notifyArg(ApiCall& api, aclrtNotify n, aclError* err) {
  auto* p = static_cast<Notify*>(n);
  if (!p || !registry().notifies.count(p)) {
    *err = api.fail(ACL_ERROR_INVALID_PARAM,
                    n ? "notify {} is not a live notify (destroyed?)" : "notify is NULL", n);
    return nullptr;
  }
  return p;
}

// The 8-byte word a value call names: device memory of the stream's device, 8-byte aligned.
uint64_t* valueWord(ApiCall& api, void* devAddr, const Stream* s, aclError* err) {
  return npusim::rt::valueWordOn(api, devAddr, s->device, err);
}

bool valueSatisfied(uint64_t word, uint64_t value, uint32_t flag) {
  switch (flag) {
    case ACL_STREAM_WAIT_VALUE_GEQ:
      return static_cast<int64_t>(word - value) >= 0;  // wrap-around safe, as for counters
    case ACL_STREAM_WAIT_VALUE_EQ:
      return word == value;
    case ACL_STREAM_WAIT_VALUE_AND:
      return (word & value) != 0;
    default:  // ACL_STREAM_WAIT_VALUE_NOR
      return ~(word | value) != 0;
  }
}

}  // namespace

namespace npusim::rt {

void launchBuiltin(ApiCall& api, Stream* s, const char* label, std::function<void(sched::Task&)> run) {
  api.charge(api.rt.costs().launch);
  auto t = std::make_unique<sched::Task>();
  t->kind = sched::TaskKind::Builtin;
  t->label = label;
  t->run = std::move(run);
  api.flow = api.rt.nextFlow();
  api.args.add("stream", s->hw->id);
  api.rt.launch(*api.th, s->hw, std::move(t), api.flow);
}

void deviceMemoryWritten(int device) {
  SyncRegistry& r = registry();
  size_t d = static_cast<size_t>(device);
  if (d < r.valueWaiters.size() && r.valueWaiters[d] > 0) r.memoryChanged[d]->notify(sc_core::SC_ZERO_TIME);
}

}  // namespace npusim::rt

extern "C" {

aclError aclrtCreateNotify(aclrtNotify* notify, uint64_t flag) {
  ApiCall api("aclrtCreateNotify");
  if (!api.ok()) return api.notReady();
  if (!notify) return api.fail(ACL_ERROR_INVALID_PARAM, "notify is NULL");
  if (flag != 0) return api.fail(ACL_ERROR_INVALID_PARAM, "flag must be 0 (got {})", flag);
  auto* ctx = api.rt.currentContext();
  if (!ctx) return api.fail(ACL_ERROR_RT_CONTEXT_NULL, "no current device (call aclrtSetDevice first)");
  SyncRegistry& r = registry();
  if (r.nextNotifyId.size() <= static_cast<size_t>(ctx->device))
    r.nextNotifyId.resize(static_cast<size_t>(ctx->device) + 1, 0);
  auto* n = new Notify();
  n->device = ctx->device;
  n->id = r.nextNotifyId[static_cast<size_t>(ctx->device)]++;
  r.notifies.insert(n);
  api.args.add("notify", n->id);
  *notify = n;
  return api.done();
}

aclError aclrtDestroyNotify(aclrtNotify notify) {
  ApiCall api("aclrtDestroyNotify");
  if (!api.ok()) return api.notReady();
  aclError err;
  Notify* n = notifyArg(api, notify, &err);
  if (!n) return err;
  registry().notifies.erase(n);
  delete n;  // queued tasks keep the flag alive
  return api.done();
}

aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t* notifyId) {
  ApiCall api("aclrtGetNotifyId");
  if (!api.ok()) return api.notReady();
  if (!notifyId) return api.fail(ACL_ERROR_INVALID_PARAM, "notifyId is NULL");
  aclError err;
  Notify* n = notifyArg(api, notify, &err);
  if (!n) return err;
  *notifyId = n->id;
  return api.done();
}

aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream) {
  ApiCall api("aclrtRecordNotify");
  if (!api.ok()) return api.notReady();
  aclError err;
  Notify* n = notifyArg(api, notify, &err);
  if (!n) return err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  auto flag = n->flag;
  launchBuiltin(api, s, "NotifyRecord", [flag](npusim::sched::Task&) {
    flag->set = true;
    flag->changed.notify(sc_core::SC_ZERO_TIME);
  });
  return api.done();
}

aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout) {
  ApiCall api("aclrtWaitAndResetNotify");
  if (!api.ok()) return api.notReady();
  aclError err;
  Notify* n = notifyArg(api, notify, &err);
  if (!n) return err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  auto flag = n->flag;
  Tick limit = timeout == 0 ? npusim::kTickMax : static_cast<Tick>(timeout) * npusim::kMs;
  launchBuiltin(api, s, "NotifyWait", [flag, limit](npusim::sched::Task& t) {
    Tick t0 = simNow();
    while (!flag->set) {
      if (limit == npusim::kTickMax) {
        sc_core::wait(flag->changed);
        continue;
      }
      Tick waited = simNow() - t0;
      if (waited >= limit) break;
      sc_core::wait(ticks(limit - waited), flag->changed);
    }
    t.eventWait = simNow() - t0;
    if (!flag->set) {
      t.error = ACL_ERROR_RT_WAIT_TIMEOUT;
      return;
    }
    flag->set = false;
  });
  return api.done();
}

// A host-side reset of each flag, effective at once.
aclError aclrtNotifyBatchReset(aclrtNotify* notifies, size_t num) {
  ApiCall api("aclrtNotifyBatchReset");
  if (!api.ok()) return api.notReady();
  if (!notifies || num == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "notifies is NULL or num is 0");
  aclError err;
  for (size_t i = 0; i < num; ++i)
    if (!notifyArg(api, notifies[i], &err)) return err;
  for (size_t i = 0; i < num; ++i) static_cast<Notify*>(notifies[i])->flag->set = false;
  return api.done();
}

aclError aclrtValueWrite(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  ApiCall api("aclrtValueWrite");
  if (!api.ok()) return api.notReady();
  if (flag != 0) return api.fail(ACL_ERROR_INVALID_PARAM, "flag must be 0 (got {})", flag);
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  uint64_t* word = valueWord(api, devAddr, s, &err);
  if (!word) return err;
  api.args.add("value", value);
  launchBuiltin(api, s, "ValueWrite", npusim::rt::ValueWriteBody{devAddr, word, value});
  return api.done();
}

aclError aclrtValueWait(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  ApiCall api("aclrtValueWait");
  if (!api.ok()) return api.notReady();
  if (flag > ACL_STREAM_WAIT_VALUE_NOR)
    return api.fail(ACL_ERROR_INVALID_PARAM, "flag {} is not an ACL_STREAM_WAIT_VALUE_* comparison", flag);
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  uint64_t* word = valueWord(api, devAddr, s, &err);
  if (!word) return err;
  api.args.add("value", value).add("flag", flag);
  int device = s->device;
  launchBuiltin(api, s, "ValueWait", npusim::rt::ValueWaitBody{devAddr, word, value, flag, device});
  return api.done();
}

aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag) {
  if (flag != ACL_EVENT_RECORD_DEFAULT && flag != ACL_EVENT_RECORD_EXTERNAL) {
    ApiCall api("aclrtRecordEventWithFlag");
    return api.fail(ACL_ERROR_INVALID_PARAM, "flag {} is neither ACL_EVENT_RECORD_DEFAULT nor _EXTERNAL",
                    flag);
  }
  return npusim::rt::recordEvent("aclrtRecordEventWithFlag", event, stream,
                                 flag == ACL_EVENT_RECORD_EXTERNAL);
}

aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout, uint32_t flag) {
  if (flag != ACL_EVENT_WAIT_DEFAULT && flag != ACL_EVENT_WAIT_EXTERNAL) {
    ApiCall api("aclrtStreamWaitEventWithFlag");
    return api.fail(ACL_ERROR_INVALID_PARAM, "flag {} is neither ACL_EVENT_WAIT_DEFAULT nor _EXTERNAL", flag);
  }
  if (flag == ACL_EVENT_WAIT_EXTERNAL && timeout != 0) {
    ApiCall api("aclrtStreamWaitEventWithFlag");
    return api.fail(ACL_ERROR_INVALID_PARAM, "an external wait takes timeout 0 (got {})", timeout);
  }
  return npusim::rt::streamWaitEvent("aclrtStreamWaitEventWithFlag", stream, event,
                                     flag == ACL_EVENT_WAIT_EXTERNAL);
}

aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t* timestamp) {
  ApiCall api("aclrtEventGetTimestamp");
  if (!api.ok()) return api.notReady();
  if (!timestamp) return api.fail(ACL_ERROR_INVALID_PARAM, "timestamp is NULL");
  if (!event || !api.rt.validEvent(event))
    return api.fail(ACL_ERROR_INVALID_PARAM, "event is not a live event");
  auto* e = static_cast<npusim::rt::Event*>(event);
  if (e->hw->completedRecords == 0)
    return api.fail(ACL_ERROR_RT_EVENT_NOT_COMPLETE, "the event has no executed record (synchronise first)");
  *timestamp = npusim::rt::timestampTicks(api.rt, e->hw->timestamp);
  return api.done();
}

}  // extern "C"

namespace npusim::rt {

uint64_t* valueWordOn(ApiCall& api, void* devAddr, int device, aclError* err) {
  if (!devAddr) {
    *err = api.fail(ACL_ERROR_INVALID_PARAM, "devAddr is NULL");
    return nullptr;
  }
  if (reinterpret_cast<uintptr_t>(devAddr) % 8 != 0) {
    *err = api.fail(ACL_ERROR_INVALID_PARAM, "devAddr {} is not 8-byte aligned", devAddr);
    return nullptr;
  }
  npusim::rt::PointerInfo info = api.rt.memory().classify(devAddr);
  if (info.kind != npusim::rt::PointerKind::Device || !api.rt.memory().rangeInside(info, devAddr, 8)) {
    *err = api.fail(ACL_ERROR_INVALID_PARAM, "devAddr {} is not inside a device allocation", devAddr);
    return nullptr;
  }
  if (info.device != device) {
    *err = api.fail(ACL_ERROR_INVALID_PARAM, "devAddr is on device {} but the stream on device {}",
                    info.device, device);
    return nullptr;
  }
  return reinterpret_cast<uint64_t*>(api.rt.memory().hostView(info, devAddr));
}

void ValueWriteBody::operator()(sched::Task&) const { std::memcpy(word, &value, 8); }

void ValueWaitBody::operator()(sched::Task& t) const {
  Tick t0 = simNow();
  sc_core::sc_event& changed = memoryChanged(device);
  SyncRegistry& r = registry();
  r.valueWaiters[static_cast<size_t>(device)]++;
  for (;;) {
    uint64_t w;
    std::memcpy(&w, word, 8);
    if (valueSatisfied(w, value, flag)) break;
    sc_core::wait(changed);
  }
  r.valueWaiters[static_cast<size_t>(device)]--;
  t.eventWait = simNow() - t0;
}

}  // namespace npusim::rt

// ACL entry points: events (record, wait, reset, query, synchronise, elapsed time).
#include <cmath>

#include "acl/acl.h"
#include "runtime/capture.h"
#include "runtime/checks.h"
#include "runtime/event_helpers.h"
#include "runtime/runtime.h"
#include "runtime/runtime_settings.h"

using npusim::kTickMax;
using npusim::Tick;
using npusim::rt::ApiCall;
using npusim::rt::Event;
using npusim::rt::EventKind;
using npusim::rt::Runtime;
using npusim::rt::Stream;

namespace {

constexpr uint32_t kKnownEventFlags = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS |
                                      ACL_EVENT_TIME_LINE | ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_EXTERNAL |
                                      ACL_EVENT_IPC;

Event* eventArg(ApiCall& api, aclrtEvent e, aclError* err) {
  if (!e || !api.rt.validEvent(e)) {
    *err = e ? api.fail(ACL_ERROR_INVALID_PARAM, "{}", npusim::rt::checks::staleEvent(e))
             : api.fail(ACL_ERROR_INVALID_PARAM, "event is NULL");
    return nullptr;
  }
  return static_cast<Event*>(e);
}

aclError createEvent(ApiCall& api, aclrtEvent* event, EventKind kind, uint32_t flags) {
  if (!event) return api.fail(ACL_ERROR_INVALID_PARAM, "event is NULL");
  if (flags & ~kKnownEventFlags)
    return api.fail(ACL_ERROR_INVALID_PARAM, "unknown event flag bits 0x{:x}", flags);
  if ((flags & ACL_EVENT_EXTERNAL) && flags != ACL_EVENT_EXTERNAL)
    return api.fail(ACL_ERROR_INVALID_PARAM, "ACL_EVENT_EXTERNAL cannot be combined with other flags");
  auto* ctx = api.rt.currentContext();
  int dev = ctx ? ctx->device : -1;
  if (dev >= 0 && api.rt.device(dev).liveEvents >= api.rt.costs().maxEvents)
    return api.fail(ACL_ERROR_RT_NO_EVENT_RESOURCE, "device {} already has {} events (sched.max_events)", dev,
                    api.rt.costs().maxEvents);
  *event = api.rt.createEvent(dev, kind, flags);
  return api.done();
}

// Querying or synchronising an event whose latest record was captured is illegal (§5.1).
aclError capturedEvent(ApiCall& api) {
  return api.fail(ACL_ERROR_RT_EVENT_CAPTURED,
                  "the event is recorded in an active capture (end the capture first)");
}

// Has every record issued so far executed, as seen by the host at its current clock?
bool recordedDone(ApiCall& api, const Event& e) {
  const auto& hw = *e.hw;
  if (hw.issuedRecords == hw.resetBase) return true;  // nothing recorded since creation/reset
  api.rt.waitFor([] { return false; }, api.th->clock);
  return hw.completedRecords >= hw.issuedRecords && hw.timestamp + api.rt.costs().completion <= api.th->clock;
}

}  // namespace

uint64_t npusim::rt::timestampTicks(const Runtime& rt, Tick t) {
  // The device timestamp counter runs at sched.timestamp_hz (50 MHz on 910B: 20 ns ticks).
  return static_cast<uint64_t>(static_cast<long double>(t) * rt.costs().timestampHz / 1e12L);
}

aclError npusim::rt::recordEvent(const char* name, aclrtEvent event, aclrtStream stream, bool external) {
  ApiCall api(name);
  if (!api.ok()) return api.notReady();
  aclError err;
  Event* e = eventArg(api, event, &err);
  if (!e) return err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  if (npusim::rt::captureRecordEvent(api, e, s, external, &err)) return err;
  api.charge(api.rt.costs().launch);
  auto t = std::make_unique<npusim::sched::Task>();
  t->kind = npusim::sched::TaskKind::EventRecord;
  t->event = e->hw;
  t->recordIndex = ++e->hw->issuedRecords;
  t->label = "EventRecord";
  api.flow = api.rt.nextFlow();
  api.args.add("stream", s->hw->id);
  api.rt.launch(*api.th, s->hw, std::move(t), api.flow);
  return api.done();
}

aclError npusim::rt::streamWaitEvent(const char* name, aclrtStream stream, aclrtEvent event, bool external) {
  ApiCall api(name);
  if (!api.ok()) return api.notReady();
  aclError err;
  Event* e = eventArg(api, event, &err);
  if (!e) return err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  if (npusim::rt::captureWaitEvent(api, s, e, external, &err)) return err;
  api.charge(api.rt.costs().launch);
  auto& hw = *e->hw;
  auto t = std::make_unique<npusim::sched::Task>();
  t->kind = npusim::sched::TaskKind::EventWait;
  t->event = e->hw;
  // The wait refers to the latest record issued so far, or to the next one if none was.
  t->waitTarget = hw.issuedRecords > hw.resetBase ? hw.issuedRecords : hw.resetBase + 1;
  t->label = "EventWait";
  t->waitTimeout = npusim::rt::opWaitTimeout();  // aclrtSetOpWaitTimeout, 0 = none
  t->timeoutError = ACL_ERROR_RT_TASK_TIMEOUT;
  api.flow = api.rt.nextFlow();
  api.args.add("stream", s->hw->id);
  api.rt.launch(*api.th, s->hw, std::move(t), api.flow);
  return api.done();
}

extern "C" {

aclError aclrtGetEventId(aclrtEvent event, uint32_t* eventId) {
  ApiCall api("aclrtGetEventId");
  if (!api.ok()) return api.notReady();
  aclError err;
  Event* e = eventArg(api, event, &err);
  if (!e) return err;
  if (!eventId) return api.fail(ACL_ERROR_INVALID_PARAM, "eventId is NULL");
  *eventId = e->id;
  return api.done();
}

aclError aclrtCreateEvent(aclrtEvent* event) {
  ApiCall api("aclrtCreateEvent");
  if (!api.ok()) return api.notReady();
  return createEvent(api, event, EventKind::Plain, ACL_EVENT_SYNC);
}

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
  ApiCall api("aclrtCreateEventWithFlag");
  if (!api.ok()) return api.notReady();
  return createEvent(api, event, EventKind::WithFlag, flag);
}

aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) {
  ApiCall api("aclrtCreateEventExWithFlag");
  if (!api.ok()) return api.notReady();
  return createEvent(api, event, EventKind::Ex, flag);
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  ApiCall api("aclrtDestroyEvent");
  if (!api.ok()) return api.notReady();
  aclError err;
  Event* e = eventArg(api, event, &err);
  if (!e) return err;
  api.rt.destroyEvent(e);  // pending record/wait tasks keep the hardware event alive
  return api.done();
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  return npusim::rt::recordEvent("aclrtRecordEvent", event, stream);
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  ApiCall api("aclrtResetEvent");
  if (!api.ok()) return api.notReady();
  aclError err;
  Event* e = eventArg(api, event, &err);
  if (!e) return err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  if (npusim::rt::captureResetEvent(api, e, s, &err)) return err;
  api.charge(api.rt.costs().launch);
  // Later waits wait for a record issued after this reset.
  e->hw->resetBase = e->hw->issuedRecords;
  auto t = std::make_unique<npusim::sched::Task>();
  t->kind = npusim::sched::TaskKind::EventReset;
  t->event = e->hw;
  t->label = "EventReset";
  api.flow = api.rt.nextFlow();
  api.rt.launch(*api.th, s->hw, std::move(t), api.flow);
  return api.done();
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  return npusim::rt::streamWaitEvent("aclrtStreamWaitEvent", stream, event);
}

aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout) {
  (void)timeout;
  return npusim::rt::streamWaitEvent("aclrtStreamWaitEventWithTimeout", stream, event);
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
  ApiCall api("aclrtQueryEventStatus");
  if (!api.ok()) return api.notReady();
  if (!status) return api.fail(ACL_ERROR_INVALID_PARAM, "status is NULL");
  aclError err;
  Event* e = eventArg(api, event, &err);
  if (!e) return err;
  if (e->capture) return capturedEvent(api);
  // Unlike aclrtQueryEvent, an event with no record (since creation or reset) is not complete:
  // the CANN event-status sample shows 0 (NOT_READY) right after aclrtCreateEvent.
  const bool recorded = e->hw->issuedRecords != e->hw->resetBase;
  *status = recorded && recordedDone(api, *e) ? ACL_EVENT_RECORDED_STATUS_COMPLETE
                                              : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return api.done();
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
  ApiCall api("aclrtQueryEvent");
  if (!api.ok()) return api.notReady();
  if (!status) return api.fail(ACL_ERROR_INVALID_PARAM, "status is NULL");
  aclError err;
  Event* e = eventArg(api, event, &err);
  if (!e) return err;
  if (e->capture) return capturedEvent(api);
  *status = recordedDone(api, *e) ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
  return api.done();
}

aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus* status) {
  ApiCall api("aclrtQueryEventWaitStatus");
  if (!api.ok()) return api.notReady();
  if (!status) return api.fail(ACL_ERROR_INVALID_PARAM, "status is NULL");
  aclError err;
  Event* e = eventArg(api, event, &err);
  if (!e) return err;
  if (e->capture) return capturedEvent(api);
  if (e->kind == EventKind::Ex)
    return api.fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtQueryEventWaitStatus does not take Ex events");
  // Waits complete when the record they wait for has executed.
  *status = recordedDone(api, *e) ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
  return api.done();
}

static aclError syncEvent(const char* name, aclrtEvent event, int32_t timeout) {
  ApiCall api(name);
  if (!api.ok()) return api.notReady();
  aclError err;
  Event* e = eventArg(api, event, &err);
  if (!e) return err;
  if (e->capture) return capturedEvent(api);
  if (timeout < -1 || timeout == 0)
    return api.fail(ACL_ERROR_RT_PARAM_INVALID, "timeout {} ms is invalid", timeout);
  auto hw = e->hw;
  if (hw->issuedRecords == hw->resetBase) return api.done();
  uint64_t target = hw->issuedRecords;
  Tick limit = timeout < 0 ? kTickMax : api.th->clock + static_cast<Tick>(timeout) * npusim::kMs;
  Runtime::Wait w = api.rt.waitFor([hw, target] { return hw->completedRecords >= target; }, limit);
  if (w == Runtime::Wait::Timeout) {
    api.th->clock = std::max(api.th->clock, limit);
    return api.fail(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, "timed out after {} ms", timeout);
  }
  if (w == Runtime::Wait::Deadlock) {
    std::string blocked = api.rt.describeBlocked();
    npusim::rt::checks::deadlock(fmt::format("event {}", event), blocked, false);
    return api.fail(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, "deadlock: the event's record can never execute\n{}",
                    blocked);
  }
  api.rt.observe(*api.th, hw->timestamp);
  return api.done();
}

aclError aclrtSynchronizeEvent(aclrtEvent event) { return syncEvent("aclrtSynchronizeEvent", event, -1); }
aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
  return syncEvent("aclrtSynchronizeEventWithTimeout", event, timeout);
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  ApiCall api("aclrtEventElapsedTime");
  if (!api.ok()) return api.notReady();
  if (!ms) return api.fail(ACL_ERROR_INVALID_PARAM, "ms is NULL");
  aclError err;
  Event* a = eventArg(api, startEvent, &err);
  if (!a) return err;
  Event* b = eventArg(api, endEvent, &err);
  if (!b) return err;
  if (a->capture || b->capture) return capturedEvent(api);
  if (a->hw->completedRecords == 0 || b->hw->completedRecords == 0) {
    bool issued = a->hw->issuedRecords && b->hw->issuedRecords;
    return api.fail(issued ? ACL_ERROR_RT_EVENT_NOT_COMPLETE : ACL_ERROR_RT_INTERNAL_ERROR,
                    issued ? "an event's record has not executed yet (synchronise first)"
                           : "an event was never recorded");
  }
  int64_t d = static_cast<int64_t>(npusim::rt::timestampTicks(api.rt, b->hw->timestamp)) -
              static_cast<int64_t>(npusim::rt::timestampTicks(api.rt, a->hw->timestamp));
  *ms = static_cast<float>(static_cast<double>(d) * 1000.0 / api.rt.costs().timestampHz);
  return api.done();
}

}  // extern "C"

// ACL entry points: stream capture and captured models (aclmdlRI*). The capture state and its
// rules live in runtime/capture.{h,cpp}; the device-side replay in models/sched/model_replay.cpp.
#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "acl/acl.h"
#include "runtime/capture.h"

using npusim::rt::ApiCall;
using npusim::rt::CaptureModel;
using npusim::rt::Runtime;
using npusim::rt::Stream;

namespace {

bool validMode(aclmdlRICaptureMode mode) {
  return mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL || mode == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL ||
         mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
}

// A model handle that has finished capturing; fails `api` otherwise.
CaptureModel* modelArg(ApiCall& api, aclmdlRI handle, aclError* err) {
  if (!handle) {
    *err = api.fail(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
    return nullptr;
  }
  CaptureModel* m = npusim::rt::findModel(handle);
  if (!m) {
    *err = api.fail(ACL_ERROR_RT_PARAM_INVALID, "modelRI {} is not a live model (destroyed or never created)",
                    handle);
    return nullptr;
  }
  if (m->state != CaptureModel::State::Ready) {
    *err = api.fail(ACL_ERROR_RT_MODEL_CAPTURED,
                    "model {} is still being captured (call aclmdlRICaptureEnd first)", m->id);
    return nullptr;
  }
  return m;
}

}  // namespace

extern "C" {

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
  ApiCall api("aclmdlRICaptureBegin");
  if (!api.ok()) return api.notReady();
  if (!stream) return api.fail(ACL_ERROR_INVALID_PARAM, "the default stream (NULL) cannot be captured");
  if (!validMode(mode))
    return api.fail(ACL_ERROR_INVALID_PARAM, "mode {} is not a capture mode", static_cast<int>(mode));
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  if (s->isDefault)
    return api.fail(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT, "a default stream cannot be captured");
  if (s->capture)
    return api.fail(ACL_ERROR_RT_STREAM_CAPTURED, "stream {} is already capturing (into model {})", s->hw->id,
                    s->capture->id);
  CaptureModel* m = npusim::rt::startCapture(api, s, mode);
  api.args.add("stream", s->hw->id).add("model", static_cast<int64_t>(m->id));
  return api.done();
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI) {
  ApiCall api("aclmdlRICaptureEnd");
  if (!api.ok()) return api.notReady();
  if (!modelRI) return api.fail(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  api.args.add("stream", s->hw->id);
  CaptureModel* m = s->capture;
  if (!m) return api.fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream {} is not capturing", s->hw->id);
  if (m->built)
    return api.fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                    "stream {} is bound to model {} being built, not capturing: end it with aclmdlRIBuildEnd",
                    s->hw->id, m->id);
  if (s->captureLane != 0)
    return api.fail(
        ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
        "stream {} joined capture model {} through an event; end the capture on its origin stream", s->hw->id,
        m->id);
  if (m->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED && m->beginThread != api.th)
    return api.fail(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
                    "capture model {} began on another host thread; in a non-RELAXED mode it must end there",
                    m->id);
  api.args.add("model", static_cast<int64_t>(m->id));
  *modelRI = nullptr;
  if (m->state == CaptureModel::State::Invalidated) {
    std::string why = m->invalidReason;
    npusim::rt::finishCapture(m, false);
    return api.fail(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, "the capture was invalidated: {}", why);
  }
  std::string unjoined = npusim::rt::unjoinedReason(*m);
  if (!unjoined.empty()) {
    npusim::rt::finishCapture(m, false);
    return api.fail(ACL_ERROR_RT_STREAM_UNJOINED, "{}", unjoined);
  }
  npusim::rt::finishCapture(m, true);
  api.args.add("tasks", m->graph->taskCount()).add("streams", static_cast<uint64_t>(m->graph->lanes.size()));
  *modelRI = m;
  return api.done();
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status, aclmdlRI* modelRI) {
  ApiCall api("aclmdlRICaptureGetInfo");
  if (!api.ok()) return api.notReady();
  if (!status && !modelRI) return api.fail(ACL_ERROR_INVALID_PARAM, "status and modelRI are both NULL");
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  CaptureModel* m = s->capture;
  if (status)
    *status = !m                                             ? ACL_MODEL_RI_CAPTURE_STATUS_NONE
              : m->state == CaptureModel::State::Invalidated ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
                                                             : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  if (modelRI) *modelRI = m;
  return api.done();
}

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode) {
  ApiCall api("aclmdlRICaptureThreadExchangeMode");
  if (!api.ok()) return api.notReady();
  if (!mode) return api.fail(ACL_ERROR_INVALID_PARAM, "mode is NULL");
  if (!validMode(*mode))
    return api.fail(ACL_ERROR_INVALID_PARAM, "mode {} is not a capture mode", static_cast<int>(*mode));
  auto previous = static_cast<aclmdlRICaptureMode>(api.th->captureMode);
  api.th->captureMode = *mode;
  *mode = previous;
  return api.done();
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
  ApiCall api("aclmdlRIExecuteAsync");
  if (!api.ok()) return api.notReady();
  aclError err;
  CaptureModel* m = modelArg(api, modelRI, &err);
  if (!m) return err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  if (s->capture)
    return api.fail(ACL_ERROR_RT_STREAM_CAPTURED, "stream {} is capturing (into model {})", s->hw->id,
                    s->capture->id);
  if (s->device != m->device)
    return api.fail(ACL_ERROR_RT_PARAM_INVALID,
                    "model {} was captured on device {} but stream {} is on device {}", m->id, m->device,
                    s->hw->id, s->device);
  // One submission for the whole model: the device's scheduler starts its tasks.
  api.charge(api.rt.costs().launch);
  auto t = std::make_unique<npusim::sched::Task>();
  t->kind = npusim::sched::TaskKind::ModelExec;
  t->label = fmt::format("Model {} replay", m->id);
  t->model = m->graph;
  t->firstModelTaskId = api.rt.reserveTaskIds(m->graph->taskCount());
  t->externalTargets = npusim::rt::resolveExternalEvents(*m->graph);
  api.args.add("stream", s->hw->id)
      .add("model", static_cast<int64_t>(m->id))
      .add("tasks", m->graph->taskCount());
  api.flow = api.rt.nextFlow();
  api.rt.launch(*api.th, s->hw, std::move(t), api.flow);
  m->runsIssued++;
  return api.done();
}

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout) {
  ApiCall api("aclmdlRIExecute");
  if (!api.ok()) return api.notReady();
  aclError err;
  CaptureModel* m = modelArg(api, modelRI, &err);
  if (!m) return err;
  // Only models built with aclmdlRIBuildBegin/End run synchronously (acl-api.md §5.1): on the
  // current context's default stream, waited for up to `timeout` ms (-1: for ever).
  if (m->built) {
    if (timeout < -1 || timeout == 0)
      return api.fail(ACL_ERROR_INVALID_PARAM, "timeout {} ms is invalid (use -1 or a positive value)",
                      timeout);
    if (aclError e = aclmdlRIExecuteAsync(modelRI, nullptr)) return api.done(e);
    return api.done(aclrtSynchronizeStreamWithTimeout(nullptr, timeout));
  }
  return api.fail(ACL_ERROR_RT_PARAM_INVALID,
                  "model {} was captured from a stream (ACL Graph mode): replay it with aclmdlRIExecuteAsync",
                  m->id);
}

aclError aclmdlRIDestroy(aclmdlRI modelRI) {
  ApiCall api("aclmdlRIDestroy");
  if (!api.ok()) return api.notReady();
  aclError err;
  CaptureModel* m = modelArg(api, modelRI, &err);
  if (!m) return err;
  // What has the device finished by the host's current time?
  api.rt.waitFor([] { return false; }, api.th->clock);
  if (m->graph->runsCompleted < m->runsIssued)
    return api.fail(ACL_ERROR_RT_MODEL_RUNNING,
                    "model {} is still running ({} of {} replays finished); synchronise its stream first",
                    m->id, m->graph->runsCompleted, m->runsIssued);
  npusim::rt::destroyModel(api, m);
  return api.done();
}

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t flags) {
  ApiCall api("aclmdlRIDebugJsonPrint");
  if (!api.ok()) return api.notReady();
  aclError err;
  CaptureModel* m = modelArg(api, modelRI, &err);
  if (!m) return err;
  if (!path || !*path) return api.fail(ACL_ERROR_INVALID_PARAM, "path is NULL or empty");
  if (flags != ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY && flags != ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE)
    return api.fail(ACL_ERROR_INVALID_PARAM, "flags 0x{:x} is neither SUMMARY (0) nor VERBOSE (1)", flags);
  std::ofstream out(path);
  if (!out) return api.fail(ACL_ERROR_WRITE_FILE, "cannot open {} for writing", path);
  npusim::rt::writeModelJson(*m, flags == ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE, out);
  if (!out) return api.fail(ACL_ERROR_WRITE_FILE, "writing {} failed", path);
  return api.done();
}

aclError aclmdlRIDebugPrint(aclmdlRI modelRI) {
  ApiCall api("aclmdlRIDebugPrint");
  if (!api.ok()) return api.notReady();
  aclError err;
  CaptureModel* m = modelArg(api, modelRI, &err);
  if (!m) return err;
  npusim::rt::printModel(*m, std::cout);
  std::cout.flush();
  return api.done();
}

}  // extern "C"

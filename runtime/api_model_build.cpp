// ACL entry points: building a model stream by stream (aclmdlRIBuildBegin, aclmdlRIBindStream,
// aclmdlRIEndTask, aclmdlRIBuildEnd, aclmdlRIUnbindStream, aclrtActiveStream). A bound stream
// records its tasks into the model exactly as a capturing stream does (runtime/capture.cpp); the
// built model replays with aclmdlRIExecuteAsync / aclmdlRIExecute like a captured one, its head
// streams starting at once and the others when a task activates them (docs/capture.md).
#include <algorithm>
#include <cstring>

#include "acl/acl.h"
#include "runtime/capture.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;
using npusim::rt::CaptureModel;
using npusim::rt::Stream;

namespace {

// The model behind `handle` while it is being built.
CaptureModel* buildingModel(ApiCall& api, aclmdlRI handle, aclError* err) {
  if (!handle) {
    *err = api.fail(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
    return nullptr;
  }
  CaptureModel* m = npusim::rt::findModel(handle);
  if (!m || !m->built) {
    *err = api.fail(ACL_ERROR_INVALID_PARAM, "modelRI {} is not a model from aclmdlRIBuildBegin", handle);
    return nullptr;
  }
  if (m->state != CaptureModel::State::Building) {
    *err = api.fail(ACL_ERROR_RT_PARAM_INVALID, "model {} was already built (aclmdlRIBuildEnd)", m->id);
    return nullptr;
  }
  return m;
}

// An explicit stream bound to `m`.
Stream* boundStream(ApiCall& api, CaptureModel* m, aclrtStream handle, aclError* err) {
  Stream* s = handle ? api.stream(handle, err) : nullptr;
  if (!handle) *err = api.fail(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  if (!s) return nullptr;
  if (std::find(m->bound.begin(), m->bound.end(), s) == m->bound.end()) {
    *err = api.fail(ACL_ERROR_INVALID_PARAM, "stream {} is not bound to model {}", s->hw->id, m->id);
    return nullptr;
  }
  return s;
}

}  // namespace

extern "C" {

aclError aclmdlRIBuildBegin(aclmdlRI* modelRI, uint32_t flag) {
  ApiCall api("aclmdlRIBuildBegin");
  if (!api.ok()) return api.notReady();
  if (!modelRI) return api.fail(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  if (flag != 0) return api.fail(ACL_ERROR_INVALID_PARAM, "flag is reserved and must be 0 (got {})", flag);
  aclError err;
  npusim::rt::Context* ctx = api.context(&err);
  if (!ctx) return err;
  CaptureModel* m = npusim::rt::startBuild(api, ctx);
  api.args.add("model", static_cast<int64_t>(m->id));
  *modelRI = m;
  return api.done();
}

aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag) {
  ApiCall api("aclmdlRIBindStream");
  if (!api.ok()) return api.notReady();
  aclError err;
  CaptureModel* m = buildingModel(api, modelRI, &err);
  if (!m) return err;
  if (!stream)
    return api.fail(ACL_ERROR_INVALID_PARAM, "stream is NULL (the default stream cannot be bound)");
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  if (flag != ACL_MODEL_STREAM_FLAG_HEAD && flag != ACL_MODEL_STREAM_FLAG_DEFAULT)
    return api.fail(ACL_ERROR_INVALID_PARAM, "flag {:#x} is neither ACL_MODEL_STREAM_FLAG_HEAD nor _DEFAULT",
                    flag);
  if (s->capture)
    return api.fail(ACL_ERROR_RT_STREAM_CAPTURED, "stream {} is already bound to or capturing into model {}",
                    s->hw->id, s->capture->id);
  if (s->device != m->device)
    return api.fail(ACL_ERROR_INVALID_PARAM, "stream {} is on device {} but model {} on device {}", s->hw->id,
                    s->device, m->id, m->device);
  npusim::rt::bindStream(*m, s, flag == ACL_MODEL_STREAM_FLAG_HEAD);
  api.args.add("model", static_cast<int64_t>(m->id)).add("stream", s->hw->id);
  return api.done();
}

aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream) {
  ApiCall api("aclmdlRIEndTask");
  if (!api.ok()) return api.notReady();
  aclError err;
  CaptureModel* m = buildingModel(api, modelRI, &err);
  if (!m) return err;
  Stream* s = boundStream(api, m, stream, &err);
  if (!s) return err;
  // The lane's end is the end of its task list; the model ends when this lane is done.
  m->lanes[static_cast<size_t>(s->captureLane)].endsModel = true;
  api.args.add("model", static_cast<int64_t>(m->id)).add("stream", s->hw->id);
  return api.done();
}

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void* reserve) {
  ApiCall api("aclmdlRIBuildEnd");
  if (!api.ok()) return api.notReady();
  if (reserve) return api.fail(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
  aclError err;
  CaptureModel* m = buildingModel(api, modelRI, &err);
  if (!m) return err;
  const std::string why = npusim::rt::finishBuild(m);
  if (!why.empty()) return api.fail(ACL_ERROR_INVALID_PARAM, "model {}: {}", m->id, why);
  api.args.add("model", static_cast<int64_t>(m->id)).add("tasks", m->graph->taskCount());
  return api.done();
}

aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream) {
  ApiCall api("aclmdlRIUnbindStream");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!modelRI) return api.fail(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  CaptureModel* m = npusim::rt::findModel(modelRI);
  if (!m || !m->built) return api.fail(ACL_ERROR_INVALID_PARAM, "modelRI {} is not a built model", modelRI);
  Stream* s = boundStream(api, m, stream, &err);
  if (!s) return err;
  if (m->state == CaptureModel::State::Building)
    return api.fail(ACL_ERROR_RT_PARAM_INVALID,
                    "model {} is still being built: end it with aclmdlRIBuildEnd first", m->id);
  m->bound.erase(std::find(m->bound.begin(), m->bound.end(), s));
  return api.done();
}

aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream) {
  ApiCall api("aclrtActiveStream");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!activeStream || !stream) return api.fail(ACL_ERROR_INVALID_PARAM, "activeStream or stream is NULL");
  Stream* a = api.stream(activeStream, &err);
  if (!a) return err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  CaptureModel* m = s->capture;
  if (!m || !m->built || m->state != CaptureModel::State::Building || a->capture != m)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "aclrtActiveStream works inside a model being built: both streams must be bound to it");
  if (a == s) return api.fail(ACL_ERROR_INVALID_PARAM, "a stream cannot activate itself");
  npusim::rt::activateLane(api, a, s);
  return api.done();
}

aclError aclrtSwitchStream(void* leftValue, aclrtCondition cond, void* rightValue,
                           aclrtCompareDataType dataType, aclrtStream trueStream, aclrtStream falseStream,
                           aclrtStream stream) {
  ApiCall api("aclrtSwitchStream");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!trueStream || !stream) return api.fail(ACL_ERROR_INVALID_PARAM, "trueStream or stream is NULL");
  if (falseStream) return api.fail(ACL_ERROR_INVALID_PARAM, "falseStream is reserved and must be NULL");
  if (cond < ACL_RT_EQUAL || cond > ACL_RT_LESS_OR_EQUAL)
    return api.fail(ACL_ERROR_INVALID_PARAM, "cond {} is not an aclrtCondition", static_cast<int>(cond));
  if (dataType != ACL_RT_SWITCH_INT32 && dataType != ACL_RT_SWITCH_INT64)
    return api.fail(ACL_ERROR_INVALID_PARAM, "dataType {} is not an aclrtCompareDataType",
                    static_cast<int>(dataType));
  Stream* t = api.stream(trueStream, &err);
  if (!t) return err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  CaptureModel* m = s->capture;
  if (!m || !m->built || m->state != CaptureModel::State::Building || t->capture != m || t == s)
    return api.fail(
        ACL_ERROR_INVALID_PARAM,
        "aclrtSwitchStream works inside a model being built: both streams bound to it, and distinct");
  const uint64_t bytes = dataType == ACL_RT_SWITCH_INT32 ? 4 : 8;
  const uint8_t* operand[2] = {nullptr, nullptr};
  void* addr[2] = {leftValue, rightValue};
  for (int i = 0; i < 2; ++i) {
    npusim::rt::PointerInfo info = api.rt.memory().classify(addr[i]);
    if (!addr[i] || info.kind != npusim::rt::PointerKind::Device || info.device != s->device ||
        !api.rt.memory().rangeInside(info, addr[i], bytes))
      return api.fail(ACL_ERROR_INVALID_PARAM, "{} {} is not {} bytes of device memory on device {}",
                      i == 0 ? "leftValue" : "rightValue", addr[i], bytes, s->device);
    operand[i] = static_cast<const uint8_t*>(api.rt.memory().hostView(info, addr[i]));
  }
  // The values are read when the task runs on the device.
  auto read = [bytes](const uint8_t* p) -> int64_t {
    if (bytes == 4) {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    int64_t v;
    std::memcpy(&v, p, 8);
    return v;
  };
  const uint8_t *l = operand[0], *r = operand[1];
  npusim::rt::activateLane(api, t, s, [l, r, cond, read] {
    const int64_t a = read(l), b = read(r);
    switch (cond) {
      case ACL_RT_EQUAL:
        return a == b;
      case ACL_RT_NOT_EQUAL:
        return a != b;
      case ACL_RT_GREATER:
        return a > b;
      case ACL_RT_GREATER_OR_EQUAL:
        return a >= b;
      case ACL_RT_LESS:
        return a < b;
      default:
        return a <= b;
    }
  });
  return api.done();
}

}  // extern "C"

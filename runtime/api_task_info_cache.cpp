// ACL entry points that attach the program's own information to the last task the calling thread
// issued into a model (aclrtCacheLastTaskExtendInfo, aclrtCacheLastTaskOpInfo).
//
// As in CANN, "last task" is per thread and must have gone into a capture (or, for extend info,
// a model being built) that is still open: a task launched eagerly after it, or the end of the
// capture, leaves nothing to attach to. The information stays with the captured task and is
// shown by aclmdlRIDebugJsonPrint (runtime/capture.cpp). Both calls are host-side bookkeeping:
// they cost host time but queue nothing on the device.
#include <cstdint>

#include "acl/acl.h"
#include "runtime/capture.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;
using npusim::rt::CaptureLane;
using npusim::rt::CaptureModel;

namespace {

constexpr size_t kMaxExtendInfo = 4096;   // longer extend info is cut to this (CANN's limit)
constexpr size_t kMaxOpInfo = 64 * 1024;  // op info beyond this is refused (CANN's limit)

// The task to attach to, checked as CANN checks it: a current context, a last task in a model,
// its stream in the current context. CANN reports a missing model as an internal error (507000).
npusim::sched::ModelTask* target(ApiCall& api, CaptureModel** m, CaptureLane** lane, aclError* err) {
  npusim::rt::Context* ctx = api.context(err);
  if (!ctx) return nullptr;
  npusim::sched::ModelTask* t = npusim::rt::lastCapturedTask(*api.th, m, lane);
  if (!t) {
    *err = api.fail(ACL_ERROR_RT_INTERNAL_ERROR,
                    "the thread's last task is not in a model being captured or built (capture a task "
                    "first; the model must not have ended)");
    return nullptr;
  }
  if ((*lane)->stream && (*lane)->stream->ctx != ctx) {
    *err = api.fail(ACL_ERROR_RT_STREAM_CONTEXT, "the last task's stream {} is not in the current context",
                    (*lane)->streamId);
    return nullptr;
  }
  return t;
}

}  // namespace

extern "C" {

aclError aclrtCacheLastTaskExtendInfo(const char* const extendInfoPtr, const size_t infoSize) {
  ApiCall api("aclrtCacheLastTaskExtendInfo");
  if (!api.ok()) return api.notReady();
  if (!extendInfoPtr) return api.fail(ACL_ERROR_RT_PARAM_INVALID, "extendInfoPtr is NULL");
  if (infoSize == 0) return api.fail(ACL_ERROR_RT_PARAM_INVALID, "infoSize is 0");
  aclError err;
  CaptureModel* m = nullptr;
  CaptureLane* lane = nullptr;
  npusim::sched::ModelTask* t = target(api, &m, &lane, &err);
  if (!t) return err;
  const size_t kept = infoSize < kMaxExtendInfo ? infoSize : kMaxExtendInfo;
  t->extendInfo.assign(extendInfoPtr, kept);  // a second call replaces the first
  api.args.add("model", static_cast<int64_t>(m->id)).add("bytes", static_cast<uint64_t>(kept));
  return api.done();
}

aclError aclrtCacheLastTaskOpInfo(const void* const infoPtr, const size_t infoSize) {
  ApiCall api("aclrtCacheLastTaskOpInfo");
  if (!api.ok()) return api.notReady();
  if (!infoPtr) return api.fail(ACL_ERROR_INVALID_PARAM, "infoPtr is NULL");
  if (infoSize == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "infoSize is 0");
  if (infoSize > kMaxOpInfo)
    return api.fail(ACL_ERROR_RT_PARAM_INVALID, "infoSize {} is outside (0, {}]", infoSize, kMaxOpInfo);
  aclError err;
  CaptureModel* m = nullptr;
  CaptureLane* lane = nullptr;
  npusim::sched::ModelTask* t = target(api, &m, &lane, &err);
  if (!t) return err;
  if (m->built)
    return api.fail(ACL_ERROR_RT_INTERNAL_ERROR,
                    "model {} is built with aclmdlRIBuildBegin: operator information is cached only in a "
                    "capture (aclmdlRICaptureBegin)",
                    m->id);
  // The switch is the stream attribute ACL_STREAM_ATTR_CACHE_OP_INFO of the capturing stream.
  if (!lane->stream || !lane->stream->cacheOpInfo)
    return api.fail(ACL_ERROR_RT_INTERNAL_ERROR,
                    "the operator information cache is off for stream {}: turn it on with "
                    "aclrtSetStreamAttribute(ACL_STREAM_ATTR_CACHE_OP_INFO) first",
                    lane->streamId);
  const auto* p = static_cast<const uint8_t*>(infoPtr);
  t->opInfo.assign(p, p + infoSize);
  api.args.add("model", static_cast<int64_t>(m->id)).add("bytes", static_cast<uint64_t>(infoSize));
  return api.done();
}

}  // extern "C"

// ACL entry points: exception-info callbacks and their accessors, aclrtGetErrorVerbose and
// aclrtQueryDeviceStatus. The failures come from tasks the device could not complete (a notify
// or value wait that timed out); see runtime/exceptions.h.
#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

#include "acl/acl.h"
#include "models/sched/hw_stream.h"
#include "models/sched/task.h"
#include "runtime/exceptions.h"
#include "runtime/runtime.h"

// The object behind aclrtExceptionInfo (opaque in the public header).
struct rtExceptionInfo {
  uint32_t taskId = 0;
  uint32_t streamId = 0;
  uint32_t threadId = 0;
  uint32_t deviceId = 0;
  uint32_t errorCode = 0;
};

using npusim::rt::ApiCall;

namespace {

struct ExceptionState {
  std::mutex mu;
  std::vector<aclrtExceptionInfoCallback> callbacks;  // registration order
  std::vector<rtExceptionInfo> undelivered;
  std::map<const npusim::sched::HwStream*, int32_t> streamErrors;  // first unreported failure
  std::map<int, rtExceptionInfo> lastByDevice;
};

ExceptionState& state() {
  static auto* s = new ExceptionState();  // outlives exit-time reports
  return *s;
}

}  // namespace

namespace npusim::rt {

void taskFailed(const sched::Task& t) {
  ExceptionState& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  rtExceptionInfo info;
  info.taskId = static_cast<uint32_t>(t.id);
  info.streamId = t.stream ? static_cast<uint32_t>(t.stream->id) : 0;
  info.threadId = static_cast<uint32_t>(t.hostThread);
  info.deviceId = t.stream ? static_cast<uint32_t>(t.stream->device) : 0;
  info.errorCode = static_cast<uint32_t>(t.error);
  s.undelivered.push_back(info);
  s.streamErrors.emplace(t.stream, t.error);
  s.lastByDevice[static_cast<int>(info.deviceId)] = info;
}

int32_t takeStreamError(const sched::HwStream* hw) {
  ExceptionState& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.streamErrors.find(hw);
  if (it == s.streamErrors.end()) return 0;
  int32_t e = it->second;
  s.streamErrors.erase(it);
  return e;
}

void deliverExceptions() {
  ExceptionState& s = state();
  std::vector<rtExceptionInfo> todo;
  std::vector<aclrtExceptionInfoCallback> cbs;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.undelivered.empty()) return;
    todo.swap(s.undelivered);
    cbs = s.callbacks;
  }
  for (rtExceptionInfo& info : todo)
    for (aclrtExceptionInfoCallback cb : cbs) cb(&info);
}

}  // namespace npusim::rt

namespace {

aclError registerCallback(const char* name, aclrtExceptionInfoCallback cb, bool replaceAll) {
  ApiCall api(name);
  ExceptionState& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (replaceAll) {  // the deprecated single-callback setter; NULL clears it
    s.callbacks.clear();
    if (cb) s.callbacks.push_back(cb);
    return api.done();
  }
  if (!cb) return api.fail(ACL_ERROR_INVALID_PARAM, "callback is NULL");
  if (std::find(s.callbacks.begin(), s.callbacks.end(), cb) != s.callbacks.end())
    return api.fail(ACL_ERROR_INVALID_PARAM, "this callback is already registered");
  s.callbacks.push_back(cb);
  return api.done();
}

}  // namespace

extern "C" {

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback) {
  return registerCallback("aclrtSetExceptionInfoCallback", callback, true);
}

aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback) {
  return registerCallback("aclrtExceptionInfoCallbackRegister", callback, false);
}

aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback) {
  ApiCall api("aclrtExceptionInfoCallbackUnregister");
  ExceptionState& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = std::find(s.callbacks.begin(), s.callbacks.end(), callback);
  if (!callback || it == s.callbacks.end())
    return api.fail(ACL_ERROR_INVALID_PARAM, "the callback is not registered");
  s.callbacks.erase(it);
  return api.done();
}

// The accessors return 0xFFFFFFFF for a NULL info, as the CANN implementation documents.
uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info ? info->taskId : 0xFFFFFFFFU;
}
uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info ? info->streamId : 0xFFFFFFFFU;
}
uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info ? info->threadId : 0xFFFFFFFFU;
}
uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info ? info->deviceId : 0xFFFFFFFFU;
}
uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info ? info->errorCode : 0xFFFFFFFFU;
}

// The failing tasks npusim produces are runtime tasks, not kernels: no arguments, no function.
aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo* info, void** devArgsPtr,
                                       uint32_t* devArgsLen) {
  ApiCall api("aclrtGetArgsFromExceptionInfo");
  if (!info || !devArgsPtr || !devArgsLen) return api.fail(ACL_ERROR_INVALID_PARAM, "an argument is NULL");
  *devArgsPtr = nullptr;
  *devArgsLen = 0;
  return api.done();
}

aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo* info, aclrtFuncHandle* func) {
  ApiCall api("aclrtGetFuncHandleFromExceptionInfo");
  if (!info || !func) return api.fail(ACL_ERROR_INVALID_PARAM, "an argument is NULL");
  *func = nullptr;
  return api.fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "the failed task {} is not a kernel launch",
                  info->taskId);
}

aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo* errorInfo) {
  ApiCall api("aclrtGetErrorVerbose");
  if (!api.ok()) return api.notReady();
  if (!errorInfo) return api.fail(ACL_ERROR_INVALID_PARAM, "errorInfo is NULL");
  if (deviceId < 0 || deviceId >= api.rt.deviceCount())
    return api.fail(ACL_ERROR_INVALID_PARAM, "device {} does not exist", deviceId);
  *errorInfo = aclrtErrorInfo{};
  ExceptionState& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  // A timed-out wait is neither a memory, cache, core nor link error.
  errorInfo->errorType = s.lastByDevice.count(deviceId) ? ACL_RT_ERROR_OTHERS : ACL_RT_NO_ERROR;
  return api.done();
}

// A device is abnormal only after a hardware fault; npusim's task failures are software errors
// (a wait that timed out) that leave the device usable.
aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus* deviceStatus) {
  ApiCall api("aclrtQueryDeviceStatus");
  if (!api.ok()) return api.notReady();
  if (!deviceStatus) return api.fail(ACL_ERROR_INVALID_PARAM, "deviceStatus is NULL");
  if (deviceId < 0 || deviceId >= api.rt.deviceCount())
    return api.fail(ACL_ERROR_INVALID_PARAM, "device {} does not exist", deviceId);
  *deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL;
  return api.done();
}

}  // extern "C"

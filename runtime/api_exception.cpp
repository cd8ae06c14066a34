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
#include "runtime/kernel_exec.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;

namespace {

struct ExceptionState {
  std::mutex mu;
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
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.undelivered.empty()) return;
    todo.swap(s.undelivered);
  }
  for (rtExceptionInfo& info : todo) kernels::runCallbacks(info);
}

}  // namespace npusim::rt

extern "C" {

// The failing tasks npusim produces are runtime tasks, not kernels: no arguments, no function.
aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo* info, void** devArgsPtr,
                                       uint32_t* devArgsLen) {
  ApiCall api("aclrtGetArgsFromExceptionInfo");
  if (!info || !devArgsPtr || !devArgsLen) return api.fail(ACL_ERROR_INVALID_PARAM, "an argument is NULL");
  *devArgsPtr = nullptr;
  *devArgsLen = 0;
  return api.done();
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

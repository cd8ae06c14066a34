// ACL entry points: exception-info callbacks and their accessors, aclrtGetErrorVerbose and
// aclrtQueryDeviceStatus. The failures come from tasks the device could not complete (a notify
// or value wait that timed out, a kernel that faulted, a kernel stopped by the host); see
// runtime/exceptions.h.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "models/sched/hw_stream.h"
#include "models/sched/model_graph.h"
#include "models/sched/task.h"
#include "runtime/exceptions.h"
#include "runtime/kernel_exec.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;

namespace {

struct ExceptionState {
  std::mutex mu;
  std::vector<rtExceptionInfo> undelivered;
  // The first unreported failure of each stream: its code and, for a kernel fault, what happened.
  std::map<const npusim::sched::HwStream*, std::pair<int32_t, std::string>> streamErrors;
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
  std::string why;
  if (t.kind == sched::TaskKind::Operator && t.op) kernels::takeFault(*t.op, &why, &info.funcHandle);
  s.undelivered.push_back(info);
  s.streamErrors.emplace(t.stream, std::make_pair(t.error, std::move(why)));
  s.lastByDevice[static_cast<int>(info.deviceId)] = info;
}

void modelRunCompleted(const sched::Task& t) {
  if (!t.model) return;
  ExceptionState& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  for (const sched::ModelLane& lane : t.model->lanes) {
    auto it = s.streamErrors.find(lane.hw);
    if (it == s.streamErrors.end()) continue;
    s.streamErrors.emplace(t.stream, std::move(it->second));  // the first failure is reported
    s.streamErrors.erase(it);
  }
}

int32_t takeStreamError(const sched::HwStream* hw, std::string* why) {
  ExceptionState& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.streamErrors.find(hw);
  if (it == s.streamErrors.end()) return 0;
  int32_t e = it->second.first;
  std::string what = it->second.second.empty()
                         ? fmt::format("a task on stream {} failed on the device (error {})", hw->id, e)
                         : fmt::format("{} (stream {}, error {})", it->second.second, hw->id, e);
  const bool kernelFault = !it->second.second.empty();
  s.streamErrors.erase(it);
  if (kernelFault) std::fprintf(stderr, "npusim: %s\n", what.c_str());  // as the device log shows it
  if (why) *why = std::move(what);
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
  for (rtExceptionInfo& info : todo) {
    kernels::runCallbacks(info);
    if (info.funcHandle) kernels::runBinaryCallback(info);
  }
}

}  // namespace npusim::rt

extern "C" {

// npusim keeps no copy of a failed kernel's arguments on the device: none are reported (the
// function handle is, through aclrtGetFuncHandleFromExceptionInfo).
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
  // A kernel's fault is an AI-core error; a timed-out wait is neither a memory, cache, core nor link one.
  auto last = s.lastByDevice.find(deviceId);
  if (last == s.lastByDevice.end())
    errorInfo->errorType = ACL_RT_NO_ERROR;
  else
    errorInfo->errorType = last->second.funcHandle ||
                                   last->second.errorCode == ACL_ERROR_RT_VECTOR_CORE_EXCEPTION ||
                                   last->second.errorCode == ACL_ERROR_RT_AICORE_EXCEPTION
                               ? ACL_RT_ERROR_AICORE
                               : ACL_RT_ERROR_OTHERS;
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

// Errors and exceptions, from the documented behaviour: a task that fails on the device reaches
// the registered exception callbacks with its task, stream, thread, device and error code; the
// stream's next synchronisation returns the error; a stop-on-failure stream skips what follows.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "tests/runtime_surface/surface_test_util.h"

using npusim::test::configure;

namespace {
struct Seen {
  uint32_t task, stream, thread, device, code;
};
std::vector<Seen> seen;
void onException(aclrtExceptionInfo* info) {
  seen.push_back({aclrtGetTaskIdFromExceptionInfo(info), aclrtGetStreamIdFromExceptionInfo(info),
                  aclrtGetThreadIdFromExceptionInfo(info), aclrtGetDeviceIdFromExceptionInfo(info),
                  aclrtGetErrorCodeFromExceptionInfo(info)});
}
int otherCalls = 0;
void other(aclrtExceptionInfo*) { ++otherCalls; }

// Launches a notify wait that can only time out (nobody records the notify).
void failingWait(aclrtStream s, uint32_t ms) {
  aclrtNotify n;
  ASSERT_EQ(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtWaitAndResetNotify(n, s, ms), ACL_SUCCESS);
}
}  // namespace

TEST(Exceptions, CallbackGetsTheFailedTask) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(2), ACL_SUCCESS);
  EXPECT_EQ(aclrtExceptionInfoCallbackRegister(nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtExceptionInfoCallbackRegister(onException), ACL_SUCCESS);
  ASSERT_EQ(aclrtExceptionInfoCallbackRegister(other), ACL_SUCCESS);
  aclrtErrorInfo ei;
  ASSERT_EQ(aclrtGetErrorVerbose(2, &ei), ACL_SUCCESS);
  EXPECT_EQ(ei.errorType, ACL_RT_NO_ERROR);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  int32_t sid = -1;
  ASSERT_EQ(aclrtStreamGetId(s, &sid), ACL_SUCCESS);
  failingWait(s, 1);
  EXPECT_TRUE(seen.empty());  // nothing has failed yet at the host's time
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_WAIT_TIMEOUT);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].stream, static_cast<uint32_t>(sid));
  EXPECT_EQ(seen[0].device, 2u);
  EXPECT_EQ(seen[0].thread, 0u);  // the main thread
  EXPECT_EQ(seen[0].code, static_cast<uint32_t>(ACL_ERROR_RT_WAIT_TIMEOUT));
  EXPECT_GT(seen[0].task, 0u);
  EXPECT_EQ(otherCalls, 1);
  ASSERT_EQ(aclrtGetErrorVerbose(2, &ei), ACL_SUCCESS);
  EXPECT_EQ(ei.errorType, ACL_RT_ERROR_OTHERS);
  aclrtDeviceStatus st = ACL_RT_DEVICE_STATUS_END;
  ASSERT_EQ(aclrtQueryDeviceStatus(2, &st), ACL_SUCCESS);
  EXPECT_EQ(st, ACL_RT_DEVICE_STATUS_NORMAL);  // a timed-out wait leaves the device usable
  EXPECT_EQ(aclrtQueryDeviceStatus(99, &st), ACL_ERROR_INVALID_PARAM);

  // Unregistered callbacks are no longer called.
  ASSERT_EQ(aclrtExceptionInfoCallbackUnregister(other), ACL_SUCCESS);
  EXPECT_EQ(aclrtExceptionInfoCallbackUnregister(other), ACL_ERROR_INVALID_PARAM);
  failingWait(s, 1);
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_WAIT_TIMEOUT);
  EXPECT_EQ(seen.size(), 2u);
  EXPECT_EQ(otherCalls, 1);
  EXPECT_GT(seen[1].task, seen[0].task);

  void* args = nullptr;
  uint32_t len = 0;
  EXPECT_EQ(aclrtGetArgsFromExceptionInfo(nullptr, &args, &len), ACL_ERROR_INVALID_PARAM);
}

TEST(Exceptions, StopOnFailureSkipsLaterTasks) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* words;
  ASSERT_EQ(aclrtMalloc(&words, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(words, 64, 0, 64), ACL_SUCCESS);
  aclrtStream cont, stop;
  ASSERT_EQ(aclrtCreateStream(&cont), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&stop), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetStreamFailureMode(stop, 5), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtSetStreamFailureMode(stop, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
  auto* w = static_cast<uint64_t*>(words);
  failingWait(cont, 1);
  ASSERT_EQ(aclrtValueWrite(w, 7, 0, cont), ACL_SUCCESS);
  failingWait(stop, 1);
  ASSERT_EQ(aclrtValueWrite(w + 1, 7, 0, stop), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(cont), ACL_ERROR_RT_WAIT_TIMEOUT);
  EXPECT_EQ(aclrtSynchronizeStream(stop), ACL_ERROR_RT_WAIT_TIMEOUT);
  uint64_t got[2] = {1, 1};
  ASSERT_EQ(aclrtMemcpy(got, 16, words, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(got[0], 7u);  // continue-on-failure: the write after the failure ran
  EXPECT_EQ(got[1], 0u);  // stop-on-failure: skipped
}

TEST(Exceptions, AbortDiscardsQueuedTasks) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* words;
  ASSERT_EQ(aclrtMalloc(&words, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(words, 64, 0, 64), ACL_SUCCESS);
  auto* w = static_cast<uint64_t*>(words);
  aclrtStream s, other;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  ASSERT_EQ(aclrtValueWait(w, 1, ACL_STREAM_WAIT_VALUE_EQ, s), ACL_SUCCESS);  // blocks s
  ASSERT_EQ(aclrtValueWrite(w + 1, 7, 0, s), ACL_SUCCESS);                    // queued behind it
  ASSERT_EQ(aclrtStreamAbort(s), ACL_SUCCESS);
  ASSERT_EQ(aclrtValueWrite(w + 2, 9, 0, s), ACL_SUCCESS);  // issued after the abort: runs
  ASSERT_EQ(aclrtValueWrite(w, 1, 0, other), ACL_SUCCESS);  // releases the running wait
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  uint64_t got[3] = {5, 5, 5};
  ASSERT_EQ(aclrtMemcpy(got, 24, words, 24, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(got[1], 0u);
  EXPECT_EQ(got[2], 9u);
  ASSERT_EQ(aclrtStreamStop(s), ACL_SUCCESS);  // everything later is skipped
  ASSERT_EQ(aclrtValueWrite(w + 2, 11, 0, s), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s),
            ACL_ERROR_RT_INTERNAL_ERROR);  // a stopped stream, as in the CANN sample
  ASSERT_EQ(aclrtMemcpy(got, 24, words, 24, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(got[2], 9u);
}

// Kernel faults and stream failure modes, from the documented behaviour and the CANN samples
// (stream/1_stream_with_failure_mode, callback/2_callback_exception): a kernel that traps fails
// its task with ACL_ERROR_RT_VECTOR_CORE_EXCEPTION; a continue-on-failure stream runs what
// follows, a stop-on-failure stream skips it; the exception callbacks get the failed task's ids;
// aclrtStreamAbort stops the running kernel (reported as a vector-core exception) and discards
// what is queued; after aclrtStreamStop a synchronisation reports ACL_ERROR_RT_INTERNAL_ERROR.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_scale_buffers.h"
#include "tests/aicore/aicore_test_util.h"

uint32_t LaunchTrap(void* stream);
uint32_t LaunchCount(void* stream, uint32_t* x);

using aicore_test::Session;

namespace {

struct Seen {
  uint32_t task, stream, thread, device, code;
};
std::vector<Seen> gSeen;
void onException(aclrtExceptionInfo* info) {
  gSeen.push_back({aclrtGetTaskIdFromExceptionInfo(info), aclrtGetStreamIdFromExceptionInfo(info),
                   aclrtGetThreadIdFromExceptionInfo(info), aclrtGetDeviceIdFromExceptionInfo(info),
                   aclrtGetErrorCodeFromExceptionInfo(info)});
}

// One device counter, zeroed.
struct Counter {
  uint32_t* dev = nullptr;
  Counter() {
    EXPECT_EQ(aclrtMalloc(reinterpret_cast<void**>(&dev), 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(dev, 64, 0, 64), ACL_SUCCESS);
  }
  ~Counter() { aclrtFree(dev); }
  uint32_t read() const {
    uint32_t v = 99;
    EXPECT_EQ(aclrtMemcpy(&v, 4, dev, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return v;
  }
};

// A kernel that keeps one vector core busy for a few simulated milliseconds (repeated Muls on one
// tile), and its device time measured with events.
struct LongKernel {
  static constexpr uint32_t kTile = 1024, kPasses = 1000000;
  void *x = nullptr, *z = nullptr;
  LongKernel() {
    EXPECT_EQ(aclrtMalloc(&x, kTile * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&z, kTile * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(x, kTile * 4, 0, kTile * 4), ACL_SUCCESS);
  }
  ~LongKernel() {
    aclrtFree(x);
    aclrtFree(z);
  }
  void launch(aclrtStream s) {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_scale_buffers)(1, s, x, z, kTile, kTile, 1, kPasses), 0u);
  }
  double deviceMs(aclrtStream s) {
    aclrtEvent a = nullptr, b = nullptr;
    EXPECT_EQ(aclrtCreateEvent(&a), ACL_SUCCESS);
    EXPECT_EQ(aclrtCreateEvent(&b), ACL_SUCCESS);
    EXPECT_EQ(aclrtRecordEvent(a, s), ACL_SUCCESS);
    launch(s);
    EXPECT_EQ(aclrtRecordEvent(b, s), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    float ms = 0;
    EXPECT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_SUCCESS);
    aclrtDestroyEvent(a);
    aclrtDestroyEvent(b);
    return ms;
  }
};

}  // namespace

TEST(FailureMode, ContinueOnFailureRunsWhatFollowsAndReportsTheTrap) {
  Session s;
  gSeen.clear();
  ASSERT_EQ(aclrtSetExceptionInfoCallback(onException), ACL_SUCCESS);
  Counter c;
  int32_t sid = -1;
  ASSERT_EQ(aclrtStreamGetId(s.stream, &sid), ACL_SUCCESS);
  ASSERT_EQ(LaunchCount(s.stream, c.dev), 0u);
  ASSERT_EQ(LaunchTrap(s.stream), 0u);
  uint32_t trapTask = 0;
  ASSERT_EQ(aclrtGetThreadLastTaskId(&trapTask), ACL_SUCCESS);
  ASSERT_EQ(LaunchCount(s.stream, c.dev), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("k_trap (block 0)"), std::string::npos);
  EXPECT_EQ(c.read(), 2u);  // both counting kernels ran
  ASSERT_EQ(gSeen.size(), 1u);
  EXPECT_EQ(gSeen[0].task, trapTask);  // the id aclrtGetThreadLastTaskId gave for the trap's launch
  EXPECT_EQ(gSeen[0].stream, static_cast<uint32_t>(sid));
  EXPECT_EQ(gSeen[0].thread, 0u);
  EXPECT_EQ(gSeen[0].device, 0u);
  EXPECT_EQ(gSeen[0].code, static_cast<uint32_t>(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION));
  // Reported once: the stream keeps working.
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
}

TEST(FailureMode, StopOnFailureSkipsWhatFollows) {
  Session s;
  Counter c;
  // First a failure in the default continue mode (the CANN sample's order): it does not stop the
  // stream once the mode changes.
  ASSERT_EQ(LaunchTrap(s.stream), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  ASSERT_EQ(aclrtSetStreamFailureMode(s.stream, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
  ASSERT_EQ(LaunchCount(s.stream, c.dev), 0u);
  ASSERT_EQ(LaunchTrap(s.stream), 0u);
  ASSERT_EQ(LaunchCount(s.stream, c.dev), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(c.read(), 1u);  // the kernel after the trap did not run
  // The default stream takes a failure mode too (the CANN reference allows NULL on A2).
  EXPECT_EQ(aclrtSetStreamFailureMode(nullptr, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
}

TEST(FailureMode, AbortStopsTheRunningKernelAndDiscardsTheQueue) {
  Session s;
  Counter c;
  LongKernel k;
  const double ms = k.deviceMs(s.stream);
  std::printf("long kernel: %.3f ms\n", ms);
  ASSERT_GT(ms, 3.0);
  k.launch(s.stream);
  ASSERT_EQ(LaunchCount(s.stream, c.dev), 0u);  // queued behind it
  // The host waits 1 ms: the long kernel is running then.
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(s.stream, 1), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  ASSERT_EQ(aclrtStreamAbort(s.stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(c.read(), 0u);  // discarded
  // Usable again; an abort with nothing running discards nothing and reports nothing.
  ASSERT_EQ(LaunchCount(s.stream, c.dev), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamAbort(s.stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  EXPECT_EQ(c.read(), 1u);
}

// The abort is a command the host submits (launch cost, then the doorbell): a kernel launched just
// before it has started on the device by the time it arrives, so it is stopped, not discarded (the
// stream/1_stream_with_failure_mode sample's abort demo shows 507035).
TEST(FailureMode, AbortRightAfterTheLaunchStopsTheKernelThatHasStarted) {
  Session s;
  LongKernel k;
  k.launch(s.stream);
  ASSERT_EQ(aclrtStreamAbort(s.stream), ACL_SUCCESS);  // the very next call
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
}

TEST(FailureMode, StopThenSynchroniseReportsInternalError) {
  Session s;
  Counter c;
  LongKernel k;
  aclrtStream st = nullptr;
  ASSERT_EQ(aclrtCreateStreamWithConfig(&st, 0, ACL_STREAM_DEVICE_USE_ONLY), ACL_SUCCESS);
  k.launch(st);
  ASSERT_EQ(LaunchCount(st, c.dev), 0u);
  ASSERT_EQ(aclrtStreamStop(st), ACL_SUCCESS);
  ASSERT_EQ(LaunchCount(st, c.dev), 0u);  // accepted, never runs
  EXPECT_EQ(aclrtSynchronizeStream(st), ACL_ERROR_RT_INTERNAL_ERROR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclrtStreamStop"), std::string::npos);
  EXPECT_EQ(aclrtSynchronizeStream(st), ACL_ERROR_RT_INTERNAL_ERROR);  // until it is destroyed
  EXPECT_EQ(c.read(), 0u);
  EXPECT_EQ(aclrtDestroyStreamForce(st), ACL_SUCCESS);
}

// The callback/2_callback_exception sample's flow: a stop-on-failure stream served by a report
// thread; the trap skips the blocking callback behind it, the exception callback runs, the
// synchronisation fails, and the report thread (which keeps polling) is no deadlock.
TEST(FailureMode, TrapSkipsTheBlockingCallbackBehindIt) {
  testing::internal::CaptureStderr();
  Session s;
  Counter c;
  ASSERT_EQ(aclrtSetStreamFailureMode(s.stream, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
  std::atomic<bool> loop{true};
  aclrtContext ctx = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
  std::thread reporter([&] {
    aclrtSetCurrentContext(ctx);
    while (loop) aclrtProcessReport(100);
  });
  std::ostringstream id;
  id << reporter.get_id();
  const uint64_t tid = std::stoull(id.str());
  ASSERT_EQ(aclrtSubscribeReport(tid, s.stream), ACL_SUCCESS);
  gSeen.clear();
  ASSERT_EQ(aclrtSetExceptionInfoCallback(onException), ACL_SUCCESS);
  static int callbacks = 0;
  ASSERT_EQ(LaunchCount(s.stream, c.dev), 0u);
  ASSERT_EQ(LaunchTrap(s.stream), 0u);
  uint32_t trapTask = 0;
  ASSERT_EQ(aclrtGetThreadLastTaskId(&trapTask), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback([](void*) { ++callbacks; }, nullptr, ACL_CALLBACK_BLOCK, s.stream),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(callbacks, 0);
  ASSERT_EQ(gSeen.size(), 1u);
  EXPECT_EQ(gSeen[0].task, trapTask);
  EXPECT_EQ(c.read(), 1u);
  loop = false;
  reporter.join();
  EXPECT_EQ(aclrtUnSubscribeReport(tid, s.stream), ACL_SUCCESS);
  // The kernel launches wait their turn without holding the runtime, so the report thread's first
  // call is never held back until it is taken for idle.
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.find("treating it as idle"), std::string::npos) << err;
}

// Object misuse checks (docs/checks.md): streams and events used after destruction, work left
// on streams at aclrtResetDevice/aclFinalize, and deadlocked synchronisations.
#include <gtest/gtest.h>

#include <chrono>

#include "acl/acl.h"
#include "tests/checks/check_test_util.h"

using npusim::test::configureChecks;
using npusim::test::contains;
using npusim::test::findingsOf;
using npusim::test::openDevice;
using npusim::test::readStats;
using npusim::test::recentError;
using npusim::test::stderrOf;

namespace {
constexpr aclrtMemMallocPolicy kHuge = ACL_MEM_MALLOC_HUGE_FIRST;
}  // namespace

TEST(ObjectChecks, StreamUsedAfterDestruction) {
  std::string stats = configureChecks("");
  void *d = nullptr, *h = nullptr;
  ASSERT_TRUE(openDevice(4096, &d, &h));
  aclrtStream s = nullptr, kept = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&kept), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  std::string err = stderrOf([&] {
    EXPECT_EQ(aclrtMemcpyAsync(d, 4096, h, 64, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID);
  });
  EXPECT_TRUE(contains(err, "npusim: error [stale_stream] aclrtMemcpyAsync(stream=0x")) << err;
  EXPECT_TRUE(contains(err, "is not a live stream: it was destroyed by aclrtDestroyStream")) << err;
  EXPECT_TRUE(contains(recentError(), "destroyed by aclrtDestroyStream"));
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtDestroyStream(s), ACL_ERROR_RT_PARAM_INVALID);
  // A handle that never was a stream.
  err = stderrOf([&] {
    EXPECT_EQ(aclrtSynchronizeStream(reinterpret_cast<aclrtStream>(0x1234)), ACL_ERROR_RT_PARAM_INVALID);
  });
  EXPECT_TRUE(contains(err, "stream 0x1234 is not a live stream (destroyed or never created)")) << err;
  // Streams of the default context die with aclrtResetDevice.
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  err = stderrOf([&] { EXPECT_EQ(aclrtSynchronizeStream(kept), ACL_ERROR_RT_PARAM_INVALID); });
  EXPECT_TRUE(contains(err, "it was destroyed by aclrtResetDevice")) << err;
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  nlohmann::json stale = findingsOf(readStats(stats), "stale_stream");
  ASSERT_EQ(stale.size(), 5u);
  EXPECT_EQ(stale[0]["call"], "aclrtMemcpyAsync");
  EXPECT_EQ(stale[1]["call"], "aclrtSynchronizeStream");
  EXPECT_EQ(stale[2]["call"], "aclrtDestroyStream");
  EXPECT_EQ(stale[0]["severity"], "error");
}

TEST(ObjectChecks, EventUsedAfterDestruction) {
  configureChecks("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtEvent e = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&e), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
  std::string err = stderrOf([&] { EXPECT_EQ(aclrtRecordEvent(e, nullptr), ACL_ERROR_INVALID_PARAM); });
  EXPECT_TRUE(contains(err, "npusim: error [stale_event] aclrtRecordEvent(event=0x")) << err;
  EXPECT_TRUE(contains(err, "is not a live event: it was destroyed by aclrtDestroyEvent")) << err;
  err = stderrOf([&] {
    EXPECT_EQ(aclrtSynchronizeEvent(e), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtStreamWaitEvent(nullptr, e), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtDestroyEvent(e), ACL_ERROR_INVALID_PARAM);
  });
  EXPECT_TRUE(contains(err, "[stale_event] aclrtSynchronizeEvent(")) << err;
  EXPECT_TRUE(contains(err, "[stale_event] aclrtStreamWaitEvent(")) << err;
  EXPECT_TRUE(contains(err, "[stale_event] aclrtDestroyEvent(")) << err;
  // NULL is an argument error, not a stale handle.
  EXPECT_EQ(stderrOf([&] { EXPECT_EQ(aclrtRecordEvent(nullptr, nullptr), ACL_ERROR_INVALID_PARAM); }), "");
}

TEST(ObjectChecks, WorkLeftAtResetDeviceIsAWarning) {
  std::string stats = configureChecks("");
  const size_t bytes = 16u << 20;
  void *d = nullptr, *h = nullptr;
  aclrtStream s = nullptr;
  ASSERT_TRUE(openDevice(bytes, &d, &h, &s));
  ASSERT_EQ(aclrtMemcpyAsync(d, bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(h, bytes, d, bytes, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
  std::string err = stderrOf([&] { EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS); });
  EXPECT_TRUE(contains(err,
                       "npusim: warning [work_left] aclrtResetDevice(deviceId=0): device 0 is reset while "
                       "its streams still have work (NPU 0 stream 1: 2 unfinished task(s), first task #1 "
                       "'Memcpy H2D')"))
      << err;
  // The reset waited for the work, as the real runtime does; a synchronised program is quiet.
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&d, bytes, kHuge), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(d, bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_EQ(stderrOf([&] { EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS); }), "");
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  nlohmann::json left = findingsOf(readStats(stats), "work_left");
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0]["severity"], "warning");
  EXPECT_EQ(left[0]["args"], "deviceId=0");
}

TEST(ObjectChecks, WorkLeftAtFinalizeIsAWarning) {
  configureChecks("");
  void *d = nullptr, *h = nullptr;
  ASSERT_TRUE(openDevice(1u << 20, &d, &h));
  ASSERT_EQ(aclrtMemcpyAsync(d, 1u << 20, h, 1u << 20, ACL_MEMCPY_HOST_TO_DEVICE, nullptr), ACL_SUCCESS);
  std::string err = stderrOf([&] { EXPECT_EQ(aclFinalize(), ACL_SUCCESS); });
  EXPECT_TRUE(contains(err,
                       "npusim: warning [work_left] aclFinalize(): aclFinalize is called while streams still "
                       "have work (NPU 0 stream 0: 1 unfinished task(s), first task #1 'Memcpy H2D')"))
      << err;
}

TEST(ObjectChecks, DeadlockIsReportedWithTheWaitingTaskNotAHang) {
  std::string stats = configureChecks("");
  void *d = nullptr, *h = nullptr;
  aclrtStream s = nullptr;
  ASSERT_TRUE(openDevice(4096, &d, &h, &s));
  aclrtEvent never = nullptr, after = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&never), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&after), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(s, never), ACL_SUCCESS);  // nobody ever records `never`
  ASSERT_EQ(aclrtMemcpyAsync(d, 4096, h, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(after, s), ACL_SUCCESS);
  auto t0 = std::chrono::steady_clock::now();
  std::string err = stderrOf([&] { EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT); });
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  EXPECT_TRUE(contains(err,
                       "npusim: deadlock: the host waits for NPU 0 stream 1 but no device work can "
                       "progress."))
      << err;
  EXPECT_TRUE(contains(err,
                       "NPU 0 stream 1: task #1 'EventWait' blocked waiting for an event record that was "
                       "never issued (3 tasks queued)"))
      << err;
  EXPECT_TRUE(contains(recentError(), "deadlock"));
  // Waiting for an event recorded behind the blocked wait is the same deadlock.
  err = stderrOf([&] { EXPECT_EQ(aclrtSynchronizeEvent(after), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT); });
  EXPECT_TRUE(contains(err, "npusim: error [deadlock] aclrtSynchronizeEvent(): the host waits for event 0x"))
      << err;
  EXPECT_TRUE(contains(err, "task #1 'EventWait' blocked")) << err;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  // Recording the event now releases the stream.
  ASSERT_EQ(aclrtRecordEvent(never, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  nlohmann::json dl = findingsOf(readStats(stats), "deadlock");
  ASSERT_EQ(dl.size(), 2u);
  EXPECT_EQ(dl[0]["call"], "aclrtSynchronizeStream");
  EXPECT_TRUE(contains(dl[0]["message"].get<std::string>(), "task #1 'EventWait' blocked"));
}

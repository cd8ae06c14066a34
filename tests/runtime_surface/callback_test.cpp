// Host callbacks, from the documented behaviour: a callback runs on the thread subscribed to its
// stream, inside aclrtProcessReport; a blocking callback holds the stream's later tasks until it
// has run; a host function blocks its stream and runs without any subscription.
#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <thread>

#include "acl/acl.h"
#include "tests/runtime_surface/surface_test_util.h"

using npusim::test::configure;

namespace {
std::atomic<int> ran{0};
pthread_t ranOn;
void callback(void* data) {
  ranOn = pthread_self();
  ran += *static_cast<int*>(data);
}
}  // namespace

TEST(Callbacks, ReportRunsOnTheSubscribedThread) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  int one = 1;
  EXPECT_EQ(aclrtLaunchCallback(callback, &one, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_STREAM_NO_CB_REG);
  EXPECT_EQ(aclrtProcessReport(100), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  std::atomic<bool> stop{false};
  std::thread worker([&] {
    while (!stop) aclrtProcessReport(10);
  });
  uint64_t tid = static_cast<uint64_t>(worker.native_handle());
  ASSERT_EQ(aclrtSubscribeReport(tid, s), ACL_SUCCESS);
  EXPECT_EQ(aclrtSubscribeReport(tid + 1, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
  ASSERT_EQ(aclrtLaunchCallback(callback, &one, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
  aclrtEvent after;
  ASSERT_EQ(aclrtCreateEvent(&after), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(after, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_EQ(ran.load(), 1);  // the blocking callback ran before the stream could finish
  EXPECT_TRUE(pthread_equal(ranOn, worker.native_handle()));
  ASSERT_EQ(aclrtUnSubscribeReport(tid, s), ACL_SUCCESS);
  EXPECT_EQ(aclrtUnSubscribeReport(tid, s), ACL_ERROR_RT_STREAM_NO_CB_REG);
  stop = true;
  worker.join();
}

TEST(Callbacks, HostFuncBlocksTheStream) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  int two = 2;
  aclrtEvent a, b;
  ASSERT_EQ(aclrtCreateEvent(&a), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&b), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(a, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchHostFunc(s, callback, &two), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(b, s), ACL_SUCCESS);
  EXPECT_EQ(ran.load(), 0);  // nothing runs before the device reaches it
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_EQ(ran.load(), 2);
  float ms = 0;
  ASSERT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_SUCCESS);
  // The round trip (report, wake-up, doorbell) separates the two records: microseconds, not zero.
  EXPECT_GT(ms, 0.001f);
  EXPECT_LT(ms, 0.1f);
  EXPECT_EQ(aclrtLaunchHostFunc(s, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
}

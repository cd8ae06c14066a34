// Synchronisation objects, from the documented behaviour: a notify wait blocks its stream until a
// record on another stream (and consumes the record); value waits release when the word
// satisfies the comparison; event record/wait flags; event timestamps on the 50 MHz counter.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "tests/runtime_surface/surface_test_util.h"

using npusim::test::configure;

TEST(SyncObjects, NotifyWaitReleasedByRecordOnAnotherStream) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream waiter, producer;
  ASSERT_EQ(aclrtCreateStream(&waiter), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&producer), ACL_SUCCESS);
  aclrtNotify n;
  ASSERT_EQ(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
  const size_t bytes = 64u << 20;
  void *host, *dev;
  ASSERT_EQ(aclrtMallocHost(&host, bytes), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtEvent copied, released;
  ASSERT_EQ(aclrtCreateEvent(&copied), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&released), ACL_SUCCESS);
  // The wait is issued first; the record follows a 64 MiB copy on the other stream.
  ASSERT_EQ(aclrtWaitAndResetNotify(n, waiter, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(released, waiter), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, producer), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(copied, producer), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordNotify(n, producer), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(waiter), ACL_SUCCESS);
  uint64_t tCopied = 0, tReleased = 0;
  ASSERT_EQ(aclrtEventGetTimestamp(copied, &tCopied), ACL_SUCCESS);
  ASSERT_EQ(aclrtEventGetTimestamp(released, &tReleased), ACL_SUCCESS);
  // 64 MiB over Gen4 x16 takes ~2.8 ms = ~140,000 ticks of 20 ns; the waiter is released after it.
  EXPECT_GT(tCopied, 100000u);
  EXPECT_GE(tReleased, tCopied);
  EXPECT_LT(tReleased - tCopied, 50u);  // within 1 us: dispatch of the record, then of the wait's end

  // The wait consumed the record: a second wait with a 1 ms timeout fails on the device.
  ASSERT_EQ(aclrtWaitAndResetNotify(n, waiter, 1), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(waiter), ACL_ERROR_RT_WAIT_TIMEOUT);
  EXPECT_EQ(aclrtSynchronizeStream(waiter), ACL_SUCCESS);  // reported once
  EXPECT_EQ(aclrtDestroyNotify(n), ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordNotify(n, producer), ACL_ERROR_INVALID_PARAM);
}

TEST(SyncObjects, NotifyArgumentsAndIds) {
  configure("");
  aclrtNotify a, b;
  EXPECT_EQ(aclrtCreateNotify(&a, 0), ACL_ERROR_RT_CONTEXT_NULL);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  EXPECT_EQ(aclrtCreateNotify(nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCreateNotify(&a, 1), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtCreateNotify(&a, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateNotify(&b, 0), ACL_SUCCESS);
  uint32_t ia = 99, ib = 99;
  ASSERT_EQ(aclrtGetNotifyId(a, &ia), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetNotifyId(b, &ib), ACL_SUCCESS);
  EXPECT_EQ(ia, 0u);
  EXPECT_EQ(ib, 1u);
  EXPECT_EQ(aclrtGetNotifyId(a, nullptr), ACL_ERROR_INVALID_PARAM);
  // A host-side batch reset clears a recorded flag: the next wait times out.
  ASSERT_EQ(aclrtRecordNotify(a, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  aclrtNotify both[] = {a, b};
  ASSERT_EQ(aclrtNotifyBatchReset(both, 2), ACL_SUCCESS);
  ASSERT_EQ(aclrtWaitAndResetNotify(a, nullptr, 2), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_WAIT_TIMEOUT);
  // The timeout is simulated time: 2 ms of it passed on the host clock.
  EXPECT_GE(npusimHostTimeNs(), 2e6);
}

TEST(SyncObjects, ValueWaitReleasedByValueWrite) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream waiter, writer;
  ASSERT_EQ(aclrtCreateStream(&waiter), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&writer), ACL_SUCCESS);
  void* flag;
  ASSERT_EQ(aclrtMalloc(&flag, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(flag, 64, 0, 64), ACL_SUCCESS);
  const size_t bytes = 16u << 20;
  void *host, *dev;
  ASSERT_EQ(aclrtMallocHost(&host, bytes), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtEvent written, released;
  ASSERT_EQ(aclrtCreateEvent(&written), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&released), ACL_SUCCESS);
  EXPECT_EQ(aclrtValueWait(flag, 5, 7, waiter), ACL_ERROR_INVALID_PARAM);  // unknown comparison
  EXPECT_EQ(aclrtValueWait(static_cast<char*>(flag) + 4, 5, 0, waiter),
            ACL_ERROR_INVALID_PARAM);                                       // unaligned
  EXPECT_EQ(aclrtValueWrite(host, 5, 0, writer), ACL_ERROR_INVALID_PARAM);  // not device memory
  ASSERT_EQ(aclrtValueWait(flag, 5, ACL_STREAM_WAIT_VALUE_GEQ, waiter), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(released, waiter), ACL_SUCCESS);
  ASSERT_EQ(aclrtValueWrite(flag, 4, 0, writer), ACL_SUCCESS);  // 4 < 5: not yet
  ASSERT_EQ(aclrtMemcpyAsync(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, writer), ACL_SUCCESS);
  ASSERT_EQ(aclrtValueWrite(flag, 6, 0, writer), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(written, writer), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(waiter), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(writer), ACL_SUCCESS);
  uint64_t tWritten = 0, tReleased = 0;
  ASSERT_EQ(aclrtEventGetTimestamp(written, &tWritten), ACL_SUCCESS);
  ASSERT_EQ(aclrtEventGetTimestamp(released, &tReleased), ACL_SUCCESS);
  EXPECT_GT(tWritten, 20000u);  // behind the 16 MiB copy (~0.7 ms)
  EXPECT_LT(tReleased > tWritten ? tReleased - tWritten : tWritten - tReleased, 50u);
  uint64_t word = 0;
  ASSERT_EQ(aclrtMemcpy(&word, 8, flag, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(word, 6u);
}

TEST(SyncObjects, ValueWaitComparisons) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* w;
  ASSERT_EQ(aclrtMalloc(&w, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  uint64_t v = 0b1010;
  ASSERT_EQ(aclrtMemcpy(w, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  // Each of these holds for 0b1010 and so passes at once.
  EXPECT_EQ(aclrtValueWait(w, 0b1010, ACL_STREAM_WAIT_VALUE_EQ, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtValueWait(w, 0b0010, ACL_STREAM_WAIT_VALUE_AND, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtValueWait(w, 3, ACL_STREAM_WAIT_VALUE_GEQ, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtValueWait(w, 0b0101, ACL_STREAM_WAIT_VALUE_NOR, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  // EQ with another value never holds: the stream can never finish.
  EXPECT_EQ(aclrtValueWait(w, 11, ACL_STREAM_WAIT_VALUE_EQ, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, 5), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
}

TEST(SyncObjects, EventFlagsAndTimestamps) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtEvent a, b;
  ASSERT_EQ(aclrtCreateEvent(&a), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&b), ACL_SUCCESS);
  uint64_t ts = 0;
  EXPECT_EQ(aclrtEventGetTimestamp(a, &ts), ACL_ERROR_RT_EVENT_NOT_COMPLETE);
  EXPECT_EQ(aclrtEventGetTimestamp(a, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtRecordEventWithFlag(a, nullptr, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtStreamWaitEventWithFlag(nullptr, a, 5, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtStreamWaitEventWithFlag(nullptr, a, 0, 9), ACL_ERROR_INVALID_PARAM);
  const size_t bytes = 32u << 20;
  void *host, *dev;
  ASSERT_EQ(aclrtMallocHost(&host, bytes), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEventWithFlag(a, s, ACL_EVENT_RECORD_DEFAULT), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEventWithFlag(b, s, ACL_EVENT_RECORD_DEFAULT), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEventWithFlag(nullptr, b, 0, ACL_EVENT_WAIT_DEFAULT), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);  // the default stream waited for b
  uint64_t ta = 0, tb = 0;
  ASSERT_EQ(aclrtEventGetTimestamp(a, &ta), ACL_SUCCESS);
  ASSERT_EQ(aclrtEventGetTimestamp(b, &tb), ACL_SUCCESS);
  float ms = 0;
  ASSERT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_SUCCESS);
  // The counter ticks every 20 ns: the difference in ticks is the elapsed time.
  EXPECT_NEAR(static_cast<double>(tb - ta) * 20e-6, ms, 1e-3);
  EXPECT_GT(ms, 1.0);  // 32 MiB at ~23.5 GB/s
}

// Batches of copies (aclrtMemcpyBatch*) move each pair as the single copy would, name the first
// copy that fails, and check their attribute ranges; cache maintenance (aclrtCmoAsync) is a stream
// task costing the range's bytes at the SDMA rate (an invalidate: its dispatch only).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "tests/runtime_surface/surface_test_util.h"

using npusim::test::configure;

TEST(CopyBatch, EveryPairMovesAndTheFirstFailureIsNamed) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const size_t n = 4096;
  std::vector<uint8_t> a(n, 1), b(n, 2), backA(n, 0), backB(n, 0);
  void *da = nullptr, *db = nullptr;
  ASSERT_EQ(aclrtMalloc(&da, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&db, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtMemcpyBatchAttr attrs[2] = {};
  attrs[0].dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;  // copies 0, 1: host -> device
  attrs[0].srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
  attrs[1].dstLoc.type = ACL_MEM_LOCATION_TYPE_HOST;  // copies 2, 3: device -> host
  attrs[1].srcLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  size_t idx[2] = {0, 2};
  void* dsts[4] = {da, db, backA.data(), backB.data()};
  void* srcs[4] = {a.data(), b.data(), da, db};
  size_t sizes[4] = {n, n, n, n}, maxs[4] = {n, n, n, n};
  size_t fail = 0;
  ASSERT_EQ(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 4, attrs, idx, 2, &fail), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(fail, SIZE_MAX);
  EXPECT_EQ(backA, a);
  EXPECT_EQ(backB, b);

  sizes[1] = 2 * n;  // more than destMax: the whole batch is refused before any copy runs
  EXPECT_EQ(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 4, attrs, idx, 2, &fail), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(fail, SIZE_MAX);
  sizes[1] = n;
  srcs[1] = nullptr;  // copy 1 fails as aclrtMemcpy would, copy 0 already ran
  EXPECT_EQ(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 4, attrs, idx, 2, &fail), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(fail, 1u);
  srcs[1] = b.data();
  size_t badIdx[2] = {1, 2};  // must start at 0
  EXPECT_EQ(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 4, attrs, badIdx, 2, &fail), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(fail, SIZE_MAX);  // not a copy's error
  EXPECT_EQ(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 4, attrs, idx, 0, &fail), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 4, attrs, idx, 2, nullptr), ACL_ERROR_INVALID_PARAM);

  // The asynchronous batch queues pinned copies on the stream.
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  void *ph = nullptr, *pb = nullptr;
  ASSERT_EQ(aclrtMallocHost(&ph, n), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&pb, n), ACL_SUCCESS);
  std::fill_n(static_cast<uint8_t*>(ph), n, 9);
  void* adsts[2] = {da, pb};
  void* asrcs[2] = {ph, da};
  size_t asizes[2] = {n, n}, amaxs[2] = {n, n};
  ASSERT_EQ(aclrtMemcpyBatchAsync(adsts, amaxs, asrcs, asizes, 2, attrs, idx, 1, &fail, s),
            ACL_ERROR_INVALID_PARAM)
      << "copy 1 is device -> host but attrs[0] says host -> device";
  aclrtMemcpyBatchAttr both[2] = {attrs[0], attrs[1]};
  size_t aidx[2] = {0, 1};
  ASSERT_EQ(aclrtMemcpyBatchAsync(adsts, amaxs, asrcs, asizes, 2, both, aidx, 2, &fail, s), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_EQ(static_cast<uint8_t*>(pb)[n - 1], 9);
  aclrtFreeHost(ph);
  aclrtFreeHost(pb);
  aclrtFree(da);
  aclrtFree(db);
  aclrtDestroyStream(s);
}

TEST(Cmo, MaintenanceTasksTakeTheirBytesAtTheSdmaRate) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  const size_t bytes = 8u << 20;
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  auto timed = [&](aclrtCmoType t) {  // us
    return 1e3 * npusim::test::eventMs(s, [&] { ASSERT_EQ(aclrtCmoAsync(d, bytes, t, s), ACL_SUCCESS); });
  };
  const double streamUs = static_cast<double>(bytes) / 100e9 * 1e6;  // 83.9 us at 100 GB/s
  for (aclrtCmoType t : {ACL_RT_CMO_TYPE_PREFETCH, ACL_RT_CMO_TYPE_WRITEBACK, ACL_RT_CMO_TYPE_FLUSH}) {
    const double us = timed(t);
    EXPECT_GE(us, streamUs);
    EXPECT_LE(us, streamUs + 5.0);
  }
  // An invalidate moves no bytes: only the host's launch gap and the dispatch show.
  EXPECT_LT(timed(ACL_RT_CMO_TYPE_INVALID), 0.1 * streamUs);
  EXPECT_EQ(aclrtCmoAsync(d, bytes, static_cast<aclrtCmoType>(7), s), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCmoAsync(d, bytes + 4096, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_ERROR_INVALID_PARAM);
  std::vector<uint8_t> host(64);
  EXPECT_EQ(aclrtCmoAsync(host.data(), 64, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_ERROR_INVALID_PARAM);
  aclrtFree(d);
  aclrtDestroyStream(s);
}

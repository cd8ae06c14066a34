// Misuse gets a clear HcclResult, never a hang: bad arguments at the call, ranks that disagree,
// communicators used after destroy, and operations a peer never joins (HCCL_EXEC_TIMEOUT in
// simulated time, then HCCL_E_TIMEOUT from HcclGetCommAsyncError).
#include <thread>

#include "tests/hccl/hccl_test_util.h"

using npusim::test::Ranks;

TEST(HcclMisuse, BadArgumentsAreRefusedAtTheCall) {
  npusim::test::configure("");
  Ranks k(2);
  void* a = k.alloc(0, 4096);
  void* b = k.alloc(0, 4096);
  void* other = k.alloc(1, 4096);
  int host[16];
  aclrtStream s = k.streams[0];
  HcclComm c = k.comms[0];
  EXPECT_EQ(HcclAllReduce(nullptr, b, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, c, s), HCCL_E_PTR);
  EXPECT_EQ(HcclAllReduce(host, b, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, c, s), HCCL_E_PARA);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not device memory"), std::string::npos)
      << aclGetRecentErrMsg();
  EXPECT_EQ(HcclAllReduce(other, b, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, c, s), HCCL_E_PARA);
  EXPECT_EQ(HcclAllReduce(a, b, 2048, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, c, s),
            HCCL_E_PARA);  // 8 KB > 4 KB
  EXPECT_EQ(HcclAllReduce(a, b, 16, static_cast<HcclDataType>(99), HCCL_REDUCE_SUM, c, s), HCCL_E_PARA);
  EXPECT_EQ(HcclAllReduce(a, b, 16, HCCL_DATA_TYPE_FP8E4M3, HCCL_REDUCE_SUM, c, s), HCCL_E_NOT_SUPPORT);
  EXPECT_EQ(HcclAllReduce(a, b, 16, HCCL_DATA_TYPE_FP32, static_cast<HcclReduceOp>(7), c, s), HCCL_E_PARA);
  EXPECT_EQ(HcclBroadcast(a, 16, HCCL_DATA_TYPE_FP32, 2, c, s), HCCL_E_PARA);  // root out of range
  EXPECT_EQ(HcclSend(a, 16, HCCL_DATA_TYPE_FP32, 0, c, s), HCCL_E_PARA);       // to itself
  EXPECT_EQ(HcclRecv(a, 16, HCCL_DATA_TYPE_FP32, 9, c, s), HCCL_E_PARA);       // rank out of range
  EXPECT_EQ(HcclAllReduce(a, b, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, c, k.streams[1]), HCCL_E_PARA);
  EXPECT_EQ(HcclAllReduce(a, b, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, nullptr, s), HCCL_E_PTR);
  HcclComm none = nullptr;
  EXPECT_EQ(HcclCommInitClusterInfo("ranktable.json", 0, &none), HCCL_E_NOT_SUPPORT);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("rank tables"), std::string::npos);
  k.destroy();
  EXPECT_EQ(HcclAllReduce(a, b, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, c, s), HCCL_E_PARA);  // destroyed
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("destroyed"), std::string::npos);
  EXPECT_EQ(HcclCommDestroy(c), HCCL_E_PARA);
  uint32_t n = 0;
  EXPECT_EQ(HcclGetRankSize(c, &n), HCCL_E_PARA);
}

TEST(HcclMisuse, RanksThatDisagreeAreToldWhy) {
  npusim::test::configure("");
  setenv("HCCL_EXEC_TIMEOUT", "1", 1);
  Ranks k(2);
  void* a0 = k.alloc(0, 4096);
  void* a1 = k.alloc(1, 4096);
  ASSERT_EQ(HcclAllReduce(a0, a0, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, k.comms[0], k.streams[0]),
            HCCL_SUCCESS);
  EXPECT_EQ(HcclAllReduce(a1, a1, 32, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, k.comms[1], k.streams[1]),
            HCCL_E_PARA);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("same collectives in the same order"), std::string::npos)
      << aclGetRecentErrMsg();
  // Send and receive sizes must agree.
  ASSERT_EQ(HcclSend(a0, 16, HCCL_DATA_TYPE_FP32, 1, k.comms[0], k.streams[0]), HCCL_SUCCESS);
  EXPECT_EQ(HcclRecv(a1, 8, HCCL_DATA_TYPE_FP32, 0, k.comms[1], k.streams[1]), HCCL_E_PARA);
  // Rank 0's AllReduce and Send wait for rank 1 until the timeout (1 s of simulated time).
  EXPECT_NE(aclrtSynchronizeStream(k.streams[0]), ACL_SUCCESS);
  HcclResult async = HCCL_SUCCESS;
  EXPECT_EQ(HcclGetCommAsyncError(k.comms[0], &async), HCCL_SUCCESS);
  EXPECT_EQ(async, HCCL_E_TIMEOUT);
  EXPECT_EQ(HcclGetCommAsyncError(k.comms[1], &async), HCCL_SUCCESS);
  EXPECT_EQ(async, HCCL_SUCCESS);
}

TEST(HcclMisuse, CollectiveARankNeverJoinsTimesOut) {
  npusim::test::configure("");
  setenv("HCCL_EXEC_TIMEOUT", "3", 1);
  Ranks k(4);
  std::vector<void*> buf(4);
  for (uint32_t r = 0; r < 4; ++r) buf[r] = k.alloc(r, 1 << 20);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtEvent before, after;
  ASSERT_EQ(aclrtCreateEvent(&before), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&after), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(before, k.streams[0]), ACL_SUCCESS);
  for (uint32_t r = 0; r < 3; ++r)  // rank 3 never calls
    ASSERT_EQ(HcclAllReduce(buf[r], buf[r], 1 << 18, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, k.comms[r],
                            k.streams[r]),
              HCCL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(after, k.streams[0]), ACL_SUCCESS);
  for (uint32_t r = 0; r < 3; ++r) {
    ASSERT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
    EXPECT_NE(aclrtSynchronizeStream(k.streams[r]), ACL_SUCCESS) << r;
    HcclResult async;
    EXPECT_EQ(HcclGetCommAsyncError(k.comms[r], &async), HCCL_SUCCESS);
    EXPECT_EQ(async, HCCL_E_TIMEOUT) << r;
  }
  // The ranks gave up after HCCL_EXEC_TIMEOUT of simulated time, not before (each of the
  // algorithm's waits on rank 3 gives up in turn, so a few timeouts pass in all).
  float ms = 0;
  ASSERT_EQ(aclrtEventElapsedTime(&ms, before, after), ACL_SUCCESS);
  EXPECT_GE(ms, 3000.0f);
  EXPECT_LE(ms, 10 * 3000.0f);
}

TEST(HcclMisuse, InitWaitsForEveryRankOrTimesOut) {
  npusim::test::configure("");
  setenv("HCCL_CONNECT_TIMEOUT", "1", 1);
  HcclRootInfo root;
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
  HcclComm c = nullptr;
  // Rank 1 of 2 never comes: rank 0 gives up after HCCL_CONNECT_TIMEOUT.
  EXPECT_EQ(HcclCommInitRootInfo(2, &root, 0, &c), HCCL_E_TIMEOUT);
  EXPECT_EQ(HcclCommInitRootInfo(2, &root, 2, &c), HCCL_E_PARA);
  HcclRootInfo bogus{};
  EXPECT_EQ(HcclCommInitRootInfo(2, &bogus, 0, &c), HCCL_E_PARA);
}

TEST(HcclMisuse, OneThreadPerRankAsTheExamplesDo) {
  npusim::test::configure("");
  HcclRootInfo root;
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
  std::vector<float> results(8 * 8);
  std::vector<std::thread> threads;
  for (int r = 0; r < 8; ++r)
    threads.emplace_back([&, r] {
      ASSERT_EQ(aclrtSetDevice(r), ACL_SUCCESS);
      float in[8];
      for (int i = 0; i < 8; ++i) in[i] = static_cast<float>(i);
      void *s = nullptr, *d = nullptr;
      ASSERT_EQ(aclrtMalloc(&s, sizeof in, ACL_MEM_MALLOC_HUGE_ONLY), ACL_SUCCESS);
      ASSERT_EQ(aclrtMalloc(&d, sizeof in, ACL_MEM_MALLOC_HUGE_ONLY), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemcpy(s, sizeof in, in, sizeof in, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
      HcclComm comm;
      ASSERT_EQ(HcclCommInitRootInfo(8, &root, static_cast<uint32_t>(r), &comm), HCCL_SUCCESS);
      aclrtStream st;
      ASSERT_EQ(aclrtCreateStream(&st), ACL_SUCCESS);
      ASSERT_EQ(HcclAllReduce(s, d, 8, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, st), HCCL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemcpy(&results[r * 8], sizeof in, d, sizeof in, ACL_MEMCPY_DEVICE_TO_HOST),
                ACL_SUCCESS);
      char name[COMM_NAME_MAX_LENGTH];
      ASSERT_EQ(HcclGetCommName(comm, name), HCCL_SUCCESS);
      uint32_t id = 99, size = 0;
      ASSERT_EQ(HcclGetRankId(comm, &id), HCCL_SUCCESS);
      ASSERT_EQ(HcclGetRankSize(comm, &size), HCCL_SUCCESS);
      EXPECT_EQ(id, static_cast<uint32_t>(r));
      EXPECT_EQ(size, 8u);
      ASSERT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
    });
  for (auto& t : threads) t.join();
  for (int r = 0; r < 8; ++r)
    for (int i = 0; i < 8; ++i) EXPECT_EQ(results[r * 8 + i], 8.0f * i) << "rank " << r;
}

TEST(HcclTypes, PublicValuesAndLayout) {
  EXPECT_EQ(sizeof(HcclRootInfo), 4108u);
  EXPECT_EQ(HCCL_E_OOM, 24);
  EXPECT_EQ(HCCL_E_IN_STATUS, 1041);
  EXPECT_EQ(HCCL_REDUCE_MIN, 3);
  EXPECT_EQ(HCCL_DATA_TYPE_BFP16, 11);
  EXPECT_EQ(HCCL_DATA_TYPE_FP8E8M0, 17);
  EXPECT_EQ(sizeof(HcclSendRecvItem), 32u);
  HcclCommConfig config;
  HcclCommConfigInit(&config);
  size_t size;
  uint32_t magic, version;
  std::memcpy(&size, config.reserved, sizeof size);
  std::memcpy(&magic, config.reserved + 8, 4);
  std::memcpy(&version, config.reserved + 12, 4);
  EXPECT_EQ(size, sizeof(HcclCommConfig));
  EXPECT_EQ(magic, 0xf0f0f0f0u);
  EXPECT_EQ(version, 10u);
  EXPECT_EQ(config.hcclBufferSize, 0xffffffffu);
  EXPECT_EQ(config.hcclExecTimeOut, HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET);
  EXPECT_STREQ(HcclGetErrorString(HCCL_E_TIMEOUT), "timeout");
}

// Data queues (acltdt*Queue*, buffers, routes) between host threads of one process, and the refusal
// to grant a queue to another process.
#include <gtest/gtest.h>
#include <pthread.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"

namespace {

class TdtQueue : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS); }
  void TearDown() override { aclFinalize(); }
  uint32_t make(const char* name, uint32_t depth) {
    acltdtQueueAttr* attr = acltdtCreateQueueAttr();
    const char* n = name;
    EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof n, &n), ACL_SUCCESS);
    EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof depth, &depth), ACL_SUCCESS);
    uint32_t qid = 0;
    EXPECT_EQ(acltdtCreateQueue(attr, &qid), ACL_SUCCESS);
    acltdtDestroyQueueAttr(attr);
    return qid;
  }
};

}  // namespace

TEST_F(TdtQueue, AttributesReadBackWhatWasSet) {
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  const char* name = "q1";
  uint32_t depth = 5;
  ASSERT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof name, &name), ACL_SUCCESS);
  ASSERT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof depth, &depth), ACL_SUCCESS);
  uint32_t tooShallow = 1;
  EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof tooShallow, &tooShallow),
            ACL_ERROR_INVALID_PARAM);
  char* got = nullptr;
  size_t len = 0;
  ASSERT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof got, &len, &got), ACL_SUCCESS);
  EXPECT_STREQ(got, "q1");
  uint32_t d = 0;
  ASSERT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof d, &len, &d), ACL_SUCCESS);
  EXPECT_EQ(d, 5u);
  EXPECT_EQ(len, sizeof d);
  acltdtDestroyQueueAttr(attr);
}

TEST_F(TdtQueue, DataAndUserDataRoundTripAndDepthIsEnforced) {
  uint32_t q = make("data", 2);
  const char payload[] = "hello";
  uint64_t tag = 0x1234;
  ASSERT_EQ(acltdtEnqueueData(q, payload, sizeof payload, &tag, sizeof tag, 0, 0), ACL_SUCCESS);
  ASSERT_EQ(acltdtEnqueueData(q, "x", 2, nullptr, 0, 0, 0), ACL_SUCCESS);
  EXPECT_EQ(acltdtEnqueueData(q, "y", 2, nullptr, 0, 0, 0), ACL_ERROR_RT_QUEUE_FULL);
  char out[4];
  size_t got = 0;
  EXPECT_EQ(acltdtDequeueData(q, out, sizeof out, &got, nullptr, 0, 0),
            ACL_ERROR_INVALID_PARAM);  // too small
  char big[16];
  uint64_t tagOut = 0;
  ASSERT_EQ(acltdtDequeueData(q, big, sizeof big, &got, &tagOut, sizeof tagOut, 0), ACL_SUCCESS);
  EXPECT_EQ(got, sizeof payload);
  EXPECT_STREQ(big, "hello");
  EXPECT_EQ(tagOut, 0x1234u);
  ASSERT_EQ(acltdtDequeueData(q, big, sizeof big, &got, nullptr, 0, 0), ACL_SUCCESS);
  EXPECT_EQ(acltdtDequeueData(q, big, sizeof big, &got, nullptr, 0, 0), ACL_ERROR_RT_QUEUE_EMPTY);
  ASSERT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueue(q), ACL_ERROR_INVALID_QUEUE_ID);
}

TEST_F(TdtQueue, BuffersCarryDataLengthUserAreaAndChains) {
  acltdtBuf head = nullptr, second = nullptr, ref = nullptr;
  ASSERT_EQ(acltdtAllocBuf(64, ACL_TDT_NORMAL_MEM, &head), ACL_SUCCESS);
  ASSERT_EQ(acltdtAllocBuf(8, ACL_TDT_NORMAL_MEM, &second), ACL_SUCCESS);
  void* data = nullptr;
  size_t size = 0;
  ASSERT_EQ(acltdtGetBufData(head, &data, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 64u);
  std::memcpy(data, "abc", 4);
  ASSERT_EQ(acltdtSetBufDataLen(head, 4), ACL_SUCCESS);
  EXPECT_EQ(acltdtSetBufDataLen(head, 65), ACL_ERROR_INVALID_PARAM);
  uint32_t user = 77, back = 0;
  ASSERT_EQ(acltdtSetBufUserData(head, &user, sizeof user, 92), ACL_SUCCESS);  // the last 4 of 96 bytes
  EXPECT_EQ(acltdtSetBufUserData(head, &user, sizeof user, 93), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(acltdtCopyBufRef(head, &ref), ACL_SUCCESS);
  ASSERT_EQ(acltdtGetBufUserData(ref, &back, sizeof back, 92), ACL_SUCCESS);  // shares the data
  EXPECT_EQ(back, 77u);
  ASSERT_EQ(acltdtAppendBufChain(head, second), ACL_SUCCESS);
  uint32_t num = 0;
  ASSERT_EQ(acltdtGetBufChainNum(head, &num), ACL_SUCCESS);
  EXPECT_EQ(num, 2u);
  acltdtBuf b1 = nullptr;
  ASSERT_EQ(acltdtGetBufFromChain(head, 1, &b1), ACL_SUCCESS);
  EXPECT_EQ(b1, second);

  uint32_t q = make("bufs", 4);
  ASSERT_EQ(acltdtEnqueue(q, head, 0), ACL_SUCCESS);
  acltdtBuf out = nullptr;
  ASSERT_EQ(acltdtDequeue(q, &out, 0), ACL_SUCCESS);
  EXPECT_EQ(out, head);
  size_t len = 0;
  ASSERT_EQ(acltdtGetBufDataLen(out, &len), ACL_SUCCESS);
  EXPECT_EQ(len, 4u);
  for (acltdtBuf b : {head, second, ref}) acltdtFreeBuf(b);
  acltdtDestroyQueue(q);
}

TEST_F(TdtQueue, BoundRoutesForwardToTheDestination) {
  uint32_t src = make("src", 4), dst = make("dst", 4);
  acltdtQueueRoute* r = acltdtCreateQueueRoute(src, dst);
  acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
  ASSERT_EQ(acltdtAddQueueRoute(list, r), ACL_SUCCESS);
  ASSERT_EQ(acltdtBindQueueRoutes(list), ACL_SUCCESS);
  acltdtQueueRoute* got = acltdtCreateQueueRoute(0, 0);
  ASSERT_EQ(acltdtGetQueueRoute(list, 0, got), ACL_SUCCESS);
  int32_t status = -1;
  size_t len = 0;
  ASSERT_EQ(acltdtGetQueueRouteParam(got, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, sizeof status, &len, &status),
            ACL_SUCCESS);
  EXPECT_EQ(status, ACL_TDT_QUEUE_ROUTE_BIND);

  acltdtQueueRouteQueryInfo* query = acltdtCreateQueueRouteQueryInfo();
  int32_t mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC;
  ASSERT_EQ(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof mode, &mode),
            ACL_SUCCESS);
  ASSERT_EQ(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, sizeof src, &src),
            ACL_SUCCESS);
  acltdtQueueRouteList* found = acltdtCreateQueueRouteList();
  ASSERT_EQ(acltdtQueryQueueRoutes(query, found), ACL_SUCCESS);
  ASSERT_EQ(acltdtGetQueueRouteNum(found), 1u);
  uint32_t foundDst = 0;
  ASSERT_EQ(acltdtGetQueueRoute(found, 0, got), ACL_SUCCESS);
  ASSERT_EQ(acltdtGetQueueRouteParam(got, ACL_TDT_QUEUE_ROUTE_DST_UINT32, sizeof foundDst, &len, &foundDst),
            ACL_SUCCESS);
  EXPECT_EQ(foundDst, dst);

  ASSERT_EQ(acltdtEnqueueData(src, "fwd", 4, nullptr, 0, 0, 0), ACL_SUCCESS);
  char out[8];
  size_t n = 0;
  EXPECT_EQ(acltdtDequeueData(src, out, sizeof out, &n, nullptr, 0, 0), ACL_ERROR_RT_QUEUE_EMPTY);
  ASSERT_EQ(acltdtDequeueData(dst, out, sizeof out, &n, nullptr, 0, 0), ACL_SUCCESS);
  EXPECT_STREQ(out, "fwd");

  ASSERT_EQ(acltdtUnbindQueueRoutes(list), ACL_SUCCESS);
  ASSERT_EQ(acltdtEnqueueData(src, "own", 4, nullptr, 0, 0, 0), ACL_SUCCESS);
  ASSERT_EQ(acltdtDequeueData(src, out, sizeof out, &n, nullptr, 0, 0), ACL_SUCCESS);  // no longer forwarded
  EXPECT_STREQ(out, "own");
  acltdtDestroyQueueRouteList(found);
  acltdtDestroyQueueRouteQueryInfo(query);
  acltdtDestroyQueueRouteList(list);
  acltdtDestroyQueueRoute(r);
  acltdtDestroyQueueRoute(got);
}

TEST_F(TdtQueue, GrantingToAnotherProcessIsRefusedWithAReason) {
  uint32_t q = make("shared", 2);
  EXPECT_EQ(acltdtGrantQueue(q, static_cast<int32_t>(getpid()), ACL_TDT_QUEUE_PERMISSION_ENQUEUE, 0),
            ACL_SUCCESS);
  EXPECT_EQ(acltdtGrantQueue(q, static_cast<int32_t>(getpid()) + 1, ACL_TDT_QUEUE_PERMISSION_ENQUEUE, 0),
            ACL_ERROR_API_NOT_SUPPORT);
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(msg, nullptr);
  EXPECT_NE(std::string(msg).find("one process"), std::string::npos) << msg;
  uint32_t perm = 0;
  ASSERT_EQ(acltdtAttachQueue(q, 0, &perm), ACL_SUCCESS);
  EXPECT_EQ(perm, 7u);
}

namespace {
void* consumer(void* p) {
  uint32_t q = *static_cast<uint32_t*>(p);
  for (int i = 0; i < 10; ++i) {
    int v = -1;
    size_t n = 0;
    EXPECT_EQ(acltdtDequeueData(q, &v, sizeof v, &n, nullptr, 0, -1), ACL_SUCCESS);
    EXPECT_EQ(v, i);
  }
  return nullptr;
}
}  // namespace

TEST_F(TdtQueue, AThreadBlocksOnAnEmptyQueueUntilDataArrives) {
  uint32_t q = make("mt", 2);
  pthread_t t;
  ASSERT_EQ(pthread_create(&t, nullptr, consumer, &q), 0);
  for (int i = 0; i < 10; ++i)
    ASSERT_EQ(acltdtEnqueueData(q, &i, sizeof i, nullptr, 0, -1, 0), ACL_SUCCESS) << i;
  pthread_join(t, nullptr);
  acltdtDestroyQueue(q);
}

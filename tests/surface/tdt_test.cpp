// Data channels (acltdt*): items and datasets, a bounded channel between two host threads of one
// process, the documented codes for a full or empty channel, and stop/clean/destroy.
#include <gtest/gtest.h>
#include <pthread.h>

#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_tdt.h"

namespace {

acltdtDataset* datasetOf(std::vector<float>& values) {
  int64_t dims[] = {static_cast<int64_t>(values.size())};
  acltdtDataItem* item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, values.data(),
                                              values.size() * sizeof(float));
  acltdtDataset* ds = acltdtCreateDataset();
  EXPECT_EQ(acltdtAddDataItem(ds, item), ACL_SUCCESS);
  return ds;
}

void destroyWithItems(acltdtDataset* ds) {
  for (size_t i = 0; i < acltdtGetDatasetSize(ds); ++i) acltdtDestroyDataItem(acltdtGetDataItem(ds, i));
  acltdtDestroyDataset(ds);
}

class Tdt : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
  void TearDown() override {
    aclrtResetDevice(0);
    aclFinalize();
  }
};

}  // namespace

TEST_F(Tdt, ItemsDescribeTheirTensor) {
  std::vector<float> v{1, 2, 3};
  int64_t dims[] = {3, 1};
  acltdtDataItem* item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2, ACL_FLOAT, v.data(), 12);
  ASSERT_NE(item, nullptr);
  EXPECT_EQ(acltdtGetTensorTypeFromItem(item), ACL_TENSOR_DATA_TENSOR);
  EXPECT_EQ(acltdtGetDataTypeFromItem(item), ACL_FLOAT);
  EXPECT_EQ(acltdtGetDataAddrFromItem(item), v.data());
  EXPECT_EQ(acltdtGetDataSizeFromItem(item), 12u);
  ASSERT_EQ(acltdtGetDimNumFromItem(item), 2u);
  int64_t out[2] = {};
  EXPECT_EQ(acltdtGetDimsFromItem(item, out, 1), ACL_ERROR_INVALID_PARAM);  // too small
  ASSERT_EQ(acltdtGetDimsFromItem(item, out, 2), ACL_SUCCESS);
  EXPECT_EQ(out[0], 3);
  EXPECT_EQ(out[1], 1);
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, nullptr, 2, ACL_FLOAT, v.data(), 12), nullptr);
  acltdtDataset* ds = acltdtCreateDataset();
  EXPECT_EQ(acltdtGetDataItem(ds, 0), nullptr);
  ASSERT_EQ(acltdtAddDataItem(ds, item), ACL_SUCCESS);
  EXPECT_EQ(acltdtGetDataItem(ds, 0), item);
  destroyWithItems(ds);
}

TEST_F(Tdt, FullAndEmptyChannelsReturnTheQueueCodes) {
  acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "cap2", 2);
  ASSERT_NE(ch, nullptr);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(99, "bad", 2), nullptr);  // no such device
  std::vector<float> a{1, 2}, b{3, 4}, c{5, 6};
  acltdtDataset *da = datasetOf(a), *db = datasetOf(b), *dc = datasetOf(c);
  ASSERT_EQ(acltdtSendTensor(ch, da, 0), ACL_SUCCESS);
  a[0] = 100;  // the channel holds a copy
  ASSERT_EQ(acltdtSendTensor(ch, db, 0), ACL_SUCCESS);
  EXPECT_EQ(acltdtSendTensor(ch, dc, 0), ACL_ERROR_RT_QUEUE_FULL);
  EXPECT_EQ(acltdtSendTensor(ch, dc, 30), ACL_ERROR_RT_QUEUE_FULL);  // waited 30 ms, nobody received
  size_t n = 0;
  ASSERT_EQ(acltdtQueryChannelSize(ch, &n), ACL_SUCCESS);
  EXPECT_EQ(n, 2u);
  acltdtDataset* got = acltdtCreateDataset();
  ASSERT_EQ(acltdtReceiveTensor(ch, got, 0), ACL_SUCCESS);
  ASSERT_EQ(acltdtGetDatasetSize(got), 1u);
  const float* f = static_cast<const float*>(acltdtGetDataAddrFromItem(acltdtGetDataItem(got, 0)));
  EXPECT_EQ(f[0], 1.0f);  // FIFO, the value at send time
  EXPECT_EQ(f[1], 2.0f);
  ASSERT_EQ(acltdtCleanChannel(ch), ACL_SUCCESS);
  ASSERT_EQ(acltdtQueryChannelSize(ch, &n), ACL_SUCCESS);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(acltdtReceiveTensor(ch, got, 0), ACL_ERROR_RT_QUEUE_EMPTY);
  ASSERT_EQ(acltdtStopChannel(ch), ACL_SUCCESS);
  EXPECT_NE(acltdtSendTensor(ch, da, 0), ACL_SUCCESS);  // stopped
  ASSERT_EQ(acltdtDestroyChannel(ch), ACL_SUCCESS);
  EXPECT_EQ(acltdtQueryChannelSize(ch, &n), ACL_ERROR_INVALID_PARAM);  // destroyed
  destroyWithItems(got);
  for (auto* d : {da, db, dc}) destroyWithItems(d);
}

namespace {
struct Pipe {
  acltdtChannelHandle* ch;
  int count;
};
void* producer(void* p) {
  auto* pipe = static_cast<Pipe*>(p);
  aclrtSetDevice(0);
  for (int i = 0; i < pipe->count; ++i) {
    std::vector<float> v{static_cast<float>(i), static_cast<float>(i * i)};
    acltdtDataset* ds = datasetOf(v);
    EXPECT_EQ(acltdtSendTensor(pipe->ch, ds, -1), ACL_SUCCESS);  // blocks while the channel is full
    destroyWithItems(ds);
  }
  aclrtResetDevice(0);
  return nullptr;
}
}  // namespace

TEST_F(Tdt, ProducerAndConsumerThreadsExchangeEveryDatasetInOrder) {
  acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "pipe", 2);
  ASSERT_NE(ch, nullptr);
  Pipe pipe{ch, 20};
  pthread_t t;
  ASSERT_EQ(pthread_create(&t, nullptr, producer, &pipe), 0);
  for (int i = 0; i < pipe.count; ++i) {
    acltdtDataset* got = acltdtCreateDataset();
    ASSERT_EQ(acltdtReceiveTensor(ch, got, -1), ACL_SUCCESS) << i;
    const float* f = static_cast<const float*>(acltdtGetDataAddrFromItem(acltdtGetDataItem(got, 0)));
    EXPECT_EQ(f[0], static_cast<float>(i));
    EXPECT_EQ(f[1], static_cast<float>(i * i));
    destroyWithItems(got);
  }
  pthread_join(t, nullptr);
  size_t n = 1;
  ASSERT_EQ(acltdtQueryChannelSize(ch, &n), ACL_SUCCESS);
  EXPECT_EQ(n, 0u);
  ASSERT_EQ(acltdtDestroyChannel(ch), ACL_SUCCESS);
}

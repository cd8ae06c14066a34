// Built-in tasks and stream configuration, from the documented behaviour: aclrtReduceAsync combines src
// into dst in stream order, timed as a device-local DMA; stream configuration handles create streams with
// their priority and flags; the thread's last task id; refusals carry their documented codes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "tests/runtime_surface/surface_test_util.h"

using npusim::test::configure;

namespace {

template <typename T>
std::vector<T> reduceOnDevice(const std::vector<T>& a, const std::vector<T>& b, aclrtReduceKind kind,
                              aclDataType type) {
  size_t bytes = a.size() * sizeof(T);
  void *dst, *src;
  EXPECT_EQ(aclrtMalloc(&dst, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&src, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(dst, bytes, a.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(src, bytes, b.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtReduceAsync(dst, src, bytes, kind, type, nullptr, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  std::vector<T> out(a.size());
  EXPECT_EQ(aclrtMemcpy(out.data(), bytes, dst, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  aclrtFree(dst);
  aclrtFree(src);
  return out;
}

}  // namespace

TEST(BuiltinTasks, ReduceCombinesInStreamOrder) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(reduceOnDevice<float>({1, 2, 3, 4}, {1, 2, 3, 4}, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT),
            (std::vector<float>{2, 4, 6, 8}));
  EXPECT_EQ(reduceOnDevice<int32_t>({5, -7, 9}, {6, -8, 1}, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_INT32),
            (std::vector<int32_t>{6, -7, 9}));
  EXPECT_EQ(reduceOnDevice<int8_t>({5, -7}, {6, -8}, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_INT8),
            (std::vector<int8_t>{5, -8}));
  std::vector<aclFloat16> h = {aclFloatToFloat16(1.5f), aclFloatToFloat16(-2.0f)};
  std::vector<aclFloat16> r = reduceOnDevice<aclFloat16>(h, h, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT16);
  EXPECT_EQ(aclFloat16ToFloat(r[0]), 3.0f);
  EXPECT_EQ(aclFloat16ToFloat(r[1]), -4.0f);
  std::vector<uint16_t> bf = {0x3fc0, 0xc000};  // bfloat16 1.5, -2.0
  EXPECT_EQ(reduceOnDevice<uint16_t>(bf, bf, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_BF16),
            (std::vector<uint16_t>{0x4040, 0xc080}));  // 3.0, -4.0
}

TEST(BuiltinTasks, ReduceIsTimedAsADeviceLocalCopy) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const size_t bytes = 64u << 20;
  void *dst, *src;
  ASSERT_EQ(aclrtMalloc(&dst, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&src, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  aclrtEvent e0, e1, e2;
  ASSERT_EQ(aclrtCreateEvent(&e0), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&e1), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&e2), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(e0, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dst, bytes, src, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(e1, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtReduceAsync(dst, src, bytes, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(e2, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  float copyMs = 0, reduceMs = 0;
  ASSERT_EQ(aclrtEventElapsedTime(&copyMs, e0, e1), ACL_SUCCESS);
  ASSERT_EQ(aclrtEventElapsedTime(&reduceMs, e1, e2), ACL_SUCCESS);
  // 64 MiB at the DMA channel's 100 GB/s is ~0.67 ms; the reduce costs that copy plus two dispatches.
  EXPECT_GT(copyMs, 0.5f);
  EXPECT_NEAR(reduceMs, copyMs, 0.05f * copyMs);
}

TEST(BuiltinTasks, ReduceArguments) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void *dst, *src;
  ASSERT_EQ(aclrtMalloc(&dst, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&src, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  int reserve = 0;
  auto sum = ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM;
  EXPECT_EQ(aclrtReduceAsync(dst, src, 64, sum, ACL_FLOAT, nullptr, &reserve), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReduceAsync(dst, src, 6, sum, ACL_FLOAT, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReduceAsync(dst, src, 64, sum, ACL_DOUBLE, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReduceAsync(dst, src, 64, static_cast<aclrtReduceKind>(3), ACL_FLOAT, nullptr, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReduceAsync(dst, src, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, ACL_FLOAT, nullptr, nullptr),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  std::vector<float> host(16);
  EXPECT_NE(aclrtReduceAsync(dst, host.data(), 64, sum, ACL_FLOAT, nullptr, nullptr), ACL_SUCCESS);
}

TEST(BuiltinTasks, StreamConfigHandleCreatesStreams) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStreamConfigHandle* h = aclrtCreateStreamConfigHandle();
  ASSERT_NE(h, nullptr);
  uint32_t priority = 3, flag = ACL_STREAM_FAST_LAUNCH, bad = 8;
  EXPECT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &bad, sizeof(bad)), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &priority, 1), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &priority, sizeof(priority)), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag, sizeof(flag)), ACL_SUCCESS);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStreamV2(&s, h), ACL_SUCCESS);
  uint32_t got = 0, gotFlags = 0;
  ASSERT_EQ(aclrtStreamGetPriority(s, &got), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamGetFlags(s, &gotFlags), ACL_SUCCESS);
  EXPECT_EQ(got, 3u);
  EXPECT_EQ(gotFlags, static_cast<uint32_t>(ACL_STREAM_FAST_LAUNCH));
  EXPECT_EQ(aclrtDestroyStreamConfigHandle(h), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStreamConfigHandle(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
}

TEST(BuiltinTasks, ThreadLastTaskIdAndTgid) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* dev;
  ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  uint32_t first = 0, second = 0;
  ASSERT_EQ(aclrtMemsetAsync(dev, 64, 1, 64, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetThreadLastTaskId(&first), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(dev, 64, 2, 64, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetThreadLastTaskId(&second), ACL_SUCCESS);
  EXPECT_GT(first, 0u);
  EXPECT_EQ(second, first + 1);  // task ids count launches
  EXPECT_EQ(aclrtGetThreadLastTaskId(nullptr), ACL_ERROR_INVALID_PARAM);
  int32_t pid = 0;
  ASSERT_EQ(aclrtDeviceGetBareTgid(&pid), ACL_SUCCESS);
  EXPECT_EQ(pid, static_cast<int32_t>(getpid()));
}

TEST(BuiltinTasks, RefusalsCarryTheirCodes) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtNotify n;
  ASSERT_EQ(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
  char key[64];
  EXPECT_EQ(aclrtNotifyGetExportKey(n, key, sizeof(key), 0), ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_NE(std::strstr(aclGetRecentErrMsg(), "one process"), nullptr);
  size_t v = 0;
  EXPECT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_NE(std::strstr(aclGetRecentErrMsg(), "SIMT"), nullptr);
}

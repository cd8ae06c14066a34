// The memory calls of the real header's second part, from their documented behaviour: 32-bit
// memsets (data and timing), pointer attributes, address ranges, memory types, usage, error
// records, allocation configurations, frees that synchronise first, and the cache calls.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "tests/runtime_surface/surface_test_util.h"

using npusim::test::configure;
using npusim::test::DeviceSession;
using npusim::test::elapsedMs;

TEST(MemsetD32, WritesTheWordPatternAndIsTimedLikeAByteMemset) {
  DeviceSession dev;
  const size_t words = 1 << 20;  // 4 MiB
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, words * 4 + 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(d, words * 4 + 64, 0x11, words * 4 + 64), ACL_SUCCESS);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  aclrtEvent e0, e1, e2;
  for (aclrtEvent* e : {&e0, &e1, &e2}) ASSERT_EQ(aclrtCreateEvent(e), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(d, words * 4, 0x7f, words * 4, s), ACL_SUCCESS);  // the memory as warm for both
  ASSERT_EQ(aclrtRecordEvent(e0, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(d, words * 4, 0x7f, words * 4, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(e1, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetD32Async(d, words * 4, 0xA1B2C3D4u, words, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(e2, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  const float bytes = elapsedMs(e0, e1), d32 = elapsedMs(e1, e2);
  EXPECT_GT(d32, 0.0f);
  EXPECT_NEAR(d32, bytes, 0.05 * bytes);  // the same bytes through the same engine
  std::vector<uint32_t> all(words);
  ASSERT_EQ(aclrtMemcpy(all.data(), words * 4, d, words * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (size_t i = 0; i < words; i += 4099) ASSERT_EQ(all[i], 0xA1B2C3D4u) << i;
  ASSERT_EQ(all[words - 1], 0xA1B2C3D4u);

  // Synchronous form, at an odd word count, leaves the bytes after it untouched.
  ASSERT_EQ(aclrtMemsetD32(d, words * 4, 0x01020304u, 1001), ACL_SUCCESS);
  std::vector<uint32_t> back(1002);
  ASSERT_EQ(aclrtMemcpy(back.data(), back.size() * 4, d, back.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  for (size_t i = 0; i < 1001; ++i) ASSERT_EQ(back[i], 0x01020304u) << i;
  EXPECT_EQ(back[1001], 0xA1B2C3D4u);  // from the asynchronous one

  EXPECT_EQ(aclrtMemsetD32(d, 8, 1, 3), ACL_ERROR_INVALID_PARAM);  // 12 bytes > memSize 8
  EXPECT_EQ(aclrtMemsetD32(nullptr, 8, 1, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemsetD32(d, 8, 1, 0), ACL_SUCCESS);  // nothing to do
  ASSERT_EQ(aclrtFree(d), ACL_SUCCESS);
}

TEST(MemoryQueries, PointerAttributesAddressRangesAndTypes) {
  DeviceSession dev;
  void *big = nullptr, *small = nullptr, *dvpp = nullptr, *host = nullptr;
  ASSERT_EQ(aclrtMalloc(&big, 4 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&small, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(acldvppMalloc(&dvpp, 4096), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&host, 4096), ACL_SUCCESS);
  int pageable = 0;

  aclrtPtrAttributes a;
  ASSERT_EQ(aclrtPointerGetAttributes(static_cast<char*>(big) + 100, &a), ACL_SUCCESS);
  EXPECT_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  EXPECT_EQ(a.location.id, 0u);
  EXPECT_EQ(a.pageSize, 2u << 20);
  ASSERT_EQ(aclrtPointerGetAttributes(small, &a), ACL_SUCCESS);
  EXPECT_EQ(a.pageSize, 4096u);
  ASSERT_EQ(aclrtPointerGetAttributes(host, &a), ACL_SUCCESS);
  EXPECT_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_HOST);
  ASSERT_EQ(aclrtPointerGetAttributes(&pageable, &a), ACL_SUCCESS);
  EXPECT_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
  EXPECT_EQ(aclrtPointerGetAttributes(nullptr, &a), ACL_ERROR_INVALID_PARAM);

  void* base = nullptr;
  size_t size = 0;
  ASSERT_EQ(aclrtMemGetAddressRange(static_cast<char*>(small) + 999, &base, &size), ACL_SUCCESS);
  EXPECT_EQ(base, small);
  EXPECT_EQ(size, 1000u);
  EXPECT_EQ(aclrtMemGetAddressRange(host, &base, &size), ACL_ERROR_INVALID_PARAM);

  uint32_t ok = 9;
  void* devs[] = {big, small};
  ASSERT_EQ(aclrtCheckMemType(devs, 2, ACL_RT_MEM_TYPE_DEV, &ok, 0), ACL_SUCCESS);
  EXPECT_EQ(ok, 1u);
  void* mixed[] = {big, dvpp};
  ASSERT_EQ(aclrtCheckMemType(mixed, 2, ACL_RT_MEM_TYPE_DEV, &ok, 0), ACL_SUCCESS);
  EXPECT_EQ(ok, 0u);
  ASSERT_EQ(aclrtCheckMemType(mixed, 2, ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP, &ok, 0), ACL_SUCCESS);
  EXPECT_EQ(ok, 1u);
  void* hostList[] = {host};
  ASSERT_EQ(aclrtCheckMemType(hostList, 1, ACL_RT_MEM_TYPE_DEV, &ok, 0), ACL_SUCCESS);
  EXPECT_EQ(ok, 0u);
  EXPECT_EQ(aclrtCheckMemType(devs, 2, 0x1, &ok, 0), ACL_ERROR_INVALID_PARAM);

  // Usage: what is in use now and the most ever.
  aclrtMemUsageInfo u[2];
  size_t n = 0;
  ASSERT_EQ(aclrtGetMemUsageInfo(0, u, 2, &n), ACL_SUCCESS);
  ASSERT_EQ(n, 1u);
  const uint64_t before = u[0].curMemSize;
  EXPECT_GE(before, (4u << 20) + 1000u + 4096u);
  ASSERT_EQ(aclrtFree(big), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetMemUsageInfo(0, u, 2, &n), ACL_SUCCESS);
  EXPECT_LT(u[0].curMemSize, before - (4u << 20) + 64);
  EXPECT_GE(u[0].memPeakSize, before);
  EXPECT_EQ(aclrtGetMemUsageInfo(99, u, 2, &n), ACL_ERROR_INVALID_PARAM);

  aclrtMemUceInfo uce[4];
  ASSERT_EQ(aclrtGetMemUceInfo(0, uce, 4, &n), ACL_SUCCESS);
  EXPECT_EQ(n, 0u);  // no uncorrectable errors in simulated HBM (repairs: memory_copy_cmo_checks_test.cpp)

  EXPECT_EQ(aclrtMemFlush(small, 1000), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemInvalidate(small, 1000), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemFlush(small, 1 << 20), ACL_ERROR_INVALID_PARAM);  // past the allocation
  EXPECT_EQ(aclrtMemFlush(host, 16), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDeviceL2CacheFlush(nullptr), ACL_SUCCESS);

  aclrtHostMemMapCapability cap;
  ASSERT_EQ(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIV, &cap), ACL_SUCCESS);
  EXPECT_EQ(cap, ACL_RT_HOST_MEM_MAP_SUPPORTED);
  ASSERT_EQ(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_RDMA, &cap), ACL_SUCCESS);
  EXPECT_EQ(cap, ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED);
  ASSERT_EQ(aclrtFree(small), ACL_SUCCESS);
  ASSERT_EQ(acldvppFree(dvpp), ACL_SUCCESS);
  ASSERT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
}

TEST(MemoryConfig, AllocationConfigurationsAndFreesThatSynchroniseFirst) {
  configure("");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  // The device id attribute places the memory on device 1 while device 0 is current.
  aclrtMallocAttribute attr{};
  attr.attr = ACL_RT_MEM_ATTR_DEVICE_ID;
  attr.value.deviceId = 1;
  aclrtMallocConfig cfg{&attr, 1};
  void* d = nullptr;
  ASSERT_EQ(aclrtMallocWithCfg(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_SUCCESS);
  aclrtPtrAttributes a;
  ASSERT_EQ(aclrtPointerGetAttributes(d, &a), ACL_SUCCESS);
  EXPECT_EQ(a.location.id, 1u);
  attr.value.deviceId = 99;
  void* bad = nullptr;
  EXPECT_EQ(aclrtMallocWithCfg(&bad, 4096, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_ERROR_INVALID_PARAM);
  aclrtMallocConfig noAttrs{nullptr, 1};
  EXPECT_EQ(aclrtMallocWithCfg(&bad, 4096, ACL_MEM_MALLOC_HUGE_FIRST, &noAttrs), ACL_ERROR_INVALID_PARAM);
  void* plain = nullptr;
  ASSERT_EQ(aclrtMallocWithCfg(&plain, 4096, ACL_MEM_MALLOC_HUGE_FIRST, nullptr), ACL_SUCCESS);
  void* sched = nullptr;
  ASSERT_EQ(aclrtMallocForTaskScheduler(&sched, 4096, ACL_MEM_MALLOC_HUGE_FIRST, nullptr), ACL_SUCCESS);
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHostWithCfg(&host, 1 << 20, nullptr), ACL_SUCCESS);

  // A queued copy still reads `host`: the synchronising free waits for it, then frees.
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  std::memset(host, 0x5a, 1 << 20);
  void* dst = nullptr;
  ASSERT_EQ(aclrtMalloc(&dst, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dst, 1 << 20, host, 1 << 20, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtFreeHostWithDevSync(host), ACL_SUCCESS);
  aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
  ASSERT_EQ(aclrtStreamQuery(s, &st), ACL_SUCCESS);
  EXPECT_EQ(st, ACL_STREAM_STATUS_COMPLETE);  // the device is idle: it synchronised
  unsigned char last = 0;
  ASSERT_EQ(aclrtMemcpy(&last, 1, static_cast<char*>(dst) + (1 << 20) - 1, 1, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(last, 0x5a);
  ASSERT_EQ(aclrtFreeWithDevSync(dst), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeWithDevSync(dst), ACL_ERROR_RT_PARAM_INVALID);  // already freed
  EXPECT_EQ(aclrtFreeWithDevSync(nullptr), ACL_ERROR_INVALID_PARAM);
  for (void* p : {d, plain, sched}) EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  aclrtDestroyStream(s);
  aclrtResetDevice(0);
  aclFinalize();
}

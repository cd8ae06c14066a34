// Device and stream control of the real header's second part: cache maintenance through
// descriptors, access flags of virtual-memory mappings, peer page mappings, cleaning persistent
// streams, aborting a device's tasks between its callbacks, and user profiling marks in the trace.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "acl/acl.h"
#include "tests/runtime_surface/surface_test_util.h"

using npusim::test::configure;
using npusim::test::DeviceSession;
using npusim::test::elapsedMs;

namespace {

std::vector<std::string> abortLog;
int32_t onAbort(int32_t device, aclrtDeviceTaskAbortStage stage, uint32_t, void* args) {
  abortLog.push_back(std::string(static_cast<const char*>(args)) +
                     (stage == ACL_RT_DEVICE_TASK_ABORT_PRE ? " pre " : " post ") + std::to_string(device));
  return 0;
}

}  // namespace

TEST(CmoDescriptors, APrefetchThroughADescriptorTakesAsLongAsADirectOne) {
  DeviceSession dev;
  const size_t n = 8 << 20;
  void *data = nullptr, *desc = nullptr;
  ASSERT_EQ(aclrtMalloc(&data, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  size_t descSize = 0;
  ASSERT_EQ(aclrtCmoGetDescSize(&descSize), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&desc, descSize, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtCmoSetDesc(desc, data, n), ACL_SUCCESS);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  aclrtEvent e0, e1, e2;
  for (aclrtEvent* e : {&e0, &e1, &e2}) ASSERT_EQ(aclrtCreateEvent(e), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(e0, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_PREFETCH, s, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(e1, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtCmoAsync(data, n, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(e2, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_GT(elapsedMs(e0, e1), 0.01f);
  EXPECT_NEAR(elapsedMs(e0, e1), elapsedMs(e1, e2),
              0.05 * elapsedMs(e1, e2));  // the first task pays the stream start
  EXPECT_EQ(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_FLUSH, s, nullptr), ACL_ERROR_INVALID_PARAM);
  int host = 0;
  EXPECT_EQ(aclrtCmoSetDesc(&host, data, n), ACL_ERROR_INVALID_PARAM);
  aclrtDestroyStream(s);
}

TEST(MappingAccess, AccessFlagsFollowMapMemNoAccessAndSetAccess) {
  DeviceSession dev;
  aclrtPhysicalMemProp prop{};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  size_t g = 0;
  ASSERT_EQ(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), ACL_SUCCESS);
  void* va = nullptr;
  ASSERT_EQ(aclrtReserveMemAddress(&va, 2 * g, 0, nullptr, 0), ACL_SUCCESS);
  aclrtDrvMemHandle h1, h2;
  ASSERT_EQ(aclrtMallocPhysical(&h1, g, &prop, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocPhysical(&h2, g, &prop, 0), ACL_SUCCESS);
  void* second = static_cast<char*>(va) + g;
  ASSERT_EQ(aclrtMapMem(va, g, 0, h1, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemMapNoAccess(second, g, 0, h2, 0), ACL_SUCCESS);
  aclrtMemLocation dev0{0, ACL_MEM_LOCATION_TYPE_DEVICE}, dev1{1, ACL_MEM_LOCATION_TYPE_DEVICE};
  uint64_t flag = 99;
  ASSERT_EQ(aclrtMemGetAccess(va, &dev0, &flag), ACL_SUCCESS);
  EXPECT_EQ(flag, static_cast<uint64_t>(ACL_RT_MEM_ACCESS_FLAGS_READWRITE));
  ASSERT_EQ(aclrtMemGetAccess(second, &dev0, &flag), ACL_SUCCESS);
  EXPECT_EQ(flag, static_cast<uint64_t>(ACL_RT_MEM_ACCESS_FLAGS_NONE));
  aclrtMemAccessDesc d{};
  d.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
  d.location = dev1;
  ASSERT_EQ(aclrtMemSetAccess(second, g, &d, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemGetAccess(second, &dev1, &flag), ACL_SUCCESS);
  EXPECT_EQ(flag, static_cast<uint64_t>(ACL_RT_MEM_ACCESS_FLAGS_READ));
  EXPECT_EQ(aclrtMemGetAccess(static_cast<char*>(va) + 64, &dev0, &flag),
            ACL_ERROR_INVALID_PARAM);  // not a start
  ASSERT_EQ(aclrtUnmapMem(va), ACL_SUCCESS);
  ASSERT_EQ(aclrtUnmapMem(second), ACL_SUCCESS);
  aclrtFreePhysical(h1);
  aclrtFreePhysical(h2);
  aclrtReleaseMemAddress(va);
}

TEST(PeerMapping, NeedsPeerAccessFromTheUsingDevice) {
  DeviceSession dev("system.switches=1,system.devices_per_switch=2");
  void* d0 = nullptr;
  ASSERT_EQ(aclrtMalloc(&d0, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemP2PMap(d0, 1 << 20, 1, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(0, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemP2PMap(d0, 1 << 20, 1, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemP2PMap(d0, 2 << 20, 1, 0), ACL_ERROR_INVALID_PARAM);  // past the allocation
  EXPECT_EQ(aclrtMemP2PMap(d0, 1 << 20, 1, 1), ACL_ERROR_INVALID_PARAM);
  aclrtResetDevice(1);
}

TEST(DeviceAbort, QueuedTasksAreDiscardedBetweenTheCallbacks) {
  DeviceSession dev;
  static char name[] = "mine";
  ASSERT_EQ(aclrtSetDeviceTaskAbortCallback("mine", onAbort, name), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDeviceTaskAbortCallback("mine", onAbort, name), ACL_ERROR_INVALID_PARAM);  // no repeats
  // Persistent streams can be cleaned; others cannot.
  aclrtStream persistent, plain;
  ASSERT_EQ(aclrtCreateStreamWithConfig(&persistent, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&plain), ACL_SUCCESS);
  EXPECT_EQ(aclrtPersistentTaskClean(plain), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtPersistentTaskClean(persistent), ACL_SUCCESS);

  // A long queue of copies: the abort discards what has not started, so the stream ends early.
  const size_t n = 64 << 20;
  void *h = nullptr, *d = nullptr;
  ASSERT_EQ(aclrtMallocHost(&h, n), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&d, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtEvent done;
  ASSERT_EQ(aclrtCreateEvent(&done), ACL_SUCCESS);
  for (int i = 0; i < 20; ++i)
    ASSERT_EQ(aclrtMemcpyAsync(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE, plain), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceTaskAbort(0, 0), ACL_SUCCESS);
  ASSERT_EQ(abortLog.size(), 2u);
  EXPECT_EQ(abortLog[0], "mine pre 0");
  EXPECT_EQ(abortLog[1], "mine post 0");
  ASSERT_EQ(aclrtRecordEvent(done, plain), ACL_SUCCESS);  // the stream stays usable
  ASSERT_EQ(aclrtSynchronizeStream(plain), ACL_SUCCESS);
  // 20 copies of 64 MiB would take ~55 ms at ~24 GB/s; far less ran.
  uint64_t ts = 0;
  ASSERT_EQ(aclrtEventGetTimestamp(done, &ts), ACL_SUCCESS);
  EXPECT_LT(ts, 1000000u);  // 20 ms in the 50 MHz timestamp counter
  ASSERT_EQ(aclrtSetDeviceTaskAbortCallback("mine", nullptr, nullptr), ACL_SUCCESS);  // NULL unregisters
  ASSERT_EQ(aclrtDeviceTaskAbort(0, 0), ACL_SUCCESS);
  EXPECT_EQ(abortLog.size(), 2u);
  EXPECT_EQ(aclrtDeviceTaskAbort(42, 0), ACL_ERROR_INVALID_PARAM);
  aclrtDestroyStream(plain);
  aclrtDestroyStream(persistent);
}

TEST(ProfTrace, AMarkInStreamOrderCarriesItsBytes) {
  DeviceSession dev;
  const char data[] = "step-17";
  EXPECT_EQ(aclrtProfTrace(const_cast<char*>(data), 7, nullptr), ACL_SUCCESS);
  char tooLong[19] = {};
  EXPECT_EQ(aclrtProfTrace(tooLong, 19, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtProfTrace(nullptr, 4, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
}

// Memory, copies and cache maintenance of the real header's second part (issue 16): the exact CANN
// signatures of all 41 calls, the argument checks the real runtime makes before it reaches the device,
// the calls Atlas A2 devices lack (refused with ACL_ERROR_RT_FEATURE_NOT_SUPPORT after those checks),
// memory error repair, and 32-bit memsets of pinned host memory.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "acl/acl.h"
#include "tests/runtime_surface/surface_test_util.h"

using npusim::test::configure;
using npusim::test::DeviceSession;
using npusim::test::elapsedMs;

#define SIGNATURE(fn, ...) static_assert(std::is_same_v<decltype(fn), __VA_ARGS__>, #fn)

// clang-format off
SIGNATURE(aclrtFreeHostWithDevSync, aclError(void*));
SIGNATURE(aclrtFreeWithDevSync, aclError(void*));
SIGNATURE(aclrtMallocHostWithCfg, aclError(void**, uint64_t, aclrtMallocConfig*));
SIGNATURE(aclrtMallocWithCfg, aclError(void**, size_t, aclrtMemMallocPolicy, aclrtMallocConfig*));
SIGNATURE(aclrtMallocForTaskScheduler, aclError(void**, size_t, aclrtMemMallocPolicy, aclrtMallocConfig*));
SIGNATURE(aclrtMemFlush, aclError(void*, size_t));
SIGNATURE(aclrtMemInvalidate, aclError(void*, size_t));
SIGNATURE(aclrtMemGetAccess, aclError(void*, aclrtMemLocation*, uint64_t*));
SIGNATURE(aclrtMemGetAddressRange, aclError(void*, void**, size_t*));
SIGNATURE(aclrtMemManagedAdvise, aclError(const void* const, uint64_t, aclrtMemManagedAdviseType, aclrtMemManagedLocation));
SIGNATURE(aclrtMemManagedGetAttr, aclError(aclrtMemManagedRangeAttribute, const void*, size_t, void*, size_t));
SIGNATURE(aclrtMemManagedGetAttrs, aclError(aclrtMemManagedRangeAttribute*, size_t, const void*, size_t, void**, size_t*));
SIGNATURE(aclrtMemManagedPrefetchAsync, aclError(const void*, size_t, aclrtMemManagedLocation, uint32_t, aclrtStream));
SIGNATURE(aclrtMemManagedPrefetchBatchAsync, aclError(const void**, size_t*, size_t, aclrtMemManagedLocation*, size_t*, size_t, uint64_t, aclrtStream));
SIGNATURE(aclrtMemMapNoAccess, aclError(void*, size_t, size_t, aclrtDrvMemHandle, uint64_t));
SIGNATURE(aclrtMemMapSelectedLink, aclError(void*, size_t, void*, uint32_t));
SIGNATURE(aclrtMemMapSetLink, aclError(aclrtDrvMemHandle, aclrtMemLinkType));
SIGNATURE(aclrtMemP2PMap, aclError(void*, size_t, int32_t, uint64_t));
SIGNATURE(aclrtMemUceRepair, aclError(int32_t, aclrtMemUceInfo*, size_t));
SIGNATURE(aclrtGetMemUceInfo, aclError(int32_t, aclrtMemUceInfo*, size_t, size_t*));
SIGNATURE(aclrtGetMemUsageInfo, aclError(int32_t, aclrtMemUsageInfo*, size_t, size_t*));
SIGNATURE(aclrtCheckMemType, aclError(void**, uint32_t, uint32_t, uint32_t*, uint32_t));
SIGNATURE(aclrtPointerGetAttributes, aclError(const void*, aclrtPtrAttributes*));
SIGNATURE(aclrtReserveMemAddressNoUCMemory, aclError(void**, size_t, size_t, void*, uint64_t));
SIGNATURE(aclrtHostMemMapCapabilities, aclError(uint32_t, aclrtHacType, aclrtHostMemMapCapability*));
SIGNATURE(aclrtIpcMemImportPidInterServer, aclError(const char*, aclrtServerPid*, size_t));
SIGNATURE(aclrtIpcMemSetAttr, aclError(const char*, aclrtIpcMemAttrType, uint64_t));
SIGNATURE(aclrtDeviceL2CacheFlush, aclError(void*));
SIGNATURE(aclrtMemcpyAsyncWithDesc, aclError(void*, aclrtMemcpyKind, aclrtStream));
SIGNATURE(aclrtGetMemcpyDescSize, aclError(aclrtMemcpyKind, size_t*));
SIGNATURE(aclrtSetMemcpyDesc, aclError(void*, aclrtMemcpyKind, void*, void*, size_t, void*));
SIGNATURE(aclrtMemcpyAsyncWithOffset, aclError(void**, size_t, size_t, const void**, size_t, size_t, aclrtMemcpyKind, aclrtStream));
SIGNATURE(aclrtMemcpyBatchAsyncV2, aclError(void**, size_t*, void**, size_t*, size_t, aclrtMemcpyBatchAttr*, size_t*, size_t, aclrtStream));
SIGNATURE(aclrtMemcpyBatchV2, aclError(void**, size_t*, void**, size_t*, size_t, aclrtMemcpyBatchAttr*, size_t*, size_t));
SIGNATURE(aclrtMemsetD32, aclError(void*, size_t, uint32_t, size_t));
SIGNATURE(aclrtMemsetD32Async, aclError(void*, size_t, uint32_t, size_t, aclrtStream));
SIGNATURE(aclrtCmoAsyncWithBarrier, aclError(void*, size_t, aclrtCmoType, uint32_t, aclrtStream));
SIGNATURE(aclrtCmoAsyncWithDesc, aclError(void*, aclrtCmoType, aclrtStream, const void*));
SIGNATURE(aclrtCmoGetDescSize, aclError(size_t*));
SIGNATURE(aclrtCmoSetDesc, aclError(void*, void*, size_t));
SIGNATURE(aclrtCmoWaitBarrier, aclError(aclrtBarrierTaskInfo*, aclrtStream, uint32_t));
// clang-format on

// The constants these calls take, with the real header's values.
static_assert(ACL_RT_MEM_LINK_IDX_0 == 0U && ACL_RT_MEM_LINK_IDX_1 == 1U);
static_assert(ACL_RT_CMO_MAX_BARRIER_NUM == 6U && ACL_RT_MAX_RECORD_PA_NUM_PER_DEV == 20U);
static_assert(ACL_RT_MEM_ACCESS_LINK_HCCS == 1 && ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH == 3);
static_assert(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS == 1 && ACL_RT_IPC_MEM_ATTR_ACCESS_LINK == 0);

namespace {

// The recent error text names the reason.
bool recentSays(const char* what) {
  const char* msg = aclGetRecentErrMsg();
  return msg && std::string(msg).find(what) != std::string::npos;
}

}  // namespace

TEST(NotOnAtlasA2, DieLinksCheckTheirArgumentsThenAreRefused) {
  DeviceSession dev;
  void* va = nullptr;
  const size_t g = 2u << 20;
  ASSERT_EQ(aclrtReserveMemAddress(&va, 2 * g, 0, nullptr, 0), ACL_SUCCESS);
  char* dst = static_cast<char*>(va);
  char* src = dst + g;
  EXPECT_EQ(aclrtMemMapSelectedLink(nullptr, g, src, ACL_RT_MEM_LINK_IDX_0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemMapSelectedLink(dst, 0, src, ACL_RT_MEM_LINK_IDX_0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemMapSelectedLink(dst, g, src, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemMapSelectedLink(dst, g, src, ACL_RT_MEM_LINK_IDX_1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_TRUE(recentSays("Atlas A2"));

  aclrtPhysicalMemProp prop{};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  aclrtDrvMemHandle h = nullptr;
  ASSERT_EQ(aclrtMallocPhysical(&h, g, &prop, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemMapSetLink(nullptr, ACL_RT_MEM_ACCESS_LINK_HCCS), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemMapSetLink(h, static_cast<aclrtMemLinkType>(7)), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemMapSetLink(h, ACL_RT_MEM_ACCESS_LINK_SIO), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_TRUE(recentSays("HCCS/SIO"));
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

  // The reservation outside UC memory: only at an address the caller names, in whole GiB.
  void* nouc = nullptr;
  void* at = reinterpret_cast<void*>(uintptr_t{64} << 40);
  const size_t gib = size_t{1} << 30;
  EXPECT_EQ(aclrtReserveMemAddressNoUCMemory(nullptr, gib, 0, at, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReserveMemAddressNoUCMemory(&nouc, gib + 1, 0, at, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReserveMemAddressNoUCMemory(&nouc, gib, 4096, at, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReserveMemAddressNoUCMemory(&nouc, gib, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReserveMemAddressNoUCMemory(&nouc, gib, 0, at, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReserveMemAddressNoUCMemory(&nouc, gib, 0, at, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_TRUE(recentSays("UC"));
  EXPECT_EQ(nouc, nullptr);
  ASSERT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  ASSERT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
}

TEST(NotOnAtlasA2, SuperNodeIpcChecksItsArgumentsThenIsRefused) {
  DeviceSession dev;
  int32_t pids[2] = {100, 101};
  aclrtServerPid server{3, pids, 2};
  EXPECT_EQ(aclrtIpcMemImportPidInterServer(nullptr, &server, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemImportPidInterServer("key", nullptr, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemImportPidInterServer("key", &server, 0), ACL_ERROR_INVALID_PARAM);
  aclrtServerPid empty{3, nullptr, 0};
  EXPECT_EQ(aclrtIpcMemImportPidInterServer("key", &empty, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemImportPidInterServer("key", &server, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_TRUE(recentSays("super-nodes"));

  EXPECT_EQ(aclrtIpcMemSetAttr(nullptr, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemSetAttr("key", static_cast<aclrtIpcMemAttrType>(1), 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemSetAttr("key", ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 9), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemSetAttr("key", ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_TRUE(recentSays("Atlas A2"));
}

TEST(NotOnAtlasA2, CmoBarriersCheckTheirArgumentsThenAreRefused) {
  DeviceSession dev;
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  EXPECT_EQ(aclrtCmoAsyncWithBarrier(nullptr, 4096, ACL_RT_CMO_TYPE_INVALID, 1, s), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCmoAsyncWithBarrier(d, 0, ACL_RT_CMO_TYPE_INVALID, 1, s), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCmoAsyncWithBarrier(d, 4096, static_cast<aclrtCmoType>(9), 0, s), ACL_ERROR_INVALID_PARAM);
  // Only an invalidate has a barrier id (> 0); the other types take 0.
  EXPECT_EQ(aclrtCmoAsyncWithBarrier(d, 4096, ACL_RT_CMO_TYPE_INVALID, 0, s), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCmoAsyncWithBarrier(d, 4096, ACL_RT_CMO_TYPE_PREFETCH, 2, s), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(
      aclrtCmoAsyncWithBarrier(d, 4096, ACL_RT_CMO_TYPE_INVALID, 1, reinterpret_cast<aclrtStream>(&dev)),
      ACL_SUCCESS);  // not a stream
  EXPECT_EQ(aclrtCmoAsyncWithBarrier(d, 4096, ACL_RT_CMO_TYPE_INVALID, 1, s),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_TRUE(recentSays("barriers"));

  aclrtBarrierTaskInfo info{};
  EXPECT_EQ(aclrtCmoWaitBarrier(nullptr, s, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCmoWaitBarrier(&info, s, 0), ACL_ERROR_INVALID_PARAM);  // no barrier named
  info.barrierNum = ACL_RT_CMO_MAX_BARRIER_NUM + 1;
  EXPECT_EQ(aclrtCmoWaitBarrier(&info, s, 0), ACL_ERROR_INVALID_PARAM);
  info.barrierNum = 1;
  info.cmoInfo[0] = {ACL_RT_CMO_TYPE_FLUSH, 1};
  EXPECT_EQ(aclrtCmoWaitBarrier(&info, s, 0), ACL_ERROR_INVALID_PARAM);  // only invalidates have barriers
  info.cmoInfo[0] = {ACL_RT_CMO_TYPE_INVALID, 1};
  EXPECT_EQ(aclrtCmoWaitBarrier(&info, s, 1), ACL_ERROR_INVALID_PARAM);  // flag is reserved
  EXPECT_EQ(aclrtCmoWaitBarrier(&info, s, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_TRUE(recentSays("barriers"));
  // Nothing reached the stream.
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  aclrtDestroyStream(s);
  aclrtFree(d);
}

TEST(MemoryErrors, TheRecordIsEmptyAndARepairChecksWhatTheRealOneChecks) {
  DeviceSession dev;
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtMemUceInfo rec[ACL_RT_MAX_RECORD_PA_NUM_PER_DEV + 1] = {};
  size_t n = 7;
  ASSERT_EQ(aclrtGetMemUceInfo(0, rec, 0, &n), ACL_SUCCESS);  // no room needed for an empty record
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(aclrtGetMemUceInfo(0, nullptr, 4, &n), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetMemUceInfo(99, rec, 4, &n), ACL_ERROR_RT_INVALID_DEVICEID);

  ASSERT_EQ(aclrtMemUceRepair(0, rec, 0), ACL_SUCCESS);  // what a program repairs after an empty record
  rec[0].addr = static_cast<char*>(d) + 4096;
  rec[0].len = 4096;
  ASSERT_EQ(aclrtMemUceRepair(0, rec, 1), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclrtMemUceRepair(0, nullptr, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemUceRepair(0, rec, ACL_RT_MAX_RECORD_PA_NUM_PER_DEV + 1), ACL_ERROR_INVALID_PARAM);
  rec[0].reserved[3] = 1;
  EXPECT_EQ(aclrtMemUceRepair(0, rec, 1), ACL_ERROR_INVALID_PARAM);
  rec[0].reserved[3] = 0;
  rec[0].len = 2 << 20;  // past the allocation
  EXPECT_EQ(aclrtMemUceRepair(0, rec, 1), ACL_ERROR_INVALID_PARAM);
  rec[0].len = 4096;
  EXPECT_EQ(aclrtMemUceRepair(99, rec, 1), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtMemUceRepair(1, rec, 1), ACL_ERROR_RT_CONTEXT_NULL);  // device 1 is not current
  ASSERT_EQ(aclrtGetMemUceInfo(0, rec, 4, &n), ACL_SUCCESS);
  EXPECT_EQ(n, 0u);
  aclrtFree(d);
}

TEST(CacheAndCopyChecks, ReservedArgumentsMustBeNullAndDescriptorCopiesNeedAStream) {
  DeviceSession dev;
  EXPECT_EQ(aclrtDeviceL2CacheFlush(nullptr), ACL_SUCCESS);
  int rsv = 0;
  EXPECT_EQ(aclrtDeviceL2CacheFlush(&rsv), ACL_ERROR_INVALID_PARAM);

  size_t descBytes = 0;
  ASSERT_EQ(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &descBytes), ACL_SUCCESS);
  void *desc = nullptr, *a = nullptr, *b = nullptr;
  ASSERT_EQ(aclrtMalloc(&desc, descBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&a, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&b, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, a, b, 256, &rsv),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, a, b, 256, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, nullptr),
            ACL_ERROR_INVALID_PARAM);
  aclrtFree(desc);
  aclrtFree(a);
  aclrtFree(b);
}

TEST(MemsetD32, ChecksAlignmentSizeAndMemoryKindAndFillsPinnedHostMemory) {
  DeviceSession dev;
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemsetD32(static_cast<char*>(d) + 2, 64, 1, 4), ACL_ERROR_INVALID_PARAM);  // not 4-aligned
  EXPECT_EQ(aclrtMemsetD32(d, 8, 1, 3), ACL_ERROR_INVALID_PARAM);                           // 12 bytes > 8
  std::vector<uint32_t> own(16, 0);
  EXPECT_EQ(aclrtMemsetD32(own.data(), 64, 1, 16), ACL_ERROR_INVALID_PARAM);  // the program's own memory
  EXPECT_EQ(aclrtMemsetD32(nullptr, 64, 1, 0), ACL_SUCCESS);                  // N = 0: nothing to check or do
  EXPECT_EQ(aclrtMemsetD32Async(static_cast<char*>(d) + 1, 64, 1, 4, nullptr), ACL_ERROR_INVALID_PARAM);

  // aclrtMallocHost memory takes the pattern, synchronously and in stream order.
  void* h = nullptr;
  ASSERT_EQ(aclrtMallocHost(&h, 4096), ACL_SUCCESS);
  auto* w = static_cast<uint32_t*>(h);
  ASSERT_EQ(aclrtMemsetD32(h, 4096, 0xDEADBEEFu, 1000), ACL_SUCCESS);
  EXPECT_EQ(w[0], 0xDEADBEEFu);
  EXPECT_EQ(w[999], 0xDEADBEEFu);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetD32Async(w + 500, 2000, 0x01020304u, 500, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_EQ(w[499], 0xDEADBEEFu);
  EXPECT_EQ(w[500], 0x01020304u);
  EXPECT_EQ(w[999], 0x01020304u);
  aclrtDestroyStream(s);
  aclrtFreeHost(h);
  aclrtFree(d);
}

TEST(MemcpyBatchV2, BadBatchesAreRefusedWholeAndEmptyOnesSucceed) {
  DeviceSession dev;
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 1024, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(d, 1024, 0, 1024), ACL_SUCCESS);
  std::vector<uint8_t> h(512, 7), back(512, 0);
  void* dsts[] = {d, static_cast<char*>(d) + 512};
  void* srcs[] = {h.data(), h.data()};
  size_t maxs[] = {512, 256}, sizes[] = {512, 512};
  aclrtMemcpyBatchAttr attr{};
  attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
  size_t idx[] = {0};
  // Copy 1 is larger than its destination: the batch is refused and copy 0 does not run either.
  EXPECT_EQ(aclrtMemcpyBatchV2(dsts, maxs, srcs, sizes, 2, &attr, idx, 1), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtMemcpy(back.data(), 512, d, 512, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(back[0], 0);
  maxs[1] = 512;
  attr.rsv[0] = 1;
  EXPECT_EQ(aclrtMemcpyBatchAsyncV2(dsts, maxs, srcs, sizes, 2, &attr, idx, 1, nullptr),
            ACL_ERROR_INVALID_PARAM);
  attr.rsv[0] = 0;
  // Nothing to copy: success before the other arrays are looked at.
  size_t none[] = {0, 0};
  EXPECT_EQ(aclrtMemcpyBatchV2(nullptr, nullptr, nullptr, none, 2, nullptr, nullptr, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpyBatchV2(dsts, maxs, srcs, nullptr, 2, &attr, idx, 1), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtMemcpyBatchV2(dsts, maxs, srcs, sizes, 2, &attr, idx, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(back.data(), 512, static_cast<char*>(d) + 512, 512, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(back, h);
  aclrtFree(d);
}

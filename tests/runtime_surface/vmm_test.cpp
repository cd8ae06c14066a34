// Virtual memory, from the documented behaviour: sizes in units of the allocation granularity,
// reserve -> malloc physical -> map -> use as device memory -> unmap -> free/release; the same
// physical pages seen through two mappings and through an imported shareable handle.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "tests/runtime_surface/surface_test_util.h"
#include "tests/runtime_surface/vmm_test_util.h"

using npusim::test::configure;

using npusim::test::deviceProp;

TEST(VirtualMemory, MapUseAndAlias) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtPhysicalMemProp prop = deviceProp(0);
  size_t g = 0;
  ASSERT_EQ(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), ACL_SUCCESS);
  EXPECT_EQ(g, 2u << 20);
  size_t free0 = 0, total = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total), ACL_SUCCESS);

  void* va = nullptr;
  EXPECT_EQ(aclrtReserveMemAddress(&va, g + 1, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReserveMemAddress(&va, g, 0, reinterpret_cast<void*>(0x1000), 0), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtReserveMemAddress(&va, 4 * g, 0, nullptr, 0), ACL_SUCCESS);
  aclrtDrvMemHandle h;
  EXPECT_EQ(aclrtMallocPhysical(&h, g / 2, &prop, 0), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtMallocPhysical(&h, 2 * g, &prop, 0), ACL_SUCCESS);
  size_t free1 = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total), ACL_SUCCESS);
  EXPECT_EQ(free0 - free1, 2 * g);  // physical memory comes out of HBM

  auto* base = static_cast<char*>(va);
  // The same 4 MiB of physical memory at [0, 2g) and at [2g, 4g).
  ASSERT_EQ(aclrtMapMem(base, 2 * g, 0, h, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMapMem(base + g, g, 0, h, 0), ACL_ERROR_INVALID_PARAM);  // overlaps
  ASSERT_EQ(aclrtMapMem(base + 2 * g, 2 * g, 0, h, 0), ACL_SUCCESS);
  std::vector<uint8_t> in(2 * g), out(2 * g, 0);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 7 + 1);
  ASSERT_EQ(aclrtMemcpy(base, 2 * g, in.data(), in.size(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(out.data(), out.size(), base + 2 * g, out.size(), ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(in, out);
  // The two mappings are back to back: one range, the second half of the first then the start of
  // the second (the same pages again).
  ASSERT_EQ(aclrtMemcpy(out.data(), out.size(), base + g, out.size(), ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_TRUE(std::equal(in.begin() + static_cast<long>(g), in.end(), out.begin()));
  EXPECT_TRUE(std::equal(in.begin(), in.begin() + static_cast<long>(g), out.begin() + static_cast<long>(g)));

  // Timed like any device memory: a 4 MiB D2H on the mapped range matches one on aclrtMalloc memory.
  void* plain;
  ASSERT_EQ(aclrtMalloc(&plain, 2 * g, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  void* pinned;
  ASSERT_EQ(aclrtMallocHost(&pinned, 2 * g), ACL_SUCCESS);
  double t0 = npusimHostTimeNs();
  ASSERT_EQ(aclrtMemcpy(pinned, 2 * g, base, 2 * g, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  double t1 = npusimHostTimeNs();
  ASSERT_EQ(aclrtMemcpy(pinned, 2 * g, plain, 2 * g, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  double t2 = npusimHostTimeNs();
  EXPECT_NEAR(t1 - t0, t2 - t1, 0.02 * (t2 - t1));

  EXPECT_EQ(aclrtReleaseMemAddress(va), ACL_ERROR_INVALID_PARAM);  // still mapped
  ASSERT_EQ(aclrtUnmapMem(base), ACL_SUCCESS);
  EXPECT_EQ(aclrtUnmapMem(base), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  // The second mapping still holds the pages.
  ASSERT_EQ(aclrtMemcpy(out.data(), out.size(), base + 2 * g, out.size(), ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(in, out);
  ASSERT_EQ(aclrtUnmapMem(base + 2 * g), ACL_SUCCESS);
  size_t free2 = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total), ACL_SUCCESS);
  EXPECT_EQ(free0 - free2, 2 * g + 32);  // the pages went back; only `plain` (ALIGN_UP + 32) remains
  ASSERT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
}

TEST(VirtualMemory, ShareableHandleWithinTheProcess) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  aclrtPhysicalMemProp prop = deviceProp(1);
  const size_t g = 2u << 20;
  aclrtDrvMemHandle h, imported;
  ASSERT_EQ(aclrtMallocPhysical(&h, g, &prop, 0), ACL_SUCCESS);
  uint64_t share = 0;
  EXPECT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_POSIX, 0, &share),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &share), ACL_SUCCESS);
  int32_t self = getpid(), other = getpid() + 1;
  EXPECT_EQ(aclrtMemSetPidToShareableHandle(share, &self, 1), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemSetPidToShareableHandle(share, &other, 1), ACL_ERROR_API_NOT_SUPPORT);
  ASSERT_EQ(aclrtMemImportFromShareableHandle(share, 1, &imported), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemImportFromShareableHandle(share + 100, 1, &imported), ACL_ERROR_API_NOT_SUPPORT);
  aclrtPhysicalMemProp got{};
  ASSERT_EQ(aclrtMemGetAllocationPropertiesFromHandle(imported, &got), ACL_SUCCESS);
  EXPECT_EQ(got.location.id, 1u);
  void *a, *b;
  ASSERT_EQ(aclrtReserveMemAddress(&a, g, 0, nullptr, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtReserveMemAddress(&b, g, 0, nullptr, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMapMem(a, g, 0, h, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMapMem(b, g, 0, imported, 0), ACL_SUCCESS);
  aclrtMemAccessDesc acc{};
  acc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
  acc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  acc.location.id = 1;
  ASSERT_EQ(aclrtMemSetAccess(a, g, &acc, 1), ACL_SUCCESS);
  acc.location.type = ACL_MEM_LOCATION_TYPE_HOST;
  EXPECT_EQ(aclrtMemSetAccess(a, g, &acc, 1), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtMemsetAsync(a, g, 0x5A, g, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  uint8_t probe[64] = {};
  ASSERT_EQ(aclrtMemcpy(probe, 64, static_cast<char*>(b) + g - 64, 64, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  for (uint8_t v : probe) EXPECT_EQ(v, 0x5A);
  aclrtDrvMemHandle retained;
  ASSERT_EQ(aclrtMemRetainAllocationHandle(static_cast<char*>(b) + 100, &retained), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreePhysical(retained), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreePhysical(retained), ACL_ERROR_INVALID_PARAM);
}

// Physical chunks mapped back to back into one reserved range are one address range to copies and
// memsets (as the driver's page tables make them); an access that runs on into an unmapped page
// is stopped by the misuse checker.
TEST(VirtualMemory, BackToBackMappingsAreOneRange) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const size_t g = 2u << 20;
  void* between;  // an allocation made after both chunks
  npusim::test::TwoChunkRange r;
  uint8_t* base = r.base;
  ASSERT_EQ(aclrtMalloc(&between, g, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);

  // A 2 MiB copy straddling the boundary, in and back out.
  std::vector<uint8_t> in(g), out(g, 0);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 13 + 5);
  uint8_t* mid = base + g / 2;
  ASSERT_EQ(aclrtMemcpy(mid, g, in.data(), g, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtMemcpy(out.data(), g, mid, g, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(in, out);
  // Each chunk holds its half: read the first-allocated chunk (mapped second) through a mapping of its own.
  void* va2 = nullptr;
  ASSERT_EQ(aclrtReserveMemAddress(&va2, g, 0, nullptr, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMapMem(va2, g, 0, r.first, 0), ACL_SUCCESS);
  std::vector<uint8_t> startOfSecondPage(g / 2);
  ASSERT_EQ(aclrtMemcpy(startOfSecondPage.data(), g / 2, va2, g / 2, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_TRUE(
      std::equal(startOfSecondPage.begin(), startOfSecondPage.end(), in.begin() + static_cast<long>(g / 2)));

  // A memset across the boundary, and a device-to-device copy across it.
  ASSERT_EQ(aclrtMemset(base + g - 100, 200, 0xab, 200), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(out.data(), 200, base + g - 100, 200, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_TRUE(std::all_of(out.begin(), out.begin() + 200, [](uint8_t v) { return v == 0xab; }));
  ASSERT_EQ(aclrtMemcpy(between, 4096, base + g - 2048, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);

  // Past the second chunk lies an unmapped page of the reservation.
  EXPECT_EQ(aclrtMemcpy(out.data(), g, base + g + g / 2, g, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("unmapped"), std::string::npos);
  EXPECT_EQ(aclrtMemset(base + 2 * g - 8, 16, 0, 16), ACL_ERROR_RT_PARAM_INVALID);
  // Unmapping the second page ends the range at the first.
  r.unmapSecondPage();
  EXPECT_EQ(aclrtMemcpy(out.data(), g, mid, g, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtMemcpy(out.data(), g / 2, mid, g / 2, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_TRUE(
      std::equal(out.begin(), out.begin() + static_cast<long>(g / 2 - 100), in.begin()));  // up to the memset

  ASSERT_EQ(aclrtUnmapMem(va2), ACL_SUCCESS);
  ASSERT_EQ(aclrtReleaseMemAddress(va2), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(between), ACL_SUCCESS);
}

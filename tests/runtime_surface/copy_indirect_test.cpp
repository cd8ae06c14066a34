// Copies whose addresses the device reads when the copy starts (descriptors, pointers with
// offsets), the V2 batch copies, and managed-memory advice, attributes and prefetch, from the
// CANN reference's descriptions.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "acl/acl.h"
#include "tests/runtime_surface/surface_test_util.h"

using npusim::test::configure;
using npusim::test::DeviceSession;
using npusim::test::elapsedMs;

namespace {

void* deviceWith(const std::vector<uint8_t>& bytes) {
  void* d = nullptr;
  EXPECT_EQ(aclrtMalloc(&d, bytes.size(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(d, bytes.size(), bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  return d;
}

std::vector<uint8_t> read(const void* d, size_t n) {
  std::vector<uint8_t> out(n);
  EXPECT_EQ(aclrtMemcpy(out.data(), n, d, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  return out;
}

}  // namespace

TEST(CopyDescriptors, TheDeviceCopiesWhatTheDescriptorSaysWhenTheCopyStarts) {
  DeviceSession dev;
  const size_t n = 1 << 20;
  std::vector<uint8_t> a(n), b(n, 0);
  std::iota(a.begin(), a.end(), 0);
  void* src = deviceWith(a);
  void* other = deviceWith(std::vector<uint8_t>(n, 0x33));
  void* dst = deviceWith(b);
  void* dst2 = deviceWith(b);
  size_t descSize = 0;
  ASSERT_EQ(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &descSize), ACL_SUCCESS);
  EXPECT_GT(descSize, 0u);
  EXPECT_EQ(aclrtGetMemcpyDescSize(ACL_MEMCPY_HOST_TO_DEVICE, &descSize), ACL_ERROR_INVALID_PARAM);
  void* desc = nullptr;
  ASSERT_EQ(aclrtMalloc(&desc, descSize, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src, dst, n, nullptr), ACL_SUCCESS);
  std::vector<uint8_t> hostDesc(descSize);
  EXPECT_EQ(aclrtSetMemcpyDesc(hostDesc.data(), ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src, dst, n, nullptr),
            ACL_ERROR_INVALID_PARAM);  // a descriptor lives in device memory

  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  aclrtEvent e0, e1, e2;
  for (aclrtEvent* e : {&e0, &e1, &e2}) ASSERT_EQ(aclrtCreateEvent(e), ACL_SUCCESS);
  // A first copy (from `other`) makes the memory as warm for the two timed ones.
  ASSERT_EQ(aclrtMemcpyAsync(dst, n, other, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(e0, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(e1, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dst2, n, src, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(e2, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_EQ(read(dst, n), a);
  EXPECT_NEAR(elapsedMs(e0, e1), elapsedMs(e1, e2), 0.1 * elapsedMs(e1, e2));  // a D2D copy's time

  // Rewriting the descriptor changes what the next copy does.
  ASSERT_EQ(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, other, dst, n / 2, nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  std::vector<uint8_t> got = read(dst, n);
  EXPECT_EQ(got[0], 0x33);
  EXPECT_EQ(got[n / 2 - 1], 0x33);
  EXPECT_EQ(got[n / 2], a[n / 2]);

  // A descriptor never set fails the copy on the device; the stream reports it.
  void* blank = nullptr;
  ASSERT_EQ(aclrtMalloc(&blank, descSize, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(blank, descSize, 0, descSize), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsyncWithDesc(blank, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(s), ACL_SUCCESS);
  aclrtDestroyStreamForce(s);
}

TEST(CopyWithOffset, BaseAddressesFromAHostVariableOrADevicePointerTable) {
  DeviceSession dev;
  const size_t n = 4096;
  std::vector<uint8_t> a(n);
  std::iota(a.begin(), a.end(), 7);
  void* src = deviceWith(a);
  void* dst = deviceWith(std::vector<uint8_t>(n, 0));
  const void* srcBase = src;
  void* dstBase = dst;
  ASSERT_EQ(aclrtMemcpyAsyncWithOffset(&dstBase, n, 100, &srcBase, 1000, 10,
                                       ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  std::vector<uint8_t> got = read(dst, n);
  EXPECT_EQ(got[99], 0);
  for (size_t i = 0; i < 1000; ++i) ASSERT_EQ(got[100 + i], a[10 + i]) << i;
  EXPECT_EQ(got[1100], 0);

  // Pointers in device memory are read when the copy runs: a copy queued before them sets them.
  void* table = nullptr;
  ASSERT_EQ(aclrtMalloc(&table, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const uintptr_t ptrs[2] = {reinterpret_cast<uintptr_t>(dst), reinterpret_cast<uintptr_t>(src)};
  void* staged = deviceWith(std::vector<uint8_t>(reinterpret_cast<const uint8_t*>(ptrs),
                                                 reinterpret_cast<const uint8_t*>(ptrs) + 16));
  ASSERT_EQ(aclrtMemset(table, 16, 0, 16), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(table, 16, staged, 16, ACL_MEMCPY_DEVICE_TO_DEVICE, nullptr), ACL_SUCCESS);
  void** dstSlot = static_cast<void**>(table);
  const void** srcSlot = reinterpret_cast<const void**>(static_cast<uint8_t*>(table) + 8);
  ASSERT_EQ(aclrtMemcpyAsyncWithOffset(dstSlot, n, 2000, srcSlot, 50, 0, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
                                       nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  got = read(dst, n);
  for (size_t i = 0; i < 50; ++i) ASSERT_EQ(got[2000 + i], a[i]) << i;

  EXPECT_EQ(aclrtMemcpyAsyncWithOffset(&dstBase, 10, 0, &srcBase, 20, 0, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
                                       nullptr),
            ACL_ERROR_RT_PARAM_INVALID);  // count > destMax
  EXPECT_EQ(aclrtMemcpyAsyncWithOffset(&dstBase, n, 0, &srcBase, 20, 0, ACL_MEMCPY_DEVICE_TO_DEVICE, nullptr),
            ACL_ERROR_INVALID_PARAM);  // only the inner-device kind
}

TEST(MemcpyBatchV2, CopiesEveryItemWithoutAFailIndex) {
  DeviceSession dev;
  std::vector<uint8_t> h1(256, 1), h2(512, 2);
  void* d1 = deviceWith(std::vector<uint8_t>(256, 0));
  void* d2 = deviceWith(std::vector<uint8_t>(512, 0));
  void* dsts[] = {d1, d2};
  void* srcs[] = {h1.data(), h2.data()};
  size_t maxs[] = {256, 512}, sizes[] = {256, 512};
  aclrtMemcpyBatchAttr attr{};
  attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
  size_t idx[] = {0};
  ASSERT_EQ(aclrtMemcpyBatchV2(dsts, maxs, srcs, sizes, 2, &attr, idx, 1), ACL_SUCCESS);
  EXPECT_EQ(read(d2, 512), h2);
  std::fill(h1.begin(), h1.end(), 9);
  ASSERT_EQ(aclrtMemcpyBatchAsyncV2(dsts, maxs, srcs, sizes, 2, &attr, idx, 1, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(read(d1, 256), h1);
  EXPECT_EQ(aclrtMemcpyBatchV2(nullptr, maxs, srcs, sizes, 2, &attr, idx, 1), ACL_ERROR_INVALID_PARAM);
}

TEST(ManagedAdvice, AdviceReadsBackPerPageAndPrefetchIsTimedAcrossPcie) {
  DeviceSession dev;
  const size_t page = 2 << 20, size = 4 * page;
  void* m = nullptr;
  ASSERT_EQ(aclrtMemAllocManaged(&m, size, 1), ACL_SUCCESS);
  aclrtMemManagedLocation device0{ACL_MEM_LOCATIONTYPE_DEVICE, 0}, host{ACL_MEM_LOCATIONTYPE_HOST, 0};
  ASSERT_EQ(aclrtMemManagedAdvise(m, 2 * page, ACL_MEM_ADVISE_SET_READ_MOSTLY, device0), ACL_SUCCESS);
  int32_t v = 9;
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 2 * page, &v, 4), ACL_SUCCESS);
  EXPECT_EQ(v, 1);
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, size, &v, 4), ACL_SUCCESS);
  EXPECT_EQ(v, 0);  // not every page
  EXPECT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, size, &v, 8),
            ACL_ERROR_INVALID_PARAM);

  ASSERT_EQ(aclrtMemManagedAdvise(m, size, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, device0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, size, &v, 4), ACL_SUCCESS);
  EXPECT_EQ(v, 0);
  ASSERT_EQ(
      aclrtMemManagedAdvise(static_cast<char*>(m) + page, page, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, host),
      ACL_SUCCESS);
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, size, &v, 4), ACL_SUCCESS);
  EXPECT_EQ(v, -2);  // the pages disagree
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, static_cast<char*>(m) + page,
                                   page, &v, 4),
            ACL_SUCCESS);
  EXPECT_EQ(v, -1);  // the host

  ASSERT_EQ(aclrtMemManagedAdvise(m, size, ACL_MEM_ADVISE_SET_ACCESSED_BY, device0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemManagedAdvise(m, size, ACL_MEM_ADVISE_SET_ACCESSED_BY, host), ACL_SUCCESS);
  int32_t ids[3] = {7, 7, 7};
  aclrtMemManagedRangeAttribute attrs[] = {ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
                                           ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY};
  void* data[] = {ids, &v};
  size_t sizes[] = {sizeof ids, 4};
  ASSERT_EQ(aclrtMemManagedGetAttrs(attrs, 2, m, size, data, sizes), ACL_SUCCESS);
  EXPECT_EQ(ids[0], -1);
  EXPECT_EQ(ids[1], 0);
  EXPECT_EQ(ids[2], -2);

  int local = 0;
  EXPECT_EQ(aclrtMemManagedAdvise(&local, 4, ACL_MEM_ADVISE_SET_READ_MOSTLY, device0),
            ACL_ERROR_INVALID_PARAM);

  // Prefetch: a copy of the range over PCIe at about the H2D rate (~24 GB/s: 8 MiB in ~0.35 ms).
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  aclrtEvent e0, e1;
  ASSERT_EQ(aclrtCreateEvent(&e0), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&e1), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(e0, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemManagedPrefetchAsync(m, size, device0, 0, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(e1, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  const double gbps = static_cast<double>(size) / (elapsedMs(e0, e1) * 1e-3) / 1e9;
  EXPECT_GT(gbps, 15.0);
  EXPECT_LT(gbps, 27.0);
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, size, &v, 4),
            ACL_SUCCESS);
  EXPECT_EQ(v, 0);
  aclrtMemManagedLocation device1{ACL_MEM_LOCATIONTYPE_DEVICE, 1};
  EXPECT_EQ(aclrtMemManagedPrefetchAsync(m, size, device1, 0, s),
            ACL_ERROR_INVALID_PARAM);  // not the stream's
  const void* ptrs[] = {m, static_cast<char*>(m) + page};
  size_t lens[] = {page, page}, locIdx[] = {0, 1};
  aclrtMemManagedLocation locs[] = {host, device0};
  ASSERT_EQ(aclrtMemManagedPrefetchBatchAsync(ptrs, lens, 2, locs, locIdx, 2, 0, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, page, &v, 4),
            ACL_SUCCESS);
  EXPECT_EQ(v, -1);
  aclrtDestroyStream(s);
  ASSERT_EQ(aclrtFree(m), ACL_SUCCESS);
}

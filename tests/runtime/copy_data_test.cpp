// Data correctness of every copy kind: the bytes that arrive are the bytes that were sent,
// for odd sizes and offsets, 2D copies with pitches, memsets, pageable and pinned memory.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "tests/runtime/sim_test_util.h"

using npusim::test::configure;

namespace {

std::vector<unsigned char> pattern(size_t n, unsigned seed) {
  std::vector<unsigned char> v(n);
  std::mt19937 g(seed);
  for (auto& b : v) b = static_cast<unsigned char>(g());
  return v;
}

struct Dev {
  Dev() {
    configure("");
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  }
  aclrtStream s = nullptr;
};

void* dmalloc(size_t n) {
  void* p = nullptr;
  EXPECT_EQ(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  return p;
}
void* hmalloc(size_t n) {
  void* p = nullptr;
  EXPECT_EQ(aclrtMallocHost(&p, n), ACL_SUCCESS);
  return p;
}

}  // namespace

TEST(CopyData, RoundTripsOddSizesAndOffsets) {
  Dev dev;
  for (size_t n : {1u, 3u, 63u, 64u, 65u, 4097u, 65537u, 1000003u}) {
    for (size_t off : {0u, 1u, 7u, 64u}) {
      SCOPED_TRACE(testing::Message() << "n=" << n << " off=" << off);
      auto src = pattern(n, static_cast<unsigned>(n + off));
      unsigned char* h = static_cast<unsigned char*>(hmalloc(n + off));
      unsigned char* back = static_cast<unsigned char*>(hmalloc(n + off));
      char* d = static_cast<char*>(dmalloc(n + off));
      std::memcpy(h + off, src.data(), n);
      ASSERT_EQ(aclrtMemcpy(d + off, n, h + off, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
      char* d2 = static_cast<char*>(dmalloc(n + off));
      ASSERT_EQ(aclrtMemcpyAsync(d2 + off, n, d + off, n, ACL_MEMCPY_DEVICE_TO_DEVICE, dev.s), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemcpyAsync(back + off, n, d2 + off, n, ACL_MEMCPY_DEVICE_TO_HOST, dev.s), ACL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(dev.s), ACL_SUCCESS);
      EXPECT_EQ(std::memcmp(back + off, src.data(), n), 0);
      aclrtFree(d);
      aclrtFree(d2);
      aclrtFreeHost(h);
      aclrtFreeHost(back);
    }
  }
}

TEST(CopyData, HostToHostSync) {
  Dev dev;
  auto src = pattern(10000, 1);
  std::vector<unsigned char> dst(10000, 0);
  ASSERT_EQ(aclrtMemcpy(dst.data(), dst.size(), src.data(), src.size(), ACL_MEMCPY_HOST_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(dst, src);
}

TEST(CopyData, PageableSyncAndAsync) {
  Dev dev;
  const size_t n = 5u << 20;  // several staging chunks
  auto src = pattern(n, 2);
  std::vector<unsigned char> back(n, 0);
  void* d = dmalloc(n);
  ASSERT_EQ(aclrtMemcpy(d, n, src.data(), n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(back.data(), n, d, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(back, src);
  std::fill(back.begin(), back.end(), 0);
  // Async from pageable memory: synchronous in effect, the data is there when it returns.
  ASSERT_EQ(aclrtMemcpyAsync(back.data(), n, d, n, ACL_MEMCPY_DEVICE_TO_HOST, dev.s), ACL_SUCCESS);
  EXPECT_EQ(back, src);
}

TEST(CopyData, TwoDimensionalWithPitches) {
  Dev dev;
  const size_t width = 100, height = 37, spitch = 128, dpitch = 160;
  auto src = pattern(spitch * height, 3);
  unsigned char* h = static_cast<unsigned char*>(hmalloc(spitch * height));
  std::memcpy(h, src.data(), src.size());
  void* d = dmalloc(dpitch * height);
  ASSERT_EQ(aclrtMemset(d, dpitch * height, 0xEE, dpitch * height), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy2d(d, dpitch, h, spitch, width, height, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  std::vector<unsigned char> flat(dpitch * height);
  ASSERT_EQ(aclrtMemcpy(flat.data(), flat.size(), d, flat.size(), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (size_t r = 0; r < height; ++r) {
    EXPECT_EQ(std::memcmp(&flat[r * dpitch], &src[r * spitch], width), 0) << "row " << r;
    for (size_t c = width; c < dpitch; ++c) ASSERT_EQ(flat[r * dpitch + c], 0xEE) << "pitch gap overwritten";
  }
  // And back, asynchronously, into a third pitch.
  const size_t opitch = 104;
  unsigned char* out = static_cast<unsigned char*>(hmalloc(opitch * height));
  ASSERT_EQ(aclrtMemcpy2dAsync(out, opitch, d, dpitch, width, height, ACL_MEMCPY_DEVICE_TO_HOST, dev.s),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(dev.s), ACL_SUCCESS);
  for (size_t r = 0; r < height; ++r) EXPECT_EQ(std::memcmp(out + r * opitch, &src[r * spitch], width), 0);
}

TEST(CopyData, MemsetSyncAsyncAndHost) {
  Dev dev;
  const size_t n = 3000;
  void* d = dmalloc(n);
  ASSERT_EQ(aclrtMemset(d, n, 0x11, n), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(static_cast<char*>(d) + 1000, n - 1000, 0x22, 1000, dev.s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(dev.s), ACL_SUCCESS);
  std::vector<unsigned char> back(n);
  ASSERT_EQ(aclrtMemcpy(back.data(), n, d, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(back[i], (i >= 1000 && i < 2000) ? 0x22 : 0x11) << i;
  // aclrtMemset infers host memory from the address.
  unsigned char* h = static_cast<unsigned char*>(hmalloc(64));
  ASSERT_EQ(aclrtMemset(h, 64, 0x7F, 64), ACL_SUCCESS);
  EXPECT_EQ(h[0], 0x7F);
  EXPECT_EQ(h[63], 0x7F);
}

TEST(CopyData, FreshDeviceMemoryIsZeroAndLargeAllocationsAreSparse) {
  Dev dev;
  const size_t n = 16ull << 30;  // 16 GiB: only what is touched costs host memory
  void* d = dmalloc(n);
  unsigned char probe[16] = {1};
  ASSERT_EQ(aclrtMemcpy(probe, 16, static_cast<char*>(d) + n - 16, 16, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  for (unsigned char b : probe) EXPECT_EQ(b, 0);
}

TEST(CopyData, ManyAsyncCopiesOnFourStreamsKeepOrder) {
  Dev dev;
  aclrtStream s[4];
  for (auto& x : s) ASSERT_EQ(aclrtCreateStream(&x), ACL_SUCCESS);
  const size_t n = 4096, k = 200;
  unsigned char* h = static_cast<unsigned char*>(hmalloc(n * k));
  for (size_t i = 0; i < n * k; ++i) h[i] = static_cast<unsigned char>(i / n);
  char* d = static_cast<char*>(dmalloc(n * k));
  for (size_t i = 0; i < k; ++i)
    ASSERT_EQ(aclrtMemcpyAsync(d + i * n, n, h + i * n, n, ACL_MEMCPY_HOST_TO_DEVICE, s[i % 4]), ACL_SUCCESS);
  for (auto& x : s) ASSERT_EQ(aclrtSynchronizeStream(x), ACL_SUCCESS);
  std::vector<unsigned char> back(n * k);
  ASSERT_EQ(aclrtMemcpy(back.data(), back.size(), d, back.size(), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (size_t i = 0; i < n * k; i += 511) ASSERT_EQ(back[i], static_cast<unsigned char>(i / n));
}

// Copies of 8 MiB and more land with non-temporal stores (models/common/stream_copy.h): every
// kind, odd offsets and sizes, 2D pitches, and overlapping device ranges (which keep memmove).
// The offsets are unaligned on purpose: npusim warns, as the runtime's checks do, and copies.
TEST(CopyData, LargeCopiesArriveWhole) {
  Dev dev;
  const size_t n = (8u << 20) + 4093;
  for (size_t off : {0u, 5u, 64u}) {
    SCOPED_TRACE(testing::Message() << "off=" << off);
    auto src = pattern(n, static_cast<unsigned>(off) + 11);
    auto* h = static_cast<unsigned char*>(hmalloc(n + off));
    auto* back = static_cast<unsigned char*>(hmalloc(n + off));
    auto* d = static_cast<char*>(dmalloc(n + 128));
    auto* d2 = static_cast<char*>(dmalloc(n + 128));
    std::memcpy(h + off, src.data(), n);
    ASSERT_EQ(aclrtMemcpyAsync(d + 3, n, h + off, n, ACL_MEMCPY_HOST_TO_DEVICE, dev.s), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(d2 + off, n, d + 3, n, ACL_MEMCPY_DEVICE_TO_DEVICE, dev.s), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(back + off, n, d2 + off, n, ACL_MEMCPY_DEVICE_TO_HOST, dev.s), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(dev.s), ACL_SUCCESS);
    EXPECT_EQ(std::memcmp(back + off, src.data(), n), 0);
    // Overlapping, within one buffer, moving the data down by 1000 bytes: the bursts run in
    // address order, so each reads its source before a later burst writes over it.
    ASSERT_EQ(aclrtMemcpyAsync(d + 3, n - 1000, d + 1003, n - 1000, ACL_MEMCPY_DEVICE_TO_DEVICE, dev.s),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(back, n, d + 3, n, ACL_MEMCPY_DEVICE_TO_HOST, dev.s), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(dev.s), ACL_SUCCESS);
    EXPECT_EQ(std::memcmp(back, src.data() + 1000, n - 1000), 0);
    EXPECT_EQ(std::memcmp(back + n - 1000, src.data() + n - 1000, 1000), 0);
    aclrtFree(d), aclrtFree(d2), aclrtFreeHost(h), aclrtFreeHost(back);
  }
  // A pitched 2D copy of 4096 rows of 2049 bytes (8.4 MB).
  const size_t width = 2049, height = 4096, spitch = 2051, dpitch = 2112;
  auto src = pattern(spitch * height, 5);
  auto* d = static_cast<unsigned char*>(dmalloc(dpitch * height));
  ASSERT_EQ(aclrtMemcpy2d(d, dpitch, src.data(), spitch, width, height, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  std::vector<unsigned char> out(width * height);
  ASSERT_EQ(aclrtMemcpy2d(out.data(), width, d, dpitch, width, height, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  for (size_t r = 0; r < height; ++r)
    ASSERT_EQ(std::memcmp(out.data() + r * width, src.data() + r * spitch, width), 0) << "row " << r;
  aclrtFree(d);
}

// Memory misuse checks (docs/checks.md): each test provokes one check and asserts the return
// code, the message on stderr and the finding in the statistics.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_add.h"
#include "tests/checks/check_test_util.h"

using npusim::test::configureChecks;
using npusim::test::contains;
using npusim::test::findingsOf;
using npusim::test::openDevice;
using npusim::test::readStats;
using npusim::test::recentError;
using npusim::test::stderrOf;

namespace {

constexpr aclrtMemMallocPolicy kHuge = ACL_MEM_MALLOC_HUGE_FIRST;

char* at(void* p, size_t off) { return static_cast<char*>(p) + off; }

}  // namespace

TEST(MemoryChecks, CopyPastTheReservedEndIsAnError) {
  std::string stats = configureChecks("");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void *d = nullptr, *h = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 100, kHuge), ACL_SUCCESS);  // ALIGN_UP(100, 32) + 32 = 160 reserved
  ASSERT_EQ(aclrtMallocHost(&h, 8192), ACL_SUCCESS);
  // The allocation holds one 4 KiB device page: 4097 bytes run past it.
  std::string err = stderrOf([&] {
    EXPECT_EQ(aclrtMemcpy(d, 8192, h, 4097, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  });
  EXPECT_TRUE(contains(err, "npusim: error [out_of_bounds] aclrtMemcpy(dst=0x")) << err;
  EXPECT_TRUE(contains(err, "destMax=8192, src=0x")) << err;
  EXPECT_TRUE(contains(err, "count=4097, kind=ACL_MEMCPY_HOST_TO_DEVICE)")) << err;
  EXPECT_TRUE(contains(err,
                       "runs past the end of allocation #1 (100 bytes requested, 160 reserved, made by "
                       "aclrtMalloc) and of its last 4096-byte device page"))
      << err;
  EXPECT_TRUE(contains(err, "called from")) << err;
  EXPECT_TRUE(contains(err, "test_checks")) << err;  // the program location, not the runtime's
  EXPECT_TRUE(contains(recentError(), "runs past the end of allocation #1"));
  // Memsets, device sources and 2D extents are checked the same way.
  EXPECT_EQ(aclrtMemset(d, 8192, 0, 4200), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpy(h, 8192, d, 4097, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpy2d(d, 64, h, 64, 64, 65, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  // An address past the end, inside the device's address range, is not allocated memory.
  EXPECT_EQ(aclrtMemcpy(at(d, 1u << 30), 16, h, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_TRUE(contains(recentError(), "not allocated"));
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  nlohmann::json s = readStats(stats);
  nlohmann::json oob = findingsOf(s, "out_of_bounds");
  ASSERT_EQ(oob.size(), 4u) << s["findings"].dump(1);
  EXPECT_EQ(oob[0]["severity"], "error");
  EXPECT_EQ(oob[0]["call"], "aclrtMemcpy");
  EXPECT_EQ(oob[1]["call"], "aclrtMemset");
  EXPECT_EQ(oob[3]["call"], "aclrtMemcpy2d");
  EXPECT_TRUE(contains(oob[3]["args"].get<std::string>(), "width=64, height=65"));
  EXPECT_EQ(findingsOf(s, "not_allocated").size(), 1u);
}

TEST(MemoryChecks, AccessIntoThePaddingIsAWarningAndHappens) {
  std::string stats = configureChecks("");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void *d = nullptr, *h = nullptr, *back = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 100, kHuge), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&h, 8192), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&back, 4096), ACL_SUCCESS);
  for (int i = 0; i < 160; ++i) static_cast<unsigned char*>(h)[i] = static_cast<unsigned char>(i + 1);
  // Within the requested size: nothing to say.
  EXPECT_EQ(stderrOf([&] { EXPECT_EQ(aclrtMemcpy(d, 100, h, 100, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS); }),
            "");
  // Into the padding (seed 003: sizes are padded to ALIGN_UP(size, 32) + 32): allowed, but a bug.
  std::string err =
      stderrOf([&] { EXPECT_EQ(aclrtMemcpy(d, 160, h, 160, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS); });
  EXPECT_TRUE(contains(err, "npusim: warning [padding_access] aclrtMemcpy(dst=")) << err;
  EXPECT_TRUE(contains(err,
                       "reaches 60 bytes into the padding of allocation #1 (100 bytes requested, 160 "
                       "reserved, made by aclrtMalloc)"))
      << err;
  // The copy really happened, padding included.
  EXPECT_EQ(aclrtMemcpy(back, 160, d, 160, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(back, h, 160), 0);
  EXPECT_EQ(aclrtMemset(at(d, 96), 64, 0, 8), ACL_SUCCESS);  // bytes 100..103 are padding
  // aclrtMallocAlign32 has no extra 32 bytes: its padding is only the rounding to 32.
  void* a = nullptr;
  ASSERT_EQ(aclrtMallocAlign32(&a, 33, kHuge), ACL_SUCCESS);  // 64 reserved
  EXPECT_EQ(aclrtMemcpy(a, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(a, 4097, h, 4097, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  // acldvppMalloc pads like aclrtMalloc.
  void* v = nullptr;
  ASSERT_EQ(acldvppMalloc(&v, 10), ACL_SUCCESS);  // 64 reserved
  EXPECT_EQ(aclrtMemcpy(v, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(v, 4097, h, 4097, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  nlohmann::json s = readStats(stats);
  nlohmann::json pad = findingsOf(s, "padding_access");
  ASSERT_EQ(pad.size(), 5u) << s["findings"].dump(1);  // 2 memcpy H2D, D2H, memset, Align32, dvpp
  for (const auto& f : pad) EXPECT_EQ(f["severity"], "warning");
  EXPECT_EQ(findingsOf(s, "out_of_bounds").size(), 2u);
}

TEST(MemoryChecks, CopyIntoTheRestOfTheLastDevicePageIsAWarningAndHappens) {
  // The driver checks copies against the pages an allocation holds, so the public examples that
  // read back twice the bytes they allocated run on hardware (docs/checks.md).
  std::string stats = configureChecks("");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void *d = nullptr, *next = nullptr, *h = nullptr, *back = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 128, kHuge), ACL_SUCCESS);  // 160 reserved, one 4 KiB page
  ASSERT_EQ(aclrtMalloc(&next, 64, kHuge), ACL_SUCCESS);
  EXPECT_GE(reinterpret_cast<uintptr_t>(next), reinterpret_cast<uintptr_t>(d) + 4096);  // pages not shared
  ASSERT_EQ(aclrtMallocHost(&h, 4096), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&back, 4096), ACL_SUCCESS);
  for (int i = 0; i < 4096; ++i) static_cast<unsigned char*>(h)[i] = static_cast<unsigned char>(i * 7 + 3);
  std::string err =
      stderrOf([&] { EXPECT_EQ(aclrtMemcpy(d, 4096, h, 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS); });
  EXPECT_TRUE(contains(err, "npusim: warning [padding_access] aclrtMemcpy(dst=")) << err;
  EXPECT_TRUE(contains(err,
                       "runs 3936 bytes past the end of allocation #1 (128 bytes requested, 160 reserved, "
                       "made by aclrtMalloc) into the rest of its last device page"))
      << err;
  EXPECT_EQ(aclrtMemcpy(back, 4096, d, 4096, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(back, h, 4096), 0);  // the slack kept what was written, untouched by `next`
  EXPECT_EQ(aclrtMemset(next, 64, 0, 64), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(back, 4096, d, 4096, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(back, h, 4096), 0);
  // The used memory still counts the padded size, not the page.
  size_t free0 = 0, free1 = 0, total = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total), ACL_SUCCESS);
  void* e = nullptr;
  ASSERT_EQ(aclrtMalloc(&e, 100, kHuge), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total), ACL_SUCCESS);
  EXPECT_EQ(free0 - free1, 160u);
  // From 1 MiB on the pages are 2 MiB: a 1 MiB allocation reaches to 2 MiB, not past it.
  void* big = nullptr;
  ASSERT_EQ(aclrtMalloc(&big, 1u << 20, kHuge), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemset(big, 2u << 20, 0, 2u << 20), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemset(big, (2u << 20) + 1, 0, (2u << 20) + 1), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  nlohmann::json s = readStats(stats);
  EXPECT_EQ(findingsOf(s, "padding_access").size(), 4u) << s["findings"].dump(1);  // per call site
  EXPECT_EQ(findingsOf(s, "out_of_bounds").size(), 1u) << s["findings"].dump(1);
}

TEST(MemoryChecks, HostRangePastTheProcessMemoryIsRefusedNotACrash) {
  // A count larger than the host buffer that runs into unmapped memory: the driver fails to pin
  // it; npusim refuses instead of faulting inside the copy.
  configureChecks("");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  char* host =
      static_cast<char*>(mmap(nullptr, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(host, MAP_FAILED);
  ASSERT_EQ(munmap(host + page, 2 * page), 0);  // one readable page, then nothing
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 3 * page, kHuge), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(d, 3 * page, host, page, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  std::string err = stderrOf([&] {
    EXPECT_EQ(aclrtMemcpy(d, 3 * page, host + 8, 2 * page, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_RT_PARAM_INVALID);
  });
  EXPECT_TRUE(contains(
      err, "reaches host memory the process has not mapped, " + std::to_string(page - 8) + " bytes in"))
      << err;
  EXPECT_EQ(aclrtMemcpy(host, 3 * page, d, 3 * page, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpy(host, page, d, page, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  munmap(host, page);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(MemoryChecks, UseAfterFreeNamesTheFreedAllocation) {
  configureChecks("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void *d = nullptr, *h = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 256, kHuge), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&h, 4096), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(d), ACL_SUCCESS);
  std::string err = stderrOf([&] {
    EXPECT_EQ(aclrtMemcpy(h, 4096, at(d, 16), 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  });
  EXPECT_TRUE(contains(err, "npusim: error [use_after_free] aclrtMemcpy(dst=")) << err;
  EXPECT_TRUE(contains(err,
                       "it was in allocation #1 (256 bytes requested, 288 reserved, made by aclrtMalloc), "
                       "freed by aclrtFree"))
      << err;
  EXPECT_TRUE(contains(recentError(), "not allocated"));
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  err = stderrOf([&] { EXPECT_EQ(aclrtMemsetAsync(d, 64, 0, 64, s), ACL_ERROR_RT_PARAM_INVALID); });
  EXPECT_TRUE(contains(err, "[use_after_free] aclrtMemsetAsync(devPtr=")) << err;
  // A new allocation at the same address is live memory again.
  void* again = nullptr;
  ASSERT_EQ(aclrtMalloc(&again, 256, kHuge), ACL_SUCCESS);
  ASSERT_EQ(again, d);  // first fit reuses the address
  EXPECT_EQ(stderrOf([&] { EXPECT_EQ(aclrtMemcpy(d, 256, h, 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS); }),
            "");
}

// Fuzz finding (fuzz/corpus/api/crash-copy-from-freed-pinned-block): a copy from a pinned block
// after aclrtFreeHost made the simulator read freed heap. Freed blocks are now quarantined, and
// the copy is refused as a use after free in every mode (the simulator cannot carry it out).
TEST(MemoryChecks, CopyFromAFreedPinnedBlock) {
  configureChecks("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void *d = nullptr, *h = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 4096, kHuge), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&h, 65536), ACL_SUCCESS);
  std::vector<char> local(4096, 1);
  ASSERT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
  std::string err = stderrOf([&] {
    EXPECT_EQ(aclrtMemcpy(local.data(), 4096, at(h, 64), 4096, ACL_MEMCPY_HOST_TO_HOST),
              ACL_ERROR_RT_PARAM_INVALID);
  });
  EXPECT_TRUE(contains(err, "npusim: error [use_after_free] aclrtMemcpy(dst=")) << err;
  EXPECT_TRUE(contains(err, "that aclrtFreeHost already freed")) << err;
  // (A finding is printed once per call site; the error message tells every time.)
  EXPECT_EQ(aclrtMemcpy(local.data(), 4096, at(h, 64), 4096, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_TRUE(contains(recentError(), "that aclrtFreeHost already freed")) << recentError();
  err = stderrOf([&] {
    EXPECT_EQ(aclrtMemcpy(d, 4096, at(h, 128), 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  });
  EXPECT_TRUE(contains(err, "[use_after_free]")) << err;
  // A range that only ends inside the freed block counts too.
  EXPECT_EQ(aclrtMemcpy(at(h, 0), 64, local.data(), 64, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  // Ordinary host memory next to it is untouched by the check.
  std::vector<char> other(64, 2);
  EXPECT_EQ(aclrtMemcpy(other.data(), 64, local.data(), 64, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(other[0], 1);
}

TEST(MemoryChecks, CopyFromAFreedPinnedBlockIsRefusedInWarnModeToo) {
  configureChecks("warn");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* h = nullptr;
  ASSERT_EQ(aclrtMallocHost(&h, 65536), ACL_SUCCESS);
  ASSERT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
  std::vector<char> local(4096, 1);
  std::string err = stderrOf([&] {
    EXPECT_EQ(aclrtMemcpy(local.data(), 4096, at(h, 64), 4096, ACL_MEMCPY_HOST_TO_HOST),
              ACL_ERROR_RT_PARAM_INVALID);
  });
  EXPECT_TRUE(contains(err, "npusim: warning [use_after_free] aclrtMemcpy(dst=")) << err;
}

TEST(MemoryChecks, DoubleAndInvalidFrees) {
  std::string stats = configureChecks("");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void *d = nullptr, *q = nullptr, *h = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 64, kHuge), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&q, 256, kHuge), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&h, 4096), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(d), ACL_SUCCESS);
  std::string err = stderrOf([&] { EXPECT_EQ(aclrtFree(d), ACL_ERROR_RT_PARAM_INVALID); });
  EXPECT_TRUE(contains(err, "npusim: error [double_free] aclrtFree(devPtr=0x")) << err;
  EXPECT_TRUE(contains(err,
                       "was already freed: allocation #1 (64 bytes requested, 96 reserved, made by "
                       "aclrtMalloc) was freed by aclrtFree"))
      << err;
  err = stderrOf([&] { EXPECT_EQ(aclrtFree(at(q, 64)), ACL_ERROR_RT_PARAM_INVALID); });
  EXPECT_TRUE(contains(err, "error [invalid_free] aclrtFree(")) << err;
  EXPECT_TRUE(contains(err,
                       "is inside allocation #2 (256 bytes requested, 288 reserved, made by aclrtMalloc) at "
                       "offset 64, not its start"))
      << err;
  int local = 0;
  err = stderrOf([&] { EXPECT_EQ(aclrtFree(&local), ACL_ERROR_RT_PARAM_INVALID); });
  EXPECT_TRUE(contains(err, "was not returned by a device allocation")) << err;
  err = stderrOf([&] { EXPECT_EQ(aclrtFree(h), ACL_ERROR_RT_PARAM_INVALID); });
  EXPECT_TRUE(contains(err, "is host memory from aclrtMallocHost: release it with aclrtFreeHost")) << err;
  err = stderrOf([&] { EXPECT_EQ(acldvppFree(at(q, 32)), ACL_ERROR_RT_PARAM_INVALID); });
  EXPECT_TRUE(contains(err, "[invalid_free] acldvppFree(devPtr=")) << err;
  // aclrtFreeHost takes only aclrtMallocHost blocks.
  err = stderrOf([&] { EXPECT_EQ(aclrtFreeHost(q), ACL_ERROR_RT_PARAM_INVALID); });
  EXPECT_TRUE(contains(err, "[invalid_free] aclrtFreeHost(hostPtr=")) << err;
  EXPECT_TRUE(contains(err, "is device memory: release it with aclrtFree")) << err;
  err = stderrOf([&] { EXPECT_EQ(aclrtFreeHost(at(h, 64)), ACL_ERROR_RT_PARAM_INVALID); });
  EXPECT_TRUE(contains(err, "inside an aclrtMallocHost block but not its start")) << err;
  err = stderrOf([&] { EXPECT_EQ(aclrtFreeHost(&local), ACL_ERROR_RT_PARAM_INVALID); });
  EXPECT_TRUE(contains(err, "was not returned by aclrtMallocHost")) << err;
  ASSERT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
  err = stderrOf([&] { EXPECT_EQ(aclrtFreeHost(h), ACL_ERROR_RT_PARAM_INVALID); });
  EXPECT_TRUE(contains(err, "[double_free] aclrtFreeHost(")) << err;
  // The valid frees still work and report nothing.
  EXPECT_EQ(stderrOf([&] { EXPECT_EQ(aclrtFree(q), ACL_SUCCESS); }), "");
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  nlohmann::json s = readStats(stats);
  EXPECT_EQ(findingsOf(s, "double_free").size(), 2u);
  EXPECT_EQ(findingsOf(s, "invalid_free").size(), 7u);
}

TEST(MemoryChecks, AsyncCopyFromPageableMemoryIsAWarning) {
  configureChecks("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 4096, kHuge), ACL_SUCCESS);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  void* pageable = std::aligned_alloc(64, 4096);  // 64-byte aligned: only the pageable check applies
  std::memset(pageable, 7, 4096);
  std::string err = stderrOf([&] {
    EXPECT_EQ(aclrtMemcpyAsync(d, 4096, pageable, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  });
  EXPECT_TRUE(contains(err, "npusim: warning [pageable_async] aclrtMemcpyAsync(dst=")) << err;
  EXPECT_TRUE(contains(err, "stream=0x")) << err;
  EXPECT_TRUE(contains(err, "is pageable (not from aclrtMallocHost): the runtime synchronises the stream"))
      << err;
  std::vector<unsigned char> back(4096);
  ASSERT_EQ(aclrtMemcpy(back.data(), 4096, d, 4096, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(back[4095], 7);  // it still copies (synchronously)
  err = stderrOf([&] {
    EXPECT_EQ(aclrtMemcpyAsync(pageable, 4096, d, 4096, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
  });
  EXPECT_TRUE(contains(err, "[pageable_async] aclrtMemcpyAsync(")) << err;
  // Pinned memory: nothing to say.
  void* h = nullptr;
  ASSERT_EQ(aclrtMallocHost(&h, 4096), ACL_SUCCESS);
  EXPECT_EQ(stderrOf([&] {
              EXPECT_EQ(aclrtMemcpyAsync(d, 4096, h, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
            }),
            "");
  std::free(pageable);
}

TEST(MemoryChecks, AsyncCopyWithUnalignedAddressesIsAWarning) {
  configureChecks("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void *d = nullptr, *h = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 4096, kHuge), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&h, 4096), ACL_SUCCESS);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  std::string err = stderrOf(
      [&] { EXPECT_EQ(aclrtMemcpyAsync(d, 4096, at(h, 8), 64, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS); });
  EXPECT_TRUE(contains(err, "npusim: warning [unaligned_async] aclrtMemcpyAsync(")) << err;
  EXPECT_TRUE(contains(err, "src address 0x")) << err;
  EXPECT_TRUE(contains(err, "is not 64-byte aligned")) << err;
  err = stderrOf(
      [&] { EXPECT_EQ(aclrtMemcpyAsync(at(d, 32), 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS); });
  EXPECT_TRUE(contains(err, "dst address 0x")) << err;
  err = stderrOf([&] {
    EXPECT_EQ(aclrtMemcpy2dAsync(at(d, 16), 128, h, 128, 64, 4, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  });
  EXPECT_TRUE(contains(err, "[unaligned_async] aclrtMemcpy2dAsync(dst=")) << err;
  // Synchronous copies have no alignment rule; aligned asynchronous ones pass.
  EXPECT_EQ(stderrOf([&] {
              EXPECT_EQ(aclrtMemcpy(at(d, 8), 64, at(h, 8), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
              EXPECT_EQ(aclrtMemcpyAsync(at(d, 64), 64, at(h, 128), 64, ACL_MEMCPY_HOST_TO_DEVICE, s),
                        ACL_SUCCESS);
            }),
            "");
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
}

TEST(MemoryChecks, FreeWhileAQueuedCopyUsesTheMemory) {
  std::string stats = configureChecks("");
  const size_t bytes = 16u << 20;
  void *d = nullptr, *h = nullptr;
  aclrtStream s = nullptr;
  ASSERT_TRUE(openDevice(bytes, &d, &h, &s));
  ASSERT_EQ(aclrtMemcpyAsync(d, bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  // A 16 MiB copy takes ~0.7 ms; the host frees the memory right away.
  std::string err = stderrOf([&] { EXPECT_EQ(aclrtFree(d), ACL_SUCCESS); });
  EXPECT_TRUE(contains(err, "npusim: warning [free_in_flight] aclrtFree(devPtr=0x")) << err;
  EXPECT_TRUE(contains(err, "allocation #1 (16777216 bytes requested")) << err;
  EXPECT_TRUE(contains(err,
                       "is freed while 1 unfinished task(s) still use it (task #1 'Memcpy H2D' on NPU 0 "
                       "stream 1)"))
      << err;
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  // After a synchronisation the memory is no longer in use.
  void* e = nullptr;
  ASSERT_EQ(aclrtMalloc(&e, bytes, kHuge), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(e, bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_EQ(stderrOf([&] { EXPECT_EQ(aclrtFree(e), ACL_SUCCESS); }), "");
  // A task the device has finished by the host's time does not count, synchronised or not.
  void* f = nullptr;
  ASSERT_EQ(aclrtMalloc(&f, 4096, kHuge), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(f, 4096, h, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  npusimHostWork(1e6);  // 1 ms of host work: the 4 KiB copy is long done
  EXPECT_EQ(stderrOf([&] { EXPECT_EQ(aclrtFree(f), ACL_SUCCESS); }), "");
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  nlohmann::json inflight = findingsOf(readStats(stats), "free_in_flight");
  ASSERT_EQ(inflight.size(), 1u);
  EXPECT_EQ(inflight[0]["severity"], "warning");
}

TEST(MemoryChecks, FreeWhileAQueuedOperatorUsesTheMemory) {
  configureChecks("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  const int64_t n = 1 << 22;  // 16 MiB per fp32 tensor: the add takes a while on the device
  std::vector<int64_t> shape{n}, strides{1};
  void *x = nullptr, *y = nullptr, *z = nullptr;
  for (void** p : {&x, &y, &z}) ASSERT_EQ(aclrtMalloc(p, n * 4, kHuge), ACL_SUCCESS);
  auto tensor = [&](void* d) {
    return aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 1, d);
  };
  aclTensor *tx = tensor(x), *ty = tensor(y), *tz = tensor(z);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(tx, ty, alpha, tz, &ws, &ex), ACL_SUCCESS);
  ASSERT_EQ(aclnnAdd(nullptr, ws, ex, s), ACL_SUCCESS);
  std::string err = stderrOf([&] { EXPECT_EQ(aclrtFree(y), ACL_SUCCESS); });
  EXPECT_TRUE(contains(err, "npusim: warning [free_in_flight] aclrtFree(devPtr=")) << err;
  EXPECT_TRUE(contains(err, "allocation #2 (16777216 bytes requested")) << err;
  EXPECT_TRUE(contains(err, "'aclnnAdd' on NPU 0 stream 1")) << err;
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_EQ(stderrOf([&] { EXPECT_EQ(aclrtFree(z), ACL_SUCCESS); }), "");  // done by now
  aclDestroyTensor(tx);
  aclDestroyTensor(ty);
  aclDestroyTensor(tz);
  aclDestroyScalar(alpha);
}

TEST(MemoryChecks, PinnedMemoryFreedWhileAQueuedCopyWritesIt) {
  std::string stats = configureChecks("");
  const size_t bytes = 16u << 20;
  void *d = nullptr, *h = nullptr;
  aclrtStream s = nullptr;
  ASSERT_TRUE(openDevice(bytes, &d, &h, &s));
  ASSERT_EQ(aclrtMemcpyAsync(h, bytes, d, bytes, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
  std::string err = stderrOf([&] { EXPECT_EQ(aclrtFreeHost(h), ACL_SUCCESS); });
  EXPECT_TRUE(contains(err, "npusim: warning [free_in_flight] aclrtFreeHost(hostPtr=0x")) << err;
  EXPECT_TRUE(contains(err, "from aclrtMallocHost is freed while 1 unfinished copy task(s) still use it"))
      << err;
  // The copy still lands (in memory the simulator keeps until then, not in its freed heap: the
  // ASan build checks that), and the block is gone for the program.
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(h), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(findingsOf(readStats(stats), "free_in_flight").size(), 1u);
}

// aclrtMemcpy's kind is reserved: a kind that disagrees with the pointers is a warning and the
// pointers' direction is used (the public mla_prolog examples copy H2D from aclrtMalloc memory).
// The asynchronous and 2-D copies refuse it; in strict mode the synchronous one does too.
TEST(MemoryChecks, SyncCopyKindDisagreeingWithThePointersIsAWarning) {
  configureChecks("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void *d = nullptr, *d2 = nullptr, *h = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 4096, kHuge), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&d2, 4096, kHuge), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&h, 4096), ACL_SUCCESS);
  auto* hb = static_cast<unsigned char*>(h);
  for (int i = 0; i < 64; ++i) hb[i] = static_cast<unsigned char>(i + 1);
  ASSERT_EQ(aclrtMemcpy(d, 4096, h, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  std::string err =
      stderrOf([&] { EXPECT_EQ(aclrtMemcpy(d2, 4096, d, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS); });
  EXPECT_TRUE(contains(err, "npusim: warning [copy_kind_ignored] aclrtMemcpy(")) << err;
  EXPECT_TRUE(contains(err, "copied as ACL_MEMCPY_DEVICE_TO_DEVICE")) << err;
  std::memset(h, 0, 64);
  err = stderrOf([&] { EXPECT_EQ(aclrtMemcpy(h, 4096, d2, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS); });
  EXPECT_TRUE(contains(err, "copied as ACL_MEMCPY_DEVICE_TO_HOST")) << err;
  for (int i = 0; i < 64; ++i) ASSERT_EQ(hb[i], i + 1) << i;
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpyAsync(d2, 4096, d, 64, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy2d(d2, 64, d, 64, 64, 1, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(d2, 4096, d, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);  // agreeing: no warning
}

TEST(MemoryChecks, SyncCopyKindDisagreeingWithThePointersFailsInStrictMode) {
  configureChecks("error");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void *d = nullptr, *h = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 4096, kHuge), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&h, 4096), ACL_SUCCESS);
  std::string err = stderrOf(
      [&] { EXPECT_EQ(aclrtMemcpy(d, 4096, h, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM); });
  EXPECT_TRUE(contains(err, "[copy_kind_ignored]")) << err;
}

// NPUSIM_CHECK modes (docs/checks.md) and how findings are listed: default (refused misuse is an
// error, tolerated misuse a warning), error (strict), warn, off; one message per call site;
// the statistics and the summary.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "acl/acl.h"
#include "tests/checks/check_test_util.h"

using npusim::test::configureChecks;
using npusim::test::contains;
using npusim::test::findingsOf;
using npusim::test::readStats;
using npusim::test::stderrOf;

namespace {

constexpr aclrtMemMallocPolicy kHuge = ACL_MEM_MALLOC_HUGE_FIRST;

char* at(void* p, size_t off) { return static_cast<char*>(p) + off; }

struct Buffers {
  void* d = nullptr;  // 100 bytes requested, 160 reserved, one 4 KiB device page
  void* h = nullptr;  // pinned
  aclrtStream s = nullptr;
  Buffers() {
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&d, 100, kHuge), ACL_SUCCESS);
    EXPECT_EQ(aclrtMallocHost(&h, 8192), ACL_SUCCESS);
    EXPECT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  }
};

}  // namespace

TEST(CheckModes, ErrorModeFailsToleratedMisuseToo) {
  configureChecks("error");
  Buffers b;
  std::string err = stderrOf([&] {
    EXPECT_EQ(aclrtMemcpy(b.d, 160, b.h, 160, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  });
  EXPECT_TRUE(contains(err, "npusim: error [padding_access] aclrtMemcpy(")) << err;
  EXPECT_EQ(aclrtMemcpyAsync(b.d, 64, at(b.h, 8), 64, ACL_MEMCPY_HOST_TO_DEVICE, b.s),
            ACL_ERROR_RT_ADDR_UNALIGNED);
  void* pageable = std::aligned_alloc(64, 64);
  EXPECT_EQ(aclrtMemcpyAsync(b.d, 64, pageable, 64, ACL_MEMCPY_HOST_TO_DEVICE, b.s),
            ACL_ERROR_RT_PARAM_INVALID);
  std::free(pageable);
  // A free while a copy is queued is refused: the memory stays allocated until it is safe.
  void* big = nullptr;
  ASSERT_EQ(aclrtMalloc(&big, 16u << 20, kHuge), ACL_SUCCESS);
  void* hb = nullptr;
  ASSERT_EQ(aclrtMallocHost(&hb, 16u << 20), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(big, 16u << 20, hb, 16u << 20, ACL_MEMCPY_HOST_TO_DEVICE, b.s), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(big), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtSynchronizeStream(b.s), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(big), ACL_SUCCESS);
  // Work left at reset: the device is reset all the same, and the call says it was misused.
  ASSERT_EQ(aclrtMalloc(&big, 16u << 20, kHuge), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(big, 16u << 20, hb, 16u << 20, ACL_MEMCPY_HOST_TO_DEVICE, b.s), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_RT_PARAM_INVALID);
  int32_t dev = -1;
  EXPECT_EQ(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);
  // Refused misuse is refused in every mode.
  EXPECT_EQ(aclrtFree(at(b.d, 32)), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(CheckModes, WarnModeReportsEverythingAsWarnings) {
  std::string stats = configureChecks("warn");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  Buffers b;
  ASSERT_EQ(aclrtFree(b.d), ACL_SUCCESS);
  // The real runtime refuses a double free, so the call still fails; the report is a warning.
  std::string err = stderrOf([&] { EXPECT_EQ(aclrtFree(b.d), ACL_ERROR_RT_PARAM_INVALID); });
  EXPECT_TRUE(contains(err, "npusim: warning [double_free] aclrtFree(")) << err;
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 100, kHuge), ACL_SUCCESS);
  err = stderrOf([&] { EXPECT_EQ(aclrtMemcpy(d, 160, b.h, 160, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS); });
  EXPECT_TRUE(contains(err, "npusim: warning [padding_access]")) << err;
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  nlohmann::json s = readStats(stats);
  ASSERT_EQ(s["findings"].size(), 2u);
  for (const auto& f : s["findings"]) EXPECT_EQ(f["severity"], "warning");
}

TEST(CheckModes, OffModeIsSilentButRefusalsRemain) {
  std::string stats = configureChecks("off");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  Buffers b;
  std::string err = stderrOf([&] {
    EXPECT_EQ(aclrtMemcpy(b.d, 160, b.h, 160, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpyAsync(b.d, 64, at(b.h, 8), 64, ACL_MEMCPY_HOST_TO_DEVICE, b.s), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(b.d, 4097, b.h, 4097, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(aclrtFree(b.d), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(b.d), ACL_ERROR_RT_PARAM_INVALID);
  });
  EXPECT_EQ(err, "");
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_TRUE(readStats(stats)["findings"].empty());
}

TEST(CheckModes, UnknownModeFallsBackToDefault) {
  configureChecks("pedantic");
  std::string err = stderrOf([] {
    Buffers b;
    EXPECT_EQ(aclrtMemcpy(b.d, 160, b.h, 160, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  });
  EXPECT_TRUE(contains(err, "NPUSIM_CHECK=pedantic is not one of off, warn, error, default; using default"))
      << err;
  EXPECT_TRUE(contains(err, "npusim: warning [padding_access]")) << err;
}

TEST(Findings, OneMessagePerCallSiteCountedInTheStatistics) {
  std::string stats = configureChecks("");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  Buffers b;
  std::string err = stderrOf([&] {
    for (int i = 0; i < 3; ++i)
      EXPECT_EQ(aclrtMemcpy(b.d, 4096, b.h, 120, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  });
  size_t first = err.find("[padding_access]");
  ASSERT_NE(first, std::string::npos) << err;
  EXPECT_EQ(err.find("[padding_access]", first + 1), std::string::npos) << err;  // printed once
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  nlohmann::json s = readStats(stats);
  ASSERT_EQ(s["findings"].size(), 1u);
  const nlohmann::json& f = s["findings"][0];
  EXPECT_EQ(f["check"], "padding_access");
  EXPECT_EQ(f["severity"], "warning");
  EXPECT_EQ(f["call"], "aclrtMemcpy");
  EXPECT_TRUE(contains(f["args"].get<std::string>(), "destMax=4096")) << f.dump();
  EXPECT_TRUE(contains(f["args"].get<std::string>(), "count=120, kind=ACL_MEMCPY_HOST_TO_DEVICE"))
      << f.dump();
  EXPECT_TRUE(contains(f["message"].get<std::string>(), "reaches 20 bytes into the padding")) << f.dump();
  EXPECT_TRUE(contains(f["location"].get<std::string>(), "test_checks")) << f.dump();
  EXPECT_EQ(f["count"], 3);
  EXPECT_GT(f["host_time_us"].get<double>(), 0.0);
}

TEST(Findings, SummaryListsThem) {
  configureChecks("");
  setenv("NPUSIM_SUMMARY", "1", 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  Buffers b;
  EXPECT_EQ(aclrtFree(at(b.d, 64)), ACL_ERROR_RT_PARAM_INVALID);
  std::string err = stderrOf([] { EXPECT_EQ(aclFinalize(), ACL_SUCCESS); });
  EXPECT_TRUE(contains(err, "misuse findings (docs/checks.md)\n  error [invalid_free] aclrtFree x1")) << err;
}

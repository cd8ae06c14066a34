#pragma once
// Helpers for the misuse-check tests: choose NPUSIM_CHECK before the first ACL call (every TEST
// runs in its own process), capture what the checks print, and read the statistics file.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "acl/acl.h"
#include "tests/runtime/sim_test_util.h"

namespace npusim::test {

// `mode`: "" (default), "off", "warn" or "error". Statistics go to a per-test file.
inline std::string configureChecks(const std::string& mode, const std::string& set = "") {
  configure(set);
  if (mode.empty())
    unsetenv("NPUSIM_CHECK");
  else
    setenv("NPUSIM_CHECK", mode.c_str(), 1);
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string stats = std::string(NPUSIM_BINARY_DIR) + "/checks_" + info->test_suite_name() + "_" +
                      info->name() + ".stats.json";
  std::remove(stats.c_str());
  setenv("NPUSIM_STATS", stats.c_str(), 1);
  return stats;
}

inline std::string recentError() {
  const char* m = aclGetRecentErrMsg();
  return m ? m : "";
}

// aclInit, aclrtSetDevice(0), `bytes` of device (*d) and of pinned host memory (*h), and a new
// stream (*s) when asked for: the opening of many check tests. False (and a test failure) if a
// call fails.
inline bool openDevice(size_t bytes, void** d, void** h, aclrtStream* s = nullptr) {
  bool ok = true;
  for (aclError e : {aclInit(nullptr), aclrtSetDevice(0), aclrtMalloc(d, bytes, ACL_MEM_MALLOC_HUGE_FIRST),
                     aclrtMallocHost(h, bytes), s ? aclrtCreateStream(s) : ACL_SUCCESS}) {
    EXPECT_EQ(e, ACL_SUCCESS) << recentError();
    ok = ok && e == ACL_SUCCESS;
  }
  return ok;
}

// Runs `fn` and returns what it printed on stderr.
template <typename F>
std::string stderrOf(F&& fn) {
  ::testing::internal::CaptureStderr();
  fn();
  return ::testing::internal::GetCapturedStderr();
}

inline nlohmann::json readStats(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  if (!in) return {};
  return nlohmann::json::parse(in);
}

// The findings of one check in the statistics.
inline nlohmann::json findingsOf(const nlohmann::json& stats, const std::string& check) {
  nlohmann::json out = nlohmann::json::array();
  if (!stats.contains("findings")) return out;
  for (const auto& f : stats["findings"])
    if (f["check"] == check) out.push_back(f);
  return out;
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace npusim::test

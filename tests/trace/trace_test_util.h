#pragma once
// Helpers shared by the trace tests: per-test temporary files and reading traces back.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace npusim::trace::testutil {

// A file name unique to the running test and process (tests may run in parallel).
inline std::string tempPath(const std::string& suffix) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "npusim_" + info->test_suite_name() + "_" + info->name() + "_" +
         std::to_string(getpid()) + suffix;
}

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The traceEvents array of the trace file at `path` (fails the test if it does not parse).
inline nlohmann::json readEvents(const std::string& path) {
  const nlohmann::json doc = nlohmann::json::parse(readFile(path), nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(doc.is_discarded()) << path << " is not valid JSON";
  if (doc.is_discarded()) return nlohmann::json::array();
  EXPECT_TRUE(doc.is_object());
  EXPECT_EQ(doc.value("displayTimeUnit", ""), "ns");
  return doc.value("traceEvents", nlohmann::json::array());
}

// Events of phase `ph`, in file order.
inline std::vector<nlohmann::json> byPhase(const nlohmann::json& events, const std::string& ph) {
  std::vector<nlohmann::json> out;
  for (const auto& e : events) {
    if (e.value("ph", "") == ph) out.push_back(e);
  }
  return out;
}

// Removes the file when the test ends.
struct TempFile {
  explicit TempFile(const std::string& suffix = ".json") : path(tempPath(suffix)) {}
  ~TempFile() { std::remove(path.c_str()); }
  std::string path;
};

}  // namespace npusim::trace::testutil

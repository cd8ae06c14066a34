// Replays the fuzz corpora (fuzz/corpus: seeds and every input that once crashed or hung the
// simulator) through the fuzz targets' own code paths, in the normal build (docs/fuzzing.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/api_sequence.h"
#include "fuzz/config_input.h"
#include "tests/runtime/sim_test_util.h"

namespace {

std::vector<std::filesystem::path> corpus(const std::string& target) {
  std::vector<std::filesystem::path> files;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(NPUSIM_SOURCE_DIR) + "/fuzz/corpus/" + target))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<uint8_t> bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST(FuzzReplay, ConfigCorpus) {
  auto files = corpus("config");
  ASSERT_GE(files.size(), 8u);
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    std::vector<uint8_t> b = bytes(f);
    EXPECT_NO_THROW(npusim::fuzz::runConfigInput(b.data(), b.size()));
  }
}

TEST(FuzzReplay, ApiCorpus) {
  npusim::test::configure("");
  setenv("NPUSIM_CHECK_SYMBOLIZE", "0", 1);
  auto files = corpus("api");
  ASSERT_GE(files.size(), 9u);
  auto t0 = std::chrono::steady_clock::now();
  ::testing::internal::CaptureStderr();  // the sequences are full of misuse: findings galore
  for (const auto& f : files) {
    std::vector<uint8_t> b = bytes(f);
    npusim::fuzz::runApiSequence(b.data(), b.size());
  }
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(30));
  // Still a working runtime afterwards.
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  int v = 7, back = 0;
  ASSERT_EQ(aclrtMemcpy(d, 64, &v, sizeof v, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(&back, sizeof back, d, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(back, 7);
  EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
}

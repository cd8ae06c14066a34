// Seed 004: cross-stream capture with aclrtCreateEvent events, replayed 8 times; each replay
// reads the pinned host buffer that the previous replay wrote, so the output climbs by 1.1.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "capture_test_util.h"

using capture_test::CaptureTest;
using capture_test::DevVec;
using capture_test::Pinned;

namespace {

// The expected line of replay k (1-based), as the seed prints it: fp32 sums of 1.1f.
std::string expectedLine(int k) {
  float v = 0.0f;
  for (int i = 0; i < k; ++i) v = v + 1.0f * 1.1f;
  std::string line = "[INFO]  ";
  char buf[32];
  for (int i = 0; i < 8; ++i) {
    std::snprintf(buf, sizeof buf, i ? " %f" : "%f", static_cast<double>(v));
    line += buf;
  }
  return line;
}

}  // namespace

// The seed's program, step by step, in this process.
TEST_F(CaptureTest, Seed004InProcess) {
  DevVec self(8), other(8), out(8);
  Pinned selfH(8, 0.0f), otherH(8, 1.0f);
  float alphaValue = 1.1f;
  aclScalar* alpha = aclCreateScalar(&alphaValue, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(self.t, other.t, alpha, out.t, &ws, &ex), ACL_SUCCESS);
  aclrtStream stream1 = s_[0], stream2 = s_[1];

  ASSERT_EQ(aclmdlRICaptureBegin(stream1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(capture_test::h2d(self, selfH, stream1), ACL_SUCCESS);
  aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
  ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);  // the previous mode comes back
  ASSERT_EQ(aclrtMemcpy(other.dev, other.bytes(), otherH.p, otherH.bytes(), ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  // The synchronous copy ran at once, not into the model.
  EXPECT_EQ(other.read(), std::vector<float>(8, 1.0f));
  ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
  link(stream1, e_[0], stream2);
  ASSERT_EQ(aclnnAdd(nullptr, ws, ex, stream2), ACL_SUCCESS);
  link(stream2, e_[1], stream1);
  ASSERT_EQ(capture_test::d2h(selfH, out, stream1), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream1, &model), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_NE(model, nullptr);
  // Nothing ran during the capture.
  EXPECT_EQ(selfH.p[0], 0.0f);

  float expect = 0.0f;
  for (int k = 1; k <= 8; ++k) {
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream1), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream1), ACL_SUCCESS);
    expect = expect + 1.0f * 1.1f;
    for (int i = 0; i < 8; ++i) ASSERT_FLOAT_EQ(selfH.p[i], expect) << "replay " << k;
  }
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  aclDestroyScalar(alpha);
}

// The example program built from the seed (examples/seed004_capture.cpp) prints 1.1 ... 8.8.
TEST(CaptureSeed004, ExampleBinaryPrintsTheSeedsOutput) {
  const std::string exe = std::string(NPUSIM_BINARY_DIR) + "/examples/seed004_capture";
  struct stat st {};
  if (stat(exe.c_str(), &st) != 0) GTEST_SKIP() << exe << " is not built (build target seed004_capture)";
  FILE* p = popen((exe + " 2>/dev/null").c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::vector<std::string> lines;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) {
    std::string l(buf);
    while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.pop_back();
    if (!l.empty()) lines.push_back(l);
  }
  ASSERT_EQ(pclose(p), 0);
  ASSERT_EQ(lines.size(), 8u);
  for (int k = 1; k <= 8; ++k) EXPECT_EQ(lines[static_cast<size_t>(k - 1)], expectedLine(k));
  EXPECT_EQ(lines[0], "[INFO]  1.100000 1.100000 1.100000 1.100000 1.100000 1.100000 1.100000 1.100000");
  EXPECT_EQ(lines[7], "[INFO]  8.800000 8.800000 8.800000 8.800000 8.800000 8.800000 8.800000 8.800000");
}

// The trace of seed 004: each replay is one API call with an arrow to a span on the executing
// stream, arrows from that span to the first task of each model stream, and event arrows
// between the model streams; both checkers accept the file.
TEST(CaptureSeed004, TraceShowsEachReplayAndItsEdges) {
  const std::string exe = std::string(NPUSIM_BINARY_DIR) + "/examples/seed004_capture";
  struct stat st {};
  if (stat(exe.c_str(), &st) != 0) GTEST_SKIP() << exe << " is not built (build target seed004_capture)";
  const std::string trace = testing::TempDir() + "capture_seed004_trace.json";
  ASSERT_EQ(std::system(("NPUSIM_TRACE=" + trace + " " + exe + " > /dev/null").c_str()), 0);
  const std::string src = NPUSIM_SOURCE_DIR;
  const std::string tracks =
      " --expect-thread 'NPU 0/Stream 1' --expect-thread 'NPU 0/Model 1 stream 3 (captured from stream 1)'"
      " --expect-thread 'NPU 0/Model 1 stream 4 (captured from stream 2)'";
  EXPECT_EQ(std::system(("python3 " + src + "/scripts/check_trace.py --quiet " + trace + tracks).c_str()), 0);
  const std::string flows =
      "SELECT o.name || '>' || i.name AS edge, count(*) AS n FROM flow f JOIN slice o ON f.slice_out = o.id "
      "JOIN slice i ON f.slice_in = i.id GROUP BY edge";
  auto pairCount = [&](const char* from, const char* to, int n) {
    return std::string(" --assert \"SELECT count(*) = 1 FROM (") + flows + ") WHERE edge = '" + from + ">" +
           to + "' AND n = " + std::to_string(n) + "\"";
  };
  const std::string cmd = src + "/scripts/trace-check/perfetto-check " + trace + tracks +
                          pairCount("aclmdlRIExecuteAsync", "Model 1 replay", 8) +
                          pairCount("Model 1 replay", "Memcpy H2D", 8) +  // origin lane starts
                          pairCount("Model 1 replay", "EventWait", 8) +   // side lane starts
                          pairCount("EventRecord", "released", 16) +      // both event edges
                          pairCount("aclnnAdd", "captured: aclnnAdd", 1) + " > /dev/null";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

// End-to-end trace checks on a real program (seed 002's copies): the trace is valid JSON with
// non-negative durations and properly nested slices, it loads in Perfetto's own engine with the
// expected processes, tracks, counters and flows, and two runs give byte-identical files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

const std::string kSrc = NPUSIM_SOURCE_DIR;
const std::string kBin = NPUSIM_BINARY_DIR;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs seed 002's data-transfer example with a trace; returns the trace path.
std::string traceSeed002(const std::string& name, const std::string& set = "") {
  std::string path = testing::TempDir() + "/" + name;
  std::string cmd = "NPUSIM_TRACE=" + path + (set.empty() ? "" : " NPUSIM_SET=" + set) + " " + kBin +
                    "/examples/seed002_data_transfer > /dev/null";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return path;
}

const char* kExpect =
    " --expect-thread 'Host/Host thread 0 (main)' --expect-thread 'NPU 0/Stream 2'"
    " --expect-thread 'NPU 0/Sync copies' --expect-thread 'NPU 0/DMA ch 0'";

}  // namespace

TEST(TraceE2E, StructurallyValid) {
  std::string trace = traceSeed002("e2e_structure.json");
  std::string cmd = "python3 " + kSrc + "/scripts/check_trace.py " + trace + kExpect +
                    " --expect-counter 'NPU 0/PCIe down GB/s value' --expect-counter 'NPU 0/HBM write GB/s value'"
                    " --expect-flows 10+";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

TEST(TraceE2E, LoadsInPerfettoWithTheExpectedTracks) {
  std::string trace = traceSeed002("e2e_perfetto.json");
  std::string cmd = kSrc + "/scripts/trace-check/perfetto-check " + trace + kExpect +
                    " --expect-counter 'NPU 0/PCIe down GB/s value' --expect-counter 'NPU 0/PCIe up GB/s value'"
                    " --expect-counter 'NPU 0/HBM read GB/s value' --expect-flows 10+"
                    " --assert \"SELECT count(*) > 0 FROM slice WHERE name = 'aclrtMemcpyAsync'\""
                    " --assert \"SELECT count(*) > 0 FROM slice WHERE name = 'Memcpy H2D'\""
                    " --assert \"SELECT count(*) >= 8 FROM process WHERE name LIKE 'NPU %'\" > /dev/null";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

TEST(TraceE2E, TransactionLevelAddsBursts) {
  std::string trace = traceSeed002("e2e_transactions.json", "trace.level=transaction");
  std::string text = slurp(trace);
  EXPECT_NE(text.find("\"burst\""), std::string::npos);
  std::string cmd = "python3 " + kSrc + "/scripts/check_trace.py --quiet " + trace;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

TEST(TraceE2E, ApiLevelHasOnlyHostCalls) {
  std::string trace = traceSeed002("e2e_api.json", "trace.level=api");
  std::string text = slurp(trace);
  EXPECT_NE(text.find("aclrtMemcpy"), std::string::npos);
  EXPECT_EQ(text.find("\"Memcpy H2D\""), std::string::npos);
}

TEST(TraceE2E, TwoRunsAreByteIdentical) {
  std::string a = slurp(traceSeed002("e2e_det_a.json"));
  std::string b = slurp(traceSeed002("e2e_det_b.json"));
  ASSERT_GT(a.size(), 10000u);
  EXPECT_TRUE(a == b) << "the same program and configuration must give the same trace bytes";
}

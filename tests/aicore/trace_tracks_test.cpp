// What the trace shows of operators: the task on its stream's track with shapes and dtypes in
// its arguments, one track per AI core with the operator and its tiles, and HBM counters
// that carry the operator's traffic. Parsed from the file NPUSIM_TRACE wrote.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/aicore/aicore_test_util.h"

using namespace aicore_test;
using nlohmann::json;

TEST(TraceTracks, OperatorsOnStreamAndCoreTracks) {
  std::string path = testing::TempDir() + "aicore_trace_test.json";
  std::remove(path.c_str());
  // The trace is complete when the process exits, so the program runs in a child.
  const pid_t pid = fork();
  if (pid == 0) {
    setenv("NPUSIM_TRACE", path.c_str(), 1);
    npusim::test::configure("sim.functional=false");
    {
      Session s;
      DevTensor a({512, 128}, ACL_FLOAT16), b({128, 256}, ACL_FLOAT16), c({512, 256}, ACL_FLOAT16);
      DevTensor x({1 << 22}, ACL_FLOAT), y({1 << 22}, ACL_FLOAT), z({1 << 22}, ACL_FLOAT);
      matmul(a, b, c, s.stream);
      add(x, y, z, s.stream);
      aclrtSynchronizeStream(s.stream);
    }
    // exit() (not _exit) so the trace is closed; LeakSanitizer cannot scan this frame from
    // SystemC's coroutine stacks, so release the one heap string it holds first.
    std::string().swap(path);
    std::exit(testing::Test::HasFailure() ? 1 : 0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  npusim::test::configure("sim.functional=false");  // for config() below

  // Well formed by the project's own checker (nesting, flows, counters: docs/trace.md).
  const std::string check =
      std::string("python3 ") + NPUSIM_SOURCE_DIR + "/scripts/check_trace.py --quiet " + path;
  EXPECT_EQ(std::system(check.c_str()), 0) << check;

  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << path;
  const json trace = json::parse(in);
  std::map<int, std::string> process;
  std::map<std::pair<int, int>, std::string> thread;
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] != "M") continue;
    if (e["name"] == "process_name") process[e["pid"]] = e["args"]["name"];
    if (e["name"] == "thread_name") thread[{e["pid"].get<int>(), e["tid"].get<int>()}] = e["args"]["name"];
  }
  // Slices by "process/thread" track name.
  std::map<std::string, std::vector<json>> slices;
  std::vector<json> hbmRead;
  for (const json& e : trace["traceEvents"]) {
    const int pid = e.value("pid", -1);
    if (e["ph"] == "X" && e.contains("tid"))
      slices[process[pid] + "/" + thread[{pid, e["tid"].get<int>()}]].push_back(e);
    if (e["ph"] == "C" && process[pid] == "NPU 0" && e["name"] == "HBM read GB/s") hbmRead.push_back(e);
  }

  // The operator tasks on the stream's track, with shapes and dtypes.
  const json* mm = nullptr;
  const json* ad = nullptr;
  for (const auto& [track, list] : slices) {
    if (track.rfind("NPU 0/Stream", 0) != 0) continue;
    for (const json& e : list) {
      if (e["name"] == "aclnnMatmul") mm = &e;
      if (e["name"] == "aclnnAdd") ad = &e;
    }
  }
  ASSERT_NE(mm, nullptr);
  ASSERT_NE(ad, nullptr);
  EXPECT_EQ((*mm)["cat"], "task");
  const std::string mmArgs = (*mm)["args"]["args"];
  EXPECT_NE(mmArgs.find("self=[512,128] fp16"), std::string::npos) << mmArgs;
  EXPECT_NE(mmArgs.find("mat2=[128,256] fp16"), std::string::npos) << mmArgs;
  EXPECT_NE(mmArgs.find("out=[512,256] fp16"), std::string::npos) << mmArgs;
  const std::string adArgs = (*ad)["args"]["args"];
  EXPECT_NE(adArgs.find("[4194304] fp32"), std::string::npos) << adArgs;

  // One track per core: every cube and vector core of the configuration has one.
  const npusim::Config& cfg = config();
  for (int i = 0; i < cfg.getInt("aicore.cube_cores"); ++i) {
    bool found = false;
    for (const auto& [key, name] : thread)
      found |= process[key.first] == "NPU 0" && name == "AI Core " + std::to_string(i);
    EXPECT_TRUE(found) << "AI Core " << i;
  }
  for (int i = 0; i < cfg.getInt("aicore.vector_cores"); ++i) {
    bool found = false;
    for (const auto& [key, name] : thread)
      found |= process[key.first] == "NPU 0" && name == "AI Vector " + std::to_string(i);
    EXPECT_TRUE(found) << "AI Vector " << i;
  }
  // The matmul runs on the cube cores, the Add on the vector cores; each core's tiles lie
  // inside its operator slice, which lies inside the stream task.
  auto checkCore = [&](const std::string& track, const json& task) {
    const std::vector<json>& list = slices[track];
    const json* op = nullptr;
    int tiles = 0;
    for (const json& e : list)
      if (e["name"] == task["name"]) op = &e;
    ASSERT_NE(op, nullptr) << track;
    const double t0 = (*op)["ts"], t1 = t0 + (*op)["dur"].get<double>();
    EXPECT_GE(t0, task["ts"].get<double>());
    EXPECT_LE(t1, task["ts"].get<double>() + task["dur"].get<double>() + 1e-3);
    for (const json& e : list) {
      if (e["name"] != "tile" || e["ts"].get<double>() < t0 || e["ts"].get<double>() > t1) continue;
      ++tiles;
      EXPECT_LE(e["ts"].get<double>() + e["dur"].get<double>(), t1 + 1e-3);
    }
    EXPECT_GT(tiles, 0) << track;
  };
  checkCore("NPU 0/AI Core 0", *mm);
  checkCore("NPU 0/AI Core 23", *mm);
  checkCore("NPU 0/AI Vector 0", *ad);
  checkCore("NPU 0/AI Vector 47", *ad);

  // The HBM read counter shows the Add's traffic (48 MiB in a few tens of us).
  double peak = 0;
  const double a0 = (*ad)["ts"], a1 = a0 + (*ad)["dur"].get<double>();
  for (const json& e : hbmRead)
    if (e["ts"].get<double>() >= a0 && e["ts"].get<double>() < a1)
      peak = std::max(peak, e["args"]["value"].get<double>());
  EXPECT_GT(peak, 500.0);  // GB/s
  std::remove(path.c_str());
}

// Replays: the values they compute with changing host data, fork/join graphs over three
// streams, the concurrency of side streams, one host submission per replay, and the model
// dumps.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "capture_test_util.h"
#include "tests/runtime/sim_test_util.h"

using capture_test::CaptureTest;
using capture_test::DevVec;
using capture_test::Pinned;

// Each replay copies the host input as it is at replay time.
TEST_F(CaptureTest, ReplaysReadTheHostDataOfTheirTime) {
  const int n = 1024;
  DevVec x(n), two(n, 2.0f), y(n);
  Pinned in(n), out(n);
  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(capture_test::h2d(x, in, s_[0]), ACL_SUCCESS);
  ASSERT_EQ(capture_test::add(x, two, 3.0f, y, s_[0]), ACL_SUCCESS);  // y = x + 6
  ASSERT_EQ(capture_test::d2h(out, y, s_[0]), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(s_[0], &model), ACL_SUCCESS);
  for (int rep = 0; rep < 10; ++rep) {
    for (int i = 0; i < n; ++i) in.p[i] = static_cast<float>(rep * 1000 + i);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, s_[1]), ACL_SUCCESS);  // any stream may run it
    ASSERT_EQ(aclrtSynchronizeStream(s_[1]), ACL_SUCCESS);
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(out.p[i], static_cast<float>(rep * 1000 + i) + 6.0f) << rep << " " << i;
  }
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

// s0 forks to s1 and s2, which compute in parallel and join back: out = (x + 1) + (x * 2 + 0).
// s2 joins through s1 (transitively) and returns through s1, as the document allows.
TEST_F(CaptureTest, ForkJoinOverThreeStreamsReplaysManyTimes) {
  const int n = 256;
  DevVec x(n), one(n, 1.0f), zero(n, 0.0f), a(n), b(n), sum(n);
  Pinned in(n), out(n);
  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(capture_test::h2d(x, in, s_[0]), ACL_SUCCESS);
  link(s_[0], e_[0], s_[1]);                                          // s1 joins
  link(s_[1], e_[1], s_[2]);                                          // s2 joins through s1
  ASSERT_EQ(capture_test::add(x, one, 1.0f, a, s_[1]), ACL_SUCCESS);  // a = x + 1
  ASSERT_EQ(capture_test::add(x, x, 1.0f, b, s_[2]), ACL_SUCCESS);    // b = 2x
  link(s_[2], e_[2], s_[1]);                                          // s2 returns to s1
  link(s_[1], e_[3], s_[0]);                                          // s1 returns to s0
  ASSERT_EQ(capture_test::add(a, b, 1.0f, sum, s_[0]), ACL_SUCCESS);
  ASSERT_EQ(capture_test::d2h(out, sum, s_[0]), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(s_[0], &model), ACL_SUCCESS) << aclGetRecentErrMsg();

  for (int rep = 0; rep < 40; ++rep) {
    for (int i = 0; i < n; ++i) in.p[i] = static_cast<float>(rep - i);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, s_[0]), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(s_[0]), ACL_SUCCESS);
    for (int i = 0; i < n; ++i) {
      const float v = static_cast<float>(rep - i);
      ASSERT_EQ(out.p[i], (v + 1.0f) + 2.0f * v) << "replay " << rep << " element " << i;
    }
  }
  // Several replays queued back to back on two streams: each still sees its own events.
  for (int rep = 0; rep < 6; ++rep) ASSERT_EQ(aclmdlRIExecuteAsync(model, s_[rep % 2]), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(out.p[0], (39.0f + 1.0f) + 78.0f);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

// Side streams replay concurrently: an H2D copy on one lane overlaps an operator on another,
// so the fork takes about the longer of the two, while the same work on one stream takes the sum.
TEST_F(CaptureTest, SideStreamsRunConcurrentlyInTheReplay) {
  // A 1 MiB copy (~45 us over PCIe) and an add over 4 Mi elements (48 MiB of HBM traffic, ~30 us).
  DevVec x(1 << 18), y(1 << 22), z(1 << 22), w(1 << 22);
  Pinned h(1 << 18, 1.0f);
  auto timeReplay = [&](aclmdlRI m) {
    return npusim::test::hostNs([&] {
      EXPECT_EQ(aclmdlRIExecuteAsync(m, s_[0]), ACL_SUCCESS);
      EXPECT_EQ(aclrtSynchronizeStream(s_[0]), ACL_SUCCESS);
    });
  };
  // Serial: copy then operator on the origin stream.
  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(capture_test::h2d(x, h, s_[0]), ACL_SUCCESS);
  ASSERT_EQ(capture_test::add(y, z, 1.0f, w, s_[0]), ACL_SUCCESS);
  aclmdlRI serial = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(s_[0], &serial), ACL_SUCCESS);
  // Fork: the copy on s1, the operator on s2.
  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(e_[0], s_[0]), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(s_[1], e_[0]), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(s_[2], e_[0]), ACL_SUCCESS);
  ASSERT_EQ(capture_test::h2d(x, h, s_[1]), ACL_SUCCESS);
  ASSERT_EQ(capture_test::add(y, z, 1.0f, w, s_[2]), ACL_SUCCESS);
  link(s_[1], e_[1], s_[0]);
  link(s_[2], e_[2], s_[0]);
  aclmdlRI fork = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(s_[0], &fork), ACL_SUCCESS) << aclGetRecentErrMsg();

  const double tSerial = timeReplay(serial);
  const double tFork = timeReplay(fork);
  // Each part alone, for the expected bounds.
  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(capture_test::h2d(x, h, s_[0]), ACL_SUCCESS);
  aclmdlRI copyOnly = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(s_[0], &copyOnly), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(capture_test::add(y, z, 1.0f, w, s_[0]), ACL_SUCCESS);
  aclmdlRI opOnly = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(s_[0], &opOnly), ACL_SUCCESS);
  const double tCopy = timeReplay(copyOnly), tOp = timeReplay(opOnly);
  std::printf("replay ns: serial %.0f, fork %.0f, copy alone %.0f, operator alone %.0f\n", tSerial, tFork,
              tCopy, tOp);
  // Serial is about the sum, the fork about the longer part (plus a few event hops of ~1 us).
  EXPECT_GT(tSerial, 0.9 * (tCopy + tOp));
  EXPECT_LT(tFork, std::max(tCopy, tOp) + 0.25 * std::min(tCopy, tOp) + 3000.0);
  EXPECT_LT(tFork, 0.85 * tSerial);
  for (aclmdlRI m : {serial, fork, copyOnly, opOnly}) EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
}

// aclmdlRIExecuteAsync costs the host one submission, however many tasks the model has.
TEST_F(CaptureTest, ExecuteAsyncIsOneHostSubmission) {
  DevVec a(8, 1.0f), b(8, 1.0f), c(8);
  auto modelOf = [&](int ops) {
    EXPECT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    for (int i = 0; i < ops; ++i) EXPECT_EQ(capture_test::add(a, b, 1.0f, c, s_[0]), ACL_SUCCESS);
    aclmdlRI m = nullptr;
    EXPECT_EQ(aclmdlRICaptureEnd(s_[0], &m), ACL_SUCCESS);
    return m;
  };
  aclmdlRI small = modelOf(1), large = modelOf(50);
  const double tSmall =
      npusim::test::hostNs([&] { ASSERT_EQ(aclmdlRIExecuteAsync(small, s_[1]), ACL_SUCCESS); });
  const double tLarge =
      npusim::test::hostNs([&] { ASSERT_EQ(aclmdlRIExecuteAsync(large, s_[2]), ACL_SUCCESS); });
  // host.api_call_ns + host.launch_ns = 300 + 2500 ns in the default preset.
  EXPECT_NEAR(tSmall, 2800.0, 1.0);
  EXPECT_NEAR(tLarge, 2800.0, 1.0);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(small), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(large), ACL_SUCCESS);
}

// An operator captured once keeps working after its executor is gone (the model owns it).
TEST_F(CaptureTest, CapturedOperatorOutlivesItsExecutorAndTensors) {
  DevVec a(8, 1.0f), b(8, 0.5f), c(8);
  Pinned out(8);
  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  {
    float alpha = 2.0f;
    aclScalar* s = aclCreateScalar(&alpha, ACL_FLOAT);
    const int64_t n = 8, stride = 1;
    aclTensor* ta = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, a.dev);
    aclTensor* tb = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, b.dev);
    aclTensor* tc = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, c.dev);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnAddGetWorkspaceSize(ta, tb, s, tc, &ws, &ex), ACL_SUCCESS);
    ASSERT_EQ(aclnnAdd(nullptr, ws, ex, s_[0]), ACL_SUCCESS);  // consumes the executor
    aclDestroyTensor(ta);
    aclDestroyTensor(tb);
    aclDestroyTensor(tc);
    aclDestroyScalar(s);
  }
  ASSERT_EQ(capture_test::d2h(out, c, s_[0]), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(s_[0], &model), ACL_SUCCESS);
  for (int rep = 0; rep < 3; ++rep) {
    out.fill(-1.0f);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, s_[0]), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(s_[0]), ACL_SUCCESS);
    for (size_t i = 0; i < 8; ++i) ASSERT_EQ(out.p[i], 2.0f);
  }
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CaptureTest, DebugPrintsDescribeTheGraph) {
  DevVec a(8, 1.0f), b(8, 1.0f), c(8);
  Pinned h(8);
  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(capture_test::h2d(a, h, s_[0]), ACL_SUCCESS);
  link(s_[0], e_[0], s_[1]);
  ASSERT_EQ(capture_test::add(a, b, 1.0f, c, s_[1]), ACL_SUCCESS);
  link(s_[1], e_[1], s_[0]);
  ASSERT_EQ(capture_test::d2h(h, c, s_[0]), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(s_[0], &model), ACL_SUCCESS);

  const std::string path = testing::TempDir() + "capture_model.json";
  ASSERT_EQ(aclmdlRIDebugJsonPrint(model, path.c_str(), ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE), ACL_SUCCESS);
  nlohmann::json j = nlohmann::json::parse(std::ifstream(path));
  EXPECT_EQ(j["streams"], 2);
  EXPECT_EQ(j["tasks"], 7);  // H2D, record, wait | wait, add, record | ... D2H
  EXPECT_EQ(j["events"], 2);
  ASSERT_EQ(j["stream_list"].size(), 2u);
  const auto& origin = j["stream_list"][0]["task_list"];
  ASSERT_EQ(origin.size(), 4u);
  EXPECT_EQ(origin[0]["label"], "Memcpy H2D");
  EXPECT_EQ(origin[0]["bytes"], 32);
  EXPECT_EQ(origin[1]["type"], "EventRecord");
  EXPECT_EQ(origin[2]["type"], "EventWait");
  EXPECT_EQ(origin[3]["label"], "Memcpy D2H");
  const auto& side = j["stream_list"][1]["task_list"];
  ASSERT_EQ(side.size(), 3u);
  EXPECT_EQ(side[1]["label"], "aclnnAdd");
  // Two edges: origin's record (task 1) -> side's wait (task 0), side's record (task 2) ->
  // origin's wait (task 2).
  ASSERT_EQ(j["edges"].size(), 2u);
  const int originId = j["stream_list"][0]["stream"], sideId = j["stream_list"][1]["stream"];
  std::set<std::vector<int>> edges;
  for (const auto& e : j["edges"])
    edges.insert({e["from"]["stream"].get<int>(), e["from"]["index"].get<int>(), e["to"]["stream"].get<int>(),
                  e["to"]["index"].get<int>()});
  EXPECT_EQ(edges, (std::set<std::vector<int>>{{originId, 1, sideId, 0}, {sideId, 2, originId, 2}}));

  ASSERT_EQ(aclmdlRIDebugJsonPrint(model, path.c_str(), ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY), ACL_SUCCESS);
  j = nlohmann::json::parse(std::ifstream(path));
  EXPECT_FALSE(j["stream_list"][0].contains("task_list"));
  EXPECT_EQ(j["stream_list"][0]["tasks"], 4);
  EXPECT_EQ(aclmdlRIDebugJsonPrint(model, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIDebugJsonPrint(model, path.c_str(), 5), ACL_ERROR_INVALID_PARAM);

  testing::internal::CaptureStdout();
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_EQ(aclmdlRIDebugPrint(model), ACL_SUCCESS);
#pragma GCC diagnostic pop
  const std::string printed = testing::internal::GetCapturedStdout();
  EXPECT_NE(printed.find("2 streams, 7 tasks"), std::string::npos) << printed;
  EXPECT_NE(printed.find("aclnnAdd"), std::string::npos) << printed;
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

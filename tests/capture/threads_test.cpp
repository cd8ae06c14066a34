// Capture and host threads: THREAD_LOCAL captures on two threads at once, how the modes of
// one thread's capture restrict the other threads, and ending a capture on another thread.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "capture_test_util.h"

using capture_test::DevVec;
using capture_test::Pinned;

namespace {

class CaptureThreads : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    aclrtDestroyStream(stream_);
    aclrtResetDevice(0);
    aclFinalize();
  }
  // Runs `fn` on a new host thread bound to device 0 and waits for it.
  template <typename F>
  void onOtherThread(F&& fn) {
    std::thread t([&] {
      EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
      fn();
      EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    });
    t.join();
  }
  aclrtStream stream_ = nullptr;
};

struct WorkerResult {
  double begin = 0, end = 0;  // simulated host time of Begin and End
  aclError memcpyInCapture = 0;
  aclError memcpyOutside = 0;
  uint64_t modelTasks = 0;
  std::vector<float> outputs;  // out[0] of each replay
};

// One thread's program: capture H2D + 3 adds + D2H in THREAD_LOCAL mode, then replay.
void worker(int k, WorkerResult* r) {
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s = nullptr;
  EXPECT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  {
    const int n = 64;
    DevVec x(n), c(n, static_cast<float>(k + 1)), y(n);
    Pinned in(n), out(n);
    EXPECT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
    r->begin = npusimHostTimeNs();
    EXPECT_EQ(capture_test::h2d(x, in, s), ACL_SUCCESS);
    EXPECT_EQ(capture_test::add(x, c, 1.0f, y, s), ACL_SUCCESS);
    EXPECT_EQ(capture_test::add(y, c, 1.0f, x, s), ACL_SUCCESS);
    // This thread began a THREAD_LOCAL capture: its own synchronous copies are refused.
    r->memcpyInCapture = aclrtMemcpy(y.dev, y.bytes(), in.p, in.bytes(), ACL_MEMCPY_HOST_TO_DEVICE);
    EXPECT_EQ(capture_test::add(x, c, 1.0f, y, s), ACL_SUCCESS);
    EXPECT_EQ(capture_test::d2h(out, y, s), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    EXPECT_EQ(aclmdlRICaptureEnd(s, &model), ACL_SUCCESS) << aclGetRecentErrMsg();
    r->end = npusimHostTimeNs();
    r->memcpyOutside = aclrtMemcpy(y.dev, y.bytes(), in.p, in.bytes(), ACL_MEMCPY_HOST_TO_DEVICE);
    const std::string path = testing::TempDir() + "capture_thread_" + std::to_string(k) + ".json";
    EXPECT_EQ(aclmdlRIDebugJsonPrint(model, path.c_str(), ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY), ACL_SUCCESS);
    r->modelTasks = nlohmann::json::parse(std::ifstream(path))["tasks"].get<uint64_t>();
    for (int rep = 0; rep < 5; ++rep) {
      in.fill(static_cast<float>(100 * k + rep));
      EXPECT_EQ(aclmdlRIExecuteAsync(model, s), ACL_SUCCESS);
      EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
      r->outputs.push_back(out.p[n - 1]);
    }
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  }
  EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

}  // namespace

TEST_F(CaptureThreads, TwoThreadLocalCapturesDoNotInterfere) {
  WorkerResult r[2];
  std::thread t0(worker, 0, &r[0]), t1(worker, 1, &r[1]);
  t0.join();
  t1.join();
  // The two captures overlapped in simulated time.
  EXPECT_LT(r[0].begin, r[1].end);
  EXPECT_LT(r[1].begin, r[0].end);
  for (int k = 0; k < 2; ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(r[k].memcpyInCapture, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    EXPECT_EQ(r[k].memcpyOutside, ACL_SUCCESS);
    EXPECT_EQ(r[k].modelTasks, 5u);  // only its own tasks: H2D, 3 adds, D2H
    ASSERT_EQ(r[k].outputs.size(), 5u);
    for (int rep = 0; rep < 5; ++rep)
      EXPECT_EQ(r[k].outputs[static_cast<size_t>(rep)], static_cast<float>(100 * k + rep + 3 * (k + 1)));
  }
}

TEST_F(CaptureThreads, CaptureModesRestrictOtherThreads) {
  DevVec d(8);
  Pinned h(8, 4.0f);
  auto memcpySync = [&] { return aclrtMemcpy(d.dev, d.bytes(), h.p, h.bytes(), ACL_MEMCPY_HOST_TO_DEVICE); };
  aclmdlRI model = nullptr;

  // GLOBAL: no thread may, unless it opts out with THREAD_LOCAL or RELAXED.
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  onOtherThread([&] {
    EXPECT_EQ(memcpySync(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL;
    EXPECT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);  // each thread starts in GLOBAL
    EXPECT_EQ(memcpySync(), ACL_SUCCESS);
  });
  EXPECT_EQ(memcpySync(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);  // the other thread's mode is its own
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);

  // THREAD_LOCAL: only the capturing thread is restricted.
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
  onOtherThread([&] { EXPECT_EQ(memcpySync(), ACL_SUCCESS); });
  EXPECT_EQ(memcpySync(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(d.read(), std::vector<float>(8, 4.0f));
}

TEST_F(CaptureThreads, EndMustBeOnTheBeginningThreadUnlessRelaxed) {
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  onOtherThread([&] {
    aclmdlRI m = nullptr;
    EXPECT_EQ(aclmdlRICaptureEnd(stream_, &m), ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD);
  });
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);  // still capturing until here
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);

  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  model = nullptr;
  onOtherThread([&] { EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS); });
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

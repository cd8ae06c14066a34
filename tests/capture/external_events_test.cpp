// External events in a capture (ACL_EVENT_WAIT_EXTERNAL / ACL_EVENT_RECORD_EXTERNAL): a captured
// wait on the user's event makes every replay wait for work outside the model, and a captured
// record lets work outside the model wait for a point inside it. Data written by the other side
// proves the order: a replay that did not wait would copy stale values.
#include <gtest/gtest.h>

#include <vector>

#include "capture_test_util.h"

using capture_test::CaptureTest;
using capture_test::DevVec;
using capture_test::Pinned;

namespace {
constexpr int64_t kN = 4 << 20;  // 16 MiB: an H2D copy of it takes ~0.7 ms, long enough to race
}

TEST_F(CaptureTest, ReplayWaitsForAnExternalRecordMadeAfterTheCapture) {
  aclrtStream graph = s_[0], outside = s_[1];
  aclrtEvent ev = nullptr;
  ASSERT_EQ(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_SYNC), ACL_SUCCESS);
  DevVec src(kN, 1.0f), dst(kN, 0.0f);
  // Without the flag, waiting inside a capture on an event no captured stream recorded is refused.
  ASSERT_EQ(aclmdlRICaptureBegin(graph, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamWaitEventWithFlag(graph, ev, 0, ACL_EVENT_WAIT_DEFAULT),
            ACL_ERROR_RT_CAPTURE_DEPENDENCY);
  aclmdlRI bad = nullptr;
  EXPECT_NE(aclmdlRICaptureEnd(graph, &bad), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamWaitEventWithFlag(graph, ev, 5, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_INVALID_PARAM);

  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureBegin(graph, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEventWithFlag(graph, ev, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dst.dev, dst.bytes(), src.dev, src.bytes(), ACL_MEMCPY_DEVICE_TO_DEVICE, graph),
            ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(graph, &model), ACL_SUCCESS) << aclGetRecentErrMsg();

  for (float v : {7.0f, 9.0f}) {  // each replay waits for the record issued before it
    Pinned fresh(static_cast<size_t>(kN), v);
    ASSERT_EQ(capture_test::h2d(src, fresh, outside), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(ev, outside), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, graph), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(graph), ACL_SUCCESS);
    const std::vector<float> got = dst.read();
    EXPECT_EQ(got.front(), v);
    EXPECT_EQ(got.back(), v);
    ASSERT_EQ(aclrtSynchronizeStream(outside), ACL_SUCCESS);
  }
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  aclrtDestroyEvent(ev);
}

TEST_F(CaptureTest, OutsideStreamWaitsForAnExternalRecordInsideTheReplay) {
  aclrtStream graph = s_[0], outside = s_[1];
  aclrtEvent ev = nullptr;
  ASSERT_EQ(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_SYNC), ACL_SUCCESS);
  DevVec a(kN, 0.0f), b(kN, 0.0f);
  Pinned in(static_cast<size_t>(kN), 0.0f), out(static_cast<size_t>(kN), -1.0f);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureBegin(graph, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(capture_test::h2d(a, in, graph), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(b.dev, b.bytes(), a.dev, a.bytes(), ACL_MEMCPY_DEVICE_TO_DEVICE, graph),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEventWithFlag(ev, graph, ACL_EVENT_RECORD_EXTERNAL), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(graph, &model), ACL_SUCCESS) << aclGetRecentErrMsg();

  for (float v : {3.0f, 5.0f}) {
    in.fill(v);  // captured copies read host memory at replay time
    ASSERT_EQ(aclmdlRIExecuteAsync(model, graph), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(outside, ev), ACL_SUCCESS);
    ASSERT_EQ(capture_test::d2h(out, b, outside), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(outside), ACL_SUCCESS);
    EXPECT_EQ(out.p[0], v);
    EXPECT_EQ(out.p[out.n - 1], v);
    ASSERT_EQ(aclrtSynchronizeStream(graph), ACL_SUCCESS);
  }
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  aclrtDestroyEvent(ev);
}

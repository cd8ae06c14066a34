// Every refusal of the capture rules (acl-api.md §5.1, issue 5) with its error code, and the
// state the capture is left in afterwards.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "capture_test_util.h"

using capture_test::CaptureTest;
using capture_test::DevVec;
using capture_test::Pinned;

namespace {

aclmdlRICaptureStatus statusOf(aclrtStream s, aclmdlRI* model = nullptr) {
  aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  aclmdlRI m = nullptr;
  EXPECT_EQ(aclmdlRICaptureGetInfo(s, &st, &m), ACL_SUCCESS);
  if (model) *model = m;
  return st;
}

bool messageHas(const char* needle) {
  const char* msg = aclGetRecentErrMsg();
  return msg && std::string(msg).find(needle) != std::string::npos;
}

}  // namespace

TEST_F(CaptureTest, BeginEndAndGetInfoArguments) {
  EXPECT_EQ(aclmdlRICaptureBegin(nullptr, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRICaptureBegin(s_[0], static_cast<aclmdlRICaptureMode>(7)), ACL_ERROR_INVALID_PARAM);
  aclrtStream def = nullptr;
  ASSERT_EQ(aclrtCtxGetCurrentDefaultStream(&def), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRICaptureBegin(def, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
            ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT);

  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CAPTURED);
  aclmdlRI during = nullptr;
  EXPECT_EQ(statusOf(s_[0], &during), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  EXPECT_NE(during, nullptr);
  aclmdlRI other = reinterpret_cast<aclmdlRI>(1);
  EXPECT_EQ(statusOf(s_[1], &other), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  EXPECT_EQ(other, nullptr);
  EXPECT_EQ(aclmdlRICaptureGetInfo(s_[0], nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  // A model that is still being captured cannot run or be destroyed.
  EXPECT_EQ(aclmdlRIExecuteAsync(during, s_[1]), ACL_ERROR_RT_MODEL_CAPTURED);
  EXPECT_EQ(aclmdlRIDestroy(during), ACL_ERROR_RT_MODEL_CAPTURED);

  EXPECT_EQ(aclmdlRICaptureEnd(s_[1], nullptr), ACL_ERROR_INVALID_PARAM);
  aclmdlRI model = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(s_[1], &model), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  EXPECT_EQ(aclmdlRICaptureEnd(nullptr, &model), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  ASSERT_EQ(aclmdlRICaptureEnd(s_[0], &model), ACL_SUCCESS);
  EXPECT_EQ(model, during);
  EXPECT_EQ(statusOf(s_[0]), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  EXPECT_EQ(aclmdlRICaptureEnd(s_[0], &model), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  // An empty model replays as a no-op.
  EXPECT_EQ(aclmdlRIExecuteAsync(model, s_[0]), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s_[0]), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CaptureTest, EndOnAJoinedSideStreamIsRefused) {
  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  link(s_[0], e_[0], s_[1]);
  aclmdlRI m0 = nullptr, m1 = nullptr;
  EXPECT_EQ(statusOf(s_[0], &m0), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  EXPECT_EQ(statusOf(s_[1], &m1), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  EXPECT_EQ(m0, m1);  // the side stream captures into the origin's model
  EXPECT_EQ(aclmdlRICaptureBegin(s_[1], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CAPTURED);
  aclmdlRI model = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(s_[1], &model), ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED);
  link(s_[1], e_[1], s_[0]);
  ASSERT_EQ(aclmdlRICaptureEnd(s_[0], &model), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(statusOf(s_[1]), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

// A side stream that never returns, returns and then gets another task, or records an event
// nobody waits on: End refuses the capture with 107025 and the streams leave capture.
TEST_F(CaptureTest, UnjoinedSideStreamsFailAtEnd) {
  DevVec a(8, 1.0f), b(8, 2.0f), c(8);
  struct Case {
    const char* what;
    const char* reason;
  };
  const Case cases[] = {{"never returns", "not an event record"},
                        {"task after return", "not an event record"},
                        {"record not waited", "never waited on"}};
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE(cases[k].what);
    ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    link(s_[0], e_[0], s_[1]);
    ASSERT_EQ(capture_test::add(a, b, 1.0f, c, s_[1]), ACL_SUCCESS);
    if (k == 1) {
      link(s_[1], e_[1], s_[0]);
      ASSERT_EQ(capture_test::add(a, b, 1.0f, c, s_[1]), ACL_SUCCESS);
    }
    if (k == 2) {
      ASSERT_EQ(aclrtRecordEvent(e_[1], s_[1]), ACL_SUCCESS);
    }
    aclmdlRI model = reinterpret_cast<aclmdlRI>(1);
    EXPECT_EQ(aclmdlRICaptureEnd(s_[0], &model), ACL_ERROR_RT_STREAM_UNJOINED);
    EXPECT_TRUE(messageHas(cases[k].reason)) << aclGetRecentErrMsg();
    EXPECT_EQ(model, nullptr);
    EXPECT_EQ(statusOf(s_[0]), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    EXPECT_EQ(statusOf(s_[1]), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    EXPECT_EQ(aclrtSynchronizeStream(s_[1]), ACL_SUCCESS);
  }
  // The captured operators never ran.
  EXPECT_EQ(c.read(), std::vector<float>(8, 0.0f));
}

TEST_F(CaptureTest, CapturingStreamsAndEventsCannotBeSynchronisedOrQueried) {
  // A ready model to try to execute on a capturing stream.
  aclmdlRI ready = nullptr;
  ASSERT_EQ(aclmdlRICaptureBegin(s_[2], ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(s_[2], &ready), ACL_SUCCESS);

  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  link(s_[0], e_[0], s_[1]);
  for (aclrtStream s : {s_[0], s_[1]}) {
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_CAPTURED);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(s, 100), ACL_ERROR_RT_STREAM_CAPTURED);
    aclrtStreamStatus st;
    EXPECT_EQ(aclrtStreamQuery(s, &st), ACL_ERROR_RT_STREAM_CAPTURED);
    EXPECT_EQ(aclrtDestroyStream(s), ACL_ERROR_RT_STREAM_CAPTURED);
    EXPECT_EQ(aclmdlRIExecuteAsync(ready, s), ACL_ERROR_RT_STREAM_CAPTURED);
  }
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_ERROR_RT_STREAM_CAPTURED);
  EXPECT_EQ(aclrtSynchronizeEvent(e_[0]), ACL_ERROR_RT_EVENT_CAPTURED);
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(e_[0], 100), ACL_ERROR_RT_EVENT_CAPTURED);
  aclrtEventRecordedStatus rs;
  EXPECT_EQ(aclrtQueryEventStatus(e_[0], &rs), ACL_ERROR_RT_EVENT_CAPTURED);
  aclrtEventStatus es;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_EQ(aclrtQueryEvent(e_[0], &es), ACL_ERROR_RT_EVENT_CAPTURED);
#pragma GCC diagnostic pop
  float ms = 0;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, e_[0], e_[2]), ACL_ERROR_RT_EVENT_CAPTURED);
  // An unrelated stream and event are not affected.
  EXPECT_EQ(aclrtSynchronizeStream(s_[2]), ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordEvent(e_[2], s_[2]), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEvent(e_[2]), ACL_SUCCESS);

  link(s_[1], e_[1], s_[0]);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(s_[0], &model), ACL_SUCCESS) << aclGetRecentErrMsg();
  // After the capture everything is allowed again.
  EXPECT_EQ(aclrtSynchronizeStream(s_[0]), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEvent(e_[0]), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(ready), ACL_SUCCESS);
}

// The unsafe synchronous calls under each mode, from the capturing thread.
TEST_F(CaptureTest, UnsafeCallsFollowTheCaptureMode) {
  DevVec d(8);
  Pinned pinned(8, 3.0f);
  std::vector<float> pageable(8, 5.0f);
  auto memcpySync = [&] {
    return aclrtMemcpy(d.dev, d.bytes(), pinned.p, pinned.bytes(), ACL_MEMCPY_HOST_TO_DEVICE);
  };
  auto memsetSync = [&] { return aclrtMemset(d.dev, d.bytes(), 0, d.bytes()); };
  auto memcpy2d = [&] { return aclrtMemcpy2d(d.dev, 16, pinned.p, 16, 16, 2, ACL_MEMCPY_HOST_TO_DEVICE); };
  auto pageableAsync = [&](aclrtStream s) {
    return aclrtMemcpyAsync(d.dev, d.bytes(), pageable.data(), d.bytes(), ACL_MEMCPY_HOST_TO_DEVICE, s);
  };

  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  EXPECT_EQ(memcpySync(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
  EXPECT_EQ(memsetSync(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
  EXPECT_EQ(memcpy2d(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
  EXPECT_EQ(pageableAsync(s_[0]), ACL_ERROR_RT_PARAM_INVALID);  // never capturable
  EXPECT_EQ(pageableAsync(s_[2]), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
  // THREAD_LOCAL does not help the thread that began a GLOBAL capture.
  aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL;
  ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(memcpySync(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
  // RELAXED runs them at once, outside the model.
  mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
  ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL);
  EXPECT_EQ(memcpySync(), ACL_SUCCESS);
  EXPECT_EQ(d.read(), std::vector<float>(8, 3.0f));
  EXPECT_EQ(pageableAsync(s_[2]), ACL_SUCCESS);
  EXPECT_EQ(d.read(), std::vector<float>(8, 5.0f));
  EXPECT_EQ(pageableAsync(s_[0]), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(memsetSync(), ACL_SUCCESS);
  EXPECT_EQ(d.read(), std::vector<float>(8, 0.0f));
  mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
  ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(s_[0], &model), ACL_SUCCESS);
  EXPECT_EQ(memcpySync(), ACL_SUCCESS);  // no capture active
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);

  // A THREAD_LOCAL capture still forbids them on the thread that began it; RELAXED never does.
  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
  EXPECT_EQ(memcpySync(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
  ASSERT_EQ(aclmdlRICaptureEnd(s_[0], &model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  EXPECT_EQ(memcpySync(), ACL_SUCCESS);
  EXPECT_EQ(memsetSync(), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(s_[0], &model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);

  EXPECT_EQ(aclmdlRICaptureThreadExchangeMode(nullptr), ACL_ERROR_INVALID_PARAM);
  mode = static_cast<aclmdlRICaptureMode>(9);
  EXPECT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_ERROR_INVALID_PARAM);
}

TEST_F(CaptureTest, TheDefaultStreamCannotBePulledIn) {
  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(e_[0], s_[0]), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamWaitEvent(nullptr, e_[0]), ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT);
  // The failure invalidates the capture: End reports it and ends the capture.
  EXPECT_EQ(statusOf(s_[0]), ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
  aclmdlRI model = reinterpret_cast<aclmdlRI>(1);
  EXPECT_EQ(aclmdlRICaptureEnd(s_[0], &model), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
  EXPECT_EQ(model, nullptr);
  EXPECT_EQ(statusOf(s_[0]), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  EXPECT_EQ(aclrtSynchronizeStream(s_[0]), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);  // the default stream never waited
}

TEST_F(CaptureTest, WaitsOnEventsFromOutsideOrFromAnotherCaptureAreRefused) {
  ASSERT_EQ(aclrtRecordEvent(e_[0], s_[2]), ACL_SUCCESS);  // an eager record
  ASSERT_EQ(aclrtSynchronizeStream(s_[2]), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamWaitEvent(s_[0], e_[0]), ACL_ERROR_RT_CAPTURE_DEPENDENCY);
  aclmdlRI model = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(s_[0], &model), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);

  // Two captures at once: an event of one cannot be waited on by the other's stream.
  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(s_[1], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(e_[1], s_[0]), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamWaitEvent(s_[1], e_[1]), ACL_ERROR_STREAM_CAPTURE_CONFLICT);
  EXPECT_EQ(aclmdlRICaptureEnd(s_[1], &model), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
  ASSERT_EQ(aclmdlRICaptureEnd(s_[0], &model), ACL_SUCCESS);  // the other capture is fine
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CaptureTest, ModelLifetimeAndExecution) {
  // A long replay: 16 MiB host-to-device.
  const size_t n = 4u << 20;
  DevVec d(static_cast<int64_t>(n));
  Pinned h(n, 7.0f);
  ASSERT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(capture_test::h2d(d, h, s_[0]), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(s_[0], &model), ACL_SUCCESS);

  EXPECT_EQ(aclmdlRIExecuteAsync(nullptr, s_[0]), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIExecute(model, -1), ACL_ERROR_RT_PARAM_INVALID);  // captured models only run async
  ASSERT_EQ(aclmdlRIExecuteAsync(model, s_[1]), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_ERROR_RT_MODEL_RUNNING);
  ASSERT_EQ(aclrtSynchronizeStream(s_[1]), ACL_SUCCESS);
  EXPECT_EQ(d.read()[n - 1], 7.0f);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclmdlRIExecuteAsync(model, s_[0]), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclmdlRIDestroy(nullptr), ACL_ERROR_INVALID_PARAM);
}

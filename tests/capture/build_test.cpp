// Models built stream by stream (aclmdlRIBuildBegin .. aclmdlRIBuildEnd): tasks issued to a bound
// stream are recorded, not run; the model replays them with aclmdlRIExecuteAsync or synchronously
// with aclmdlRIExecute; a stream bound without the head flag runs only after aclrtActiveStream; and
// every misuse returns its error.
#include <gtest/gtest.h>

#include <vector>

#include "capture_test_util.h"

using capture_test::CaptureTest;
using capture_test::DevVec;
using capture_test::Pinned;

namespace {
constexpr int64_t kN = 1 << 20;
}

TEST_F(CaptureTest, BuiltModelRecordsItsStreamAndReplaysAsyncAndSync) {
  aclrtStream bound = s_[0], run = s_[1];
  DevVec x(kN), y(kN, 2.0f), z(kN);
  Pinned in(static_cast<size_t>(kN), 1.0f), out(static_cast<size_t>(kN), 0.0f);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclmdlRIBindStream(model, bound, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(capture_test::h2d(x, in, bound), ACL_SUCCESS);
  ASSERT_EQ(capture_test::add(x, y, 1.0f, z, bound), ACL_SUCCESS);  // z = x + y
  ASSERT_EQ(capture_test::d2h(out, z, bound), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIEndTask(model, bound), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, run), ACL_ERROR_RT_MODEL_CAPTURED);  // not built yet
  ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(out.p[0], 0.0f);  // recorded, not run

  for (float v : {1.0f, 5.0f}) {
    in.fill(v);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, run), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(run), ACL_SUCCESS);
    EXPECT_EQ(out.p[0], v + 2.0f);
    EXPECT_EQ(out.p[out.n - 1], v + 2.0f);
  }
  in.fill(-1.0f);
  EXPECT_EQ(aclmdlRIExecute(model, 0), ACL_ERROR_INVALID_PARAM);  // 0 ms is no timeout
  ASSERT_EQ(aclmdlRIExecute(model, -1), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(out.p[0], 1.0f);  // done when it returns

  // The same work captured from a stream replays in the same device time.
  aclmdlRI captured = nullptr;
  ASSERT_EQ(aclmdlRICaptureBegin(s_[2], ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(capture_test::h2d(x, in, s_[2]), ACL_SUCCESS);
  ASSERT_EQ(capture_test::add(x, y, 1.0f, z, s_[2]), ACL_SUCCESS);
  ASSERT_EQ(capture_test::d2h(out, z, s_[2]), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(s_[2], &captured), ACL_SUCCESS);
  auto replayMs = [&](aclmdlRI m) {
    ASSERT_EQ(aclrtRecordEvent(e_[0], run), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(m, run), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(e_[1], run), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(run), ACL_SUCCESS);
  };
  float builtMs = 0, capturedMs = 0;
  replayMs(model);
  ASSERT_EQ(aclrtEventElapsedTime(&builtMs, e_[0], e_[1]), ACL_SUCCESS);
  replayMs(captured);
  ASSERT_EQ(aclrtEventElapsedTime(&capturedMs, e_[0], e_[1]), ACL_SUCCESS);
  EXPECT_NEAR(builtMs, capturedMs, 0.01 * capturedMs);

  EXPECT_EQ(aclmdlRIUnbindStream(model, bound), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIUnbindStream(model, bound), ACL_ERROR_INVALID_PARAM);  // no longer bound
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(captured), ACL_SUCCESS);
}

TEST_F(CaptureTest, StreamBoundWithoutTheHeadFlagRunsWhenActivated) {
  aclrtStream head = s_[0], side = s_[1], run = s_[2];
  DevVec a(kN * 4), b(kN * 4);
  Pinned in(static_cast<size_t>(kN * 4), 0.0f), out(static_cast<size_t>(kN * 4), 0.0f);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, head, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, side, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
  // The side stream copies what the head stream's (long) upload wrote: only right if it waits.
  ASSERT_EQ(capture_test::h2d(a, in, head), ACL_SUCCESS);
  ASSERT_EQ(aclrtActiveStream(side, head), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtMemcpyAsync(b.dev, b.bytes(), a.dev, a.bytes(), ACL_MEMCPY_DEVICE_TO_DEVICE, side),
            ACL_SUCCESS);
  ASSERT_EQ(capture_test::d2h(out, b, side), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIEndTask(model, head), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIEndTask(model, side), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
  for (float v : {4.0f, 6.0f}) {
    in.fill(v);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, run), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(run), ACL_SUCCESS);
    EXPECT_EQ(out.p[0], v);
    EXPECT_EQ(out.p[out.n - 1], v);
  }
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CaptureTest, BuildMisuseIsRefused) {
  aclmdlRI model = nullptr;
  EXPECT_EQ(aclmdlRIBuildBegin(nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIBuildBegin(&model, 1), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIBindStream(model, nullptr, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIBindStream(model, s_[0], 5), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlRIBindStream(model, s_[0], ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIBindStream(model, s_[0], ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_STREAM_CAPTURED);
  EXPECT_EQ(aclmdlRICaptureBegin(s_[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_ERROR_RT_STREAM_CAPTURED);
  aclmdlRI other = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(s_[0], &other), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  EXPECT_EQ(aclmdlRIEndTask(model, s_[1]), ACL_ERROR_INVALID_PARAM);          // not bound
  EXPECT_EQ(aclmdlRIUnbindStream(model, s_[0]), ACL_ERROR_RT_PARAM_INVALID);  // still building
  EXPECT_EQ(aclrtActiveStream(s_[1], s_[0]), ACL_ERROR_INVALID_PARAM);        // s_[1] is not bound
  ASSERT_EQ(aclmdlRIBindStream(model, s_[1], ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
  EXPECT_EQ(aclrtActiveStream(s_[1], s_[1]), ACL_ERROR_INVALID_PARAM);
  int reserve = 0;
  EXPECT_EQ(aclmdlRIBuildEnd(model, &reserve), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_ERROR_INVALID_PARAM);  // s_[1] is never activated
  ASSERT_EQ(aclrtActiveStream(s_[1], s_[0]), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_ERROR_RT_PARAM_INVALID);  // already built
  EXPECT_EQ(aclmdlRIBindStream(model, s_[2], ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtActiveStream(s_[1], s_[0]), ACL_ERROR_INVALID_PARAM);  // outside a build
  ASSERT_EQ(aclmdlRIExecute(model, -1), ACL_SUCCESS);  // an empty head lane and an activated side lane
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

// aclrtSwitchStream starts a lane only when its condition holds as the replay reaches it; the
// model ends with its aclmdlRIEndTask lane, and the lanes that never started are cancelled, so the
// next replay runs as well.
TEST_F(CaptureTest, SwitchStreamStartsOnlyTheBranchWhoseConditionHolds) {
  aclrtStream head = s_[0], branchA = s_[1], branchB = s_[2];
  aclrtStream end = nullptr, run = nullptr;
  ASSERT_EQ(aclrtCreateStream(&end), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&run), ACL_SUCCESS);
  int32_t one = 1, two = 2;
  void *selector = nullptr, *flag = nullptr, *cmp1 = nullptr, *cmp2 = nullptr;
  for (void** p : {&selector, &flag, &cmp1, &cmp2})
    ASSERT_EQ(aclrtMalloc(p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(cmp1, 4, &one, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(cmp2, 4, &two, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  DevVec a(kN, 0.0f), b(kN, 0.0f), srcA(kN, 10.0f), srcB(kN, 20.0f);

  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, head, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  for (aclrtStream s : {branchA, branchB, end})
    ASSERT_EQ(aclmdlRIBindStream(model, s, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
  // The head lane copies the selector into `flag`, then switches on it.
  ASSERT_EQ(aclrtMemcpyAsync(flag, 4, selector, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, head), ACL_SUCCESS);
  ASSERT_EQ(aclrtSwitchStream(flag, ACL_RT_EQUAL, cmp1, ACL_RT_SWITCH_INT32, branchA, nullptr, head),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSwitchStream(flag, ACL_RT_EQUAL, cmp2, ACL_RT_SWITCH_INT32, branchB, nullptr, head),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(a.dev, a.bytes(), srcA.dev, srcA.bytes(), ACL_MEMCPY_DEVICE_TO_DEVICE, branchA),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtActiveStream(end, branchA), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(b.dev, b.bytes(), srcB.dev, srcB.bytes(), ACL_MEMCPY_DEVICE_TO_DEVICE, branchB),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtActiveStream(end, branchB), ACL_SUCCESS);
  // Bad switches: a reserved falseStream, an unknown condition, a host operand.
  EXPECT_EQ(aclrtSwitchStream(flag, ACL_RT_EQUAL, cmp1, ACL_RT_SWITCH_INT32, branchA, branchB, head),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSwitchStream(flag, static_cast<aclrtCondition>(9), cmp1, ACL_RT_SWITCH_INT32, branchA,
                              nullptr, head),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSwitchStream(&one, ACL_RT_EQUAL, cmp1, ACL_RT_SWITCH_INT32, branchA, nullptr, head),
            ACL_ERROR_INVALID_PARAM);
  // Without an ending lane the model could not end while a branch never starts.
  EXPECT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlRIEndTask(model, end), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();

  for (int32_t pick : {1, 2, 1}) {
    ASSERT_EQ(aclrtMemcpy(selector, 4, &pick, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(a.dev, a.bytes(), 0, a.bytes()), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(b.dev, b.bytes(), 0, b.bytes()), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, run), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(run), ACL_SUCCESS);
    EXPECT_EQ(a.read().back(), pick == 1 ? 10.0f : 0.0f) << "selector " << pick;
    EXPECT_EQ(b.read().back(), pick == 2 ? 20.0f : 0.0f) << "selector " << pick;
  }
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  for (void* p : {selector, flag, cmp1, cmp2}) aclrtFree(p);
  aclrtDestroyStream(end);
  aclrtDestroyStream(run);
}

// aclrtSwitchLabelByIndex jumps forward to the label its device index selects: the tasks in
// between do not run, the ones after the label do; an index past the list means the last label.
TEST_F(CaptureTest, SwitchLabelByIndexSkipsToTheSelectedLabel) {
  aclrtStream bound = s_[0], run = s_[1];
  void* index = nullptr;
  ASSERT_EQ(aclrtMalloc(&index, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  DevVec skipped(1024, 0.0f), afterFirst(1024, 0.0f), afterSecond(1024, 0.0f), src(1024, 3.0f);
  aclrtLabel labels[2];
  for (aclrtLabel& l : labels) ASSERT_EQ(aclrtCreateLabel(&l), ACL_SUCCESS);
  aclrtLabelList list = nullptr;
  ASSERT_EQ(aclrtCreateLabelList(labels, 2, &list), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetLabel(labels[0], bound), ACL_ERROR_INVALID_PARAM);  // not bound to a model yet

  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, bound, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  EXPECT_EQ(aclrtSwitchLabelByIndex(index, 0, list, bound), ACL_ERROR_INVALID_PARAM);  // maxValue 0
  uint32_t hostIndex = 0;
  EXPECT_EQ(aclrtSwitchLabelByIndex(&hostIndex, 2, list, bound), ACL_ERROR_INVALID_PARAM);  // host memory
  ASSERT_EQ(aclrtSwitchLabelByIndex(index, 2, list, bound), ACL_SUCCESS) << aclGetRecentErrMsg();
  auto copy = [&](const DevVec& dst) {
    ASSERT_EQ(
        aclrtMemcpyAsync(dst.dev, dst.bytes(), src.dev, src.bytes(), ACL_MEMCPY_DEVICE_TO_DEVICE, bound),
        ACL_SUCCESS);
  };
  copy(skipped);
  ASSERT_EQ(aclrtSetLabel(labels[0], bound), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetLabel(labels[0], bound), ACL_ERROR_INVALID_PARAM);  // set once
  copy(afterFirst);
  ASSERT_EQ(aclrtSetLabel(labels[1], bound), ACL_SUCCESS);
  copy(afterSecond);
  ASSERT_EQ(aclmdlRIEndTask(model, bound), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();

  for (uint32_t pick : {0u, 1u, 7u}) {
    ASSERT_EQ(aclrtMemcpy(index, 4, &pick, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    for (const DevVec* v : {&skipped, &afterFirst, &afterSecond})
      ASSERT_EQ(aclrtMemset(v->dev, v->bytes(), 0, v->bytes()), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, run), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(run), ACL_SUCCESS);
    EXPECT_EQ(skipped.read().back(), 0.0f) << "index " << pick;
    EXPECT_EQ(afterFirst.read().back(), pick == 0 ? 3.0f : 0.0f) << "index " << pick;
    EXPECT_EQ(afterSecond.read().back(), 3.0f) << "index " << pick;
  }
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);

  // A label set before its switch would need a backward jump: the build is refused.
  aclrtLabel early = nullptr;
  ASSERT_EQ(aclrtCreateLabel(&early), ACL_SUCCESS);
  aclrtLabelList earlyList = nullptr;
  ASSERT_EQ(aclrtCreateLabelList(&early, 1, &earlyList), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, s_[2], ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetLabel(early, s_[2]), ACL_SUCCESS);
  ASSERT_EQ(aclrtSwitchLabelByIndex(index, 1, earlyList, s_[2]), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_ERROR_INVALID_PARAM);

  EXPECT_EQ(aclrtDestroyLabelList(list), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyLabelList(list), ACL_ERROR_INVALID_PARAM);
  for (aclrtLabel l : labels) EXPECT_EQ(aclrtDestroyLabel(l), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyLabel(labels[0]), ACL_ERROR_INVALID_PARAM);
  aclrtFree(index);
}

// Task groups and their update: operators captured in a group are replaced by the operators
// launched between aclmdlRICaptureTaskUpdateBegin and End, from the moment that stream's update
// task runs; replays ordered after it (by an event) compute with the new operators.
#include <gtest/gtest.h>

#include "capture_test_util.h"

using capture_test::CaptureTest;
using capture_test::DevVec;

TEST_F(CaptureTest, UpdatedGroupOperatorsRunInLaterReplays) {
  aclrtStream cap = s_[0], upd = s_[1], run = s_[2];
  DevVec x(1024, 1.0f), y(1024, 2.0f), out(1024);
  aclmdlRI model = nullptr;
  aclrtTaskGrp group = nullptr;
  ASSERT_EQ(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureTaskGrpBegin(cap), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclmdlRICaptureTaskGrpBegin(cap), ACL_ERROR_INVALID_PARAM);  // one open group per stream
  ASSERT_EQ(capture_test::add(x, y, 1.0f, out, cap), ACL_SUCCESS);       // out = x + y
  ASSERT_EQ(aclmdlRICaptureTaskGrpEnd(cap, &group), ACL_SUCCESS) << aclGetRecentErrMsg();
  // A group holds operators only.
  ASSERT_EQ(aclmdlRICaptureTaskGrpBegin(cap), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(out.dev, 64, x.dev, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, cap), ACL_SUCCESS);
  aclrtTaskGrp bad = nullptr;
  EXPECT_EQ(aclmdlRICaptureTaskGrpEnd(cap, &bad), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);
  EXPECT_EQ(aclmdlRICaptureTaskUpdateBegin(cap, group), ACL_ERROR_RT_STREAM_CAPTURED);
  ASSERT_EQ(aclmdlRICaptureEnd(cap, &model), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureTaskGrpEnd(run, &bad), ACL_ERROR_INVALID_PARAM);  // none open

  ASSERT_EQ(aclmdlRIExecuteAsync(model, run), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(run), ACL_SUCCESS);
  EXPECT_EQ(out.read().back(), 3.0f);

  // The update: out = x + 3 y. Its operator does not run on `upd`; the update task does.
  EXPECT_EQ(aclmdlRICaptureTaskUpdateEnd(upd), ACL_ERROR_INVALID_PARAM);  // not updating
  ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(upd, group), ACL_SUCCESS);
  ASSERT_EQ(capture_test::add(x, y, 3.0f, out, upd), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureTaskUpdateEnd(upd), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtRecordEvent(e_[0], upd), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(run, e_[0]), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(out.dev, out.bytes(), 0, out.bytes()), ACL_SUCCESS);
  EXPECT_EQ(out.read().back(), 0.0f);  // the update launched no computation
  ASSERT_EQ(aclmdlRIExecuteAsync(model, run), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(run), ACL_SUCCESS);
  EXPECT_EQ(out.read().back(), 7.0f);

  // An update must match the group's task count.
  ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(upd, group), ACL_SUCCESS);
  ASSERT_EQ(capture_test::add(x, y, 5.0f, out, upd), ACL_SUCCESS);
  ASSERT_EQ(capture_test::add(x, y, 5.0f, out, upd), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRICaptureTaskUpdateEnd(upd), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, run), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(run), ACL_SUCCESS);
  EXPECT_EQ(out.read().back(), 7.0f);  // unchanged
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

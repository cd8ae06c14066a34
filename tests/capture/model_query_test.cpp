// Looking into a finished model: aclmdlRIGetStreams gives one stream per captured stream,
// aclmdlRIGetTasksByStream each stream's tasks in capture order, aclmdlRITaskGetType and
// aclmdlRITaskGetSeqId what each task is and where; handles of other things, or of a destroyed
// model, are ACL_ERROR_INVALID_PARAM.
#include <gtest/gtest.h>

#include <vector>

#include "capture_test_util.h"

using capture_test::CaptureTest;
using capture_test::DevVec;

TEST_F(CaptureTest, AFinishedModelShowsItsStreamsAndTheirTasksInOrder) {
  aclrtStream s0 = s_[0], s1 = s_[1];
  DevVec a(1024, 1.0f), b(1024, 2.0f), c(1024), d(1024), sum(1024);
  aclrtEvent fork = nullptr, join = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&fork), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&join), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureBegin(s0, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(fork, s0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(c.dev, c.bytes(), a.dev, a.bytes(), ACL_MEMCPY_DEVICE_TO_DEVICE, s0),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(s1, fork), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(d.dev, d.bytes(), b.dev, b.bytes(), ACL_MEMCPY_DEVICE_TO_DEVICE, s1),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(join, s1), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(s0, join), ACL_SUCCESS);
  ASSERT_EQ(capture_test::add(c, d, 1.0f, sum, s0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(s0, &model), ACL_SUCCESS) << aclGetRecentErrMsg();

  uint32_t n = 0;
  ASSERT_EQ(aclmdlRIGetStreams(model, nullptr, &n), ACL_SUCCESS);
  ASSERT_EQ(n, 2u);  // the origin stream and the one the fork pulled in
  aclrtStream streams[4] = {};
  n = 1;
  ASSERT_EQ(aclmdlRIGetStreams(model, streams, &n), ACL_SUCCESS);
  EXPECT_EQ(n, 1u);  // no more than the array holds
  n = 4;
  ASSERT_EQ(aclmdlRIGetStreams(model, streams, &n), ACL_SUCCESS);
  ASSERT_EQ(n, 2u);

  auto tasksOf = [](aclrtStream s) {
    uint32_t count = 0;
    EXPECT_EQ(aclmdlRIGetTasksByStream(s, nullptr, &count), ACL_SUCCESS);
    std::vector<aclmdlRITask> t(count);
    EXPECT_EQ(aclmdlRIGetTasksByStream(s, t.data(), &count), ACL_SUCCESS);
    EXPECT_EQ(count, t.size());
    return t;
  };
  auto describe = [](const std::vector<aclmdlRITask>& tasks) {
    std::vector<aclmdlRITaskType> types;
    for (size_t i = 0; i < tasks.size(); ++i) {
      aclmdlRITaskType type = ACL_MODEL_RI_TASK_DEFAULT;
      uint32_t id = 99;
      EXPECT_EQ(aclmdlRITaskGetType(tasks[i], &type), ACL_SUCCESS);
      EXPECT_EQ(aclmdlRITaskGetSeqId(tasks[i], &id), ACL_SUCCESS);
      EXPECT_EQ(id, i);
      types.push_back(type);
    }
    return types;
  };
  const std::vector<aclmdlRITask> origin = tasksOf(streams[0]), side = tasksOf(streams[1]);
  EXPECT_EQ(describe(origin),
            (std::vector<aclmdlRITaskType>{ACL_MODEL_RI_TASK_EVENT_RECORD, ACL_MODEL_RI_TASK_DEFAULT,
                                           ACL_MODEL_RI_TASK_EVENT_WAIT, ACL_MODEL_RI_TASK_KERNEL}));
  EXPECT_EQ(describe(side),
            (std::vector<aclmdlRITaskType>{ACL_MODEL_RI_TASK_EVENT_WAIT, ACL_MODEL_RI_TASK_DEFAULT,
                                           ACL_MODEL_RI_TASK_EVENT_RECORD}));

  // Not the handles they ask for.
  EXPECT_EQ(aclmdlRIGetStreams(model, streams, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIGetStreams(reinterpret_cast<aclmdlRI>(&n), streams, &n), ACL_ERROR_INVALID_PARAM);
  uint32_t count = 4;
  aclmdlRITask t[4];
  EXPECT_EQ(aclmdlRIGetTasksByStream(s0, t, &count), ACL_ERROR_INVALID_PARAM);  // a user stream
  EXPECT_NE(aclrtSynchronizeStream(streams[0]), ACL_SUCCESS);  // a model's stream is not for launching
  aclmdlRITaskType type;
  EXPECT_EQ(aclmdlRITaskGetType(streams[0], &type), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRITaskGetType(origin[0], nullptr), ACL_ERROR_INVALID_PARAM);
  uint32_t id = 0;
  EXPECT_EQ(aclmdlRITaskGetSeqId(reinterpret_cast<char*>(origin[0]) + 1, &id), ACL_ERROR_INVALID_PARAM);

  // The model still replays, and its handles die with it.
  ASSERT_EQ(aclmdlRIExecuteAsync(model, s0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s0), ACL_SUCCESS);
  EXPECT_EQ(sum.read().front(), 3.0f);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRITaskGetType(origin[0], &type), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIGetTasksByStream(streams[1], t, &count), ACL_ERROR_INVALID_PARAM);
  aclrtDestroyEvent(fork);
  aclrtDestroyEvent(join);
}

// The parameters of a captured model's value tasks (aclmdlRITaskGetParams / SetParams): the word,
// value and comparison read back, and replaced from aclmdlRIUpdate on. Kernel tasks are in
// tests/kernels/model_kernel_task_test.cpp (they need a kernel binary). Also the real signatures of
// the model calls of the header's second part (issue 16).
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "capture_test_util.h"

using capture_test::CaptureTest;

static_assert(std::is_same_v<decltype(aclmdlRIAbort), aclError(aclmdlRI)>);
static_assert(
    std::is_same_v<decltype(aclmdlRIDestroyRegisterCallback), aclError(aclmdlRI, aclrtCallback, void*)>);
static_assert(std::is_same_v<decltype(aclmdlRIDestroyUnregisterCallback), aclError(aclmdlRI, aclrtCallback)>);
static_assert(std::is_same_v<decltype(aclmdlRIGetId), aclError(aclmdlRI, uint32_t*)>);
static_assert(std::is_same_v<decltype(aclmdlRIGetName), aclError(aclmdlRI, uint32_t, char*)>);
static_assert(std::is_same_v<decltype(aclmdlRISetName), aclError(aclmdlRI, const char*)>);
static_assert(std::is_same_v<decltype(aclmdlRITaskDisable), aclError(aclmdlRITask)>);
static_assert(std::is_same_v<decltype(aclmdlRIUpdate), aclError(aclmdlRI)>);
static_assert(std::is_same_v<decltype(aclmdlRITaskGetParams), aclError(aclmdlRITask, aclmdlRITaskParams*)>);
static_assert(std::is_same_v<decltype(aclmdlRITaskSetParams), aclError(aclmdlRITask, aclmdlRITaskParams*)>);

using capture_test::readWord;

TEST_F(CaptureTest, ValueTaskParamsAreReadAndReplacedAtUpdate) {
  aclrtStream s0 = s_[0];
  void *a = nullptr, *b = nullptr, *gate = nullptr;
  ASSERT_EQ(aclrtMalloc(&a, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&b, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&gate, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(a, 64, 0, 64), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(b, 64, 0, 64), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(gate, 64, 0, 64), ACL_SUCCESS);
  const uint64_t one = 1;
  ASSERT_EQ(aclrtMemcpy(gate, 8, &one, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);

  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureBegin(s0, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclrtValueWait(gate, 1, ACL_STREAM_WAIT_VALUE_GEQ, s0), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtValueWrite(a, 11, 0, s0), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclmdlRICaptureEnd(s0, &model), ACL_SUCCESS) << aclGetRecentErrMsg();
  aclrtStream lane = nullptr;
  uint32_t n = 1;
  ASSERT_EQ(aclmdlRIGetStreams(model, &lane, &n), ACL_SUCCESS);
  aclmdlRITask tasks[2];
  n = 2;
  ASSERT_EQ(aclmdlRIGetTasksByStream(lane, tasks, &n), ACL_SUCCESS);
  ASSERT_EQ(n, 2u);

  aclmdlRITaskParams wait, write;
  ASSERT_EQ(aclmdlRITaskGetParams(tasks[0], &wait), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(wait.type, ACL_MODEL_RI_TASK_VALUE_WAIT);
  EXPECT_EQ(wait.valueWaitTaskParams.devAddr, gate);
  EXPECT_EQ(wait.valueWaitTaskParams.value, 1u);
  EXPECT_EQ(wait.valueWaitTaskParams.flag, static_cast<uint32_t>(ACL_STREAM_WAIT_VALUE_GEQ));
  ASSERT_EQ(aclmdlRITaskGetParams(tasks[1], &write), ACL_SUCCESS);
  EXPECT_EQ(write.type, ACL_MODEL_RI_TASK_VALUE_WRITE);
  EXPECT_EQ(write.valueWriteTaskParams.devAddr, a);
  EXPECT_EQ(write.valueWriteTaskParams.value, 11u);

  ASSERT_EQ(aclmdlRIExecuteAsync(model, s0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s0), ACL_SUCCESS);
  EXPECT_EQ(readWord(a), 11u);

  // Another word and value: the replays after the update write them.
  write.valueWriteTaskParams.devAddr = b;
  write.valueWriteTaskParams.value = 22;
  ASSERT_EQ(aclmdlRITaskSetParams(tasks[1], &write), ACL_SUCCESS) << aclGetRecentErrMsg();
  wait.valueWaitTaskParams.value = 1;
  wait.valueWaitTaskParams.flag = ACL_STREAM_WAIT_VALUE_EQ;
  ASSERT_EQ(aclmdlRITaskSetParams(tasks[0], &wait), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIUpdate(model), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, s0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s0), ACL_SUCCESS);
  EXPECT_EQ(readWord(b), 22u);
  aclmdlRITaskParams now;
  ASSERT_EQ(aclmdlRITaskGetParams(tasks[0], &now), ACL_SUCCESS);
  EXPECT_EQ(now.valueWaitTaskParams.flag, static_cast<uint32_t>(ACL_STREAM_WAIT_VALUE_EQ));

  // Bad input: a misaligned word, a host word, a wrong type, an unknown comparison.
  write.valueWriteTaskParams.devAddr = static_cast<char*>(b) + 4;
  EXPECT_EQ(aclmdlRITaskSetParams(tasks[1], &write), ACL_ERROR_INVALID_PARAM);
  uint64_t host = 0;
  write.valueWriteTaskParams.devAddr = &host;
  EXPECT_EQ(aclmdlRITaskSetParams(tasks[1], &write), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRITaskSetParams(tasks[1], &wait), ACL_ERROR_INVALID_PARAM);
  wait.valueWaitTaskParams.flag = 99;
  EXPECT_EQ(aclmdlRITaskSetParams(tasks[0], &wait), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRITaskSetParams(tasks[0], nullptr), ACL_ERROR_INVALID_PARAM);

  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  aclrtFree(a);
  aclrtFree(b);
  aclrtFree(gate);
}

// A captured aclnn operator is a kernel task whose arguments npusim does not keep as a buffer.
TEST_F(CaptureTest, AnOperatorTaskHasNoKernelArgumentsToReport) {
  aclrtStream s0 = s_[0];
  capture_test::DevVec x(256, 1.0f), y(256, 2.0f), z(256, 0.0f);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureBegin(s0, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(capture_test::add(x, y, 1.0f, z, s0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(s0, &model), ACL_SUCCESS) << aclGetRecentErrMsg();
  aclrtStream lane = nullptr;
  uint32_t n = 1;
  ASSERT_EQ(aclmdlRIGetStreams(model, &lane, &n), ACL_SUCCESS);
  aclmdlRITask task = nullptr;
  n = 1;
  ASSERT_EQ(aclmdlRIGetTasksByStream(lane, &task, &n), ACL_SUCCESS);
  aclmdlRITaskParams p;
  EXPECT_EQ(aclmdlRITaskGetParams(task, &p), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  aclrtLaunchKernelAttrValue v;
  ASSERT_EQ(aclmdlRIKernelTaskGetAttribute(task, ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, &v), ACL_SUCCESS);
  EXPECT_EQ(v.engineType, ACL_RT_ENGINE_TYPE_AIV);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

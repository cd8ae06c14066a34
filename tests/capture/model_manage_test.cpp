// Managing a finished model: its id and name, callbacks run when it is destroyed, disabling a
// task (effective from aclmdlRIUpdate: later replays skip its work, earlier ones keep it), and
// aborting replays that have not started.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "capture_test_util.h"

using capture_test::CaptureTest;
using capture_test::DevVec;

namespace {
int destroyed = 0;
void onDestroy(void* user) { destroyed += *static_cast<int*>(user); }
}  // namespace

TEST_F(CaptureTest, AModelHasAnIdANameAndDestroyCallbacks) {
  aclrtStream s0 = s_[0];
  DevVec a(256, 1.0f), b(256);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureBegin(s0, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(b.dev, b.bytes(), a.dev, a.bytes(), ACL_MEMCPY_DEVICE_TO_DEVICE, s0),
            ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(s0, &model), ACL_SUCCESS);
  uint32_t id = 999;
  ASSERT_EQ(aclmdlRIGetId(model, &id), ACL_SUCCESS);
  EXPECT_NE(id, 999u);
  char name[16] = "x";
  ASSERT_EQ(aclmdlRIGetName(model, sizeof name, name), ACL_SUCCESS);
  EXPECT_STREQ(name, "");  // never named
  ASSERT_EQ(aclmdlRISetName(model, "decoder-layer-7"), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIGetName(model, sizeof name, name), ACL_SUCCESS);
  EXPECT_STREQ(name, "decoder-layer-7");
  char tiny[8];
  ASSERT_EQ(aclmdlRIGetName(model, sizeof tiny, tiny), ACL_SUCCESS);
  EXPECT_STREQ(tiny, "decoder");  // cut to the buffer
  ASSERT_EQ(aclmdlRISetName(model, std::string(600, 'n').c_str()), ACL_SUCCESS);
  std::vector<char> big(700);
  ASSERT_EQ(aclmdlRIGetName(model, 700, big.data()), ACL_SUCCESS);
  EXPECT_EQ(std::string(big.data()).size(), 512u);  // names are at most 512 bytes

  int one = 1, ten = 10;
  ASSERT_EQ(aclmdlRIDestroyRegisterCallback(model, onDestroy, &one), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIDestroyRegisterCallback(model, onDestroy, &ten), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIDestroyUnregisterCallback(model, onDestroy), ACL_SUCCESS);  // the first one
  EXPECT_EQ(destroyed, 0);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(destroyed, 10);
  EXPECT_EQ(aclmdlRIGetId(model, &id), ACL_ERROR_INVALID_PARAM);  // destroyed
}

TEST_F(CaptureTest, ADisabledTaskDoesNothingInReplaysAfterTheUpdate) {
  aclrtStream s0 = s_[0];
  DevVec a(1024, 1.0f), b(1024, 2.0f), c(1024, 0.0f), d(1024, 0.0f);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureBegin(s0, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(c.dev, c.bytes(), a.dev, a.bytes(), ACL_MEMCPY_DEVICE_TO_DEVICE, s0),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(d.dev, d.bytes(), b.dev, b.bytes(), ACL_MEMCPY_DEVICE_TO_DEVICE, s0),
            ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(s0, &model), ACL_SUCCESS);
  aclrtStream lane = nullptr;
  uint32_t n = 1;
  ASSERT_EQ(aclmdlRIGetStreams(model, &lane, &n), ACL_SUCCESS);
  aclmdlRITask tasks[2];
  n = 2;
  ASSERT_EQ(aclmdlRIGetTasksByStream(lane, tasks, &n), ACL_SUCCESS);
  ASSERT_EQ(n, 2u);
  ASSERT_EQ(aclmdlRITaskDisable(tasks[1]), ACL_SUCCESS);
  int junk = 0;
  EXPECT_EQ(aclmdlRITaskDisable(&junk), ACL_ERROR_INVALID_PARAM);
  // Not yet updated: the replay still does both copies.
  ASSERT_EQ(aclmdlRIExecuteAsync(model, s0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s0), ACL_SUCCESS);
  EXPECT_EQ(d.read()[0], 2.0f);
  const std::vector<float> zeros(1024, 0.0f);
  ASSERT_EQ(aclrtMemcpy(d.dev, d.bytes(), zeros.data(), d.bytes(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(c.dev, c.bytes(), zeros.data(), c.bytes(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIUpdate(model), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, s0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s0), ACL_SUCCESS);
  EXPECT_EQ(c.read()[0], 1.0f);                  // the first copy ran
  EXPECT_EQ(d.read()[0], 0.0f);                  // the disabled one did not
  ASSERT_EQ(aclmdlRIAbort(model), ACL_SUCCESS);  // nothing left to abort; the model stays usable
  ASSERT_EQ(aclmdlRIExecuteAsync(model, s0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

// Conditional tasks in a capture (aclmdlRIAddCondTask): IF, WHILE and SWITCH read their condition
// in device memory when the replay reaches them and run the branch models captured with
// aclmdlRICaptureToModelRIBegin; ASSIGN_DEFAULT resets the condition at every replay.
#include <gtest/gtest.h>

#include <vector>

#include "capture_test_util.h"

using capture_test::CaptureTest;
using capture_test::DevVec;

namespace {

void setCond(uint64_t* cond, uint64_t v) {
  ASSERT_EQ(aclrtMemcpy(cond, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

}  // namespace

TEST_F(CaptureTest, IfSwitchAndWhileRunTheBranchesTheirConditionSelects) {
  aclrtStream main = s_[0], sub = s_[1], run = s_[2];
  DevVec acc(256, 0.0f), one(256, 1.0f), ten(256, 10.0f), zero(256, 0.0f);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureBegin(main, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  aclmdlRI parent = nullptr;
  aclmdlRICaptureStatus status;
  ASSERT_EQ(aclmdlRICaptureGetInfo(main, &status, &parent), ACL_SUCCESS);
  aclmdlRICondHandle ifCond = nullptr, swCond = nullptr, whileCond = nullptr;
  ASSERT_EQ(aclmdlRICondHandleCreate(parent, 0, static_cast<aclmdlRICondHandleFlag>(0), &ifCond),
            ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICondHandleCreate(parent, 0, static_cast<aclmdlRICondHandleFlag>(0), &swCond),
            ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICondHandleCreate(parent, 1, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &whileCond),
            ACL_SUCCESS);
  uint64_t *ifPtr = nullptr, *swPtr = nullptr, *whilePtr = nullptr;
  ASSERT_EQ(aclmdlRICondHandleGetCondPtr(ifCond, &ifPtr), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICondHandleGetCondPtr(swCond, &swPtr), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICondHandleGetCondPtr(whileCond, &whilePtr), ACL_SUCCESS);

  // IF: acc += 1 (then) or acc += 10 (else).
  aclmdlRI ifBranches[2] = {};
  aclmdlRICondTaskParams p{ifCond, ACL_MODEL_RI_COND_TYPE_IF, 2, ifBranches};
  ASSERT_EQ(aclmdlRIAddCondTask(p, main, 0), ACL_SUCCESS) << aclGetRecentErrMsg();
  for (int b = 0; b < 2; ++b) {
    ASSERT_EQ(aclmdlRICaptureToModelRIBegin(sub, ifBranches[b], ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
              ACL_SUCCESS);
    ASSERT_EQ(capture_test::add(acc, b == 0 ? one : ten, 1.0f, acc, sub), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureEnd(sub, &ifBranches[b]), ACL_SUCCESS);
  }
  // SWITCH over three branches: acc += 100 * (case + 1).
  aclmdlRI cases[3] = {};
  p = {swCond, ACL_MODEL_RI_COND_TYPE_SWITCH, 3, cases};
  ASSERT_EQ(aclmdlRIAddCondTask(p, main, 0), ACL_SUCCESS);
  for (int c = 0; c < 3; ++c) {
    ASSERT_EQ(aclmdlRICaptureToModelRIBegin(sub, cases[c], ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    ASSERT_EQ(capture_test::add(acc, one, 100.0f * (c + 1), acc, sub), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureEnd(sub, &cases[c]), ACL_SUCCESS);
  }
  // WHILE (reset to 1 by every replay): the body adds 1000 and clears the condition: once.
  aclmdlRI body[1] = {};
  p = {whileCond, ACL_MODEL_RI_COND_TYPE_WHILE, 1, body};
  ASSERT_EQ(aclmdlRIAddCondTask(p, main, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureToModelRIBegin(sub, body[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(capture_test::add(acc, one, 1000.0f, acc, sub), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(whilePtr, 8, zero.dev, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, sub), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(sub, &body[0]), ACL_SUCCESS);

  // Misuse: a WHILE with two bodies, a non-capturing stream, a branch captured twice.
  aclmdlRI two[2] = {};
  p = {whileCond, ACL_MODEL_RI_COND_TYPE_WHILE, 2, two};
  EXPECT_EQ(aclmdlRIAddCondTask(p, main, 0), ACL_ERROR_INVALID_PARAM);
  p = {ifCond, ACL_MODEL_RI_COND_TYPE_IF, 1, two};
  EXPECT_EQ(aclmdlRIAddCondTask(p, run, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRICaptureToModelRIBegin(sub, ifBranches[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlRICaptureEnd(main, &model), ACL_SUCCESS) << aclGetRecentErrMsg();

  struct Case {
    uint64_t ifValue, swValue;
    float expect;
  };
  for (Case c : {Case{1, 0, 1 + 100 + 1000}, Case{0, 2, 10 + 300 + 1000}, Case{7, 5, 1 + 1000}}) {
    ASSERT_EQ(aclrtMemset(acc.dev, acc.bytes(), 0, acc.bytes()), ACL_SUCCESS);
    setCond(ifPtr, c.ifValue);
    setCond(swPtr, c.swValue);
    setCond(whilePtr, 0);  // the replay sets it back to its default, 1
    ASSERT_EQ(aclmdlRIExecuteAsync(model, run), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(run), ACL_SUCCESS);
    EXPECT_EQ(acc.read().back(), c.expect) << "if " << c.ifValue << ", switch " << c.swValue;
  }
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

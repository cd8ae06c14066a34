// The parameters of a captured model's kernel task (aclmdlRITaskGetParams / SetParams,
// aclmdlRIKernelTaskGetAttribute): a kernel from a binary is captured, its function, arguments and
// block count read back, then replaced; the replays after aclmdlRIUpdate run the new ones (issue 16).
#include <gtest/gtest.h>

#include <cstring>
#include <type_traits>
#include <vector>

#include "acl/acl.h"
#include "tests/aicore/aicore_test_util.h"

using aicore_test::Session;

static_assert(std::is_same_v<decltype(aclmdlRITaskGetParams), aclError(aclmdlRITask, aclmdlRITaskParams*)>);
static_assert(std::is_same_v<decltype(aclmdlRITaskSetParams), aclError(aclmdlRITask, aclmdlRITaskParams*)>);
static_assert(std::is_same_v<decltype(aclmdlRIKernelTaskGetAttribute),
                             aclError(aclmdlRITask, aclrtLaunchKernelAttrId, aclrtLaunchKernelAttrValue*)>);

namespace {

struct FillArgs {
  void* out;
  int32_t value;
  uint64_t n;
};

std::vector<int32_t> read(void* dev, size_t n) {
  std::vector<int32_t> v(n);
  EXPECT_EQ(aclrtMemcpy(v.data(), n * 4, dev, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  return v;
}

}  // namespace

TEST(ModelKernelTask, ParamsAreReadAndReplacedAtUpdate) {
  Session s;
  aclrtBinHandle bin = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromFile(NPUSIM_TEST_KERNEL_BINARY, nullptr, &bin), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  aclrtFuncHandle fill = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(bin, "bin_fill", &fill), ACL_SUCCESS);
  const uint64_t n = 8;
  void* out = nullptr;
  ASSERT_EQ(aclrtMalloc(&out, 4 * n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(out, 4 * n * 4, 0, 4 * n * 4), ACL_SUCCESS);

  // Capture one kernel with a configuration and one event record.
  aclrtEvent ev = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&ev), ACL_SUCCESS);
  FillArgs args{out, 100, n};
  aclrtLaunchKernelAttr attr{};
  attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
  attr.value.schemMode = 1;
  aclrtLaunchKernelCfg cfg{&attr, 1};
  ASSERT_EQ(aclmdlRICaptureBegin(s.stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelV2(fill, 2, &args, sizeof args, &cfg, s.stream), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtRecordEvent(ev, s.stream), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(s.stream, &model), ACL_SUCCESS) << aclGetRecentErrMsg();
  aclrtStream lanes[4];
  uint32_t numLanes = 4;
  ASSERT_EQ(aclmdlRIGetStreams(model, lanes, &numLanes), ACL_SUCCESS);
  ASSERT_EQ(numLanes, 1u);
  aclmdlRITask tasks[8];
  uint32_t numTasks = 8;
  ASSERT_EQ(aclmdlRIGetTasksByStream(lanes[0], tasks, &numTasks), ACL_SUCCESS);
  ASSERT_EQ(numTasks, 2u);
  aclmdlRITask kernelTask = tasks[0], recordTask = tasks[1];

  // What was launched.
  aclmdlRITaskParams p;
  ASSERT_EQ(aclmdlRITaskGetParams(kernelTask, &p), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(p.type, ACL_MODEL_RI_TASK_KERNEL);
  EXPECT_EQ(p.kernelTaskParams.funcHandle, fill);
  EXPECT_EQ(p.kernelTaskParams.numBlocks, 2u);
  ASSERT_EQ(p.kernelTaskParams.argsSize, sizeof args);
  EXPECT_EQ(p.kernelTaskParams.isHostArgs, 1u);
  EXPECT_EQ(std::memcmp(p.kernelTaskParams.args, &args, sizeof args), 0);
  aclmdlRITaskParams e;
  ASSERT_EQ(aclmdlRITaskGetParams(recordTask, &e), ACL_SUCCESS);
  EXPECT_EQ(e.type, ACL_MODEL_RI_TASK_EVENT_RECORD);
  EXPECT_EQ(e.eventRecordTaskParams.event, ev);

  // Its attributes: the configured scheduling mode, the default engine.
  aclrtLaunchKernelAttrValue v;
  ASSERT_EQ(aclmdlRIKernelTaskGetAttribute(kernelTask, ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &v),
            ACL_SUCCESS);
  EXPECT_EQ(v.schemMode, 1);
  ASSERT_EQ(aclmdlRIKernelTaskGetAttribute(kernelTask, ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, &v),
            ACL_SUCCESS);
  EXPECT_EQ(v.engineType, ACL_RT_ENGINE_TYPE_AIV);
  ASSERT_EQ(aclmdlRIKernelTaskGetAttribute(kernelTask, ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE, &v),
            ACL_SUCCESS);
  EXPECT_EQ(v.dynUBufSize, 0u);
  EXPECT_EQ(aclmdlRIKernelTaskGetAttribute(recordTask, ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &v),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIKernelTaskGetAttribute(kernelTask, static_cast<aclrtLaunchKernelAttrId>(42), &v),
            ACL_ERROR_INVALID_PARAM);

  ASSERT_EQ(aclmdlRIExecuteAsync(model, s.stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  std::vector<int32_t> got = read(out, 4 * n);
  EXPECT_EQ(got[0], 100);
  EXPECT_EQ(got[n + 3], 101);
  EXPECT_EQ(got[2 * n], 0);

  // New arguments and three blocks: kept until aclmdlRIUpdate.
  FillArgs fresh{out, 500, n};
  p.kernelTaskParams.args = &fresh;
  p.kernelTaskParams.argsSize = sizeof fresh;
  p.kernelTaskParams.numBlocks = 3;
  ASSERT_EQ(aclmdlRITaskSetParams(kernelTask, &p), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclmdlRIExecuteAsync(model, s.stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  EXPECT_EQ(read(out, 4 * n)[0], 100);
  ASSERT_EQ(aclmdlRIUpdate(model), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, s.stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  got = read(out, 4 * n);
  EXPECT_EQ(got[0], 500);
  EXPECT_EQ(got[2 * n + 1], 502);
  EXPECT_EQ(got[3 * n], 0);
  aclmdlRITaskParams now;
  ASSERT_EQ(aclmdlRITaskGetParams(kernelTask, &now), ACL_SUCCESS);
  EXPECT_EQ(now.kernelTaskParams.numBlocks, 3u);
  ASSERT_EQ(aclmdlRIKernelTaskGetAttribute(kernelTask, ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &v),
            ACL_SUCCESS);
  EXPECT_EQ(v.schemMode, 1);  // attributes not given stay

  // Bad input.
  EXPECT_EQ(aclmdlRITaskGetParams(kernelTask, nullptr), ACL_ERROR_INVALID_PARAM);
  int local = 0;
  EXPECT_EQ(aclmdlRITaskGetParams(&local, &now), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRITaskSetParams(recordTask, &e), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  p.kernelTaskParams.funcHandle = &local;
  EXPECT_EQ(aclmdlRITaskSetParams(kernelTask, &p), ACL_ERROR_INVALID_PARAM);
  p.kernelTaskParams.funcHandle = fill;
  p.kernelTaskParams.argsSize = 4;  // fewer bytes than the kernel takes
  EXPECT_EQ(aclmdlRITaskSetParams(kernelTask, &p), ACL_ERROR_INVALID_PARAM);

  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  aclrtDestroyEvent(ev);
  aclrtFree(out);
  EXPECT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
}

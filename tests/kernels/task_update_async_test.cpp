// aclrtTaskUpdateAsync (issue 29): a kernel task of a model is switched to another kernel of its
// binary and block count by an update task of a model, which reads the kernel's entry and the
// block count from device memory each time it runs; the target's executions after that run the
// new kernel with the task's own arguments. Ordering on execStream, every documented error code,
// and the same simulated times on every run.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/runtime_surface/random_para_util.h"

using aicore_test::readFloats;
using aicore_test::Session;
using npusim::test::setValue;

namespace {

struct FillArgs {
  void* out;
  int32_t value;
  uint64_t n;
};

constexpr uint64_t kN = 8;

struct Kernels {
  aclrtBinHandle bin = nullptr;
  aclrtFuncHandle fill = nullptr, negated = nullptr;
  uint64_t fillEntry = 0, negatedEntry = 0;
  Kernels() {
    EXPECT_EQ(aclrtBinaryLoadFromFile(NPUSIM_TEST_KERNEL_BINARY, nullptr, &bin), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtBinaryGetFunction(bin, "bin_fill", &fill), ACL_SUCCESS);
    EXPECT_EQ(aclrtBinaryGetFunction(bin, "bin_fill_negated", &negated), ACL_SUCCESS);
    void *aic = nullptr, *aiv = nullptr;
    EXPECT_EQ(aclrtGetFunctionAddr(fill, &aic, &aiv), ACL_SUCCESS);
    fillEntry = reinterpret_cast<uintptr_t>(aiv);
    EXPECT_EQ(aclrtGetFunctionAddr(negated, &aic, &aiv), ACL_SUCCESS);
    negatedEntry = reinterpret_cast<uintptr_t>(aiv);
  }
};

// Device memory: the kernel's output (4 blocks of kN) and the entry / block count the update reads.
struct Buffers {
  void* out = nullptr;
  void* entry = nullptr;
  void* blocks = nullptr;
  Buffers() {
    EXPECT_EQ(aclrtMalloc(&out, 4 * kN * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(out, 4 * kN * 4, 0, 4 * kN * 4), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&entry, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&blocks, 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  ~Buffers() {
    aclrtFree(out);
    aclrtFree(entry);
    aclrtFree(blocks);
  }
  void set(uint64_t e, uint32_t b) {
    EXPECT_EQ(aclrtMemcpy(entry, 8, &e, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(blocks, 4, &b, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  std::vector<int32_t> read() const {
    std::vector<int32_t> v(4 * kN);
    EXPECT_EQ(aclrtMemcpy(v.data(), v.size() * 4, out, v.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return v;
  }
};

aclrtTaskUpdateInfo kernelUpdate(const Kernels& k, const Buffers& b) {
  aclrtTaskUpdateInfo info{};
  info.id = ACL_RT_UPDATE_AIC_AIV_TASK;
  info.val.aicAivTaskAttr.binHandle = k.bin;
  info.val.aicAivTaskAttr.funcEntryAddr = b.entry;
  info.val.aicAivTaskAttr.blockDimAddr = b.blocks;
  return info;
}

// A built model of one kernel task, bin_fill(out, 100, kN) on 2 blocks; *taskId is its id.
aclmdlRI buildFill(const Kernels& k, const Buffers& b, aclrtStream stream, uint32_t* taskId) {
  aclmdlRI m = nullptr;
  EXPECT_EQ(aclmdlRIBuildBegin(&m, 0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIBindStream(m, stream, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  FillArgs args{b.out, 100, kN};
  EXPECT_EQ(aclrtLaunchKernel(k.fill, 2, &args, sizeof args, stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclrtGetThreadLastTaskId(taskId), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIEndTask(m, stream), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIBuildEnd(m, nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
  return m;
}

std::vector<uint32_t> gErrors;
void onException(aclrtExceptionInfo* info) { gErrors.push_back(aclrtGetErrorCodeFromExceptionInfo(info)); }

void run(aclmdlRI m, aclrtStream s) {
  ASSERT_EQ(aclmdlRIExecuteAsync(m, s), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << aclGetRecentErrMsg();
}

// A session with a built model of bin_fill on kernelStream and a second stream for updates.
struct FillModel {
  Session s;
  Kernels k;
  Buffers b;
  aclrtStream kernelStream = nullptr, updateStream = nullptr;
  uint32_t taskId = 0;
  aclmdlRI fill = nullptr;
  FillModel() {
    EXPECT_EQ(aclrtCreateStream(&kernelStream), ACL_SUCCESS);
    EXPECT_EQ(aclrtCreateStream(&updateStream), ACL_SUCCESS);
    fill = buildFill(k, b, kernelStream, &taskId);
  }
  ~FillModel() {
    EXPECT_EQ(aclmdlRIDestroy(fill), ACL_SUCCESS);
    aclrtDestroyStream(updateStream);
    aclrtDestroyStream(kernelStream);
  }
};

}  // namespace

TEST(TaskUpdateAsync, DeviceReportsTheFeature) {
  Session s;
  int32_t value = -1;
  ASSERT_EQ(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &value), ACL_SUCCESS);
  EXPECT_EQ(value, ACL_DEV_FEATURE_SUPPORT);
  ASSERT_EQ(aclrtGetDeviceCapability(0, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &value), ACL_SUCCESS);
  EXPECT_EQ(value, ACL_DEV_FEATURE_NOT_SUPPORT);
}

// The update lives in a second model: each of its executions switches the first model's kernel to
// the entry and block count in device memory at that moment.
TEST(TaskUpdateAsync, UpdateModelSwitchesTheKernelOfTheNextReplay) {
  FillModel f;
  auto& [s, k, b, kernelStream, updateStream, taskId, fill] = f;

  aclmdlRI update = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&update, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(update, updateStream, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  aclrtTaskUpdateInfo info = kernelUpdate(k, b);
  ASSERT_EQ(aclrtTaskUpdateAsync(kernelStream, taskId, &info, updateStream), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclmdlRIEndTask(update, updateStream), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBuildEnd(update, nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();

  run(fill, s.stream);
  std::vector<int32_t> got = b.read();
  EXPECT_EQ(got[0], 100);
  EXPECT_EQ(got[kN + 3], 101);
  EXPECT_EQ(got[2 * kN], 0);

  // Recording the update changed nothing; running it switches to bin_fill_negated on 3 blocks.
  b.set(k.negatedEntry, 3);
  run(fill, s.stream);
  EXPECT_EQ(b.read()[0], 100);
  run(update, s.stream);
  run(fill, s.stream);
  got = b.read();
  EXPECT_EQ(got[0], -100);
  EXPECT_EQ(got[kN + 1], -101);
  EXPECT_EQ(got[2 * kN + kN - 1], -102);
  EXPECT_EQ(got[3 * kN], 0);

  // The entry is read when the update runs, not when it was recorded.
  b.set(k.fillEntry, 1);
  run(fill, s.stream);
  EXPECT_EQ(b.read()[0], -100);
  run(update, s.stream);
  run(fill, s.stream);
  got = b.read();
  EXPECT_EQ(got[0], 100);
  EXPECT_EQ(got[kN], -101);  // one block now: the second block's output stays

  // An entry that names no kernel of the binary fails the update task on the device: the stream
  // that executed its model reports it, as does the exception callback; nothing changes.
  gErrors.clear();
  ASSERT_EQ(aclrtSetExceptionInfoCallback(onException), ACL_SUCCESS);
  b.set(k.fillEntry + 1, 2);
  ASSERT_EQ(aclmdlRIExecuteAsync(update, s.stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(gErrors.size(), 1u);
  EXPECT_EQ(gErrors[0], static_cast<uint32_t>(ACL_ERROR_RT_PARAM_INVALID));
  ASSERT_EQ(aclrtSetExceptionInfoCallback(nullptr), ACL_SUCCESS);
  run(fill, s.stream);
  EXPECT_EQ(b.read()[kN], -101);  // still one block

  EXPECT_EQ(aclmdlRIDestroy(update), ACL_SUCCESS);
}

namespace {

// A captured stream: bin_fill, then on the same stream the update of that kernel. Returns the
// values of two replays and the device time of the second.
struct Ordered {
  std::vector<int32_t> first, second;
  float secondMs = 0;
};

Ordered replayUpdateAfterKernel() {
  Session s;
  Kernels k;
  Buffers b;
  b.set(k.negatedEntry, 2);
  aclrtStream cap = nullptr;
  EXPECT_EQ(aclrtCreateStream(&cap), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  FillArgs args{b.out, 7, kN};
  EXPECT_EQ(aclrtLaunchKernel(k.fill, 2, &args, sizeof args, cap), ACL_SUCCESS);
  uint32_t taskId = 0;
  EXPECT_EQ(aclrtGetThreadLastTaskId(&taskId), ACL_SUCCESS);
  aclrtTaskUpdateInfo info = kernelUpdate(k, b);
  EXPECT_EQ(aclrtTaskUpdateAsync(cap, taskId, &info, cap), ACL_SUCCESS) << aclGetRecentErrMsg();
  aclmdlRI m = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(cap, &m), ACL_SUCCESS) << aclGetRecentErrMsg();
  Ordered o;
  run(m, s.stream);
  o.first = b.read();
  aclrtEvent start = nullptr, end = nullptr;
  EXPECT_EQ(aclrtCreateEvent(&start), ACL_SUCCESS);
  EXPECT_EQ(aclrtCreateEvent(&end), ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordEvent(start, s.stream), ACL_SUCCESS);
  run(m, s.stream);
  EXPECT_EQ(aclrtRecordEvent(end, s.stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtEventElapsedTime(&o.secondMs, start, end), ACL_SUCCESS);
  o.second = b.read();
  aclrtDestroyEvent(start);
  aclrtDestroyEvent(end);
  EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
  aclrtDestroyStream(cap);
  return o;
}

}  // namespace

// On execStream the update runs in stream order: after the kernel it follows, so the replay that
// runs it still computes with the old kernel and the next one with the new.
TEST(TaskUpdateAsync, UpdateRunsInExecStreamOrder) {
  Ordered o = replayUpdateAfterKernel();
  EXPECT_EQ(o.first[0], 7);
  EXPECT_EQ(o.first[kN], 8);
  EXPECT_EQ(o.second[0], -7);
  EXPECT_EQ(o.second[kN + kN - 1], -8);
  EXPECT_GT(o.secondMs, 0.0f);
}

TEST(TaskUpdateAsync, SameProgramSameValues) {
  Ordered a = replayUpdateAfterKernel();
  Ordered b = replayUpdateAfterKernel();
  EXPECT_EQ(a.first, b.first);
  EXPECT_EQ(a.second, b.second);
}

// The ordering test run twice as its own process: byte-identical traces, with the update task on
// the captured stream's replays.
TEST(TaskUpdateAsync, SameProgramSameTrace) {
  auto trace = [](const std::string& name) {
    const std::string path = testing::TempDir() + name;
    const std::string cmd = "NPUSIM_TRACE=" + path + " /proc/" + std::to_string(getpid()) +
                            "/exe --gtest_filter=TaskUpdateAsync.UpdateRunsInExecStreamOrder > /dev/null";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  const std::string a = trace("task_update_a.json"), b = trace("task_update_b.json");
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  EXPECT_NE(a.find("\"TaskUpdate\""), std::string::npos);
  EXPECT_NE(a.find("aclrtTaskUpdateAsync"), std::string::npos);
}

TEST(TaskUpdateAsync, BadInputAnswersTheDocumentedCodes) {
  FillModel f;
  auto& [s, k, b, kernelStream, updateStream, taskId, fill] = f;
  aclrtTaskUpdateInfo info = kernelUpdate(k, b);

  // Not streams of a model: 107005.
  EXPECT_EQ(aclrtTaskUpdateAsync(kernelStream, taskId, &info, updateStream), ACL_ERROR_RT_STREAM_MODEL);
  EXPECT_EQ(aclrtTaskUpdateAsync(s.stream, taskId, &info, updateStream), ACL_ERROR_RT_STREAM_MODEL);

  aclmdlRI update = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&update, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(update, updateStream, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  EXPECT_EQ(aclrtTaskUpdateAsync(s.stream, taskId, &info, updateStream), ACL_ERROR_RT_STREAM_MODEL);
  EXPECT_EQ(aclrtTaskUpdateAsync(kernelStream, taskId, nullptr, updateStream), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtTaskUpdateAsync(nullptr, taskId, &info, updateStream), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtTaskUpdateAsync(kernelStream, taskId, &info, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtTaskUpdateAsync(kernelStream, taskId + 1000, &info, updateStream),
            ACL_ERROR_RT_PARAM_INVALID);

  aclrtTaskUpdateInfo bad = info;
  bad.id = static_cast<aclrtUpdateTaskAttrId>(9);
  EXPECT_EQ(aclrtTaskUpdateAsync(kernelStream, taskId, &bad, updateStream), ACL_ERROR_RT_PARAM_INVALID);
  bad = info;
  bad.val.aicAivTaskAttr.binHandle = nullptr;
  EXPECT_EQ(aclrtTaskUpdateAsync(kernelStream, taskId, &bad, updateStream), ACL_ERROR_RT_PARAM_INVALID);
  int local = 0;
  bad.val.aicAivTaskAttr.binHandle = &local;
  EXPECT_EQ(aclrtTaskUpdateAsync(kernelStream, taskId, &bad, updateStream), ACL_ERROR_RT_PARAM_INVALID);
  bad = info;
  uint64_t hostEntry = k.negatedEntry;
  bad.val.aicAivTaskAttr.funcEntryAddr = &hostEntry;  // host memory
  EXPECT_EQ(aclrtTaskUpdateAsync(kernelStream, taskId, &bad, updateStream), ACL_ERROR_RT_PARAM_INVALID);
  bad = info;
  bad.val.aicAivTaskAttr.blockDimAddr = nullptr;
  EXPECT_EQ(aclrtTaskUpdateAsync(kernelStream, taskId, &bad, updateStream), ACL_ERROR_RT_PARAM_INVALID);

  // A random-number update of a kernel task, and its own bad input.
  void* src = nullptr;
  ASSERT_EQ(aclrtMalloc(&src, sizeof(aclrtRandomNumTaskInfo), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtTaskUpdateInfo random{};
  random.id = ACL_RT_UPDATE_RANDOM_TASK;
  random.val.randomTaskAttr.srcAddr = src;
  random.val.randomTaskAttr.size = sizeof(aclrtRandomNumTaskInfo);
  EXPECT_EQ(aclrtTaskUpdateAsync(kernelStream, taskId, &random, updateStream),
            ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);
  random.val.randomTaskAttr.size = 40;
  EXPECT_EQ(aclrtTaskUpdateAsync(kernelStream, taskId, &random, updateStream), ACL_ERROR_RT_PARAM_INVALID);
  random.val.randomTaskAttr.size = sizeof(aclrtRandomNumTaskInfo);
  random.val.randomTaskAttr.srcAddr = nullptr;
  EXPECT_EQ(aclrtTaskUpdateAsync(kernelStream, taskId, &random, updateStream), ACL_ERROR_RT_PARAM_INVALID);

  // A task of the model that is not a kernel: 507009.
  aclrtEvent ev = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&ev), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(ev, updateStream), ACL_SUCCESS);
  uint32_t recordId = 0;
  ASSERT_EQ(aclrtGetThreadLastTaskId(&recordId), ACL_SUCCESS);
  EXPECT_NE(recordId, taskId);
  EXPECT_EQ(aclrtTaskUpdateAsync(updateStream, recordId, &info, updateStream),
            ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);

  // None of the refused calls recorded a task: the model runs, and the kernel is unchanged.
  ASSERT_EQ(aclmdlRIEndTask(update, updateStream), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBuildEnd(update, nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
  b.set(k.negatedEntry, 2);
  run(update, s.stream);
  run(fill, s.stream);
  EXPECT_EQ(b.read()[0], 100);

  aclrtDestroyEvent(ev);
  aclrtFree(src);
  EXPECT_EQ(aclmdlRIDestroy(update), ACL_SUCCESS);
}

// A captured random-number task takes the seed, count, result and counter of an
// aclrtRandomNumTaskInfo in device memory once an update on any stream has run: its next replay
// gives exactly what a task launched with them gives; the distribution stays.
TEST(TaskUpdateAsync, RandomTaskTakesNewSeedCountAndResult) {
  Session s;
  constexpr uint64_t n = 64;
  void *first = nullptr, *second = nullptr, *direct = nullptr, *counter = nullptr, *src = nullptr,
       *bad = nullptr;
  for (void** p : {&first, &second, &direct})
    ASSERT_EQ(aclrtMalloc(p, n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&counter, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  for (void** p : {&src, &bad})
    ASSERT_EQ(aclrtMalloc(p, sizeof(aclrtRandomNumTaskInfo), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  for (void* p : {first, second}) ASSERT_EQ(aclrtMemset(p, n * 4, 0, n * 4), ACL_SUCCESS);

  aclrtRandomNumTaskInfo info;
  std::memset(&info, 0, sizeof info);
  info.dataType = ACL_FLOAT;
  info.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
  setValue(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, 2.0f);
  setValue(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, 3.0f);
  info.randomResultAddr = first;
  info.randomCounterAddr = counter;
  setValue(&info.randomSeed, uint64_t{1});
  setValue(&info.randomNum, n);

  aclrtStream cap = nullptr;
  ASSERT_EQ(aclrtCreateStream(&cap), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclrtRandomNumAsync(&info, cap, nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
  uint32_t taskId = 0;
  ASSERT_EQ(aclrtGetThreadLastTaskId(&taskId), ACL_SUCCESS);

  // The new attributes: seed 9, half the count, the second buffer (the distribution in them is
  // ignored).
  aclrtRandomNumTaskInfo fresh = info;
  fresh.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS;
  fresh.randomResultAddr = second;
  setValue(&fresh.randomSeed, uint64_t{9});
  setValue(&fresh.randomNum, n / 2);
  ASSERT_EQ(aclrtMemcpy(src, sizeof fresh, &fresh, sizeof fresh, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclrtTaskUpdateInfo update{};
  update.id = ACL_RT_UPDATE_RANDOM_TASK;
  update.val.randomTaskAttr.srcAddr = src;
  update.val.randomTaskAttr.size = sizeof fresh;
  // An update of the model's own task on a stream outside the model; made while capturing, it
  // runs now, before the model was ever replayed.
  ASSERT_EQ(aclrtTaskUpdateAsync(cap, taskId, &update, s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  // Contents that are not a valid task fail the update task on the device and change nothing.
  aclrtRandomNumTaskInfo broken = fresh;
  broken.randomCounterAddr = nullptr;
  ASSERT_EQ(aclrtMemcpy(bad, sizeof broken, &broken, sizeof broken, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclrtTaskUpdateInfo badUpdate = update;
  badUpdate.val.randomTaskAttr.srcAddr = bad;
  ASSERT_EQ(aclrtTaskUpdateAsync(cap, taskId, &badUpdate, s.stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_PARAM_INVALID);
  aclmdlRI m = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(cap, &m), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclrtTaskUpdateAsync(cap, taskId, &update, s.stream),
            ACL_ERROR_RT_STREAM_MODEL);  // capture ended

  ASSERT_EQ(aclrtMemset(counter, 16, 0, 16), ACL_SUCCESS);
  run(m, s.stream);
  std::vector<float> got = readFloats(second, n);

  // The same numbers from a task launched with the new attributes and a fresh counter.
  ASSERT_EQ(aclrtMemset(counter, 16, 0, 16), ACL_SUCCESS);
  aclrtRandomNumTaskInfo same = info;
  same.randomResultAddr = direct;
  setValue(&same.randomSeed, uint64_t{9});
  setValue(&same.randomNum, n / 2);
  ASSERT_EQ(aclrtRandomNumAsync(&same, s.stream, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  std::vector<float> want = readFloats(direct, n / 2);
  for (uint64_t i = 0; i < n / 2; ++i) {
    EXPECT_EQ(got[i], want[i]) << i;
    EXPECT_GE(got[i], 2.0f);  // still uniform in [2, 3)
    EXPECT_LT(got[i], 3.0f);
  }
  EXPECT_EQ(got[n / 2], 0.0f);               // half the count
  EXPECT_EQ(readFloats(first, 1)[0], 0.0f);  // the old result was never written
  uint64_t offset = 0;
  ASSERT_EQ(aclrtMemcpy(&offset, 8, counter, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(offset, n / 2);

  EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
  aclrtDestroyStream(cap);
  for (void* p : {first, second, direct, counter, src, bad}) aclrtFree(p);
}

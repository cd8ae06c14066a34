// aclFinalize ends the simulation and a later aclInit starts a fresh one in the same process
// (docs/architecture.md "Ending"): the outputs are complete at aclFinalize, the second
// simulation times the same work exactly as the first, time goes on across them, and the
// handles of the ended simulation are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "tests/capture/capture_test_util.h"
#include "tests/runtime/sim_test_util.h"

using capture_test::readWord;
using npusim::test::configure;
using npusim::test::eventMs;

namespace {

struct CycleTimes {
  double asyncMs = 0;  // an H2D copy between two events on a stream
  double syncNs = 0;   // a synchronous D2H copy on the simulated host clock
  double startNs = 0;  // host clock after aclInit
  double endNs = 0;    // host clock after aclFinalize
  uint64_t checksum = 0;
};

// One init cycle: copies 4 MiB to the device and back, checks the data, and finalises.
CycleTimes runCycle(uint8_t fill) {
  CycleTimes c;
  EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
  c.startNs = npusimHostTimeNs();
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s = nullptr;
  EXPECT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  const size_t n = 4u << 20;
  void* host = nullptr;
  void* dev = nullptr;
  EXPECT_EQ(aclrtMallocHost(&host, n), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&dev, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::memset(host, fill, n);
  c.asyncMs = eventMs(s, [&] { aclrtMemcpyAsync(dev, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE, s); });
  std::vector<uint8_t> back(n, 0);
  const double before = npusimHostTimeNs();
  EXPECT_EQ(aclrtMemcpy(back.data(), n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  c.syncNs = npusimHostTimeNs() - before;
  for (uint8_t b : back) c.checksum += b;
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  c.endNs = npusimHostTimeNs();
  return c;
}

nlohmann::json readJson(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  nlohmann::json j = nlohmann::json::parse(s, nullptr, false);
  // A trace still open (the process goes on) waits for the end of its event list.
  if (j.is_discarded() && s.rfind("{\"traceEvents\":[", 0) == 0)
    j = nlohmann::json::parse(s + "]}", nullptr, false);
  return j;
}

// aclFinalize, then a fresh aclInit with device 0 set: the start of every registry test's second
// cycle, before anything new is created (so no new object sits at an old handle's address).
void finalizeAndInitAgain() {
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

void startCycle() {
  configure("");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

uint64_t streamTasks(const nlohmann::json& stats) {
  uint64_t tasks = 0;
  for (const auto& st : stats["streams"]) tasks += st["tasks"].get<uint64_t>();
  return tasks;
}

}  // namespace

TEST(Finalize, ASecondInitCycleTimesTheSameWorkAsTheFirst) {
  configure("");
  const CycleTimes first = runCycle(7);
  const CycleTimes second = runCycle(9);
  EXPECT_GT(first.asyncMs, 0.0);
  EXPECT_GT(first.syncNs, 0.0);
  // A fresh platform from the same configuration, its clocks from 0 again: the same times.
  EXPECT_EQ(first.asyncMs, second.asyncMs);
  EXPECT_EQ(first.syncNs, second.syncNs);
  EXPECT_EQ(first.startNs, second.startNs);
  EXPECT_EQ(first.endNs, second.endNs);
  EXPECT_LT(second.startNs, first.endNs);
  // The data are the second cycle's own.
  EXPECT_EQ(first.checksum, 7ull * (4u << 20));
  EXPECT_EQ(second.checksum, 9ull * (4u << 20));
}

TEST(Finalize, TheSecondCycleReadsTheConfigurationAgain) {
  configure("");
  const CycleTimes gen4 = runCycle(1);
  configure("pcie.gen=5");
  const CycleTimes gen5 = runCycle(1);
  // PCIe Gen5 doubles the link's rate: the host-to-device copy takes clearly less time.
  EXPECT_LT(gen5.asyncMs, gen4.asyncMs * 0.75);
}

TEST(Finalize, CallsBetweenFinalizeAndInitAreRefused) {
  configure("");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclFinalize ended the simulation"), std::string::npos);
  void* p = nullptr;
  EXPECT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
  // Callback registrations belong to the process: they are made before the next aclInit.
  int finalized = 0;
  auto count = [](void* n) -> aclError {
    ++*static_cast<int*>(n);
    return ACL_SUCCESS;
  };
  EXPECT_EQ(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, count, &finalized), ACL_SUCCESS);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(finalized, 1);
  EXPECT_EQ(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, count), ACL_SUCCESS);
}

TEST(Finalize, HandlesOfAnEndedSimulationAreRefused) {
  configure("");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  aclrtEvent event = nullptr;
  aclrtContext ctx = nullptr;
  void* dev = nullptr;
  void* host = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&host, 4096), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);  // releases what the program did not

  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  // Before anything new is created, so no new object can sit at an old handle's address.
  EXPECT_EQ(aclrtSetCurrentContext(ctx), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("destroyed by aclFinalize"), std::string::npos);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtRecordEvent(event, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("destroyed by aclFinalize"), std::string::npos);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtFreeHost(host), ACL_ERROR_RT_PARAM_INVALID);
  std::vector<uint8_t> h(4096, 3);
  EXPECT_NE(aclrtMemcpy(dev, 4096, h.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  // The new simulation works normally beside the refused handles.
  void* fresh = nullptr;
  ASSERT_EQ(aclrtMalloc(&fresh, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(fresh, 4096, h.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(fresh), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Finalize, TraceAndStatisticsAreCompleteAtEachFinalize) {
  configure("trace.level=api");
  const std::string trace = ::testing::TempDir() + "finalize.trace.json";
  const std::string stats = ::testing::TempDir() + "finalize.stats.json";
  setenv("NPUSIM_TRACE", trace.c_str(), 1);
  setenv("NPUSIM_STATS", stats.c_str(), 1);
  const CycleTimes first = runCycle(1);
  nlohmann::json s1 = readJson(stats);
  ASSERT_FALSE(s1.is_discarded());
  const uint64_t tasks1 = streamTasks(s1);
  EXPECT_GE(tasks1, 2u);  // the async copy and the synchronous one, at least
  nlohmann::json t1 = readJson(trace);
  ASSERT_FALSE(t1.is_discarded()) << "the trace is not readable after aclFinalize";

  runCycle(2);
  nlohmann::json s2 = readJson(stats);
  ASSERT_FALSE(s2.is_discarded());
  EXPECT_EQ(streamTasks(s2), tasks1);  // the second simulation's own statistics, same work
  nlohmann::json t2 = readJson(trace);
  ASSERT_FALSE(t2.is_discarded());
  // One trace for both: every call of the second cycle lies after the first cycle's end.
  std::vector<double> memcpyStarts;
  int npuProcesses = 0;
  for (const auto& e : t2["traceEvents"]) {
    if (e.value("name", "") == "aclrtMemcpy" && e.value("ph", "") == "X")
      memcpyStarts.push_back(e["ts"].get<double>());
    if (e.value("name", "") == "process_name" && e["args"].value("name", "").rfind("NPU 0", 0) == 0)
      ++npuProcesses;
  }
  ASSERT_EQ(memcpyStarts.size(), 2u);
  EXPECT_LT(memcpyStarts[0], first.endNs / 1000.0);
  // The second simulation's clocks start at 0 again; the trace shifts it past the first's end
  // (rounded up to a microsecond), so the same call lies exactly that much later.
  EXPECT_NEAR(memcpyStarts[1] - memcpyStarts[0], std::ceil(first.endNs / 1000.0), 1e-6);
  EXPECT_EQ(npuProcesses, 2);  // each simulation's device is a process of its own
}

TEST(Finalize, LabelsAndLabelListsOfAnEndedSimulationAreRefused) {
  startCycle();
  aclrtLabel label = nullptr;
  aclrtLabelList list = nullptr;
  ASSERT_EQ(aclrtCreateLabel(&label), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateLabelList(&label, 1, &list), ACL_SUCCESS);
  finalizeAndInitAgain();
  EXPECT_EQ(aclrtDestroyLabelList(list), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not a live label list"), std::string::npos);
  EXPECT_EQ(aclrtDestroyLabel(label), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCreateLabelList(&label, 1, &list), ACL_ERROR_INVALID_PARAM);
  aclrtLabel fresh = nullptr;
  aclrtLabelList freshList = nullptr;
  ASSERT_EQ(aclrtCreateLabel(&fresh), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateLabelList(&fresh, 1, &freshList), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyLabelList(freshList), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyLabel(fresh), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

namespace {

// A condition handle of the model being captured on `s` (the capture is left open).
aclmdlRICondHandle conditionOfACapture(aclrtStream s) {
  aclmdlRICondHandle h = nullptr;
  EXPECT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  aclmdlRICaptureStatus status;
  EXPECT_EQ(aclmdlRICaptureGetInfo(s, &status, &model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRICondHandleCreate(model, 3, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &h), ACL_SUCCESS);
  return h;
}

}  // namespace

TEST(Finalize, ConditionHandlesOfAnEndedSimulationAreRefused) {
  startCycle();
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  aclmdlRICondHandle old = conditionOfACapture(s);
  uint64_t* cond = nullptr;
  ASSERT_EQ(aclmdlRICondHandleGetCondPtr(old, &cond), ACL_SUCCESS);
  finalizeAndInitAgain();  // the capture still open: aclFinalize ends it with the model
  EXPECT_EQ(aclmdlRICondHandleGetCondPtr(old, &cond), ACL_ERROR_INVALID_PARAM);
  aclrtStream s2 = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
  aclmdlRICondHandle fresh = conditionOfACapture(s2);
  ASSERT_EQ(aclmdlRICondHandleGetCondPtr(fresh, &cond), ACL_SUCCESS);
  uint64_t value = 0;
  ASSERT_EQ(aclrtMemcpy(&value, 8, cond, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(value, 3u);  // the new handle's default, in the new simulation's device memory
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

namespace {

// Captures out = x + y on `cap` as one task group; the model and the group come back.
void captureAGroup(aclrtStream cap, const capture_test::DevVec& x, const capture_test::DevVec& y,
                   const capture_test::DevVec& out, aclmdlRI* model, aclrtTaskGrp* group) {
  ASSERT_EQ(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureTaskGrpBegin(cap), ACL_SUCCESS);
  ASSERT_EQ(capture_test::add(x, y, 1.0f, out, cap), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureTaskGrpEnd(cap, group), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclmdlRICaptureEnd(cap, model), ACL_SUCCESS);
}

}  // namespace

TEST(Finalize, TaskGroupsOfAnEndedSimulationAreRefused) {
  startCycle();
  aclrtStream cap = nullptr, upd = nullptr;
  ASSERT_EQ(aclrtCreateStream(&cap), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  aclrtTaskGrp old = nullptr;
  {
    capture_test::DevVec x(256, 1.0f), y(256, 2.0f), out(256);
    captureAGroup(cap, x, y, out, &model, &old);
  }
  finalizeAndInitAgain();
  ASSERT_EQ(aclrtCreateStream(&upd), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRICaptureTaskUpdateBegin(upd, old), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not a task group"), std::string::npos);
  // A group of this simulation is updated as usual: out = x + 3 y.
  ASSERT_EQ(aclrtCreateStream(&cap), ACL_SUCCESS);
  {
    capture_test::DevVec x(256, 1.0f), y(256, 2.0f), out(256);
    aclrtTaskGrp group = nullptr;
    captureAGroup(cap, x, y, out, &model, &group);
    ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(upd, group), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(capture_test::add(x, y, 3.0f, out, upd), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureTaskUpdateEnd(upd), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(upd), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, upd), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(upd), ACL_SUCCESS);
    EXPECT_EQ(out.read().back(), 7.0f);
  }
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Finalize, TdtChannelsOfAnEndedSimulationAreRefused) {
  startCycle();
  acltdtChannelHandle* old = acltdtCreateChannelWithCapacity(0, "before", 2);
  ASSERT_NE(old, nullptr);
  std::vector<float> values{1, 2, 3};
  int64_t dims[] = {3};
  acltdtDataItem* item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, values.data(), 12);
  acltdtDataset* ds = acltdtCreateDataset();
  ASSERT_EQ(acltdtAddDataItem(ds, item), ACL_SUCCESS);
  ASSERT_EQ(acltdtSendTensor(old, ds, 0), ACL_SUCCESS);  // still queued at aclFinalize
  finalizeAndInitAgain();
  size_t n = 0;
  EXPECT_EQ(acltdtQueryChannelSize(old, &n), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyChannel(old), ACL_ERROR_INVALID_PARAM);
  // Datasets and items are the program's host data: they still work with a new channel.
  acltdtChannelHandle* fresh = acltdtCreateChannelWithCapacity(0, "after", 2);
  ASSERT_NE(fresh, nullptr);
  ASSERT_EQ(acltdtSendTensor(fresh, ds, 0), ACL_SUCCESS);
  ASSERT_EQ(acltdtQueryChannelSize(fresh, &n), ACL_SUCCESS);
  EXPECT_EQ(n, 1u);
  EXPECT_EQ(acltdtDestroyChannel(fresh), ACL_SUCCESS);
  acltdtDestroyDataItem(item);
  acltdtDestroyDataset(ds);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Finalize, TdtQueuesOfAnEndedSimulationAreRefused) {
  startCycle();
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  uint32_t old = 0;
  ASSERT_EQ(acltdtCreateQueue(attr, &old), ACL_SUCCESS);
  const uint32_t word = 0x12345678;
  ASSERT_EQ(acltdtEnqueueData(old, &word, 4, nullptr, 0, 0, 0), ACL_SUCCESS);  // queued at aclFinalize
  finalizeAndInitAgain();
  EXPECT_EQ(acltdtEnqueueData(old, &word, 4, nullptr, 0, 0, 0), ACL_ERROR_INVALID_QUEUE_ID);
  EXPECT_EQ(acltdtDestroyQueue(old), ACL_ERROR_INVALID_QUEUE_ID);
  uint32_t fresh = 0;
  ASSERT_EQ(acltdtCreateQueue(attr, &fresh), ACL_SUCCESS);  // the attribute is host data: kept
  EXPECT_NE(fresh, old);
  ASSERT_EQ(acltdtEnqueueData(fresh, &word, 4, nullptr, 0, 0, 0), ACL_SUCCESS);
  uint32_t back = 0;
  size_t got = 0;
  ASSERT_EQ(acltdtDequeueData(fresh, &back, 4, &got, nullptr, 0, 0), ACL_SUCCESS);
  EXPECT_EQ(back, word);
  EXPECT_EQ(acltdtDestroyQueue(fresh), ACL_SUCCESS);
  acltdtDestroyQueueAttr(attr);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Finalize, TheOverflowStatusAddressIsMadeAgainInANewSimulation) {
  startCycle();
  void* first = nullptr;
  void* before = nullptr;  // so the status is not the first allocation in the first cycle
  ASSERT_EQ(aclrtMalloc(&before, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtCtxGetFloatOverflowAddr(&first), ACL_SUCCESS);
  finalizeAndInitAgain();
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  // Writes the flag, which must not reach the ended simulation's memory.
  ASSERT_EQ(aclrtResetOverflowStatus(s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  void* second = nullptr;
  ASSERT_EQ(aclrtCtxGetFloatOverflowAddr(&second), ACL_SUCCESS);
  EXPECT_NE(second, first);  // the first cycle's address is not allocated in this one
  uint64_t flag = 7;
  ASSERT_EQ(aclrtMemcpy(&flag, 8, second, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(flag, 0u);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Finalize, ManagedMemoryAdviceEndsWithItsBlock) {
  startCycle();
  const size_t size = 4u << 20;
  aclrtMemManagedLocation device0{ACL_MEM_LOCATIONTYPE_DEVICE, 0};
  void* old = nullptr;
  ASSERT_EQ(aclrtMemAllocManaged(&old, size, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemManagedAdvise(old, size, ACL_MEM_ADVISE_SET_READ_MOSTLY, device0), ACL_SUCCESS);
  finalizeAndInitAgain();
  int32_t v = 9;
  EXPECT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, old, size, &v, 4),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("is not managed memory"), std::string::npos);
  void* fresh = nullptr;
  ASSERT_EQ(aclrtMemAllocManaged(&fresh, size, 1), ACL_SUCCESS);
  // A new block starts without advice, even at the old block's address.
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, fresh, size, &v, 4), ACL_SUCCESS);
  EXPECT_EQ(v, 0);
  ASSERT_EQ(aclrtMemManagedAdvise(fresh, size, ACL_MEM_ADVISE_SET_READ_MOSTLY, device0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, fresh, size, &v, 4), ACL_SUCCESS);
  EXPECT_EQ(v, 1);
  EXPECT_EQ(aclrtFree(fresh), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

namespace {

// A model of one value write (11 to `a`) captured on a new stream, and its task.
void captureAValueWrite(void* a, aclmdlRI* model, aclmdlRITask* task) {
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclrtValueWrite(a, 11, 0, s), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclmdlRICaptureEnd(s, model), ACL_SUCCESS) << aclGetRecentErrMsg();
  aclrtStream lane = nullptr;
  uint32_t n = 1;
  ASSERT_EQ(aclmdlRIGetStreams(*model, &lane, &n), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIGetTasksByStream(lane, task, &n), ACL_SUCCESS);
  ASSERT_EQ(n, 1u);
}

}  // namespace

TEST(Finalize, TaskParameterChangesOfAnEndedSimulationAreForgotten) {
  startCycle();
  void *a = nullptr, *b = nullptr;
  ASSERT_EQ(aclrtMalloc(&a, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&b, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  aclmdlRITask old = nullptr;
  captureAValueWrite(a, &model, &old);
  aclmdlRITaskParams write;
  ASSERT_EQ(aclmdlRITaskGetParams(old, &write), ACL_SUCCESS) << aclGetRecentErrMsg();
  write.valueWriteTaskParams.devAddr = b;
  write.valueWriteTaskParams.value = 22;
  ASSERT_EQ(aclmdlRITaskSetParams(old, &write), ACL_SUCCESS);  // pending until aclmdlRIUpdate
  finalizeAndInitAgain();
  EXPECT_EQ(aclmdlRITaskGetParams(old, &write), ACL_ERROR_INVALID_PARAM);
  // The same model again (its task likely at the old task's address): the old change is gone.
  ASSERT_EQ(aclrtMalloc(&a, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&b, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(a, 64, 0, 64), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(b, 64, 0, 64), ACL_SUCCESS);
  aclmdlRITask task = nullptr;
  captureAValueWrite(a, &model, &task);
  ASSERT_EQ(aclmdlRIUpdate(model), ACL_SUCCESS);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_EQ(readWord(a), 11u);
  EXPECT_EQ(readWord(b), 0u);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Finalize, AllocatorDescriptorsAreHostDataAndOutliveASimulation) {
  startCycle();
  aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
  ASSERT_NE(desc, nullptr);
  int allocator = 0;
  ASSERT_EQ(aclrtAllocatorSetObjToDesc(desc, &allocator), ACL_SUCCESS);
  finalizeAndInitAgain();
  EXPECT_EQ(aclrtAllocatorSetObjToDesc(desc, &allocator), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_ERROR_INVALID_PARAM);  // once only
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Finalize, AnAclnnExecutorOfAnEndedSimulationIsRefusedAtLaunch) {
  startCycle();
  aclOpExecutor* old = nullptr;
  uint64_t workspace = 0;
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  {
    capture_test::DevVec x(256, 1.0f), y(256, 2.0f), out(256);
    ASSERT_EQ(aclnnAddGetWorkspaceSize(x.t, y.t, alpha, out.t, &workspace, &old), ACL_SUCCESS);
  }
  finalizeAndInitAgain();
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  // The executor is host data, but the device memory it names ended with the first simulation.
  EXPECT_EQ(aclnnAdd(nullptr, workspace, old, s), 161002);  // ACLNN_ERR_PARAM_INVALID
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not inside one live device allocation"),
            std::string::npos)
      << aclGetRecentErrMsg();
  // The scalar is host data too: a new executor over new memory uses it.
  {
    capture_test::DevVec x(256, 1.0f), y(256, 2.0f), out(256);
    aclOpExecutor* fresh = nullptr;
    ASSERT_EQ(aclnnAddGetWorkspaceSize(x.t, y.t, alpha, out.t, &workspace, &fresh), ACL_SUCCESS);
    ASSERT_EQ(aclnnAdd(nullptr, workspace, fresh, s), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    EXPECT_EQ(out.read().back(), 3.0f);
  }
  aclDestroyScalar(alpha);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

// aclFinalize frees the pinned blocks the program did not; a copy or memset that still names
// one is refused like one into a block aclrtFreeHost freed, and never touches the freed memory.
TEST(Finalize, PinnedHostBlocksOfAnEndedSimulationAreRefusedNotTouched) {
  startCycle();
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 65536), ACL_SUCCESS);
  void* freed = nullptr;
  ASSERT_EQ(aclrtMallocHost(&freed, 4096), ACL_SUCCESS);
  ASSERT_EQ(aclrtFreeHost(freed), ACL_SUCCESS);
  finalizeAndInitAgain();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemset(pinned, 65536, 7, 4096), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("that aclFinalize already freed"), std::string::npos);
  EXPECT_EQ(aclrtMemset(freed, 4096, 7, 4096), ACL_ERROR_RT_PARAM_INVALID);  // freed in cycle one
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(dev, 4096, pinned, 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  void* fresh = nullptr;  // a new block of the new simulation works
  ASSERT_EQ(aclrtMallocHost(&fresh, 4096), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemset(fresh, 4096, 7, 4096), ACL_SUCCESS);
  EXPECT_EQ(static_cast<uint8_t*>(fresh)[4095], 7);
  EXPECT_EQ(aclrtMemcpy(dev, 4096, fresh, 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

namespace {

size_t memoryMaps() {
  std::ifstream maps("/proc/self/maps");
  size_t n = 0;
  for (std::string line; std::getline(maps, line);) ++n;
  return n;
}

// One cycle with the threads a program makes: the default stream of device 0 and one more
// (plus each device's synchronous-copy stream), a copy run on it, and a destroyed stream.
void cycleWithStreams() {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s = nullptr, gone = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&gone), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(gone), ACL_SUCCESS);
  void* dev = nullptr;
  void* host = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&host, 4096), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dev, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

}  // namespace

// Every stream thread returns at aclFinalize, so SystemC frees its coroutine stack (a 256 KiB
// allocation with a guard page: two memory maps). When they waited forever each cycle here
// kept three stacks, six maps (116 maps after the warm-up, 1,016 after 150 cycles), and a
// process ran out of maps after some thousands of cycles. Measured on /proc/self/maps: after
// a few warm-up cycles (allocator arenas, the first context libsystemc keeps) 150 more cycles
// may add at most 30 maps (0.2 per cycle, against 6).
TEST(Finalize, CyclingInitAndFinalizeKeepsTheMemoryMapsBounded) {
  configure("");
  for (int i = 0; i < 5; ++i) cycleWithStreams();
  const size_t warm = memoryMaps();
  for (int i = 0; i < 150; ++i) {
    cycleWithStreams();
    if (HasFatalFailure()) return;
  }
  const size_t after = memoryMaps();
  EXPECT_LE(after, warm + 30) << "memory maps: " << warm << " after the warm-up, " << after
                              << " 150 cycles later";
}

// Profiling (aclprof*, mstx*): marks and ranges appear in npusim's trace on the host track at simulated
// time; the documented error codes for misuse; a model subscription delivers per-operator records with
// the simulated operator times.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "mstx/ms_tools_ext.h"
#include "npusim/npusim.h"
#include "profiling/aprof_pub.h"
#include "surface_test_util.h"

using surface_test::TempDir;

namespace {

// The trace's events with this name.
std::vector<nlohmann::json> events(const std::string& tracePath, const std::string& name) {
  nlohmann::json t = nlohmann::json::parse(surface_test::readFile(tracePath));
  const auto& list = t.is_array() ? t : t["traceEvents"];
  std::vector<nlohmann::json> out;
  for (const auto& e : list)
    if (e.value("name", "") == name) out.push_back(e);
  return out;
}

}  // namespace

TEST(Prof, CollectionLifecycleReturnsTheDocumentedCodes) {
  TempDir dir;
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  uint32_t devices[] = {0};
  aclprofConfig* cfg =
      aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX);
  ASSERT_NE(cfg, nullptr);
  EXPECT_EQ(aclprofStart(cfg), ACL_ERROR_UNINITIALIZE);  // before aclprofInit
  ASSERT_EQ(aclprofInit(dir.path.c_str(), dir.path.size()), ACL_SUCCESS);
  EXPECT_EQ(aclprofInit(dir.path.c_str(), dir.path.size()), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(aclprofStop(cfg), ACL_ERROR_PROF_NOT_RUN);
  ASSERT_EQ(aclprofStart(cfg), ACL_SUCCESS);
  EXPECT_EQ(aclprofStart(cfg), ACL_ERROR_PROF_ALREADY_RUN);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 2), ACL_SUCCESS);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_ARGS_MAX, "1", 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofFinalize(), ACL_ERROR_PROF_ALREADY_RUN);  // stop first
  ASSERT_EQ(aclprofStop(cfg), ACL_SUCCESS);
  ASSERT_EQ(aclprofDestroyConfig(cfg), ACL_SUCCESS);
  ASSERT_EQ(aclprofFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclprofFinalize(), ACL_ERROR_UNINITIALIZE);
  uint32_t missing[] = {99};
  EXPECT_EQ(aclprofCreateConfig(missing, 1, ACL_AICORE_NONE, nullptr, 0), nullptr);
  aclFinalize();
}

TEST(Prof, MarksAndRangesAreOnTheHostTrackAtSimulatedTime) {
  TempDir dir;
  std::string trace = dir / "trace.json";
  setenv("NPUSIM_TRACE", trace.c_str(), 1);
  int status = surface_test::runInChild([] {
    CHILD_CHECK(aclInit(nullptr) == ACL_SUCCESS);
    void* stamp = aclprofCreateStamp();
    CHILD_CHECK(stamp != nullptr);
    CHILD_CHECK(aclprofSetStampTraceMessage(stamp, "load", 4) == ACL_SUCCESS);
    CHILD_CHECK(aclprofMark(stamp) == ACL_SUCCESS);
    uint32_t range = 0;
    CHILD_CHECK(aclprofRangeStart(stamp, &range) == ACL_SUCCESS);
    npusimHostWork(250000);  // 250 us of host work inside the range
    CHILD_CHECK(aclprofRangeStop(range) == ACL_SUCCESS);
    CHILD_CHECK(aclprofRangeStop(range) == ACL_ERROR_INVALID_PARAM);  // already closed
    CHILD_CHECK(aclprofPush(stamp) == ACL_SUCCESS);
    CHILD_CHECK(aclprofPop() == ACL_SUCCESS);
    CHILD_CHECK(aclprofPop() == ACL_ERROR_INVALID_PARAM);  // nothing pushed
    aclprofDestroyStamp(stamp);
    CHILD_CHECK(aclprofMark(stamp) == ACL_ERROR_INVALID_PARAM);  // destroyed

    mstxDomainHandle_t domain = mstxDomainCreateA("io");
    CHILD_CHECK(domain != nullptr);
    mstxRangeId id = mstxRangeStartA("outer", nullptr);
    CHILD_CHECK(id != static_cast<mstxRangeId>(MSTX_INVALID_ID));
    mstxDomainMarkA(domain, "tick", nullptr);
    mstxRangeId inner = mstxDomainRangeStartA(domain, "read", nullptr);
    npusimHostWork(100000);
    mstxDomainRangeEnd(domain, inner);
    mstxRangeEnd(id);
    mstxMarkA("done", nullptr);
    mstxDomainDestroy(domain);
    CHILD_CHECK(aclFinalize() == ACL_SUCCESS);
  });
  unsetenv("NPUSIM_TRACE");
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;

  auto load = events(trace, "load");
  ASSERT_EQ(load.size(), 3u);  // the mark, the range and the push/pop
  int slices = 0;
  for (const auto& e : load) {
    EXPECT_EQ(e["cat"], "msproftx");
    if (e["ph"] == "X") ++slices;
  }
  EXPECT_EQ(slices, 2);
  // The range lasts at least the host work charged inside it (trace times are in microseconds).
  bool long_range = false;
  for (const auto& e : load)
    if (e["ph"] == "X" && e["dur"].get<double>() >= 250.0) long_range = true;
  EXPECT_TRUE(long_range);
  auto outer = events(trace, "outer"), read = events(trace, "io: read");
  ASSERT_EQ(outer.size(), 1u);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_GE(read[0]["dur"].get<double>(), 100.0);
  EXPECT_GE(outer[0]["dur"].get<double>(), read[0]["dur"].get<double>());  // nests around it
  EXPECT_LE(outer[0]["ts"].get<double>(), read[0]["ts"].get<double>());
  EXPECT_EQ(events(trace, "io: tick").size(), 1u);
  EXPECT_EQ(events(trace, "done").at(0)["ph"], "i");
  EXPECT_EQ(outer[0]["pid"], events(trace, "done").at(0)["pid"]);  // one host process
}

TEST(Prof, ModelSubscriptionDeliversSimulatedOperatorTimes) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  aclprofSubscribeConfig* cfg = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
  ASSERT_NE(cfg, nullptr);
  ASSERT_EQ(aclprofModelSubscribe(7, cfg), ACL_SUCCESS);
  EXPECT_EQ(aclprofModelSubscribe(7, cfg), ACL_ERROR_PROF_REPEAT_SUBSCRIBE);

  aclrtEvent start, stop;
  ASSERT_EQ(aclrtCreateEvent(&start), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&stop), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(start, stream), ACL_SUCCESS);
  surface_test::runAdd(stream, {1, 2, 3, 4}, {10, 20, 30, 40});
  ASSERT_EQ(aclrtRecordEvent(stop, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(stop), ACL_SUCCESS);
  float ms = 0;
  ASSERT_EQ(aclrtEventElapsedTime(&ms, start, stop), ACL_SUCCESS);
  ASSERT_EQ(aclprofModelUnSubscribe(7), ACL_SUCCESS);
  EXPECT_EQ(aclprofModelUnSubscribe(7), ACL_ERROR_INVALID_MODEL_ID);

  size_t recordSize = 0;
  ASSERT_EQ(aclprofGetOpDescSize(&recordSize), ACL_SUCCESS);
  std::vector<char> buf(recordSize * 4);
  ssize_t n = read(fds[0], buf.data(), buf.size());
  ASSERT_EQ(n, static_cast<ssize_t>(recordSize));  // exactly one operator ran
  uint32_t ops = 0;
  ASSERT_EQ(aclprofGetOpNum(buf.data(), recordSize, &ops), ACL_SUCCESS);
  ASSERT_EQ(ops, 1u);
  EXPECT_EQ(aclprofGetModelId(buf.data(), recordSize, 0), 7u);
  size_t len = 0;
  ASSERT_EQ(aclprofGetOpNameLen(buf.data(), recordSize, 0, &len), ACL_SUCCESS);
  std::vector<char> name(len);
  ASSERT_EQ(aclprofGetOpName(buf.data(), recordSize, 0, name.data(), len), ACL_SUCCESS);
  EXPECT_STREQ(name.data(), "aclnnAdd");
  ASSERT_EQ(aclprofGetOpTypeLen(buf.data(), recordSize, 0, &len), ACL_SUCCESS);
  std::vector<char> type(len);
  ASSERT_EQ(aclprofGetOpType(buf.data(), recordSize, 0, type.data(), len), ACL_SUCCESS);
  EXPECT_STREQ(type.data(), "Add");
  EXPECT_EQ(aclprofGetOpName(buf.data(), recordSize, 0, name.data(), 2),
            ACL_ERROR_INVALID_PARAM);  // too short
  uint64_t begin = aclprofGetOpStart(buf.data(), recordSize, 0),
           end = aclprofGetOpEnd(buf.data(), recordSize, 0);
  uint64_t dur = aclprofGetOpDuration(buf.data(), recordSize, 0);
  EXPECT_GT(end, begin);
  EXPECT_EQ(dur, end - begin);
  // The operator ran between the two events: its duration fits in their elapsed time.
  EXPECT_LE(static_cast<double>(dur), ms * 1.0e6 + 1.0);
  EXPECT_EQ(aclprofGetOpStart(buf.data(), recordSize, 1), 0u);  // index out of range
  EXPECT_EQ(aclprofGetOpNum(buf.data(), recordSize - 1, &ops), ACL_ERROR_INVALID_PARAM);  // partial record
  // Unsubscribing closed the pipe's write end (as documented): after the record, end of data.
  EXPECT_EQ(read(fds[0], buf.data(), buf.size()), 0);
  ASSERT_EQ(aclprofDestroySubscribeConfig(cfg), ACL_SUCCESS);
  close(fds[0]);
  aclrtDestroyEvent(start);
  aclrtDestroyEvent(stop);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
}

namespace {
// Records waiting in a pipe, read without blocking.
size_t pendingRecords(int fd, size_t recordSize) {
  std::vector<char> buf(recordSize * 8);
  fcntl(fd, F_SETFL, O_NONBLOCK);
  ssize_t n = read(fd, buf.data(), buf.size());
  return n > 0 ? static_cast<size_t>(n) / recordSize : 0;
}
}  // namespace

TEST(Prof, ModelBoundToADeviceReceivesOnlyThatDevicesOperators) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  size_t recordSize = 0;
  ASSERT_EQ(aclprofGetOpDescSize(&recordSize), ACL_SUCCESS);
  EXPECT_EQ(MsprofSetDeviceIdByGeModelIdx(1, 99), -1);  // no such device
  ASSERT_EQ(MsprofSetDeviceIdByGeModelIdx(1, 1), 0);
  int bound[2], unbound[2];
  ASSERT_EQ(pipe(bound), 0);
  ASSERT_EQ(pipe(unbound), 0);
  aclprofSubscribeConfig* cb = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &bound[1]);
  aclprofSubscribeConfig* cu = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &unbound[1]);
  ASSERT_EQ(aclprofModelSubscribe(1, cb), ACL_SUCCESS);
  ASSERT_EQ(aclprofModelSubscribe(2, cu), ACL_SUCCESS);
  for (int dev : {0, 1}) {
    ASSERT_EQ(aclrtSetDevice(dev), ACL_SUCCESS);
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    surface_test::runAdd(s, {1, 2, 3, 4}, {5, 6, 7, 8});
    ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    EXPECT_EQ(pendingRecords(bound[0], recordSize), dev == 1 ? 1u : 0u) << "device " << dev;
    EXPECT_EQ(pendingRecords(unbound[0], recordSize), 1u) << "device " << dev;
    aclrtDestroyStream(s);
  }
  EXPECT_EQ(MsprofUnsetDeviceIdByGeModelIdx(1, 0), -1);  // bound to 1, not 0
  EXPECT_EQ(MsprofUnsetDeviceIdByGeModelIdx(1, 1), 0);
  EXPECT_EQ(MsprofUnsetDeviceIdByGeModelIdx(1, 1), -1);
  ASSERT_EQ(aclprofModelUnSubscribe(1), ACL_SUCCESS);
  ASSERT_EQ(aclprofModelUnSubscribe(2), ACL_SUCCESS);
  aclprofDestroySubscribeConfig(cb);
  aclprofDestroySubscribeConfig(cu);
  for (int fd : {bound[0], unbound[0]}) close(fd);  // the write ends were closed by the unsubscribes
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Prof, StringIdsAndTheSimulatedClock) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const uint64_t a = MsprofGetHashId("MatMul", 6), b = MsprofStr2Id("MatMulV2", 6);
  EXPECT_EQ(a, b);  // the same 6 bytes
  EXPECT_NE(a, MsprofGetHashId("MatMulV2", 8));
  ASSERT_NE(MsprofId2Str(a), nullptr);
  EXPECT_STREQ(MsprofId2Str(a), "MatMul");
  EXPECT_EQ(MsprofId2Str(a + 1), nullptr);
  EXPECT_FALSE(MsprofCheckOpSwitch(0, "MatMul", 6));  // no collection running
  const uint64_t t0 = MsprofSysCycleTime();
  npusimHostWork(5000.0);  // 5 us of simulated host work
  EXPECT_GE(MsprofSysCycleTime() - t0, 5000u);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

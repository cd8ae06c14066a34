// Device naming and connection calls of the real header's second part: ids, PCI bus ids from the
// simulated tree, topology, peer status, primary contexts, atomics; runtime settings (timeouts,
// system parameters); init/finalize callbacks; stream attributes; the float-overflow names of
// the overflow status; and the refusals, with their reasons.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

#include "acl/acl.h"
#include "tests/runtime_surface/surface_test_util.h"

using npusim::test::configure;
using npusim::test::DeviceSession;
using npusim::test::elapsedMs;

TEST(DeviceTopology, IdsBusIdsAndTopologyComeFromTheSimulatedTree) {
  DeviceSession dev("system.switches=2,system.devices_per_switch=4");
  int32_t id = -1;
  ASSERT_EQ(aclrtGetPhyDevIdByLogicDevId(5, &id), ACL_SUCCESS);
  EXPECT_EQ(id, 5);
  ASSERT_EQ(aclrtGetLogicDevIdByUserDevId(3, &id), ACL_SUCCESS);
  EXPECT_EQ(id, 3);
  EXPECT_EQ(aclrtGetUserDevIdByPhyDevId(8, &id), ACL_ERROR_INVALID_PARAM);  // 8 devices: 0..7
  EXPECT_EQ(aclrtGetLogicDevIdByPhyDevId(0, nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtGetPhyDevIdByUserDevId(7, &id), ACL_SUCCESS);
  EXPECT_EQ(id, 7);
  ASSERT_EQ(aclrtGetUserDevIdByLogicDevId(2, &id), ACL_SUCCESS);
  EXPECT_EQ(id, 2);
  EXPECT_EQ(aclrtGetUserDevIdByLogicDevId(-1, &id), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetPhyDevIdByUserDevId(0, nullptr), ACL_ERROR_INVALID_PARAM);

  // Bus ids are distinct, well formed, and map back to their device.
  std::set<std::string> seen;
  for (int d = 0; d < 8; ++d) {
    char bus[32];
    ASSERT_EQ(aclrtDeviceGetPCIBusId(d, bus, sizeof bus), ACL_SUCCESS);
    EXPECT_EQ(std::strlen(bus), 12u) << bus;
    EXPECT_EQ(std::string(bus).substr(0, 5), "0000:");
    EXPECT_TRUE(seen.insert(bus).second) << bus;
    int32_t back = -1;
    ASSERT_EQ(aclrtDeviceGetByPCIBusId(bus, &back), ACL_SUCCESS);
    EXPECT_EQ(back, d);
    ASSERT_EQ(aclrtDeviceGetByPCIBusId(std::string(bus).substr(5).c_str(), &back),
              ACL_SUCCESS);  // short form
    EXPECT_EQ(back, d);
  }
  char tiny[4];
  EXPECT_EQ(aclrtDeviceGetPCIBusId(0, tiny, sizeof tiny), ACL_ERROR_INVALID_PARAM);
  int32_t none;
  EXPECT_EQ(aclrtDeviceGetByPCIBusId("0000:ff:00.0", &none), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDeviceGetByPCIBusId("not a bus", &none), ACL_ERROR_INVALID_PARAM);

  uint64_t topo = 0;
  ASSERT_EQ(aclrtGetDevicesTopo(0, 3, &topo), ACL_SUCCESS);
  EXPECT_EQ(topo, ACL_RT_DEVS_TOPOLOGY_PIX);  // one switch
  ASSERT_EQ(aclrtGetDevicesTopo(0, 4, &topo), ACL_SUCCESS);
  EXPECT_EQ(topo, ACL_RT_DEVS_TOPOLOGY_PHB);  // through the root complex
  EXPECT_EQ(aclrtGetDevicesTopo(2, 2, &topo), ACL_ERROR_INVALID_PARAM);

  int32_t status = -1;
  ASSERT_EQ(aclrtDevicePeerAccessStatus(0, 1, &status), ACL_SUCCESS);
  EXPECT_EQ(status, 0);
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtDevicePeerAccessStatus(0, 1, &status), ACL_SUCCESS);
  EXPECT_EQ(status, 1);

  uint32_t flags = 9;
  int32_t active = -1;
  ASSERT_EQ(aclrtGetPrimaryCtxState(0, &flags, &active), ACL_SUCCESS);
  EXPECT_EQ(active, 1);
  ASSERT_EQ(aclrtGetPrimaryCtxState(6, &flags, &active), ACL_SUCCESS);
  EXPECT_EQ(active, 0);  // never set

  const aclrtAtomicOperation ops[] = {ACL_RT_ATOMIC_OPERATION_INTEGER_ADD, ACL_RT_ATOMIC_OPERATION_CAS};
  uint32_t caps[2] = {7, 7};
  ASSERT_EQ(aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 2, 0, 1), ACL_SUCCESS);
  EXPECT_EQ(caps[0] | caps[1], 0u);
  caps[0] = caps[1] = 7;
  ASSERT_EQ(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 2, 0), ACL_SUCCESS);
  EXPECT_EQ(caps[0] | caps[1], 0u);
  EXPECT_EQ(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 2, 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDeviceGetHostAtomicCapabilities(nullptr, ops, 2, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetTsDevice(ACL_TS_ID_AIVECTOR), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetTsDevice(ACL_TS_ID_RESERVED), ACL_ERROR_INVALID_PARAM);
  void* sync = nullptr;
  EXPECT_EQ(aclrtGetHardwareSyncAddr(&sync), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("kernels run on the host"), std::string::npos);
}

TEST(RuntimeSettings, TimeoutsAndSystemParameters) {
  DeviceSession dev;
  uint32_t ms = 1;
  ASSERT_EQ(aclrtGetOpExecuteTimeout(&ms), ACL_SUCCESS);
  EXPECT_EQ(ms, 0u);
  ASSERT_EQ(aclrtSetOpExecuteTimeOut(3), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetOpExecuteTimeout(&ms), ACL_SUCCESS);
  EXPECT_EQ(ms, 3000u);
  uint64_t actual = 0;
  ASSERT_EQ(aclrtSetOpExecuteTimeOutV2(1234, &actual), ACL_SUCCESS);
  EXPECT_EQ(actual, 1234u);
  EXPECT_EQ(aclrtSetOpExecuteTimeOutV2(1, nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtGetOpExecuteTimeout(&ms), ACL_SUCCESS);
  EXPECT_EQ(ms, 1234u);

  int64_t v = -1;
  ASSERT_EQ(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 0);
  ASSERT_EQ(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 1);  // the process value shows through
  ASSERT_EQ(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 2), ACL_SUCCESS);
  ASSERT_EQ(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 2);
  ASSERT_EQ(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 1);
  EXPECT_EQ(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 5), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetSysParamOpt(static_cast<aclSysParamOpt>(42), 0), ACL_ERROR_INVALID_PARAM);
}

namespace {
int initCalls = 0, finalizeCalls = 0;
std::string seenConfig;
aclError onInit(const char* config, size_t len, void* user) {
  ++initCalls;
  seenConfig.assign(config, len);
  return *static_cast<int*>(user) == 7 ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}
aclError onFinalize(void* user) {
  finalizeCalls += *static_cast<int*>(user);
  return ACL_SUCCESS;
}
}  // namespace

TEST(InitCallbacks, RunInsideInitAndFinalizeUntilUnregistered) {
  configure("");
  int seven = 7, two = 2;
  ASSERT_EQ(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, onInit, &seven), ACL_SUCCESS);
  ASSERT_EQ(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, onFinalize, &two), ACL_SUCCESS);
  EXPECT_EQ(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, nullptr, &seven), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclInitCallbackRegister(static_cast<aclRegisterCallbackType>(100), onInit, &seven),
            ACL_ERROR_INVALID_PARAM);
  const std::string path = testing::TempDir() + "init_cb.json";
  FILE* f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("{\"k\": 1}", f);
  std::fclose(f);
  ASSERT_EQ(aclInit(path.c_str()), ACL_SUCCESS);
  EXPECT_EQ(initCalls, 1);
  EXPECT_EQ(seenConfig, "{\"k\": 1}");
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(finalizeCalls, 2);
  ASSERT_EQ(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, onFinalize), ACL_SUCCESS);
  EXPECT_EQ(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, onFinalize), ACL_ERROR_INVALID_PARAM);
  // A failing init callback fails aclInit with its code.
  int other = 1;
  ASSERT_EQ(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, onInit, &other), ACL_SUCCESS);  // new user data
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, onInit), ACL_SUCCESS);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(initCalls, 2);
  EXPECT_EQ(finalizeCalls, 2);
  aclFinalize();
  EXPECT_EQ(finalizeCalls, 2);
}

TEST(StreamAttributes, SetAndReadBackEachAttribute) {
  DeviceSession dev;
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  aclrtStreamAttrValue v{};
  v.failureMode = ACL_STOP_ON_FAILURE;
  ASSERT_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
  v = {};
  v.userCustomTag = 0xBEEF;
  ASSERT_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_SUCCESS);
  v = {};
  v.overflowSwitch = 1;
  ASSERT_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v), ACL_SUCCESS);
  v = {};
  v.streamPriority = 3;
  ASSERT_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v), ACL_SUCCESS);
  v.streamPriority = 8;
  EXPECT_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v), ACL_ERROR_INVALID_PARAM);

  aclrtStreamAttrValue out{};
  ASSERT_EQ(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &out), ACL_SUCCESS);
  EXPECT_EQ(out.failureMode, static_cast<uint64_t>(ACL_STOP_ON_FAILURE));
  ASSERT_EQ(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &out), ACL_SUCCESS);
  EXPECT_EQ(out.userCustomTag, 0xBEEFu);
  ASSERT_EQ(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &out), ACL_SUCCESS);
  EXPECT_EQ(out.overflowSwitch, 1u);
  uint32_t sw = 0, prio = 0;
  ASSERT_EQ(aclrtGetStreamOverflowSwitch(s, &sw), ACL_SUCCESS);  // the same switch
  EXPECT_EQ(sw, 1u);
  ASSERT_EQ(aclrtStreamGetPriority(s, &prio), ACL_SUCCESS);
  EXPECT_EQ(prio, 3u);
  EXPECT_EQ(aclrtGetStreamAttribute(s, static_cast<aclrtStreamAttr>(77), &out), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, nullptr), ACL_ERROR_INVALID_PARAM);
  aclrtDestroyStream(s);
}

TEST(FloatOverflow, TheFloatNamesReadAndClearTheOverflowStatusInStreamOrder) {
  DeviceSession dev;
  void* out = nullptr;
  ASSERT_EQ(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(out, 64, 0xff, 64), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetFloatOverflowStatus(out, 64, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  uint64_t flag = 9;
  ASSERT_EQ(aclrtMemcpy(&flag, 8, out, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(flag, 0u);  // the status was written by the task
  EXPECT_EQ(aclrtNpuGetFloatOverFlowStatus(out, 64, 2, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtNpuGetFloatOverFlowStatus(out, 64, 0, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtNpuClearFloatOverFlowStatus(1, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetFloatOverflowStatus(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetFloatOverflowStatus(out, 4, nullptr), ACL_ERROR_INVALID_PARAM);
  void* addr = nullptr;
  ASSERT_EQ(aclrtCtxGetFloatOverflowAddr(&addr), ACL_SUCCESS);
  void* again = nullptr;
  ASSERT_EQ(aclrtCtxGetFloatOverflowAddr(&again), ACL_SUCCESS);
  EXPECT_EQ(addr, again);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(&flag, 8, addr, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(flag, 0u);
  aclrtFree(out);
}

TEST(Refusals, UnsimulatableCallsSayWhy) {
  DeviceSession dev;
  EXPECT_EQ(aclrtSnapShotProcessLock(0, nullptr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("snapshots"), std::string::npos);
  EXPECT_EQ(aclrtRepairError(0, nullptr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtIpcMemSetAttr("k", ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("super-nodes"), std::string::npos);
  EXPECT_EQ(aclrtLaunchSIMTKernelWithArgsArray(nullptr, dim3(1), dim3(32), 0, nullptr, nullptr, nullptr),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  // What the CANN reference says an A2 device does not support is refused as the device would.
  uint32_t groups = 0;
  EXPECT_EQ(aclrtGetGroupCount(&groups), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("Atlas A2"), std::string::npos);
  EXPECT_EQ(aclrtCreateGroupInfo(), nullptr);
  aclrtCntNotify cnt = nullptr;
  EXPECT_EQ(aclrtCntNotifyCreate(&cnt, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtSetOpExecuteTimeOutWithMs(250), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  // Message buffers are reserved in CANN itself.
  aclrtMbuf buf = nullptr;
  EXPECT_EQ(aclrtAllocBuf(&buf, 64), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("reserved"), std::string::npos);
}

// Every call of these refused families answers with the refusal, whatever its arguments.
TEST(Refusals, EachCallOfARefusedFamilyIsRefused) {
  DeviceSession dev;
  constexpr aclError kNo = ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
  aclrtMbuf buf = nullptr;
  void* data = nullptr;
  size_t len = 0;
  uint32_t n = 0;
  char user[8] = {};
  EXPECT_EQ(aclrtFreeBuf(buf), kNo);
  EXPECT_EQ(aclrtGetBufData(buf, &data, &len), kNo);
  EXPECT_EQ(aclrtGetBufDataLen(buf, &len), kNo);
  EXPECT_EQ(aclrtSetBufDataLen(buf, 4), kNo);
  EXPECT_EQ(aclrtGetBufUserData(buf, user, sizeof user, 0), kNo);
  EXPECT_EQ(aclrtSetBufUserData(buf, user, sizeof user, 0), kNo);
  EXPECT_EQ(aclrtAppendBufChain(buf, buf), kNo);
  EXPECT_EQ(aclrtGetBufChainNum(buf, &n), kNo);
  EXPECT_EQ(aclrtGetBufFromChain(buf, 0, &buf), kNo);
  EXPECT_EQ(aclrtCopyBufRef(buf, &buf), kNo);
  EXPECT_EQ(aclrtDestroyGroupInfo(nullptr), kNo);
  EXPECT_EQ(aclrtGetAllGroupInfo(nullptr), kNo);
  EXPECT_EQ(aclrtGetGroupInfoDetail(nullptr, 0, ACL_GROUP_AICORE_INT, user, sizeof user, &len), kNo);
  EXPECT_EQ(aclrtSetGroup(0), kNo);
  aclrtCntNotify cnt = nullptr;
  EXPECT_EQ(aclrtCntNotifyDestroy(cnt), kNo);
  EXPECT_EQ(aclrtCntNotifyGetId(cnt, &n), kNo);
  EXPECT_EQ(aclrtCntNotifyRecord(cnt, nullptr, nullptr), kNo);
  EXPECT_EQ(aclrtCntNotifyReset(cnt, nullptr), kNo);
  EXPECT_EQ(aclrtCntNotifyWaitWithTimeout(cnt, nullptr, nullptr), kNo);
  EXPECT_EQ(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, nullptr, nullptr), kNo);
  EXPECT_EQ(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, nullptr), kNo);
  EXPECT_EQ(aclrtSnapShotProcessBackup(0, nullptr), kNo);
  EXPECT_EQ(aclrtSnapShotProcessRestore(0, nullptr), kNo);
  EXPECT_EQ(aclrtSnapShotProcessUnlock(0, nullptr), kNo);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("snapshots"), std::string::npos);
}

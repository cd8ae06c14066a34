// Stream and device properties, from the documented behaviour: priorities and their range,
// flags and ids, lifecycle callbacks, device attributes of the 910b preset, capability and
// status queries, utilisation from the simulated AI cores, saturation mode, overflow switch,
// core limits per device, stream and thread.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "runtime/op_launch.h"
#include "tests/runtime_surface/surface_test_util.h"

using npusim::test::configure;

namespace {
std::vector<std::pair<aclrtStream, aclrtStreamState>> streamEvents;
void onStream(aclrtStream s, aclrtStreamState st, void* args) {
  streamEvents.emplace_back(s, st);
  ++*static_cast<int*>(args);
}
std::vector<std::pair<int32_t, aclrtDeviceState>> deviceEvents;
void onDevice(int32_t d, aclrtDeviceState st, void*) { deviceEvents.emplace_back(d, st); }
}  // namespace

TEST(StreamDevice, StreamPropertiesAndCallbacks) {
  configure("");
  ASSERT_EQ(aclrtRegDeviceStateCallback("dev", onDevice, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(3), ACL_SUCCESS);
  ASSERT_EQ(deviceEvents.size(), 2u);
  EXPECT_EQ(deviceEvents[0], std::make_pair(3, ACL_RT_DEVICE_STATE_SET_PRE));
  EXPECT_EQ(deviceEvents[1], std::make_pair(3, ACL_RT_DEVICE_STATE_SET_POST));
  int calls = 0;
  EXPECT_EQ(aclrtRegStreamStateCallback(nullptr, onStream, &calls), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtRegStreamStateCallback("mine", onStream, &calls), ACL_SUCCESS);
  int32_t least = -1, greatest = -1;
  ASSERT_EQ(aclrtDeviceGetStreamPriorityRange(&least, &greatest), ACL_SUCCESS);
  EXPECT_EQ(least, 7);
  EXPECT_EQ(greatest, 0);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStreamWithConfig(&s, 5, ACL_STREAM_FAST_LAUNCH), ACL_SUCCESS);
  ASSERT_EQ(streamEvents.size(), 1u);
  EXPECT_EQ(streamEvents[0], std::make_pair(s, ACL_RT_STREAM_STATE_CREATE_POST));
  uint32_t prio = 0, flags = 0;
  int32_t id = -1, defaultId = -1;
  ASSERT_EQ(aclrtStreamGetPriority(s, &prio), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamGetFlags(s, &flags), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamGetId(s, &id), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamGetId(nullptr, &defaultId), ACL_SUCCESS);
  EXPECT_EQ(prio, 5u);
  EXPECT_EQ(flags, ACL_STREAM_FAST_LAUNCH);
  EXPECT_EQ(defaultId, 0);
  EXPECT_GT(id, 0);
  EXPECT_EQ(aclrtStreamGetPriority(s, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetStreamFailureMode(nullptr, ACL_STOP_ON_FAILURE), ACL_SUCCESS);  // the default stream (A2)
  uint32_t sw = 9;
  ASSERT_EQ(aclrtGetStreamOverflowSwitch(s, &sw), ACL_SUCCESS);
  EXPECT_EQ(sw, 0u);
  ASSERT_EQ(aclrtSetStreamOverflowSwitch(s, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetStreamOverflowSwitch(s, &sw), ACL_SUCCESS);
  EXPECT_EQ(sw, 1u);
  EXPECT_EQ(aclrtSetStreamOverflowSwitch(s, 2), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  ASSERT_EQ(streamEvents.size(), 2u);
  EXPECT_EQ(streamEvents[1], std::make_pair(s, ACL_RT_STREAM_STATE_DESTROY_PRE));
  EXPECT_EQ(calls, 2);
  ASSERT_EQ(aclrtRegStreamStateCallback("mine", nullptr, nullptr), ACL_SUCCESS);  // unregisters
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  EXPECT_EQ(calls, 2);
  ASSERT_EQ(aclrtResetDevice(3), ACL_SUCCESS);
  ASSERT_EQ(deviceEvents.size(), 4u);
  EXPECT_EQ(deviceEvents[3], std::make_pair(3, ACL_RT_DEVICE_STATE_RESET_POST));
}

TEST(StreamDevice, DeviceInfoCapabilityAndModes) {
  configure("");
  int64_t v = 0;
  ASSERT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 24);
  ASSERT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 48);
  ASSERT_EQ(aclrtGetDeviceInfo(7, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 64ll << 30);
  EXPECT_EQ(aclrtGetDeviceInfo(8, ACL_DEV_ATTR_CUBE_CORE_NUM, &v), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_L2_CACHE_SIZE, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  int32_t cap = -1;
  ASSERT_EQ(aclrtGetDeviceCapability(0, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &cap), ACL_SUCCESS);
  EXPECT_EQ(cap, ACL_DEV_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtGetDeviceCapability(0, static_cast<aclrtDevFeatureType>(5), &cap), ACL_ERROR_INVALID_PARAM);
  aclrtFloatOverflowMode mode;
  EXPECT_EQ(aclrtGetDeviceSatMode(&mode), ACL_ERROR_RT_CONTEXT_NULL);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetDeviceSatMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_RT_OVERFLOW_MODE_INFNAN);
  ASSERT_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetDeviceSatMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_RT_OVERFLOW_MODE_SATURATION);
  EXPECT_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_INVALID_PARAM);
}

TEST(StreamDevice, CoreLimitsPerDeviceStreamAndThread) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  uint32_t v = 0;
  ASSERT_EQ(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 24u);
  EXPECT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 25), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 0), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 40), ACL_SUCCESS);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 40u);  // inherits the device's
  ASSERT_EQ(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_VECTOR_CORE, 8), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 40u);  // the thread still uses the device's limits
  ASSERT_EQ(aclrtUseStreamResInCurrentThread(s), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 8u);
  ASSERT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 24u);
  ASSERT_EQ(aclrtUnuseStreamResInCurrentThread(s), ACL_SUCCESS);
  EXPECT_EQ(aclrtUnuseStreamResInCurrentThread(s), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtResetDeviceResLimit(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 48u);
  ASSERT_EQ(aclrtResetStreamResLimit(s), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 48u);
  EXPECT_EQ(aclrtGetStreamResLimit(s, static_cast<aclrtDevResLimitType>(2), &v), ACL_ERROR_INVALID_PARAM);
}

TEST(StreamDevice, UtilizationFollowsTheSimulatedCores) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtUtilizationInfo u{};
  ASSERT_EQ(aclrtGetDeviceUtilizationRate(0, &u), ACL_SUCCESS);
  EXPECT_EQ(u.cubeUtilization, 0);
  EXPECT_EQ(u.vectorUtilization, 0);
  // A vector operator whose 48 tiles keep every vector core busy for the same time.
  void* buf;
  ASSERT_EQ(aclrtMalloc(&buf, 64u << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  npusim::rt::OpLaunch op;
  op.name = "VectorBusy";
  for (int i = 0; i < 48; ++i) {
    npusim::rt::TileWork t;
    t.vectorBytes = 64u << 20;
    t.readAddr = reinterpret_cast<uintptr_t>(buf);
    t.readBytes = 4096;
    op.work.tiles.push_back(t);
  }
  ASSERT_EQ(npusim::rt::launchOperator(nullptr, std::move(op)), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetDeviceUtilizationRate(0, &u), ACL_SUCCESS);
  EXPECT_EQ(u.cubeUtilization, 0);
  // Nearly all of the time since the previous query went to the operator.
  EXPECT_GT(u.vectorUtilization, 80);
  EXPECT_LE(u.vectorUtilization, 100);
  EXPECT_GE(u.memoryUtilization, 0);
  EXPECT_EQ(aclrtGetDeviceUtilizationRate(0, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetDeviceUtilizationRate(9, &u), ACL_ERROR_INVALID_PARAM);
}

// Multi-device systems: peer access rules, P2P data, and how concurrent P2P and host copies
// share links and switch ports (issue 3).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tests/multidevice/peer_test_util.h"

using npusim::test::configure;
using npusim::test::Copy;
using npusim::test::dmalloc;
using npusim::test::hostNs;
using npusim::test::streamOn;
using npusim::test::together;

namespace {

// Enables peer access in both directions between a and b.
void enablePair(int a, int b) {
  ASSERT_EQ(aclrtSetDevice(a), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(b, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(b), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(a, 0), ACL_SUCCESS);
}

}  // namespace

TEST(Peer, CanAccessPeerFollowsTheSwitches) {
  configure("");
  int32_t can = -1;
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 1), ACL_SUCCESS);
  EXPECT_EQ(can, 1);
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 3, 0), ACL_SUCCESS);
  EXPECT_EQ(can, 1);
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 4), ACL_SUCCESS);
  EXPECT_EQ(can, 0);
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 7, 4), ACL_SUCCESS);
  EXPECT_EQ(can, 1);
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 2, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 8), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtDeviceCanAccessPeer(nullptr, 0, 1), ACL_ERROR_INVALID_PARAM);
}

TEST(Peer, AcrossSwitchesWhenTheWhatIfAllowsIt) {
  configure("system.p2p_across_switches=true");
  int32_t can = -1;
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 4), ACL_SUCCESS);
  EXPECT_EQ(can, 1);
}

TEST(Peer, OneSwitchPresetConnectsEveryPair) {
  configure("", "910b-1switch");
  int32_t can = -1;
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 7), ACL_SUCCESS);
  EXPECT_EQ(can, 1);
}

TEST(Peer, EnableAndDisableRules) {
  configure("");
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_ERROR_RT_CONTEXT_NULL);  // no current device
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(1, 1), ACL_ERROR_FEATURE_UNSUPPORTED);  // flags must be 0
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(0, 0), ACL_ERROR_INVALID_PARAM);        // itself
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(9, 0), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(5, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);  // other switch
  EXPECT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_INVALID_PARAM);             // not enabled
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_SUCCESS);
}

TEST(Peer, CopyWithoutPeerAccessIsRefused) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* a = dmalloc(64);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  void* b = dmalloc(64);
  EXPECT_EQ(aclrtMemcpy(b, 64, a, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(msg, nullptr);
  EXPECT_NE(std::string(msg).find("aclrtDeviceEnablePeerAccess"), std::string::npos);
}

TEST(Peer, BytesArriveIntactForOddSizesAndOffsets) {
  configure("");
  enablePair(0, 1);
  aclrtStream s0 = streamOn(0);
  std::mt19937 g(7);
  for (size_t n : {1u, 31u, 4097u, 1000003u}) {
    for (size_t off : {0u, 3u, 64u}) {
      SCOPED_TRACE(testing::Message() << n << "+" << off);
      std::vector<unsigned char> src(n), back(n, 0);
      for (auto& b : src) b = static_cast<unsigned char>(g());
      ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
      char* d0 = static_cast<char*>(dmalloc(n + off));
      ASSERT_EQ(aclrtMemcpy(d0 + off, n, src.data(), n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
      ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
      char* d1 = static_cast<char*>(dmalloc(n + off));
      // Synchronous from device 1's thread (as in seed 002) and asynchronous on device 0's stream.
      ASSERT_EQ(aclrtMemcpy(d1 + off, n, d0 + off, n, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemcpy(back.data(), n, d1 + off, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
      EXPECT_EQ(back, src);
      ASSERT_EQ(aclrtMemset(d1, n + off, 0, n + off), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemcpyAsync(d1 + off, n, d0 + off, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s0), ACL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(s0), ACL_SUCCESS);
      std::fill(back.begin(), back.end(), 0);
      ASSERT_EQ(aclrtMemcpy(back.data(), n, d1 + off, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
      EXPECT_EQ(back, src);
      aclrtFree(d1);
      ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
      aclrtFree(d0);
    }
  }
}

// Disjoint pairs under one switch do not slow each other (the crossbar is non-blocking).
TEST(Contention, DisjointPairsUnderOneSwitchRunAtFullSpeed) {
  configure("");
  const size_t n = 64u << 20;
  enablePair(0, 1);
  enablePair(2, 3);
  void* b[4];
  aclrtStream s[4];
  for (int d = 0; d < 4; ++d) {
    s[d] = streamOn(d);
    b[d] = dmalloc(n);
  }
  double alone = together({{b[1], b[0], n, s[0], ACL_MEMCPY_DEVICE_TO_DEVICE}});
  double both = together({{b[1], b[0], n, s[0], ACL_MEMCPY_DEVICE_TO_DEVICE},
                          {b[3], b[2], n, s[2], ACL_MEMCPY_DEVICE_TO_DEVICE}});
  EXPECT_NEAR(both / alone, 1.0, 0.1);
}

// Two copies into one device share its link.
TEST(Contention, TwoCopiesIntoOneDeviceShareItsLink) {
  configure("");
  const size_t n = 64u << 20;
  enablePair(0, 1);
  enablePair(2, 1);
  void* b[3];
  aclrtStream s[3];
  for (int d = 0; d < 3; ++d) {
    s[d] = streamOn(d);
    b[d] = dmalloc(2 * n);
  }
  double alone = together({{b[1], b[0], n, s[0], ACL_MEMCPY_DEVICE_TO_DEVICE}});
  double both = together({{b[1], b[0], n, s[0], ACL_MEMCPY_DEVICE_TO_DEVICE},
                          {static_cast<char*>(b[1]) + n, b[2], n, s[2], ACL_MEMCPY_DEVICE_TO_DEVICE}});
  EXPECT_NEAR(both / alone, 2.0, 0.2);
}

// Copies from N devices under one switch to the host share the switch's uplink.
TEST(Contention, DevicesToHostShareTheSwitchUplink) {
  configure("");
  const size_t n = 32u << 20;
  std::vector<Copy> all;
  double alone = 0;
  for (int d = 0; d < 4; ++d) {
    aclrtStream s = streamOn(d);
    void* dev = dmalloc(n);
    void* host = nullptr;
    ASSERT_EQ(aclrtMallocHost(&host, n), ACL_SUCCESS);
    all.push_back({host, dev, n, s, ACL_MEMCPY_DEVICE_TO_HOST});
    if (d == 0) alone = together({all[0]});
  }
  double four = together(all);
  EXPECT_NEAR(four / alone, 4.0, 0.4);
  // Devices under the other switch use another uplink and root port: no slowdown.
  aclrtStream s4 = streamOn(4);
  void* dev4 = dmalloc(n);
  void* host4 = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host4, n), ACL_SUCCESS);
  double pair = together({all[0], {host4, dev4, n, s4, ACL_MEMCPY_DEVICE_TO_HOST}});
  EXPECT_NEAR(pair / alone, 1.0, 0.1);
}

TEST(Contention, P2PUnderOneSwitchBeatsABounceThroughTheHost) {
  configure("");
  const size_t n = 64u << 20;
  enablePair(0, 1);
  aclrtStream s0 = streamOn(0);
  void* a = dmalloc(n);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  aclrtStream s1 = streamOn(1);
  void* b = dmalloc(n);
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, n), ACL_SUCCESS);
  double p2p = together({{b, a, n, s0, ACL_MEMCPY_DEVICE_TO_DEVICE}});
  double bounce = hostNs([&] {
    ASSERT_EQ(aclrtMemcpyAsync(host, n, a, n, ACL_MEMCPY_DEVICE_TO_HOST, s0), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(s0), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(b, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE, s1), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(s1), ACL_SUCCESS);
  });
  EXPECT_LT(p2p * 1.5, bounce);
}

TEST(Contention, CrossSwitchP2PGoesThroughTheRootComplex) {
  configure("system.p2p_across_switches=true");
  const size_t n = 64u << 20;
  enablePair(0, 1);
  enablePair(0, 4);
  aclrtStream s0 = streamOn(0);
  void* a = dmalloc(n);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  void* b = dmalloc(n);
  ASSERT_EQ(aclrtSetDevice(4), ACL_SUCCESS);
  void* c = dmalloc(n);
  double same = together({{b, a, n, s0, ACL_MEMCPY_DEVICE_TO_DEVICE}});
  double cross = together({{c, a, n, s0, ACL_MEMCPY_DEVICE_TO_DEVICE}});
  EXPECT_GT(cross, same);  // longer route: RC forwarding latency and more hops
  // A small copy shows the extra latency of the longer route more clearly.
  double sameSmall = hostNs([&] { aclrtMemcpy(b, 64, a, 64, ACL_MEMCPY_DEVICE_TO_DEVICE); });
  double crossSmall = hostNs([&] { aclrtMemcpy(c, 64, a, 64, ACL_MEMCPY_DEVICE_TO_DEVICE); });
  EXPECT_GT(crossSmall - sameSmall, 300.0);  // at least the RC latency and two more link hops (ns)
}

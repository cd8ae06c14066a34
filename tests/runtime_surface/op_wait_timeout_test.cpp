// aclrtSetOpWaitTimeout: a later aclrtStreamWaitEvent task that waits longer than the timeout (in
// simulated time) fails, and the next synchronisation reports ACL_ERROR_RT_TASK_TIMEOUT; a
// record in time releases it as usual; 0 (the default) waits for ever.
#include <gtest/gtest.h>

#include <type_traits>

#include "acl/acl.h"
#include "tests/runtime_surface/surface_test_util.h"

static_assert(std::is_same_v<decltype(aclrtSetOpWaitTimeout), aclError(uint32_t)>);
static_assert(std::is_same_v<decltype(aclrtGetOpTimeOutInterval), aclError(uint64_t*)>);

namespace {

struct Device : npusim::test::DeviceSession {
  Device() {
    EXPECT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    EXPECT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
    EXPECT_EQ(aclrtCreateEvent(&e), ACL_SUCCESS);
  }
  ~Device() {
    aclrtDestroyEvent(e);
    aclrtDestroyStream(other);
    aclrtDestroyStream(s);
  }
  aclrtStream s = nullptr, other = nullptr;
  aclrtEvent e = nullptr;
};

constexpr double kSecond = 1e9;  // ns

}  // namespace

TEST(OpWaitTimeout, AWaitThatOutlastsItFailsAtTheNextSync) {
  Device d;
  ASSERT_EQ(aclrtSetOpWaitTimeout(2), ACL_SUCCESS);
  const double t0 = npusimHostTimeNs();
  ASSERT_EQ(aclrtStreamWaitEvent(d.s, d.e), ACL_SUCCESS);  // nothing ever records the event
  EXPECT_EQ(aclrtSynchronizeStream(d.s), ACL_ERROR_RT_TASK_TIMEOUT);
  const double waited = npusimHostTimeNs() - t0;
  EXPECT_GE(waited, 2 * kSecond);
  EXPECT_LT(waited, 2 * kSecond + 1e6);  // the sync returns when the device gives up
}

TEST(OpWaitTimeout, ARecordInTimeReleasesTheWait) {
  Device d;
  ASSERT_EQ(aclrtSetOpWaitTimeout(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(d.s, d.e), ACL_SUCCESS);
  npusimHostWork(0.5 * kSecond);
  ASSERT_EQ(aclrtRecordEvent(d.e, d.other), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(d.s), ACL_SUCCESS);
}

TEST(OpWaitTimeout, ZeroWaitsForEverAndTheLastSettingCounts) {
  Device d;
  ASSERT_EQ(aclrtSetOpWaitTimeout(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetOpWaitTimeout(0), ACL_SUCCESS);
  const double t0 = npusimHostTimeNs();
  ASSERT_EQ(aclrtStreamWaitEvent(d.s, d.e), ACL_SUCCESS);
  npusimHostWork(3 * kSecond);
  ASSERT_EQ(aclrtRecordEvent(d.e, d.other), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(d.s), ACL_SUCCESS);
  EXPECT_GE(npusimHostTimeNs() - t0, 3 * kSecond);

  uint64_t interval = 0;
  ASSERT_EQ(aclrtGetOpTimeOutInterval(&interval), ACL_SUCCESS);
  EXPECT_EQ(interval, 1u);
  EXPECT_EQ(aclrtGetOpTimeOutInterval(nullptr), ACL_ERROR_INVALID_PARAM);
}

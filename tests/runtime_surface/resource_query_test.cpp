// Resource queries, from the documented behaviour: how many streams and events the current device
// can still create (the configured limits less the live ones), an event's id, a device's uuid.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "tests/runtime_surface/surface_test_util.h"

using npusim::test::configure;

TEST(ResourceQuery, AvailableStreamsAndEventsFollowTheLimitAndTheLiveOnes) {
  configure("sched.max_streams=6,sched.max_events=4");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  uint32_t n = 0;
  EXPECT_EQ(aclrtGetStreamAvailableNum(&n), ACL_ERROR_RT_CONTEXT_NULL);  // no current device yet
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetStreamAvailableNum(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetEventAvailNum(nullptr), ACL_ERROR_INVALID_PARAM);
  uint32_t streams0 = 0;
  ASSERT_EQ(aclrtGetStreamAvailableNum(&streams0), ACL_SUCCESS);
  ASSERT_GT(streams0, 0u);
  EXPECT_LE(streams0, 6u);
  std::vector<aclrtStream> made;
  for (uint32_t i = 0; i < streams0; ++i) {
    aclrtStream s;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    made.push_back(s);
    ASSERT_EQ(aclrtGetStreamAvailableNum(&n), ACL_SUCCESS);
    EXPECT_EQ(n, streams0 - i - 1);
  }
  aclrtStream extra;
  EXPECT_EQ(aclrtCreateStream(&extra), ACL_ERROR_RT_NO_STREAM_RESOURCE);  // 0 available means it
  ASSERT_EQ(aclrtDestroyStream(made.back()), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetStreamAvailableNum(&n), ACL_SUCCESS);
  EXPECT_EQ(n, 1u);

  ASSERT_EQ(aclrtGetEventAvailNum(&n), ACL_SUCCESS);
  EXPECT_EQ(n, 4u);
  aclrtEvent e[4];
  for (auto& ev : e) ASSERT_EQ(aclrtCreateEvent(&ev), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetEventAvailNum(&n), ACL_SUCCESS);
  EXPECT_EQ(n, 0u);
  aclrtEvent more;
  EXPECT_EQ(aclrtCreateEvent(&more), ACL_ERROR_RT_NO_EVENT_RESOURCE);
  // Ids: distinct, in creation order.
  uint32_t id[4];
  for (int i = 0; i < 4; ++i) ASSERT_EQ(aclrtGetEventId(e[i], &id[i]), ACL_SUCCESS);
  for (int i = 1; i < 4; ++i) EXPECT_EQ(id[i], id[i - 1] + 1);
  EXPECT_EQ(aclrtGetEventId(e[0], nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtDestroyEvent(e[3]), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetEventId(e[3], &id[3]), ACL_ERROR_INVALID_PARAM);  // destroyed
  ASSERT_EQ(aclrtGetEventAvailNum(&n), ACL_SUCCESS);
  EXPECT_EQ(n, 1u);
}

TEST(ResourceQuery, EachDeviceHasItsOwnFixedUuid) {
  configure("");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  uint32_t count = 0;
  ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  ASSERT_GE(count, 2u);
  aclrtUuid a, a2, b;
  ASSERT_EQ(aclrtDeviceGetUuid(0, &a), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceGetUuid(0, &a2), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceGetUuid(1, &b), ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(a.bytes, a2.bytes, sizeof(a.bytes)), 0);
  EXPECT_NE(std::memcmp(a.bytes, b.bytes, sizeof(a.bytes)), 0);
  EXPECT_EQ(aclrtDeviceGetUuid(0, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(aclrtDeviceGetUuid(static_cast<int32_t>(count), &a), ACL_SUCCESS);
  EXPECT_NE(aclrtDeviceGetUuid(-1, &a), ACL_SUCCESS);
}

// Versions and attributes: aclsysGetVersionStr/Num, aclsysGetCANNVersion, aclGetCannAttribute(List),
// aclrtCheckArchCompatibility (documented in the CANN runtime API reference, "other APIs").
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "acl/acl.h"

TEST(Versions, StringAndNumberAgreeForEveryPackageName) {
  for (const char* name : {"runtime", "cann", "driver", "opp"}) {
    std::string pkg = name;
    char str[ACL_PKG_VERSION_MAX_SIZE] = {};
    int32_t num = 0;
    ASSERT_EQ(aclsysGetVersionStr(pkg.data(), str), ACL_SUCCESS) << name;
    ASSERT_EQ(aclsysGetVersionNum(pkg.data(), &num), ACL_SUCCESS) << name;
    int major = 0, minor = 0, patch = 0;
    ASSERT_EQ(std::sscanf(str, "%d.%d.%d", &major, &minor, &patch), 3) << str;
    // The documented weights: major 10^7, minor 10^5, patch 10^3.
    EXPECT_EQ(num, major * 10000000 + minor * 100000 + patch * 1000) << str;
  }
}

TEST(Versions, UnknownPackageAndNullArgumentsAreRefused) {
  char bad[] = "no-such-package";
  char str[ACL_PKG_VERSION_MAX_SIZE] = {};
  int32_t num = 0;
  EXPECT_EQ(aclsysGetVersionStr(bad, str), ACL_ERROR_INVALID_FILE);
  EXPECT_NE(aclGetRecentErrMsg(), nullptr);
  EXPECT_EQ(aclsysGetVersionNum(bad, &num), ACL_ERROR_INVALID_FILE);
  char pkg[] = "runtime";
  EXPECT_EQ(aclsysGetVersionStr(pkg, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclsysGetVersionNum(nullptr, &num), ACL_ERROR_INVALID_PARAM);
}

TEST(Versions, DeprecatedCannVersionFillsTheParts) {
  aclCANNPackageVersion v;
  ASSERT_EQ(aclsysGetCANNVersion(ACL_PKG_NAME_RUNTIME, &v), ACL_SUCCESS);
  char pkg[] = "runtime";
  char str[ACL_PKG_VERSION_MAX_SIZE] = {};
  ASSERT_EQ(aclsysGetVersionStr(pkg, str), ACL_SUCCESS);
  EXPECT_STREQ(v.version, str);
  EXPECT_EQ(std::string(v.majorVersion) + "." + v.minorVersion + "." + v.releaseVersion, str);
}

TEST(Versions, AttributeListAndSingleQueriesAgree) {
  const aclCannAttr* list = nullptr;
  size_t n = 0;
  ASSERT_EQ(aclGetCannAttributeList(&list, &n), ACL_SUCCESS);
  ASSERT_NE(list, nullptr);
  int supported = 0;
  for (aclCannAttr a : {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE}) {
    int32_t v = -1;
    ASSERT_EQ(aclGetCannAttribute(a, &v), ACL_SUCCESS);
    bool listed = false;
    for (size_t i = 0; i < n; ++i) listed |= list[i] == a;
    EXPECT_EQ(v, listed ? 1 : 0) << a;
    supported += v;
  }
  EXPECT_EQ(static_cast<size_t>(supported), n);
  int32_t v = 0;
  EXPECT_EQ(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 1);  // the A2 generation computes bf16
  EXPECT_EQ(aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &v), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclGetCannAttributeList(nullptr, &n), ACL_ERROR_INVALID_PARAM);
}

TEST(Versions, ArchCompatibilityFollowsTheSimulatedSoc) {
  int32_t ok = -1;
  ASSERT_EQ(aclrtCheckArchCompatibility(aclrtGetSocName(), &ok), ACL_SUCCESS);
  EXPECT_EQ(ok, 1);
  ASSERT_EQ(aclrtCheckArchCompatibility("Ascend910B4", &ok), ACL_SUCCESS);
  EXPECT_EQ(ok, 1);
  ASSERT_EQ(aclrtCheckArchCompatibility("Ascend310P3", &ok), ACL_SUCCESS);
  EXPECT_EQ(ok, 0);
  EXPECT_EQ(aclrtCheckArchCompatibility(nullptr, &ok), ACL_ERROR_INVALID_PARAM);
}

// The headers follow hicann/runtime @681ef76 (ACL 1.17.0), whose version.cmake builds the runtime
// package 9.1.0: the version npusim answers is the release of the headers it declares.
TEST(Versions, RuntimeIsTheReleaseOfTheHeaders) {
  int32_t major = 0, minor = 0, patch = 0;
  ASSERT_EQ(aclrtGetVersion(&major, &minor, &patch), ACL_SUCCESS);
  EXPECT_EQ(major * 100 + minor, ACL_MAJOR_VERSION * 100 + ACL_MINOR_VERSION);
  EXPECT_EQ(ACL_MINOR_VERSION, 17);
  char pkg[] = "runtime";
  char str[ACL_PKG_VERSION_MAX_SIZE] = {};
  int32_t num = 0;
  ASSERT_EQ(aclsysGetVersionStr(pkg, str), ACL_SUCCESS);
  ASSERT_EQ(aclsysGetVersionNum(pkg, &num), ACL_SUCCESS);
  EXPECT_STREQ(str, "9.1.0");
  EXPECT_EQ(num, 90100000);
}

// CANN 9.1 lists every attribute whose minimum runtime it meets and whose SoC feature the A2 part
// has (swFeatureList.json: Inf/NaN and bf16 from 7.1, JIT_COMPILE from 6.4 with no SoC condition),
// in the order of the enumeration.
TEST(Versions, A2PartOnRuntime91ListsAllThreeAttributes) {
  const aclCannAttr* list = nullptr;
  size_t n = 0;
  ASSERT_EQ(aclGetCannAttributeList(&list, &n), ACL_SUCCESS);
  ASSERT_EQ(n, 3u);
  EXPECT_EQ(list[0], ACL_CANN_ATTR_INF_NAN);
  EXPECT_EQ(list[1], ACL_CANN_ATTR_BF16);
  EXPECT_EQ(list[2], ACL_CANN_ATTR_JIT_COMPILE);
  int32_t v = 0;
  ASSERT_EQ(aclGetCannAttribute(ACL_CANN_ATTR_JIT_COMPILE, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 1);
}

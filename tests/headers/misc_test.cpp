// Device-independent helpers (runtime/api_misc.cpp) and the "not supported" stubs
// (runtime/api_unsupported.cpp).

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "acl/acl.h"

TEST(AclMisc, DataTypeSizes) {
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT), 4U);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT16), 2U);
  EXPECT_EQ(aclDataTypeSize(ACL_BF16), 2U);
  EXPECT_EQ(aclDataTypeSize(ACL_INT8), 1U);
  EXPECT_EQ(aclDataTypeSize(ACL_UINT8), 1U);
  EXPECT_EQ(aclDataTypeSize(ACL_BOOL), 1U);
  EXPECT_EQ(aclDataTypeSize(ACL_INT16), 2U);
  EXPECT_EQ(aclDataTypeSize(ACL_UINT16), 2U);
  EXPECT_EQ(aclDataTypeSize(ACL_INT32), 4U);
  EXPECT_EQ(aclDataTypeSize(ACL_UINT32), 4U);
  EXPECT_EQ(aclDataTypeSize(ACL_INT64), 8U);
  EXPECT_EQ(aclDataTypeSize(ACL_UINT64), 8U);
  EXPECT_EQ(aclDataTypeSize(ACL_DOUBLE), 8U);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX32), 4U);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX64), 8U);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX128), 16U);
  EXPECT_EQ(aclDataTypeSize(ACL_HIFLOAT8), 1U);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT8_E5M2), 1U);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT8_E4M3FN), 1U);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT8_E8M0), 1U);
  // Sub-byte integers report one byte, as in CANN.
  EXPECT_EQ(aclDataTypeSize(ACL_INT4), 1U);
  EXPECT_EQ(aclDataTypeSize(ACL_UINT1), 1U);
  EXPECT_EQ(aclDataTypeSize(ACL_STRING), 0U);
  EXPECT_EQ(aclDataTypeSize(ACL_DT_UNDEFINED), 0U);
}

TEST(AclMisc, DataBufferDescribesCallerMemory) {
  float storage[16] = {};
  aclDataBuffer* buffer = aclCreateDataBuffer(storage, sizeof(storage));
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), storage);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), sizeof(storage));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_EQ(aclGetDataBufferSize(buffer), static_cast<uint32_t>(sizeof(storage)));
#pragma GCC diagnostic pop

  EXPECT_EQ(aclUpdateDataBuffer(buffer, storage + 4, 8), ACL_SUCCESS);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), storage + 4);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 8U);
  EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
  EXPECT_EQ(storage[0], 0.0f);  // destroying the descriptor leaves the memory alone

  // An empty descriptor is allowed; null descriptors are rejected or read as empty.
  aclDataBuffer* empty = aclCreateDataBuffer(nullptr, 0);
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(aclGetDataBufferAddr(empty), nullptr);
  EXPECT_EQ(aclGetDataBufferSizeV2(empty), 0U);
  EXPECT_EQ(aclDestroyDataBuffer(empty), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyDataBuffer(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclUpdateDataBuffer(nullptr, storage, 4), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclGetDataBufferAddr(nullptr), nullptr);
  EXPECT_EQ(aclGetDataBufferSizeV2(nullptr), 0U);
}

TEST(AclMisc, VersionAndSocName) {
  int32_t major = -1;
  int32_t minor = -1;
  int32_t patch = -1;
  ASSERT_EQ(aclrtGetVersion(&major, &minor, &patch), ACL_SUCCESS);
  EXPECT_EQ(major, 1);
  EXPECT_EQ(minor, 17);
  EXPECT_EQ(patch, 0);
  EXPECT_EQ(aclrtGetVersion(nullptr, &minor, &patch), ACL_ERROR_INVALID_PARAM);
  ASSERT_NE(aclrtGetSocName(), nullptr);
  EXPECT_STREQ(aclrtGetSocName(), "Ascend910B2");
}

// Unimplemented APIs fail cleanly: ACL_ERROR_API_NOT_SUPPORT (or NULL), and aclGetRecentErrMsg names
// the function.
TEST(AclUnsupported, StubsReturnNotSupportedAndExplain) {
  EXPECT_EQ(aclrtIpcMemClose("key"), ACL_ERROR_API_NOT_SUPPORT);
  const char* message = aclGetRecentErrMsg();
  ASSERT_NE(message, nullptr);
  EXPECT_NE(std::string(message).find("aclrtIpcMemClose"), std::string::npos) << message;
}

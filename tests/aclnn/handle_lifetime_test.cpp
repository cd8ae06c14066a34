// Destroying an aclTensor, aclTensorList or array twice (live_handles.h): the second call is refused
// with 161002 and a message instead of corrupting the allocator. The public eltwise example
// destroys the tensors of a list after aclDestroyTensorList destroyed them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

namespace {

aclTensor* tensor(std::vector<float>& data) {
  const int64_t shape[] = {2, 2}, strides[] = {2, 1};
  return aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, data.data());
}

}  // namespace

TEST(HandleLifetime, TensorsOfADestroyedListAreNotDestroyedTwice) {
  std::vector<float> a(4), b(4);
  aclTensor* ts[] = {tensor(a), tensor(b)};
  aclTensorList* list = aclCreateTensorList(ts, 2);
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(aclDestroyTensorList(list), 0);  // destroys ts[0] and ts[1] too
  testing::internal::CaptureStderr();
  EXPECT_EQ(aclDestroyTensor(ts[0]), 161002);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("npusim: warning: aclDestroyTensor: aclTensor"), std::string::npos) << err;
  EXPECT_NE(err.find("was already destroyed or was not made by aclCreateTensor"), std::string::npos) << err;
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclDestroyTensorList destroys the tensors it holds"),
            std::string::npos);
  testing::internal::CaptureStderr();
  EXPECT_EQ(aclDestroyTensorList(list), 161002);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("aclTensorList"), std::string::npos);
  // Live handles are destroyed normally; NULL is accepted.
  aclTensor* t = tensor(a);
  EXPECT_EQ(aclDestroyTensor(t), 0);
  EXPECT_EQ(aclDestroyTensor(nullptr), 0);
  EXPECT_EQ(aclDestroyTensorList(nullptr), 0);
}

// The public grouped-matmul finalize-routing example destroys its aclIntArray through a
// unique_ptr and again by hand: the second call is refused, for each array type.
TEST(HandleLifetime, ArraysAreNotDestroyedTwice) {
  const int64_t iv[] = {1, 2};
  const float fv[] = {1.0f};
  const bool bv[] = {true};
  aclIntArray* i = aclCreateIntArray(iv, 2);
  aclFloatArray* f = aclCreateFloatArray(fv, 1);
  aclBoolArray* b = aclCreateBoolArray(bv, 1);
  EXPECT_EQ(aclDestroyIntArray(i), 0);
  EXPECT_EQ(aclDestroyFloatArray(f), 0);
  EXPECT_EQ(aclDestroyBoolArray(b), 0);
  testing::internal::CaptureStderr();
  EXPECT_EQ(aclDestroyIntArray(i), 161002);
  EXPECT_EQ(aclDestroyFloatArray(f), 161002);
  EXPECT_EQ(aclDestroyBoolArray(b), 161002);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("aclIntArray"), std::string::npos) << err;
  EXPECT_NE(err.find("was not made by aclCreateBoolArray"), std::string::npos) << err;
  EXPECT_EQ(aclDestroyIntArray(nullptr), 0);
}

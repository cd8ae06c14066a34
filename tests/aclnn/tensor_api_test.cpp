// aclCreateTensor / aclCreateScalar / arrays: creation rules, getters and destruction.
#include <gtest/gtest.h>

#include <vector>

#include "aclnn/aclnn_base.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/tensor.h"

TEST(TensorApi, CreateAndQueryViewStridesOffsetStorage) {
  const int64_t dims[] = {2, 3};
  const int64_t strides[] = {1, 2};  // a transposed view
  const int64_t storage[] = {3, 2};
  int dummy = 0;
  aclTensor* t = aclCreateTensor(dims, 2, ACL_FLOAT16, strides, 1, ACL_FORMAT_ND, storage, 2, &dummy);
  ASSERT_NE(t, nullptr);
  int64_t* v = nullptr;
  uint64_t n = 0;
  ASSERT_EQ(aclGetViewShape(t, &v, &n), 0);
  EXPECT_EQ(std::vector<int64_t>(v, v + n), (std::vector<int64_t>{2, 3}));
  delete[] v;
  ASSERT_EQ(aclGetViewStrides(t, &v, &n), 0);
  EXPECT_EQ(std::vector<int64_t>(v, v + n), (std::vector<int64_t>{1, 2}));
  delete[] v;
  ASSERT_EQ(aclGetStorageShape(t, &v, &n), 0);
  EXPECT_EQ(std::vector<int64_t>(v, v + n), (std::vector<int64_t>{3, 2}));
  delete[] v;
  int64_t off = 0;
  EXPECT_EQ(aclGetViewOffset(t, &off), 0);
  EXPECT_EQ(off, 1);
  aclDataType dt = ACL_DT_UNDEFINED;
  EXPECT_EQ(aclGetDataType(t, &dt), 0);
  EXPECT_EQ(dt, ACL_FLOAT16);
  aclFormat fmt = ACL_FORMAT_UNDEFINED;
  EXPECT_EQ(aclGetFormat(t, &fmt), 0);
  EXPECT_EQ(fmt, ACL_FORMAT_ND);
  void* addr = nullptr;
  EXPECT_EQ(aclGetRawTensorAddr(t, &addr), 0);
  EXPECT_EQ(addr, &dummy);
  EXPECT_EQ(aclSetRawTensorAddr(t, nullptr), 0);
  EXPECT_EQ(aclGetRawTensorAddr(t, &addr), 0);
  EXPECT_EQ(addr, nullptr);
  EXPECT_FALSE(t->desc.isContiguous());
  EXPECT_EQ(aclDestroyTensor(t), 0);
}

TEST(TensorApi, NullDimsWithCountGivesNullptr) {
  const int64_t dims[] = {4};
  EXPECT_EQ(aclCreateTensor(nullptr, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr), nullptr);
  EXPECT_EQ(aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 1, nullptr), nullptr);
  // A 0-d tensor (no dims at all) is fine; a NULL stride array means dense strides.
  aclTensor* scalar = aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr);
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(scalar->desc.numel(), 1);
  aclDestroyTensor(scalar);
  const int64_t d3[] = {2, 3, 4};
  aclTensor* t = aclCreateTensor(d3, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, d3, 3, nullptr);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->desc.strides, (std::vector<int64_t>{12, 4, 1}));
  EXPECT_TRUE(t->desc.isContiguous());
  aclDestroyTensor(t);
  EXPECT_EQ(aclDestroyTensor(nullptr), 0);
}

TEST(TensorApi, GettersRejectNull) {
  int64_t* v = nullptr;
  uint64_t n = 0;
  EXPECT_EQ(aclGetViewShape(nullptr, &v, &n), 161001);
  int64_t off;
  EXPECT_EQ(aclGetViewOffset(nullptr, &off), 161001);
  EXPECT_EQ(aclInitTensor(nullptr, nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr),
            161001);
}

TEST(TensorApi, InitTensorReplacesTheDescriptor) {
  const int64_t d1[] = {8};
  aclTensor* t = aclCreateTensor(d1, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, d1, 1, nullptr);
  const int64_t d2[] = {2, 2};
  int x = 0;
  ASSERT_EQ(aclInitTensor(t, d2, 2, ACL_INT32, nullptr, 2, ACL_FORMAT_NCHW, d1, 1, &x), 0);
  EXPECT_EQ(t->desc.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(t->desc.dtype, ACL_INT32);
  EXPECT_EQ(t->desc.offset, 2);
  EXPECT_EQ(t->desc.data, reinterpret_cast<uint64_t>(&x));
  aclDestroyTensor(t);
}

TEST(TensorApi, ScalarsKeepTheirTypeAndValue) {
  EXPECT_EQ(aclCreateScalar(nullptr, ACL_FLOAT), nullptr);
  float f = 1.1f;
  aclScalar* s = aclCreateScalar(&f, ACL_FLOAT);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->value.dtype, ACL_FLOAT);
  EXPECT_EQ(s->value.toDouble(), static_cast<double>(1.1f));
  EXPECT_EQ(s->value.toInt64(), 1);
  f = 5.0f;  // the scalar copied the value at creation
  EXPECT_EQ(s->value.toDouble(), static_cast<double>(1.1f));
  EXPECT_EQ(aclDestroyScalar(s), 0);
  int64_t big = -1234567890123;
  aclScalar* i = aclCreateScalar(&big, ACL_INT64);
  EXPECT_EQ(i->value.toInt64(), big);
  aclDestroyScalar(i);
  uint16_t h = 0x3c00;  // 1.0 in fp16
  aclScalar* hs = aclCreateScalar(&h, ACL_FLOAT16);
  EXPECT_EQ(hs->value.toDouble(), 1.0);
  aclDestroyScalar(hs);
  EXPECT_EQ(aclDestroyScalar(nullptr), 0);
}

TEST(TensorApi, ArraysAndLists) {
  const int64_t v[] = {0, -1, 2};
  aclIntArray* a = aclCreateIntArray(v, 3);
  uint64_t n = 0;
  ASSERT_EQ(aclGetIntArraySize(a, &n), 0);
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(a->values[1], -1);
  aclDestroyIntArray(a);
  EXPECT_EQ(aclCreateIntArray(nullptr, 2), nullptr);
  aclIntArray* empty = aclCreateIntArray(nullptr, 0);
  ASSERT_NE(empty, nullptr);
  aclDestroyIntArray(empty);
  const float fv[] = {1.5f};
  aclFloatArray* fa = aclCreateFloatArray(fv, 1);
  EXPECT_EQ(aclGetFloatArraySize(fa, &n), 0);
  EXPECT_EQ(n, 1u);
  aclDestroyFloatArray(fa);
  const bool bv[] = {true, false};
  aclBoolArray* ba = aclCreateBoolArray(bv, 2);
  EXPECT_EQ(aclGetBoolArraySize(ba, &n), 0);
  EXPECT_EQ(n, 2u);
  aclDestroyBoolArray(ba);
  // Lists own their elements (destroyed with the list).
  const int64_t d[] = {1};
  const aclTensor* ts[] = {aclCreateTensor(d, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, d, 1, nullptr),
                           aclCreateTensor(d, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, d, 1, nullptr)};
  aclTensorList* tl = aclCreateTensorList(ts, 2);
  EXPECT_EQ(aclGetTensorListSize(tl, &n), 0);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(aclDestroyTensorList(tl), 0);
  EXPECT_EQ(aclnnInit(nullptr), 0);
  EXPECT_EQ(aclnnFinalize(), 0);
}

// View-like maps (view_maps.cpp), the experimental pads and slices, and the tensor-bound clamps
// (clamp_tensor.cpp) against their definitions written out in the test.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_as_strided.h"
#include "aclnnop/aclnn_channel_shuffle.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_confusion_transpose.h"
#include "aclnnop/aclnn_pad_v2.h"
#include "aclnnop/aclnn_strided_slice.h"
#include "aclnnop/aclnn_strided_slice_assign_v2.h"

using namespace aclnn_test;

namespace {
constexpr int kParamNull = 161001, kParamInvalid = 161002;
aclIntArray* ints(const std::vector<int64_t>& v) { return aclCreateIntArray(v.data(), v.size()); }
}  // namespace

TEST(ViewMaps, ChannelShuffleAndConfusionTranspose) {
  HostTensorBuf x(ACL_FLOAT16, {2, 6, 2}), y(ACL_FLOAT16, {2, 6, 2});
  for (int64_t i = 0; i < 24; ++i) x.set(i, static_cast<double>(i));
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnChannelShuffleGetWorkspaceSize(x.get(), 3, y.get(), ws, ex);
            }),
            0);
  // 6 channels in 3 groups of 2: channel order 0, 2, 4, 1, 3, 5.
  const int64_t order[] = {0, 2, 4, 1, 3, 5};
  for (int64_t n = 0; n < 2; ++n) {
    for (int64_t c = 0; c < 6; ++c) {
      for (int64_t k = 0; k < 2; ++k)
        EXPECT_EQ(y.get((n * 6 + c) * 2 + k), x.get((n * 6 + order[c]) * 2 + k));
    }
  }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnChannelShuffleGetWorkspaceSize(x.get(), 4, y.get(), ws, ex);
            }),
            kParamInvalid);

  // x [2, 3, 4]: transpose first with perm (1, 0, 2) -> [3, 2, 4], then reshape to [6, 4];
  // reshape first to [6, 4], then transpose (1, 0) -> [4, 6].
  HostTensorBuf a(ACL_INT32, {2, 3, 4}), tf(ACL_INT32, {6, 4}), rf(ACL_INT32, {4, 6});
  for (int64_t i = 0; i < 24; ++i) a.set(i, static_cast<double>(i));
  aclIntArray *perm3 = ints({1, 0, 2}), *shape64 = ints({6, 4}), *perm2 = ints({1, 0});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnConfusionTransposeGetWorkspaceSize(a.get(), perm3, shape64, true, tf.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnConfusionTransposeGetWorkspaceSize(a.get(), perm2, shape64, false, rf.get(), ws,
                                                             ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int64_t j = 0; j < 3; ++j) {
    for (int64_t i = 0; i < 2; ++i) {
      for (int64_t k = 0; k < 4; ++k) EXPECT_EQ(tf.get((j * 2 + i) * 4 + k), a.get((i * 3 + j) * 4 + k));
    }
  }
  for (int64_t r = 0; r < 4; ++r) {
    for (int64_t c = 0; c < 6; ++c) EXPECT_EQ(rf.get(r * 6 + c), a.get(c * 4 + r));
  }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnConfusionTransposeGetWorkspaceSize(a.get(), perm2, shape64, true, tf.get(), ws, ex);
            }),
            kParamInvalid);  // perm of 2 for a 3-d x
  for (aclIntArray* v : {perm3, shape64, perm2}) aclDestroyIntArray(v);
}

TEST(ViewMaps, SlicesAndStrides) {
  // StridedSliceAssignV2: rows 1..4 step 2, columns 0..2 of a [4, 3] (the public example).
  HostTensorBuf var(ACL_FLOAT, {4, 3}), value(ACL_FLOAT, {2, 2});
  for (int64_t i = 0; i < 12; ++i) var.set(i, static_cast<double>(i));
  for (int64_t i = 0; i < 4; ++i) value.set(i, -1.0 - static_cast<double>(i));
  aclIntArray *b = ints({1, 0}), *e = ints({4, 2}), *s = ints({2, 1}), *axes = ints({0, 1});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnStridedSliceAssignV2GetWorkspaceSize(var.get(), value.get(), b, e, s, axes, ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  const double want[] = {0, 1, 2, -1, -2, 5, 6, 7, 8, -3, -4, 11};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(var.get(i), want[i]) << i;
  HostTensorBuf wrong(ACL_FLOAT, {2, 3});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnStridedSliceAssignV2GetWorkspaceSize(var.get(), wrong.get(), b, e, s, axes, ws, ex);
            }),
            kParamInvalid);
  for (aclIntArray* v : {b, e, s, axes}) aclDestroyIntArray(v);

  // AsStrided: size [2, 3], stride [4, 1], offset 2 over 12 elements.
  HostTensorBuf x(ACL_INT64, {12}), y(ACL_INT64, {2, 3});
  for (int64_t i = 0; i < 12; ++i) x.set(i, static_cast<double>(100 + i));
  aclIntArray *size = ints({2, 3}), *stride = ints({4, 1}), *offset = ints({2}), *far = ints({11});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAsStridedGetWorkspaceSize(x.get(), size, stride, offset, y.get(), ws, ex);
            }),
            0);
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 3; ++j) EXPECT_EQ(y.get(i * 3 + j), 102.0 + static_cast<double>(i * 4 + j));
  }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAsStridedGetWorkspaceSize(x.get(), size, stride, far, y.get(), ws, ex);
            }),
            kParamInvalid);  // reaches past x
  for (aclIntArray* v : {size, stride, offset, far}) aclDestroyIntArray(v);

  // StridedSlice (experimental): x [40] as [1, 40], columns 2..39 step 3 -> 13 elements.
  HostTensorBuf v(ACL_INT32, {40}), z(ACL_INT32, {13});
  for (int64_t i = 0; i < 40; ++i) v.set(i, static_cast<double>(i));
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnStridedSliceGetWorkspaceSize(v.get(), 0, 2, 1, 39, 1, 3, z.get(), ws, ex);
            }),
            0);
  for (int64_t i = 0; i < 13; ++i) EXPECT_EQ(z.get(i), 2.0 + 3.0 * static_cast<double>(i));

  // PadV2: [2, 3] padded (1, 0) on dim 0 and (0, 2) on dim 1 with 7; mode 1 is refused.
  HostTensorBuf p(ACL_INT16, {2, 3}), q(ACL_INT16, {3, 5});
  for (int64_t i = 0; i < 6; ++i) p.set(i, static_cast<double>(i + 1));
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnPadV2GetWorkspaceSize(p.get(), 0, 7, 1, 0, 0, 2, 0, 0, 0, 0, q.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 5; ++j)
      EXPECT_EQ(q.get(i * 5 + j), i >= 1 && j < 3 ? p.get((i - 1) * 3 + j) : 7.0);
  }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnPadV2GetWorkspaceSize(p.get(), 1, 7, 1, 0, 0, 2, 0, 0, 0, 0, q.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(ViewMaps, ClampTensors) {
  std::mt19937 g(31);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32}) {
    HostTensorBuf self(dt, {3, 4}, {1, 3}, 0), lo(dt, {4}), hi(dt, {3, 1}), out(dt, {3, 4});
    self.fillRandom(g, -10, 10);
    lo.fillRandom(g, -6, 0);
    hi.fillRandom(g, 0, 6);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnClampTensorGetWorkspaceSize(self.get(), lo.get(), hi.get(), out.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t i = 0; i < 12; ++i) {
      EXPECT_EQ(out.get(i), std::min(std::max(self.get(i), lo.get(i % 4)), hi.get(i / 4))) << i;
    }
    HostTensorBuf ref(dt, {3, 4});
    for (int64_t i = 0; i < 12; ++i) ref.set(i, self.get(i));
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceClampMaxTensorGetWorkspaceSize(ref.get(), hi.get(), ws, ex);
              }),
              0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnClampMinTensorGetWorkspaceSize(self.get(), lo.get(), out.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < 12; ++i) {
      EXPECT_EQ(ref.get(i), std::min(self.get(i), hi.get(i / 4)));
      EXPECT_EQ(out.get(i), std::max(self.get(i), lo.get(i % 4)));
    }
  }
  // NaN in self stays; a bound that does not broadcast is refused.
  HostTensorBuf s(ACL_FLOAT, {2}), m(ACL_FLOAT, {2}), o(ACL_FLOAT, {2}), h(ACL_FLOAT, {3}),
      ho(ACL_FLOAT, {2});
  s.set(0, NAN);
  s.set(1, -5);
  m.set(0, 1);
  m.set(1, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnClampMinTensorGetWorkspaceSize(s.get(), m.get(), o.get(), ws, ex);
            }),
            0);
  EXPECT_TRUE(std::isnan(o.get(0)));
  EXPECT_EQ(o.get(1), 1.0);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnClampMinTensorGetWorkspaceSize(s.get(), h.get(), ho.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnClampTensorGetWorkspaceSize(s.get(), nullptr, nullptr, o.get(), ws, ex);
            }),
            kParamNull);
  // Cost: self, min and max read (8 + 8 + 8 bytes), out written (8 bytes).
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnClampTensorGetWorkspaceSize(s.get(), m.get(), m.get(), o.get(), &ws, &ex), 0);
  const Charged ch = chargedBytes(ex);
  EXPECT_EQ(ch.read, 24u);
  EXPECT_EQ(ch.written, 8u);
}

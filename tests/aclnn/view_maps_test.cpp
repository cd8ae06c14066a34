// View-like maps (view_maps.cpp), the experimental pads and slices, and the tensor-bound clamps
// (clamp_tensor.cpp) against their definitions written out in the test.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_as_strided.h"
#include "aclnnop/aclnn_channel_shuffle.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_col2_im.h"
#include "aclnnop/aclnn_confusion_transpose.h"
#include "aclnnop/aclnn_im2col.h"
#include "aclnnop/aclnn_pad_v2.h"
#include "aclnnop/aclnn_strided_slice.h"
#include "aclnnop/aclnn_strided_slice_assign_v2.h"
#include "aclnnop/aclnn_transposev.h"
#include "aclnnop/aclnn_unfold_grad.h"
#include "aclnnop/aclnn_view_copy.h"

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

// Im2col against torch.nn.functional.unfold written as loops; Col2Im and UnfoldGrad as the
// adjoints of im2col and Tensor.unfold: <col, im2col(x)> = <col2im(col), x>.
TEST(ViewMaps, Im2colAndAdjoints) {
  std::mt19937 g(41);
  const int64_t n = 2, c = 2, h = 5, w = 6, kh = 3, kw = 2, dh = 2, dw = 1, ph = 1, pw = 0, sh = 1, sw = 2;
  const int64_t oh = (h + 2 * ph - dh * (kh - 1) - 1) / sh + 1,
                ow = (w + 2 * pw - dw * (kw - 1) - 1) / sw + 1;
  HostTensorBuf x(ACL_FLOAT, {n, c, h, w}), col(ACL_FLOAT, {n, c * kh * kw, oh * ow});
  for (int64_t i = 0; i < x.numel(); ++i) x.set(i, static_cast<double>(g() % 9) - 4);
  aclIntArray *k = ints({kh, kw}), *d = ints({dh, dw}), *p = ints({ph, pw}), *s = ints({sh, sw});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnIm2colGetWorkspaceSize(x.get(), k, d, p, s, col.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t ch = 0; ch < c; ++ch) {
      for (int64_t i = 0; i < kh; ++i) {
        for (int64_t j = 0; j < kw; ++j) {
          for (int64_t y = 0; y < oh; ++y) {
            for (int64_t z = 0; z < ow; ++z) {
              const int64_t yy = y * sh - ph + i * dh, xx = z * sw - pw + j * dw;
              const double want =
                  yy >= 0 && yy < h && xx >= 0 && xx < w ? x.get(((b * c + ch) * h + yy) * w + xx) : 0;
              EXPECT_EQ(col.get((b * c * kh * kw + (ch * kh + i) * kw + j) * oh * ow + y * ow + z), want);
            }
          }
        }
      }
    }
  }
  // Col2Im (square geometry) is im2col's adjoint.
  HostTensorBuf img(ACL_FLOAT, {1, 2, 4, 4}), cols(ACL_FLOAT, {1, 8, 9}), back(ACL_FLOAT, {1, 2, 4, 4}),
      g2(ACL_FLOAT, {1, 8, 9});
  for (int64_t i = 0; i < img.numel(); ++i) img.set(i, static_cast<double>(g() % 7) - 3);
  for (int64_t i = 0; i < g2.numel(); ++i) g2.set(i, static_cast<double>(g() % 7) - 3);
  aclIntArray *k2 = ints({2, 2}), *one = ints({1, 1}), *zero = ints({0, 0});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnIm2colGetWorkspaceSize(img.get(), k2, one, zero, one, cols.get(), ws, ex);
            }),
            0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnCol2ImGetWorkspaceSize(g2.get(), 4, 4, 2, 2, 1, 0, 1, back.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  double lhs = 0, rhs = 0;
  for (int64_t i = 0; i < cols.numel(); ++i) lhs += g2.get(i) * cols.get(i);
  for (int64_t i = 0; i < img.numel(); ++i) rhs += back.get(i) * img.get(i);
  EXPECT_EQ(lhs, rhs);
  // UnfoldGrad of x.unfold(0, 3, 2) on an [8, 2] input: element i of dim 0 collects windows 2w + k = i.
  HostTensorBuf go(ACL_FLOAT, {3, 2, 3}), gi(ACL_FLOAT, {8, 2});
  for (int64_t i = 0; i < 18; ++i) go.set(i, static_cast<double>(i + 1));
  aclIntArray* sizes = ints({8, 2});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnUnfoldGradGetWorkspaceSize(go.get(), sizes, 0, 3, 2, gi.get(), ws, ex);
            }),
            0);
  for (int64_t i = 0; i < 8; ++i) {
    for (int64_t j = 0; j < 2; ++j) {
      double want = 0;
      for (int64_t win = 0; win < 3; ++win) {
        for (int64_t kk = 0; kk < 3; ++kk) {
          if (win * 2 + kk == i) want += go.get((win * 2 + j) * 3 + kk);
        }
      }
      EXPECT_EQ(gi.get(i * 2 + j), want) << i << "," << j;
    }
  }
  HostTensorBuf badCol(ACL_FLOAT, {1, 8, 8});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnIm2colGetWorkspaceSize(img.get(), k2, one, zero, one, badCol.get(), ws, ex);
            }),
            kParamInvalid);
  for (aclIntArray* a : {k, d, p, s, k2, one, zero, sizes}) aclDestroyIntArray(a);
}

// Transposev: the permutation is a device tensor read when the operator runs.
TEST(ViewMaps, TransposevReadsItsPermutation) {
  HostTensorBuf x(ACL_FLOAT, {2, 3, 4}), perm(ACL_INT64, {3}), out(ACL_FLOAT, {4, 2, 3});
  for (int64_t i = 0; i < 24; ++i) x.set(i, static_cast<double>(i));
  perm.set(0, 2);
  perm.set(1, 0);
  perm.set(2, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTransposevGetWorkspaceSize(x.get(), perm.get(), out.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int64_t a = 0; a < 4; ++a) {
    for (int64_t b = 0; b < 2; ++b) {
      for (int64_t c = 0; c < 3; ++c) EXPECT_EQ(out.get((a * 2 + b) * 3 + c), x.get((b * 3 + c) * 4 + a));
    }
  }
  HostTensorBuf shortPerm(ACL_INT64, {2}), floatPerm(ACL_FLOAT, {3}), small(ACL_FLOAT, {4, 2, 2});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTransposevGetWorkspaceSize(x.get(), shortPerm.get(), out.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTransposevGetWorkspaceSize(x.get(), floatPerm.get(), out.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTransposevGetWorkspaceSize(x.get(), perm.get(), small.get(), ws, ex);
            }),
            kParamInvalid);
}

// ViewCopy: dst_out = dst with the view (size [2, 2], stride [3, 1], offset 1) taken from src's
// view (size [2, 2], stride [1, 2], offset 0).
TEST(ViewMaps, ViewCopy) {
  HostTensorBuf dst(ACL_FLOAT, {6}), src(ACL_FLOAT, {4}), out(ACL_FLOAT, {6});
  for (int64_t i = 0; i < 6; ++i) dst.set(i, -1.0 - static_cast<double>(i));
  for (int64_t i = 0; i < 4; ++i) src.set(i, 10.0 + static_cast<double>(i));
  auto ints1 = [](std::vector<double> v) {
    auto t = std::make_unique<HostTensorBuf>(ACL_INT32, std::vector<int64_t>{static_cast<int64_t>(v.size())});
    for (size_t i = 0; i < v.size(); ++i) t->set(static_cast<int64_t>(i), v[i]);
    return t;
  };
  auto dSize = ints1({2, 2}), dStride = ints1({3, 1}), dOff = ints1({1}), sSize = ints1({2, 2}),
       sStride = ints1({1, 2}), sOff = ints1({0});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnViewCopyGetWorkspaceSize(dst.get(), dSize->get(), dStride->get(), dOff->get(),
                                                   src.get(), sSize->get(), sStride->get(), sOff->get(),
                                                   out.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  // dst elements 1, 2, 4, 5 take src elements 0, 2, 1, 3.
  const double want[] = {-1, 10, 12, -4, 11, 13};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out.get(i), want[i]) << i;
  auto floats = std::make_unique<HostTensorBuf>(ACL_FLOAT, std::vector<int64_t>{2});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnViewCopyGetWorkspaceSize(dst.get(), floats->get(), dStride->get(), dOff->get(),
                                                   src.get(), sSize->get(), sStride->get(), sOff->get(),
                                                   out.get(), ws, ex);
            }),
            kParamInvalid);
}

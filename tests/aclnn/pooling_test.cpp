// Pooling (runtime/aclnn/ops/pooling.cpp on pooling_op.h): every forward against a brute-force
// pool written in the test (each output position scans all input positions and keeps those in
// its window), with padding, ceil mode, dilation, count_include_pad and divisorOverride, 2-D and
// 3-D, with and without N, fp32/fp16/bf16; indices; each gradient against the adjoint of the
// forward (<backward(g), e_i> = <g, forward(e_i)> for avg; scatter to the argmax for max); the
// errors; the bytes.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_adaptive_avg_pool2d_backward.h"
#include "aclnnop/aclnn_adaptive_avg_pool3d.h"
#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "aclnnop/aclnn_adaptive_max_pool2d_backward.h"
#include "aclnnop/aclnn_adaptive_max_pool3d.h"
#include "aclnnop/aclnn_average_pooling_grad.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_avgpool2d_backward.h"
#include "aclnnop/aclnn_avgpool3d.h"
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "aclnnop/aclnn_max_pool2d_with_indices_backward.h"
#include "aclnnop/aclnn_max_pool3_d.h"
#include "aclnnop/aclnn_max_pool3d_with_argmax.h"
#include "aclnnop/aclnn_max_pool3d_with_argmax_backward.h"
#include "aclnnop/aclnn_max_pooling_grad.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

template <typename F>
int runOp(const F& f) {
  return run([&](uint64_t* ws, aclOpExecutor** ex) { return f(ws, ex); });
}

struct IntArray {
  aclIntArray* a;
  explicit IntArray(std::vector<int64_t> v) : a(aclCreateIntArray(v.data(), v.size())) {}
  ~IntArray() { aclDestroyIntArray(a); }
};

// Brute-force regular pool over the last 3 dims of planes x (d, h, w) (2-D: d = 1).
struct Pool {
  int64_t in[3], out[3], k[3], s[3], p[3], dil[3];
  bool avg = false, countPad = true;
  int64_t divisor = 0;
  // Whether input position i lies in window o along dim a, and the tap's index.
  bool tap(int a, int64_t o, int64_t i) const {
    const int64_t off = i - (o * s[a] - p[a]);
    return off >= 0 && off % dil[a] == 0 && off / dil[a] < k[a];
  }
  void run(const std::vector<double>& x, int64_t planes, std::vector<double>* y,
           std::vector<int64_t>* idx) const {
    const int64_t ip = in[0] * in[1] * in[2], op = out[0] * out[1] * out[2];
    y->assign(static_cast<size_t>(planes * op), 0);
    idx->assign(y->size(), -1);
    for (int64_t pl = 0; pl < planes; ++pl) {
      for (int64_t o = 0; o < op; ++o) {
        const int64_t oz = o / (out[1] * out[2]), oy = o / out[2] % out[1], ox = o % out[2];
        double acc = avg ? 0 : -INFINITY, n = 0;
        int64_t best = -1;
        for (int64_t i = 0; i < ip; ++i) {
          const int64_t iz = i / (in[1] * in[2]), iy = i / in[2] % in[1], ix = i % in[2];
          if (!tap(0, oz, iz) || !tap(1, oy, iy) || !tap(2, ox, ix)) continue;
          const double v = x[static_cast<size_t>(pl * ip + i)];
          n += 1;
          if (avg) {
            acc += v;
          } else if (best < 0 || v > acc) {
            acc = v;
            best = i;
          }
        }
        if (avg) {
          double padded = 1;  // the window clipped to the padded input
          const int64_t o3[3] = {oz, oy, ox};
          for (int a = 0; a < 3; ++a) {
            const int64_t st = o3[a] * s[a] - p[a];
            padded *= static_cast<double>(std::min(st + k[a], in[a] + p[a]) - st);
          }
          acc /= divisor != 0 ? static_cast<double>(divisor) : countPad ? padded : n;
        }
        (*y)[static_cast<size_t>(pl * op + o)] = acc;
        (*idx)[static_cast<size_t>(pl * op + o)] = best;
      }
    }
  }
};

std::vector<double> values(HostTensorBuf& t) {
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) v[static_cast<size_t>(i)] = t.get(i);
  return v;
}

TEST(Pooling, AvgPool2dPaddingCeilAndDivisors) {
  std::mt19937 gen(1);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (int variant = 0; variant < 3; ++variant) {
      const bool ceil = variant >= 1, countPad = variant != 1;
      const int64_t divisor = variant == 2 ? 5 : 0;
      Pool p{{1, 7, 6}, {1, 0, 0}, {1, 3, 2}, {1, 2, 2}, {0, 1, 1}, {1, 1, 1}, true, countPad, divisor};
      for (int a = 1; a < 3; ++a) {
        const int64_t span = p.in[a] + 2 * p.p[a] - p.k[a];
        p.out[a] = (ceil ? (span + p.s[a] - 1) / p.s[a] : span / p.s[a]) + 1;
        if (ceil && (p.out[a] - 1) * p.s[a] >= p.in[a] + p.p[a]) --p.out[a];
      }
      HostTensorBuf x(dt, {2, 3, 7, 6}), y(dt, {2, 3, p.out[1], p.out[2]});
      x.fillRandom(gen, -2, 2);
      IntArray k({3, 2}), s({2, 2}), pad({1, 1});
      ASSERT_EQ(runOp([&](auto ws, auto ex) {
                  return aclnnAvgPool2dGetWorkspaceSize(x.get(), k.a, s.a, pad.a, ceil, countPad, divisor, 0,
                                                        y.get(), ws, ex);
                }),
                0);
      std::vector<double> want;
      std::vector<int64_t> idx;
      p.run(values(x), 6, &want, &idx);
      for (int64_t i = 0; i < y.numel(); ++i)
        expectNear(y.get(i), want[static_cast<size_t>(i)], dt, "AvgPool2d");
      // The backward is the adjoint: <backward(g), x> = <g, forward(x)>.
      HostTensorBuf g(dt, {2, 3, p.out[1], p.out[2]}), gx(dt, {2, 3, 7, 6});
      g.fillRandom(gen, -1, 1);
      ASSERT_EQ(runOp([&](auto ws, auto ex) {
                  return aclnnAvgPool2dBackwardGetWorkspaceSize(g.get(), x.get(), k.a, s.a, pad.a, ceil,
                                                                countPad, divisor, 0, gx.get(), ws, ex);
                }),
                0);
      double lhs = 0, rhs = 0;
      for (int64_t i = 0; i < gx.numel(); ++i) lhs += gx.get(i) * x.get(i);
      for (int64_t i = 0; i < g.numel(); ++i) rhs += g.get(i) * want[static_cast<size_t>(i)];
      EXPECT_NEAR(lhs, rhs, 40 * tol(dt) * (1 + std::fabs(rhs))) << "variant " << variant;
    }
  }
}

TEST(Pooling, MaxPoolWithIndicesDilationAndGradient) {
  std::mt19937 gen(2);
  // 2-D: [3, 8, 9] (no N), kernel 3x2, stride 2x1, padding 1x0, dilation 2x1, ceil mode.
  Pool p{{1, 8, 9}, {1, 0, 0}, {1, 3, 2}, {1, 2, 1}, {0, 1, 0}, {1, 2, 1}};
  for (int a = 1; a < 3; ++a) {
    const int64_t span = p.in[a] + 2 * p.p[a] - p.dil[a] * (p.k[a] - 1) - 1;
    p.out[a] = (span + p.s[a] - 1) / p.s[a] + 1;
    if ((p.out[a] - 1) * p.s[a] >= p.in[a] + p.p[a]) --p.out[a];
  }
  HostTensorBuf x(ACL_FLOAT, {3, 8, 9}), y(ACL_FLOAT, {3, p.out[1], p.out[2]}),
      idx(ACL_INT32, {3, p.out[1], p.out[2]});
  x.fillRandom(gen, -5, 5);
  IntArray k({3, 2}), s({2, 1}), pad({1, 0}), dil({2, 1});
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnMaxPool2dWithIndicesGetWorkspaceSize(x.get(), k.a, s.a, pad.a, dil.a, true, y.get(),
                                                               idx.get(), ws, ex);
            }),
            0);
  std::vector<double> want;
  std::vector<int64_t> wantIdx;
  p.run(values(x), 3, &want, &wantIdx);
  for (int64_t i = 0; i < y.numel(); ++i) {
    EXPECT_EQ(y.get(i), want[static_cast<size_t>(i)]) << i;
    EXPECT_EQ(idx.get(i), wantIdx[static_cast<size_t>(i)]) << i;
  }
  // Backward: each gradOutput element lands on its argmax (accumulating where windows share it).
  HostTensorBuf g(ACL_FLOAT, {3, p.out[1], p.out[2]}), gx(ACL_FLOAT, {3, 8, 9});
  g.fillRandom(gen, -1, 1);
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnMaxPool2dWithIndicesBackwardGetWorkspaceSize(g.get(), x.get(), idx.get(), k.a, s.a,
                                                                       pad.a, dil.a, true, gx.get(), ws, ex);
            }),
            0);
  std::vector<double> wantG(static_cast<size_t>(gx.numel()), 0);
  const int64_t op = p.out[1] * p.out[2];
  for (int64_t i = 0; i < g.numel(); ++i)
    wantG[static_cast<size_t>(i / op * 72 + wantIdx[static_cast<size_t>(i)])] += g.get(i);
  for (int64_t i = 0; i < gx.numel(); ++i) EXPECT_NEAR(gx.get(i), wantG[static_cast<size_t>(i)], 1e-6) << i;
}

TEST(Pooling, ThreeDimensionalMaxAndAvg) {
  std::mt19937 gen(3);
  Pool p{{4, 5, 6}, {2, 2, 4}, {2, 2, 2}, {2, 2, 2}, {0, 0, 1}, {1, 1, 1}};
  HostTensorBuf x(ACL_FLOAT16, {1, 2, 4, 5, 6}), y(ACL_FLOAT16, {1, 2, 2, 2, 4}),
      idx(ACL_INT32, {1, 2, 2, 2, 4}), ya(ACL_FLOAT16, {1, 2, 2, 2, 4});
  x.fillRandom(gen, -3, 3);
  IntArray k({2}), s({2}), pad({0, 0, 1}), dil({1});
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnMaxPool3dWithArgmaxGetWorkspaceSize(x.get(), k.a, s.a, pad.a, dil.a, false, y.get(),
                                                              idx.get(), ws, ex);
            }),
            0);
  std::vector<double> want;
  std::vector<int64_t> wantIdx;
  p.run(values(x), 2, &want, &wantIdx);
  for (int64_t i = 0; i < y.numel(); ++i) {
    EXPECT_EQ(y.get(i), want[static_cast<size_t>(i)]);
    EXPECT_EQ(idx.get(i), wantIdx[static_cast<size_t>(i)]);
  }
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnAvgPool3dGetWorkspaceSize(x.get(), k.a, s.a, pad.a, false, false, 0, ya.get(), ws,
                                                    ex);
            }),
            0);
  p.avg = true;
  p.countPad = false;
  p.run(values(x), 2, &want, &wantIdx);
  for (int64_t i = 0; i < ya.numel(); ++i)
    expectNear(ya.get(i), want[static_cast<size_t>(i)], ACL_FLOAT16, "AvgPool3d");
}

TEST(Pooling, AdaptivePools) {
  // 2-D [1, 2, 5, 7] to [3, 4]: window o along a dim of n covers [floor(o n / m), ceil((o + 1) n / m)).
  std::mt19937 gen(4);
  HostTensorBuf x(ACL_FLOAT, {1, 2, 5, 7}), avg(ACL_FLOAT, {1, 2, 3, 4}), mx(ACL_FLOAT, {1, 2, 3, 4}),
      idx(ACL_INT64, {1, 2, 3, 4});
  x.fillRandom(gen, -2, 2);
  IntArray size({3, 4});
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnAdaptiveAvgPool2dGetWorkspaceSize(x.get(), size.a, avg.get(), ws, ex);
            }),
            0);
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnAdaptiveMaxPool2dGetWorkspaceSize(x.get(), size.a, mx.get(), idx.get(), ws, ex);
            }),
            0);
  for (int c = 0; c < 2; ++c) {
    for (int oh = 0; oh < 3; ++oh) {
      for (int ow = 0; ow < 4; ++ow) {
        const int h0 = oh * 5 / 3, h1 = static_cast<int>(std::ceil((oh + 1) * 5 / 3.0)), w0 = ow * 7 / 4,
                  w1 = static_cast<int>(std::ceil((ow + 1) * 7 / 4.0));
        double s = 0, m = -INFINITY;
        int arg = -1;
        for (int h = h0; h < h1; ++h) {
          for (int w = w0; w < w1; ++w) {
            const double v = x.get(c * 35 + h * 7 + w);
            s += v;
            if (v > m) {
              m = v;
              arg = h * 7 + w;
            }
          }
        }
        const int o = c * 12 + oh * 4 + ow;
        expectNear(avg.get(o), s / ((h1 - h0) * (w1 - w0)), ACL_FLOAT, "AdaptiveAvgPool2d");
        EXPECT_EQ(mx.get(o), m);
        EXPECT_EQ(idx.get(o), arg);
      }
    }
  }
  // The gradients: avg spreads g / window size (sums check the adjoint), max lands on indices.
  HostTensorBuf g(ACL_FLOAT, {1, 2, 3, 4}), gx(ACL_FLOAT, {1, 2, 5, 7});
  g.fillRandom(gen, -1, 1);
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnAdaptiveAvgPool2dBackwardGetWorkspaceSize(g.get(), x.get(), gx.get(), ws, ex);
            }),
            0);
  double lhs = 0, rhs = 0;
  for (int64_t i = 0; i < gx.numel(); ++i) lhs += gx.get(i) * x.get(i);
  for (int64_t i = 0; i < g.numel(); ++i) rhs += g.get(i) * avg.get(i);
  EXPECT_NEAR(lhs, rhs, 1e-5);
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(g.get(), x.get(), idx.get(), gx.get(), ws,
                                                                    ex);
            }),
            0);
  std::vector<double> wantG(70, 0);
  for (int64_t i = 0; i < 24; ++i)
    wantG[static_cast<size_t>(i / 12 * 35 + static_cast<int64_t>(idx.get(i)))] += g.get(i);
  for (int64_t i = 0; i < 70; ++i) EXPECT_NEAR(gx.get(i), wantG[static_cast<size_t>(i)], 1e-6);
  // 3-D adaptive to [1, 1, 1]: the global mean and max.
  HostTensorBuf x3(ACL_FLOAT, {2, 3, 4, 5}), a3(ACL_FLOAT, {2, 1, 1, 1}), m3(ACL_FLOAT, {2, 1, 1, 1}),
      i3(ACL_INT64, {2, 1, 1, 1});
  x3.fillRandom(gen, -1, 1);
  IntArray ones({1, 1, 1});
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnAdaptiveAvgPool3dGetWorkspaceSize(x3.get(), ones.a, a3.get(), ws, ex);
            }),
            0);
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnAdaptiveMaxPool3dGetWorkspaceSize(x3.get(), ones.a, m3.get(), i3.get(), ws, ex);
            }),
            0);
  for (int c = 0; c < 2; ++c) {
    double s = 0, m = -INFINITY;
    for (int i = 0; i < 60; ++i) {
      s += x3.get(c * 60 + i);
      m = std::max(m, x3.get(c * 60 + i));
    }
    expectNear(a3.get(c), s / 60, ACL_FLOAT, "AdaptiveAvgPool3d");
    EXPECT_EQ(m3.get(c), m);
    EXPECT_EQ(x3.get(c * 60 + static_cast<int64_t>(i3.get(c))), m);
  }
}

TEST(Pooling, OnnxMaxPoolAndExperimentalForms) {
  // MaxPool with pads (top, left, bottom, right) = (1, 0, 0, 1) and ceil mode on [1, 1, 3, 3].
  HostTensorBuf x(ACL_FLOAT, {1, 1, 3, 3}), y(ACL_FLOAT, {1, 1, 2, 2});
  for (int i = 0; i < 9; ++i) x.set(i, i + 1);
  IntArray k({2, 2}), s({2, 2}), pads({1, 0, 0, 1}), dil({1, 1});
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnMaxPoolGetWorkspaceSize(x.get(), k.a, s.a, 0, pads.a, dil.a, 0, y.get(), ws, ex);
            }),
            0);
  // Rows -1..0 and 1..2, columns 0..1 and 2..3: maxima 2, 3, 8, 9.
  const double want[] = {2, 3, 8, 9};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(y.get(i), want[i]);
  // The integer types its doc lists pool exactly.
  HostTensorBuf xi(ACL_INT64, {1, 1, 3, 3}), yi(ACL_INT64, {1, 1, 2, 2});
  for (int i = 0; i < 9; ++i) xi.set(i, (i * 7) % 9 - 4);  // rows -4 3 1 / -1 -3 4 / 2 0 -2
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnMaxPoolGetWorkspaceSize(xi.get(), k.a, s.a, 0, pads.a, dil.a, 0, yi.get(), ws, ex);
            }),
            0);
  const double wantI[] = {3, 1, 2, 4};  // rows {0}, {1, 2} x cols {0, 1}, {2}
  for (int i = 0; i < 4; ++i) EXPECT_EQ(yi.get(i), wantI[i]) << i;
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnMaxPoolGetWorkspaceSize(x.get(), k.a, s.a, 1, pads.a, dil.a, 0, y.get(), &ws, &ex),
            kParamInvalid);
  // AveragePoolingGrad with four paddings equals AvgPool2dBackward's adjoint on a brute-force pool.
  HostTensorBuf g(ACL_FLOAT, {1, 1, 2, 2}), gx(ACL_FLOAT, {1, 1, 3, 3});
  for (int i = 0; i < 4; ++i) g.set(i, i + 1);
  IntArray orig({1, 1, 3, 3});
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnAveragePoolingGradGetWorkspaceSize(orig.a, g.get(), 2, 2, 2, 2, 1, 0, 0, 1, false,
                                                             true, 0, gx.get(), ws, ex);
            }),
            0);
  // Each window divides by 4 (padding counts): g 1 on (0,0),(0,1); 2 on (0,2); 3 and 4 on the rows below.
  const double wantG[] = {0.25, 0.25, 0.5, 0.75, 0.75, 1, 0.75, 0.75, 1};
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(gx.get(i), wantG[i], 1e-6) << i;
  // MaxPoolingGrad: dy where x equals y.
  HostTensorBuf dy(ACL_FLOAT, {4}), xx(ACL_FLOAT, {4}), yy(ACL_FLOAT, {4}), dx(ACL_FLOAT, {4});
  for (int i = 0; i < 4; ++i) {
    dy.set(i, 0.5 + i);
    xx.set(i, i);
    yy.set(i, i % 2 == 0 ? i : 7);
  }
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnMaxPoolingGradGetWorkspaceSize(dy.get(), xx.get(), yy.get(), dx.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(dx.get(i), i % 2 == 0 ? 0.5 + i : 0);
}

TEST(Pooling, MaxPool3DChannelsLastAndSamePadding) {
  // NDHWC [1, 3, 4, 5, 2]: the same values as NCDHW [1, 2, 3, 4, 5] pooled with SAME padding
  // (out = ceil(in / stride), the extra padding at the end) by the brute-force pool.
  std::mt19937 gen(7);
  HostTensorBuf x(ACL_FLOAT, {1, 3, 4, 5, 2}), y(ACL_FLOAT, {1, 2, 2, 3, 2});
  x.fillRandom(gen, -3, 3);
  std::vector<double> planar(120);  // [c][d][h][w]
  for (int64_t i = 0; i < 120; ++i) planar[static_cast<size_t>((i % 2) * 60 + i / 2)] = x.get(i);
  IntArray k({1, 2, 2, 2, 1}), s({1, 2, 2, 2, 1});
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnMaxPool3DGetWorkspaceSize(x.get(), k.a, s.a, "SAME", nullptr, nullptr, 0, "NDHWC",
                                                    y.get(), ws, ex);
            }),
            0);
  // SAME on 3, 4, 5 with kernel 2, stride 2: out 2, 2, 3; padding (0, 1), (0, 0), (0, 1).
  Pool p{{3, 4, 5}, {2, 2, 3}, {2, 2, 2}, {2, 2, 2}, {0, 0, 0}, {1, 1, 1}};
  std::vector<double> want;
  std::vector<int64_t> idx;
  p.run(planar, 2, &want, &idx);
  for (int64_t i = 0; i < 24; ++i) EXPECT_EQ(y.get(i), want[static_cast<size_t>((i % 2) * 12 + i / 2)]) << i;
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnMaxPool3DGetWorkspaceSize(x.get(), k.a, s.a, "FULL", nullptr, nullptr, 0, "NDHWC", y.get(),
                                           &ws, &ex),
            kParamInvalid);
}

TEST(Pooling, TransposedViews) {
  // self [2, 5, 6] read through a view whose H and W are swapped in memory, out written through
  // a transposed view too: the same values as pooling the view's logical order.
  std::mt19937 gen(8);
  HostTensorBuf x(ACL_FLOAT, {2, 5, 6}, {30, 1, 5}, 0), y(ACL_FLOAT, {2, 2, 3}, {6, 1, 2}, 0),
      idx(ACL_INT64, {2, 2, 3});
  x.fillRandom(gen, -2, 2);
  IntArray k({2, 2}), s({2, 2}), pad({0, 0});
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnMaxPool2dWithIndicesGetWorkspaceSize(x.get(), k.a, s.a, pad.a, nullptr, false,
                                                               y.get(), idx.get(), ws, ex);
            }),
            0);
  Pool p{{1, 5, 6}, {1, 2, 3}, {1, 2, 2}, {1, 2, 2}, {0, 0, 0}, {1, 1, 1}};
  std::vector<double> want;
  std::vector<int64_t> wantIdx;
  p.run(values(x), 2, &want, &wantIdx);
  for (int64_t i = 0; i < 12; ++i) {
    EXPECT_EQ(y.get(i), want[static_cast<size_t>(i)]) << i;
    EXPECT_EQ(idx.get(i), wantIdx[static_cast<size_t>(i)]) << i;
  }
}

TEST(Pooling, ErrorCodesAndBytes) {
  HostTensorBuf x(ACL_FLOAT, {1, 2, 6, 6}), y(ACL_FLOAT, {1, 2, 3, 3}), bad(ACL_FLOAT, {1, 2, 2, 2}),
      idx(ACL_INT32, {1, 2, 3, 3}), idxF(ACL_FLOAT, {1, 2, 3, 3}), x2(ACL_FLOAT, {6, 6});
  IntArray k({2, 2}), s({2, 2}), pad0({0, 0}), bigPad({2, 2}), three({2, 2, 2}), zero({0, 2});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnAvgPool2dGetWorkspaceSize(nullptr, k.a, s.a, pad0.a, false, true, 0, 0, y.get(), &ws, &ex),
            kParamNull);
  EXPECT_EQ(
      aclnnAvgPool2dGetWorkspaceSize(x.get(), nullptr, s.a, pad0.a, false, true, 0, 0, y.get(), &ws, &ex),
      kParamNull);
  EXPECT_EQ(aclnnAvgPool2dGetWorkspaceSize(x.get(), k.a, s.a, pad0.a, false, true, 0, 0, bad.get(), &ws, &ex),
            kParamInvalid);  // wrong out shape
  EXPECT_EQ(aclnnAvgPool2dGetWorkspaceSize(x.get(), k.a, s.a, bigPad.a, false, true, 0, 0, y.get(), &ws, &ex),
            kParamInvalid);  // padding above half the kernel
  EXPECT_EQ(
      aclnnAvgPool2dGetWorkspaceSize(x.get(), three.a, s.a, pad0.a, false, true, 0, 0, y.get(), &ws, &ex),
      kParamInvalid);  // 3 kernel values for a 2-D pool
  EXPECT_EQ(
      aclnnAvgPool2dGetWorkspaceSize(x.get(), zero.a, s.a, pad0.a, false, true, 0, 0, y.get(), &ws, &ex),
      kParamInvalid);
  EXPECT_EQ(aclnnAvgPool2dGetWorkspaceSize(x2.get(), k.a, s.a, pad0.a, false, true, 0, 0, y.get(), &ws, &ex),
            kParamInvalid);  // rank 2
  EXPECT_EQ(aclnnMaxPool2dWithIndicesGetWorkspaceSize(x.get(), k.a, s.a, pad0.a, nullptr, false, y.get(),
                                                      idxF.get(), &ws, &ex),
            kParamInvalid);  // float indices
  EXPECT_EQ(aclnnMaxPool2dWithMaskGetWorkspaceSize(x.get(), k.a, s.a, pad0.a, nullptr, false, y.get(),
                                                   idx.get(), &ws, &ex),
            kParamInvalid);  // the mask layout is not simulated
  IntArray neg({-1, 2});
  EXPECT_EQ(aclnnAdaptiveAvgPool2dGetWorkspaceSize(x.get(), neg.a, y.get(), &ws, &ex), kParamInvalid);
  // MaxPool2dWithIndices reads self once, writes out and indices.
  ASSERT_EQ(aclnnMaxPool2dWithIndicesGetWorkspaceSize(x.get(), k.a, s.a, pad0.a, nullptr, false, y.get(),
                                                      idx.get(), &ws, &ex),
            0);
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, 72u * 4);
  EXPECT_EQ(c.written, 18u * 4 + 18 * 4);
}

}  // namespace

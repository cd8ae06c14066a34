// Losses over a class dimension (runtime/aclnn/ops/class_losses.cpp): NLLLoss (1-D, 2-D, 2d
// form) with weights and ignoreIndex under each reduction and its gradient; CrossEntropyLoss
// against log-softmax computed in the test (label smoothing, weights, zloss) and its gradient
// against central differences of that loss; the row-softmax operators; errors; bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_cross_entropy_grad.h"
#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "aclnnop/aclnn_fused_cross_entropy_loss_with_max_sum.h"
#include "aclnnop/aclnn_multilabel_margin_loss.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss2d.h"
#include "aclnnop/aclnn_nll_loss2d_backward.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_softmax_grad.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

template <typename F>
int runOp(const F& f) {
  return run([&](uint64_t* ws, aclOpExecutor** ex) { return f(ws, ex); });
}

// Row r's log-softmax, computed as log(exp(x) / sum exp(x)) (no shift: small inputs).
std::vector<double> logSoftmax(HostTensorBuf& x, int64_t r, int64_t c) {
  double s = 0;
  for (int64_t j = 0; j < c; ++j) s += std::exp(x.get(r * c + j));
  std::vector<double> out(static_cast<size_t>(c));
  for (int64_t j = 0; j < c; ++j) out[static_cast<size_t>(j)] = std::log(std::exp(x.get(r * c + j)) / s);
  return out;
}

TEST(ClassLosses, NllLossReductionsWeightsAndIgnoreIndex) {
  std::mt19937 gen(1);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf x(dt, {5, 4}), w(dt, {4}), t(ACL_INT64, {5}), none(dt, {5}), one(dt, {1}), tw(dt, {1});
    x.fillRandom(gen, -3, 0);
    w.fillRandom(gen, 0.5, 2);
    const int64_t targets[] = {0, 3, -100, 2, 3};
    double sum = 0, weights = 0;
    for (int i = 0; i < 5; ++i) {
      t.set(i, static_cast<double>(targets[i]));
      if (targets[i] >= 0) {
        sum -= w.get(targets[i]) * x.get(i * 4 + targets[i]);
        weights += w.get(targets[i]);
      }
    }
    ASSERT_EQ(runOp([&](auto ws, auto ex) {
                return aclnnNLLLossGetWorkspaceSize(x.get(), t.get(), w.get(), 0, -100, none.get(), tw.get(),
                                                    ws, ex);
              }),
              0);
    for (int i = 0; i < 5; ++i) {
      expectNear(none.get(i), targets[i] < 0 ? 0 : -w.get(targets[i]) * x.get(i * 4 + targets[i]), dt,
                 "none");
    }
    ASSERT_EQ(runOp([&](auto ws, auto ex) {
                return aclnnNLLLossGetWorkspaceSize(x.get(), t.get(), w.get(), 1, -100, one.get(), tw.get(),
                                                    ws, ex);
              }),
              0);
    expectNear(one.get(0), sum / weights, dt, "mean");
    expectNear(tw.get(0), weights, dt, "totalWeight");
    ASSERT_EQ(runOp([&](auto ws, auto ex) {
                return aclnnNLLLossGetWorkspaceSize(x.get(), t.get(), w.get(), 2, -100, one.get(), tw.get(),
                                                    ws, ex);
              }),
              0);
    expectNear(one.get(0), sum, dt, "sum");
    // The gradient under mean: -w[t] g / totalWeight at the target class, 0 elsewhere.
    HostTensorBuf g(dt, {}), gx(dt, {5, 4});
    g.set(0, 1.25);
    tw.set(0, weights);
    ASSERT_EQ(runOp([&](auto ws, auto ex) {
                return aclnnNLLLossBackwardGetWorkspaceSize(g.get(), x.get(), t.get(), w.get(), 1, -100,
                                                            tw.get(), gx.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 5; ++i) {
      for (int j = 0; j < 4; ++j) {
        const double want = j == targets[i] ? -w.get(j) * 1.25 / tw.get(0) : 0;
        expectNear(gx.get(i * 4 + j), want, dt, "NLLLossBackward");
      }
    }
  }
}

TEST(ClassLosses, NllLoss2dOverPositions) {
  // self [2, 3, 2, 2], target [2, 2, 2]: class c of position (n, h, w) is self[n, c, h, w].
  HostTensorBuf x(ACL_FLOAT, {2, 3, 2, 2}), w(ACL_FLOAT, {3}), t(ACL_INT32, {2, 2, 2}),
      out(ACL_FLOAT, {2, 2, 2}), tw(ACL_FLOAT, {1}), g(ACL_FLOAT, {2, 2, 2}), gx(ACL_FLOAT, {2, 3, 2, 2});
  for (int i = 0; i < 24; ++i) x.set(i, -0.1 * i);
  for (int c = 0; c < 3; ++c) w.set(c, c + 1);
  for (int i = 0; i < 8; ++i) {
    t.set(i, i % 3);
    g.set(i, 0.5 * (i + 1));
  }
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnNLLLoss2dGetWorkspaceSize(x.get(), t.get(), w.get(), 0, -100, out.get(), tw.get(),
                                                    ws, ex);
            }),
            0);
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnNLLLoss2dBackwardGetWorkspaceSize(g.get(), x.get(), t.get(), w.get(), 0, -100,
                                                            tw.get(), gx.get(), ws, ex);
            }),
            0);
  for (int n = 0; n < 2; ++n) {
    for (int p = 0; p < 4; ++p) {
      const int i = n * 4 + p, cls = i % 3;
      expectNear(out.get(i), -(cls + 1) * x.get((n * 3 + cls) * 4 + p), ACL_FLOAT, "NLLLoss2d");
      for (int c = 0; c < 3; ++c) {
        expectNear(gx.get((n * 3 + c) * 4 + p), c == cls ? -(cls + 1) * 0.5 * (i + 1) : 0, ACL_FLOAT,
                   "backward");
      }
    }
  }
}

// The cross-entropy loss of the test: mean over the kept rows weighted by w[t], label smoothing s.
double crossEntropy(HostTensorBuf& x, const std::vector<int64_t>& t, const std::vector<double>& w, double s) {
  const int64_t n = static_cast<int64_t>(t.size()), c = static_cast<int64_t>(w.size());
  double sum = 0, weights = 0;
  for (int64_t r = 0; r < n; ++r) {
    if (t[static_cast<size_t>(r)] < 0) continue;
    const std::vector<double> lp = logSoftmax(x, r, c);
    double smooth = 0;
    for (int64_t j = 0; j < c; ++j) smooth -= w[static_cast<size_t>(j)] * lp[static_cast<size_t>(j)];
    const int64_t k = t[static_cast<size_t>(r)];
    sum += (1 - s) * -w[static_cast<size_t>(k)] * lp[static_cast<size_t>(k)] +
           s / static_cast<double>(c) * smooth;
    weights += w[static_cast<size_t>(k)];
  }
  return sum / weights;
}

TEST(ClassLosses, CrossEntropyLossAndItsGradient) {
  std::mt19937 gen(2);
  const int64_t n = 4, c = 5;
  HostTensorBuf x(ACL_FLOAT, {n, c}), t(ACL_INT64, {n}), w(ACL_FLOAT, {c}), loss(ACL_FLOAT, {1}),
      logProb(ACL_FLOAT, {n, c}), zloss(ACL_FLOAT, {1}), lse(ACL_FLOAT, {n});
  x.fillRandom(gen, -2, 2);
  w.fillRandom(gen, 0.5, 1.5);
  const std::vector<int64_t> targets = {1, -100, 4, 0};
  std::vector<double> wv;
  for (int i = 0; i < n; ++i) t.set(i, static_cast<double>(targets[static_cast<size_t>(i)]));
  for (int j = 0; j < c; ++j) wv.push_back(w.get(j));
  char mean[] = "mean";
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnCrossEntropyLossGetWorkspaceSize(x.get(), t.get(), w.get(), mean, -100, 0.1, 0.01,
                                                           true, loss.get(), logProb.get(), zloss.get(),
                                                           lse.get(), ws, ex);
            }),
            0);
  expectNear(loss.get(0), crossEntropy(x, targets, wv, 0.1), ACL_FLOAT, "loss");
  double z = 0;
  for (int64_t r = 0; r < n; ++r) {
    const std::vector<double> lp = logSoftmax(x, r, c);
    for (int64_t j = 0; j < c; ++j)
      expectNear(logProb.get(r * c + j), lp[static_cast<size_t>(j)], ACL_FLOAT, "logProb");
    const double l = x.get(r * c) - lp[0];
    expectNear(lse.get(r), l, ACL_FLOAT, "lse");
    if (targets[static_cast<size_t>(r)] >= 0) z += 0.01 * l * l;
  }
  expectNear(zloss.get(0), z / 3, ACL_FLOAT, "zloss: mean over the kept rows");
  // Gradient from logProb against central differences of the loss in x.
  HostTensorBuf g(ACL_FLOAT, {}), dx(ACL_FLOAT, {n, c});
  g.set(0, 1);
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnCrossEntropyLossGradGetWorkspaceSize(g.get(), logProb.get(), t.get(), w.get(),
                                                               nullptr, nullptr, mean, -100, 0.1, 0, dx.get(),
                                                               ws, ex);
            }),
            0);
  for (int64_t i = 0; i < n * c; ++i) {
    const double xi = x.get(i), h = 1e-3;
    x.set(i, xi + h);
    const double up = crossEntropy(x, targets, wv, 0.1);
    x.set(i, xi - h);
    const double down = crossEntropy(x, targets, wv, 0.1);
    x.set(i, xi);
    EXPECT_NEAR(dx.get(i), (up - down) / (2 * h), 2e-4) << "element " << i;
  }
}

TEST(ClassLosses, RowSoftmaxOperators) {
  std::mt19937 gen(4);
  const int64_t n = 3, c = 6;
  HostTensorBuf f(ACL_FLOAT, {n, c}), labels(ACL_FLOAT, {n, c}), loss(ACL_FLOAT, {n}),
      back(ACL_FLOAT, {n, c}), t(ACL_INT32, {n}), gi(ACL_FLOAT, {n, c}), dy(ACL_FLOAT, {n, c}),
      dx(ACL_FLOAT, {n, c});
  f.fillRandom(gen, -3, 3);
  labels.fillRandom(gen, 0, 1);
  dy.fillRandom(gen, -1, 1);
  for (int r = 0; r < n; ++r) t.set(r, (2 * r + 1) % c);
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(f.get(), labels.get(), loss.get(),
                                                                        back.get(), ws, ex);
            }),
            0);
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnCrossEntropyGradGetWorkspaceSize(f.get(), t.get(), gi.get(), ws, ex);
            }),
            0);
  for (int64_t r = 0; r < n; ++r) {
    const std::vector<double> lp = logSoftmax(f, r, c);
    double l = 0;
    for (int64_t j = 0; j < c; ++j) {
      const double p = std::exp(lp[static_cast<size_t>(j)]), y = labels.get(r * c + j);
      l -= y * lp[static_cast<size_t>(j)];
      expectNear(back.get(r * c + j), p - y, ACL_FLOAT, "backprop");
      expectNear(gi.get(r * c + j), p - (j == t.get(r) ? 1 : 0), ACL_FLOAT, "CrossEntropyGrad");
    }
    expectNear(loss.get(r), l, ACL_FLOAT, "loss");
  }
  // SoftmaxGrad: y = softmax(f); dx = y (dy - <dy, y>).
  HostTensorBuf y(ACL_FLOAT, {n, c});
  for (int64_t r = 0; r < n; ++r) {
    const std::vector<double> lp = logSoftmax(f, r, c);
    for (int64_t j = 0; j < c; ++j) y.set(r * c + j, std::exp(lp[static_cast<size_t>(j)]));
  }
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnSoftmaxGradGetWorkspaceSize(y.get(), dy.get(), dx.get(), ws, ex);
            }),
            0);
  for (int64_t r = 0; r < n; ++r) {
    double dot = 0;
    for (int64_t j = 0; j < c; ++j) dot += y.get(r * c + j) * dy.get(r * c + j);
    for (int64_t j = 0; j < c; ++j) {
      expectNear(dx.get(r * c + j), y.get(r * c + j) * (dy.get(r * c + j) - dot), ACL_FLOAT, "SoftmaxGrad");
    }
  }
}

TEST(ClassLosses, ErrorCodesAndBytes) {
  HostTensorBuf x(ACL_FLOAT, {4, 3}), w(ACL_FLOAT, {3}), t(ACL_INT64, {4}), out(ACL_FLOAT, {4}),
      tw(ACL_FLOAT, {1}), tf(ACL_FLOAT, {4}), w4(ACL_FLOAT, {4}), x3(ACL_FLOAT, {2, 2, 3});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnNLLLossGetWorkspaceSize(nullptr, t.get(), w.get(), 0, -100, out.get(), tw.get(), &ws, &ex),
            kParamNull);
  EXPECT_EQ(aclnnNLLLossGetWorkspaceSize(x.get(), tf.get(), w.get(), 0, -100, out.get(), tw.get(), &ws, &ex),
            kParamInvalid);  // a float target
  EXPECT_EQ(aclnnNLLLossGetWorkspaceSize(x.get(), t.get(), w4.get(), 0, -100, out.get(), tw.get(), &ws, &ex),
            kParamInvalid);  // weight not [C]
  EXPECT_EQ(aclnnNLLLossGetWorkspaceSize(x3.get(), t.get(), w.get(), 0, -100, out.get(), tw.get(), &ws, &ex),
            kParamInvalid);  // 3-D self is the 2d form's business
  EXPECT_EQ(aclnnNLLLossGetWorkspaceSize(x.get(), t.get(), w.get(), 5, -100, out.get(), tw.get(), &ws, &ex),
            kParamInvalid);
  char bad[] = "avg";
  HostTensorBuf one(ACL_FLOAT, {1}), lp(ACL_FLOAT, {4, 3});
  EXPECT_EQ(aclnnCrossEntropyLossGetWorkspaceSize(x.get(), t.get(), nullptr, bad, -100, 0, 0, false,
                                                  one.get(), lp.get(), nullptr, nullptr, &ws, &ex),
            kParamInvalid);
  EXPECT_EQ(aclnnCrossEntropyLossGetWorkspaceSize(x.get(), t.get(), nullptr, nullptr, -100, 1.5, 0, false,
                                                  one.get(), lp.get(), nullptr, nullptr, &ws, &ex),
            kParamInvalid);  // labelSmoothing outside [0, 1]
  EXPECT_EQ(aclnnSoftmaxGradGetWorkspaceSize(x.get(), w4.get(), lp.get(), &ws, &ex), kParamInvalid);
  // NLLLoss gathers one self element per target, reads target and weight; writes out and
  // totalWeight.
  ASSERT_EQ(aclnnNLLLossGetWorkspaceSize(x.get(), t.get(), w.get(), 0, -100, out.get(), tw.get(), &ws, &ex),
            0);
  Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, 4u * 4 + 4 * 8 + 3 * 4);
  EXPECT_EQ(c.written, 4u * 4 + 4);
  // Its gradient writes all of out (zeros and the scattered values) and does not read self.
  HostTensorBuf g(ACL_FLOAT, {4}), gx(ACL_FLOAT, {4, 3});
  ASSERT_EQ(aclnnNLLLossBackwardGetWorkspaceSize(g.get(), x.get(), t.get(), w.get(), 0, -100, tw.get(),
                                                 gx.get(), &ws, &ex),
            0);
  c = chargedBytes(ex);
  EXPECT_EQ(c.read, 4u * 4 + 4 * 8 + 3 * 4 + 4);
  EXPECT_EQ(c.written, 12u * 4);
}

}  // namespace

namespace {

TEST(ClassLosses, MultilabelMarginLoss) {
  // Rows list their classes up to the first -1; the loss sums max(0, 1 - (x[j] - x[i])) over
  // target j and non-target i, divided by C.
  HostTensorBuf x(ACL_FLOAT, {2, 4}), t(ACL_INT64, {2, 4}), none(ACL_FLOAT, {2}), one(ACL_FLOAT, {}),
      isT(ACL_FLOAT, {2, 4});
  const double xs[] = {0.1, 0.9, -0.4, 0.3, 1.5, -1, 0.2, 0.7};
  const int64_t ts[] = {3, 0, -1, 1, 2, -1, 0, 0};  // row 0: {3, 0}; row 1: {2} (the 0 after -1 ignored)
  for (int i = 0; i < 8; ++i) {
    x.set(i, xs[i]);
    t.set(i, static_cast<double>(ts[i]));
  }
  const std::vector<std::vector<int>> targets = {{3, 0}, {2}};
  double want[2] = {0, 0};
  for (int r = 0; r < 2; ++r) {
    for (int j : targets[static_cast<size_t>(r)]) {
      for (int i = 0; i < 4; ++i) {
        bool isTarget = false;
        for (int k : targets[static_cast<size_t>(r)]) isTarget = isTarget || k == i;
        if (!isTarget) want[r] += std::max(0.0, 1 - (xs[r * 4 + j] - xs[r * 4 + i]));
      }
    }
    want[r] /= 4;
  }
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnMultilabelMarginLossGetWorkspaceSize(x.get(), t.get(), 0, none.get(), isT.get(), ws,
                                                               ex);
            }),
            0);
  for (int r = 0; r < 2; ++r) expectNear(none.get(r), want[r], ACL_FLOAT, "none");
  const double marks[] = {1, 0, 0, 1, 0, 0, 1, 0};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(isT.get(i), marks[i]) << i;
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnMultilabelMarginLossGetWorkspaceSize(x.get(), t.get(), 1, one.get(), isT.get(), ws,
                                                               ex);
            }),
            0);
  expectNear(one.get(0), (want[0] + want[1]) / 2, ACL_FLOAT, "mean");
}

TEST(ClassLosses, FusedCrossEntropyLossWithMaxSum) {
  // From a row's max m, sum of exp(v - m) s and the target's shifted logit p: loss = log s - p,
  // softmax = exp(v - m) / s; checked against a log-softmax of v computed in the test.
  HostTensorBuf v(ACL_FLOAT, {2, 3}), mx(ACL_FLOAT, {2}), se(ACL_FLOAT, {2}), pred(ACL_FLOAT, {2}),
      loss(ACL_FLOAT, {2}), sm(ACL_FLOAT, {2, 3});
  const double vs[] = {0.5, 2, -1, 3, 1, 0.25};
  const int tgt[] = {0, 2};
  for (int i = 0; i < 6; ++i) v.set(i, vs[i]);
  for (int r = 0; r < 2; ++r) {
    const double m = std::max({vs[r * 3], vs[r * 3 + 1], vs[r * 3 + 2]});
    double s = 0;
    for (int j = 0; j < 3; ++j) s += std::exp(vs[r * 3 + j] - m);
    mx.set(r, m);
    se.set(r, s);
    pred.set(r, vs[r * 3 + tgt[r]] - m);
  }
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnFusedCrossEntropyLossWithMaxSumGetWorkspaceSize(
                  mx.get(), se.get(), pred.get(), 0, nullptr, nullptr, v.get(), loss.get(), sm.get(), ws, ex);
            }),
            0);
  for (int64_t r = 0; r < 2; ++r) {
    const std::vector<double> lp = logSoftmax(v, r, 3);
    expectNear(loss.get(r), -lp[static_cast<size_t>(tgt[r])], ACL_FLOAT, "loss");
    for (int64_t j = 0; j < 3; ++j)
      expectNear(sm.get(r * 3 + j), std::exp(lp[static_cast<size_t>(j)]), ACL_FLOAT, "softmax");
  }
}

}  // namespace

namespace {

TEST(ClassLosses, TransposedViews) {
  // NLLLoss on a [4, 3] self read through a transposed [3, 4] buffer equals it on a dense copy.
  std::mt19937 gen(9);
  HostTensorBuf xt(ACL_FLOAT, {4, 3}, {1, 4}, 0), xd(ACL_FLOAT, {4, 3}), w(ACL_FLOAT, {3}), t(ACL_INT32, {4}),
      a(ACL_FLOAT, {4}), b(ACL_FLOAT, {4}), tw(ACL_FLOAT, {1});
  xt.fillRandom(gen, -2, 0);
  for (int i = 0; i < 12; ++i) xd.set(i, xt.get(i));
  w.fillRandom(gen, 0.5, 1.5);
  for (int i = 0; i < 4; ++i) t.set(i, (i * 2) % 3);
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnNLLLossGetWorkspaceSize(xt.get(), t.get(), w.get(), 0, -100, a.get(), tw.get(), ws,
                                                  ex);
            }),
            0);
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnNLLLossGetWorkspaceSize(xd.get(), t.get(), w.get(), 0, -100, b.get(), tw.get(), ws,
                                                  ex);
            }),
            0);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(a.get(i), b.get(i)) << i;
    EXPECT_FLOAT_EQ(a.get(i), -w.get((i * 2) % 3) * xt.get(i * 3 + (i * 2) % 3)) << i;
  }
}

}  // namespace

// Pointwise losses and their gradients (runtime/aclnn/ops/losses.cpp on loss_op.h): each loss
// against its definition written in the test (in another form where there is one), under the
// three reductions, in fp32/fp16/bf16, on broadcast operands and transposed views; each gradient
// against gradOutput times the central difference of the loss written in the test; the weights,
// the operators with string reductions, GaussianNll's var forms and gradVar's reduction; empty
// tensors; the error codes; the bytes charged.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_binary_cross_entropy.h"
#include "aclnnop/aclnn_binary_cross_entropy_backward.h"
#include "aclnnop/aclnn_binary_cross_entropy_grad_v2.h"
#include "aclnnop/aclnn_binary_cross_entropy_v2.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "aclnnop/aclnn_gaussian_nll_loss.h"
#include "aclnnop/aclnn_gaussian_nll_loss_grad.h"
#include "aclnnop/aclnn_hinge_embedding_loss.h"
#include "aclnnop/aclnn_hinge_loss.h"
#include "aclnnop/aclnn_hinge_loss_grad.h"
#include "aclnnop/aclnn_huber_loss.h"
#include "aclnnop/aclnn_huber_loss_grad.h"
#include "aclnnop/aclnn_kl_div_backward.h"
#include "aclnnop/aclnn_kl_div_target_backward.h"
#include "aclnnop/aclnn_l1_loss.h"
#include "aclnnop/aclnn_l1_loss_backward.h"
#include "aclnnop/aclnn_l2_loss.h"
#include "aclnnop/aclnn_logit.h"
#include "aclnnop/aclnn_logit_grad.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "aclnnop/aclnn_mse_loss_grad.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "aclnnop/aclnn_soft_margin_loss.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

using Forward = std::function<int(const aclTensor* x, const aclTensor* y, int64_t red, aclTensor* out,
                                  uint64_t*, aclOpExecutor**)>;
using Backward = std::function<int(const aclTensor* g, const aclTensor* x, const aclTensor* y, int64_t red,
                                   aclTensor* out, uint64_t*, aclOpExecutor**)>;

struct Loss {
  std::string name;
  Forward forward;
  Backward backward;
  std::function<double(double x, double y)> ref;  // the element loss
  double xLo, xHi, yLo, yHi;                      // input ranges
};

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

std::vector<Loss> losses() {
  return {
      {"Mse", aclnnMseLossGetWorkspaceSize, aclnnMseLossBackwardGetWorkspaceSize,
       [](double x, double y) { return std::pow(x - y, 2); }, -2, 2, -2, 2},
      {"L1", aclnnL1LossGetWorkspaceSize, aclnnL1LossBackwardGetWorkspaceSize,
       [](double x, double y) { return std::max(x - y, y - x); }, -2, 2, -2, 2},
      {"SmoothL1",
       [](auto x, auto y, auto r, auto o, auto w, auto e) {
         return aclnnSmoothL1LossGetWorkspaceSize(x, y, r, 0.7f, o, w, e);
       },
       [](auto g, auto x, auto y, auto r, auto o, auto w, auto e) {
         return aclnnSmoothL1LossBackwardGetWorkspaceSize(g, x, y, r, 0.7f, o, w, e);
       },
       [](double x, double y) {  // Huber with delta = beta, divided by beta
         const double b = static_cast<double>(0.7f), d = std::fabs(x - y);
         return (d <= b ? 0.5 * d * d : b * (d - 0.5 * b)) / b;
       },
       -2, 2, -2, 2},
      {"SoftMargin", aclnnSoftMarginLossGetWorkspaceSize, aclnnSoftMarginLossBackwardGetWorkspaceSize,
       [](double x, double y) { return std::log(1 + std::exp(-x * y)); }, -3, 3, -1.5, 1.5},
      {"BinaryCrossEntropy",
       [](auto x, auto y, auto r, auto o, auto w, auto e) {
         return aclnnBinaryCrossEntropyGetWorkspaceSize(x, y, nullptr, r, o, w, e);
       },
       [](auto g, auto x, auto y, auto r, auto o, auto w, auto e) {
         return aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(g, x, y, nullptr, r, o, w, e);
       },
       [](double x, double y) { return -(y * std::log(x) + (1 - y) * std::log1p(-x)); }, 0.05, 0.95, 0, 1},
      {"BinaryCrossEntropyWithLogits",
       [](auto x, auto y, auto r, auto o, auto w, auto e) {
         return aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(x, y, nullptr, nullptr, r, o, w, e);
       },
       [](auto g, auto x, auto y, auto r, auto o, auto w, auto e) {
         return aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(g, x, y, nullptr, nullptr, r, o, w,
                                                                          e);
       },
       [](double x, double y) { return -(y * std::log(sigmoid(x)) + (1 - y) * std::log(1 - sigmoid(x))); },
       -4, 4, 0, 1},
  };
}

// Runs a phase 1 given as (ws, ex) and its kernel on host memory; returns phase 1's status.
template <typename F>
int runOp(const F& f) {
  return run([&](uint64_t* ws, aclOpExecutor** ex) { return f(ws, ex); });
}

TEST(Losses, ForwardMatchesDefinitionUnderEachReduction) {
  std::mt19937 gen(7);
  for (const Loss& l : losses()) {
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      // self [3,4] read through a transposed view of a [4,3] buffer; target [4] broadcast along rows.
      HostTensorBuf x(dt, {3, 4}, {1, 3}, 0), y(dt, {4});
      x.fillRandom(gen, l.xLo, l.xHi);
      y.fillRandom(gen, l.yLo, l.yHi);
      double sum = 0;
      std::vector<double> want(12);
      for (int64_t i = 0; i < 12; ++i) sum += want[static_cast<size_t>(i)] = l.ref(x.get(i), y.get(i % 4));
      HostTensorBuf none(dt, {3, 4}), mean(dt, {}), total(dt, {1});
      ASSERT_EQ(runOp([&](auto ws, auto ex) { return l.forward(x.get(), y.get(), 0, none.get(), ws, ex); }),
                0)
          << l.name;
      ASSERT_EQ(runOp([&](auto ws, auto ex) { return l.forward(x.get(), y.get(), 1, mean.get(), ws, ex); }),
                0);
      ASSERT_EQ(runOp([&](auto ws, auto ex) { return l.forward(x.get(), y.get(), 2, total.get(), ws, ex); }),
                0);
      for (int64_t i = 0; i < 12; ++i) expectNear(none.get(i), want[static_cast<size_t>(i)], dt, l.name);
      expectNear(mean.get(0), sum / 12, dt, l.name + " mean");
      expectNear(total.get(0), sum, dt, l.name + " sum");
    }
  }
}

TEST(Losses, GradientsMatchCentralDifferences) {
  std::mt19937 gen(11);
  const double h = 1e-6;
  for (const Loss& l : losses()) {
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      for (int64_t red : {0, 1, 2}) {
        HostTensorBuf x(dt, {2, 5}), y(dt, {2, 5}), out(dt, {2, 5});
        x.fillRandom(gen, l.xLo, l.xHi);
        y.fillRandom(gen, l.yLo, l.yHi);
        // gradOutput: per element under none, one element otherwise (broadcast).
        HostTensorBuf g(dt, red == 0 ? std::vector<int64_t>{2, 5} : std::vector<int64_t>{});
        g.fillRandom(gen, -1.5, 1.5);
        ASSERT_EQ(runOp([&](auto ws, auto ex) {
                    return l.backward(g.get(), x.get(), y.get(), red, out.get(), ws, ex);
                  }),
                  0)
            << l.name;
        for (int64_t i = 0; i < 10; ++i) {
          const double xi = x.get(i), yi = y.get(i);
          if (l.name == "L1" && std::fabs(xi - yi) < 1e-3) continue;  // the kink
          const double d = (l.ref(xi + h, yi) - l.ref(xi - h, yi)) / (2 * h);
          const double want = d * g.get(red == 0 ? i : 0) / (red == 1 ? 10.0 : 1.0);
          EXPECT_NEAR(out.get(i), want, 4 * tol(dt) * std::max(1.0, std::fabs(want)))
              << l.name << " reduction " << red << " element " << i;
        }
      }
    }
  }
}

TEST(Losses, WeightsBroadcastOverRows) {
  std::mt19937 gen(3);
  HostTensorBuf x(ACL_FLOAT, {3, 4}), y(ACL_FLOAT, {3, 4}), w(ACL_FLOAT, {4}), pw(ACL_FLOAT, {1, 4}),
      out(ACL_FLOAT, {3, 4}), outL(ACL_FLOAT, {3, 4}), g(ACL_FLOAT, {});
  x.fillRandom(gen, 0.1, 0.9);
  y.fillRandom(gen, 0, 1);
  w.fillRandom(gen, 0.5, 2);
  pw.fillRandom(gen, 0.5, 3);
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnBinaryCrossEntropyGetWorkspaceSize(x.get(), y.get(), w.get(), 0, out.get(), ws, ex);
            }),
            0);
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(x.get(), y.get(), w.get(), pw.get(), 0,
                                                                       outL.get(), ws, ex);
            }),
            0);
  for (int64_t i = 0; i < 12; ++i) {
    const double xi = x.get(i), yi = y.get(i), wi = w.get(i % 4), pi = pw.get(i % 4);
    expectNear(out.get(i), -wi * (yi * std::log(xi) + (1 - yi) * std::log(1 - xi)), ACL_FLOAT, "BCE weight");
    const double s = sigmoid(xi);
    expectNear(outL.get(i), -wi * (pi * yi * std::log(s) + (1 - yi) * std::log(1 - s)), ACL_FLOAT,
               "BCE with logits weight, posWeight");
  }
  // The gradient with both weights: the central difference of the weighted loss.
  g.set(0, 0.75);
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(
                  g.get(), x.get(), y.get(), w.get(), pw.get(), 2, out.get(), ws, ex);
            }),
            0);
  for (int64_t i = 0; i < 12; ++i) {
    const double yi = y.get(i), wi = w.get(i % 4), pi = pw.get(i % 4);
    auto f = [&](double v) {
      return -wi * (pi * yi * std::log(sigmoid(v)) + (1 - yi) * std::log(1 - sigmoid(v)));
    };
    const double xi = x.get(i), h = 1e-6;
    expectNear(out.get(i), 0.75 * (f(xi + h) - f(xi - h)) / (2 * h), ACL_FLOAT, "BCE with logits backward");
  }
}

TEST(Losses, BinaryCrossEntropyClampsLogAtMinus100) {
  HostTensorBuf x(ACL_FLOAT, {2}), y(ACL_FLOAT, {2}), out(ACL_FLOAT, {2});
  x.set(0, 0);
  x.set(1, 1);
  y.set(0, 1);
  y.set(1, 0);
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnBinaryCrossEntropyGetWorkspaceSize(x.get(), y.get(), nullptr, 0, out.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(out.get(0), 100);
  EXPECT_EQ(out.get(1), 100);
}

TEST(Losses, ElementwiseOperatorsWithoutReduction) {
  std::mt19937 gen(5);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf p(dt, {4, 6}), t(dt, {4, 6}), g(dt, {4, 6}), o(dt, {4, 6});
    p.fillRandom(gen, -3, 3);
    t.fillRandom(gen, -3, 3);
    g.fillRandom(gen, -1, 1);
    // Huber, delta 1.5: the smooth-L1 form times delta.
    ASSERT_EQ(runOp([&](auto ws, auto ex) {
                return aclnnHuberLossGetWorkspaceSize(p.get(), t.get(), 1.5, o.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < 24; ++i) {
      const double d = std::fabs(p.get(i) - t.get(i));
      expectNear(o.get(i), 1.5 * (d < 1.5 ? 0.5 * d * d / 1.5 : d - 0.75), dt, "HuberLoss");
    }
    ASSERT_EQ(runOp([&](auto ws, auto ex) {
                return aclnnHuberLossGradGetWorkspaceSize(p.get(), t.get(), 1.5, o.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < 24; ++i) {
      const double d = p.get(i) - t.get(i);
      expectNear(o.get(i), std::fabs(d) <= 1.5 ? d : (d > 0 ? 1.5 : -1.5), dt, "HuberLossGrad");
    }
    // Hinge with labels of +-1.
    for (int64_t i = 0; i < 24; ++i) t.set(i, i % 3 == 0 ? -1 : 1);
    ASSERT_EQ(runOp([&](auto ws, auto ex) {
                return aclnnHingeLossGetWorkspaceSize(p.get(), t.get(), o.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < 24; ++i) {
      const double m = 1 - t.get(i) * p.get(i);
      expectNear(o.get(i), m > 0 ? m : 0, dt, "HingeLoss");
    }
    ASSERT_EQ(runOp([&](auto ws, auto ex) {
                return aclnnHingeLossGradGetWorkspaceSize(p.get(), t.get(), g.get(), o.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < 24; ++i) {
      const double m = 1 - t.get(i) * p.get(i);
      expectNear(o.get(i), m > 0 ? -t.get(i) * g.get(i) : 0, dt, "HingeLossGrad");
    }
  }
}

TEST(Losses, StringReductionsAndHingeEmbedding) {
  HostTensorBuf x(ACL_FLOAT, {2, 3}), y(ACL_FLOAT, {2, 3}), none(ACL_FLOAT, {2, 3}), one(ACL_FLOAT, {1});
  const double xs[] = {0.3, 1.7, -0.4, 2.5, 0.9, 0.1}, ys[] = {1, -1, -1, 1, -1, -1};
  double sum = 0;
  for (int i = 0; i < 6; ++i) {
    x.set(i, xs[i]);
    y.set(i, ys[i]);
    sum += ys[i] == 1 ? xs[i] : std::max(0.0, 1.2 - xs[i]);
  }
  char rNone[] = "none", rMean[] = "mean", rSum[] = "sum", rBad[] = "avg";
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnHingeEmbeddingLossGetWorkspaceSize(x.get(), y.get(), 1.2, rNone, none.get(), ws,
                                                             ex);
            }),
            0);
  for (int i = 0; i < 6; ++i) {
    expectNear(none.get(i), ys[i] == 1 ? xs[i] : std::max(0.0, 1.2 - xs[i]), ACL_FLOAT, "none");
  }
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnHingeEmbeddingLossGetWorkspaceSize(x.get(), y.get(), 1.2, rMean, one.get(), ws, ex);
            }),
            0);
  expectNear(one.get(0), sum / 6, ACL_FLOAT, "mean");
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnHingeEmbeddingLossGetWorkspaceSize(x.get(), y.get(), 1.2, rSum, one.get(), ws, ex);
            }),
            0);
  expectNear(one.get(0), sum, ACL_FLOAT, "sum");
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnHingeEmbeddingLossGetWorkspaceSize(x.get(), y.get(), 1.2, rBad, one.get(), &ws, &ex),
            kParamInvalid);
  EXPECT_EQ(aclnnHingeEmbeddingLossGetWorkspaceSize(x.get(), y.get(), 1.2, nullptr, one.get(), &ws, &ex),
            kParamNull);
  // MseLossGrad (string reduction): 2 (predict - label) dout / N under mean.
  HostTensorBuf d(ACL_FLOAT, {2, 3});
  for (int i = 0; i < 6; ++i) d.set(i, 0.5 + i);
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnMseLossGradGetWorkspaceSize(x.get(), y.get(), d.get(), rMean, none.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i)
    expectNear(none.get(i), 2 * (xs[i] - ys[i]) * (0.5 + i) / 6, ACL_FLOAT, "MseLossGrad");
}

double gaussianNll(double x, double t, double v, bool full) {
  v = std::max(v, 1e-6);
  return 0.5 * (std::log(v) + (x - t) * (x - t) / v) + (full ? 0.5 * std::log(2 * M_PI) : 0);
}

TEST(Losses, GaussianNllVarFormsAndGradVarReduced) {
  std::mt19937 gen(9);
  HostTensorBuf x(ACL_FLOAT, {2, 3}), t(ACL_FLOAT, {2, 1}), var(ACL_FLOAT, {2}), one(ACL_FLOAT, {1});
  x.fillRandom(gen, -2, 2);
  t.fillRandom(gen, -2, 2);
  var.fillRandom(gen, 0.2, 2);
  char rSum[] = "sum", rMean[] = "mean";
  // var without the last dimension stands for var[:, None]; target broadcasts along dim 1.
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnGaussianNllLossGetWorkspaceSize(x.get(), t.get(), var.get(), true, 1e-6, rSum,
                                                          one.get(), ws, ex);
            }),
            0);
  double sum = 0;
  for (int i = 0; i < 6; ++i) sum += gaussianNll(x.get(i), t.get(i / 3), var.get(i / 3), true);
  expectNear(one.get(0), sum, ACL_FLOAT, "GaussianNllLoss");
  // The gradient: gradVar [2, 1] sums its row's three contributions; mean divides by 6.
  HostTensorBuf g(ACL_FLOAT, {}), v21(ACL_FLOAT, {2, 1}), gx(ACL_FLOAT, {2, 3}), gv(ACL_FLOAT, {2, 1});
  g.set(0, 1.5);
  v21.set(0, var.get(0));
  v21.set(1, var.get(1));
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnGaussianNllLossGradGetWorkspaceSize(g.get(), x.get(), t.get(), v21.get(), false,
                                                              1e-6, rMean, gx.get(), gv.get(), ws, ex);
            }),
            0);
  const double h = 1e-6;
  for (int r = 0; r < 2; ++r) {
    double dv = 0;
    for (int c = 0; c < 3; ++c) {
      const int i = r * 3 + c;
      const double xi = x.get(i), ti = t.get(r), vi = var.get(r);
      const double dx = (gaussianNll(xi + h, ti, vi, false) - gaussianNll(xi - h, ti, vi, false)) / (2 * h);
      expectNear(gx.get(i), 1.5 * dx / 6, ACL_FLOAT, "gradInput");
      dv += (gaussianNll(xi, ti, vi + h, false) - gaussianNll(xi, ti, vi - h, false)) / (2 * h);
    }
    EXPECT_NEAR(gv.get(r), 1.5 * dv / 6, 1e-5) << "gradVar row " << r;
  }
}

TEST(Losses, SmallOperators) {
  // L2Loss: sum(x^2) / 2 into [1].
  HostTensorBuf x(ACL_FLOAT, {2, 8}), y(ACL_FLOAT, {1});
  double ss = 0;
  for (int i = 0; i < 16; ++i) {
    x.set(i, 0.25 * i - 2);
    ss += (0.25 * i - 2) * (0.25 * i - 2);
  }
  ASSERT_EQ(runOp([&](auto ws, auto ex) { return aclnnL2LossGetWorkspaceSize(x.get(), y.get(), ws, ex); }),
            0);
  expectNear(y.get(0), ss / 2, ACL_FLOAT, "L2Loss");
  // Logit clamps into [eps, 1 - eps]; its gradient is 0 outside that range.
  HostTensorBuf p(ACL_FLOAT, {4}), o(ACL_FLOAT, {4}), dy(ACL_FLOAT, {4});
  const double ps[] = {0.01, 0.3, 0.6, 0.99};
  for (int i = 0; i < 4; ++i) {
    p.set(i, ps[i]);
    dy.set(i, 2);
  }
  ASSERT_EQ(
      runOp([&](auto ws, auto ex) { return aclnnLogitGetWorkspaceSize(p.get(), 0.1, o.get(), ws, ex); }), 0);
  const double want[] = {-std::log(9.0), std::log(0.3 / 0.7), std::log(1.5), std::log(9.0)};
  for (int i = 0; i < 4; ++i) expectNear(o.get(i), want[i], ACL_FLOAT, "Logit");
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnLogitGradGetWorkspaceSize(p.get(), dy.get(), 0.1, o.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(o.get(0), 0);
  expectNear(o.get(1), 2 / (0.3 * 0.7), ACL_FLOAT, "LogitGrad");
  EXPECT_EQ(o.get(3), 0);
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnLogitGradGetWorkspaceSize(p.get(), dy.get(), -1, o.get(), ws, ex);
            }),
            0);
  expectNear(o.get(0), 2 / (0.01 * 0.99), ACL_FLOAT, "LogitGrad without eps");
  // BinaryCrossEntropyV2 and GradV2 (z = weight grad (logits - labels)).
  HostTensorBuf a(ACL_FLOAT, {3}), b(ACL_FLOAT, {3}), w(ACL_FLOAT, {3}), z(ACL_FLOAT, {3}), g(ACL_FLOAT, {3});
  for (int i = 0; i < 3; ++i) {
    a.set(i, 0.2 + 0.3 * i);
    b.set(i, 0.5);
    w.set(i, i + 1);
    g.set(i, 0.1);
  }
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnBinaryCrossEntropyV2GetWorkspaceSize(a.get(), b.get(), z.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 3; ++i) {
    const double ai = a.get(i);
    expectNear(z.get(i), -0.5 * (std::log(ai) + std::log(1 - ai)), ACL_FLOAT, "BinaryCrossEntropyV2");
  }
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnBinaryCrossEntropyGradV2GetWorkspaceSize(g.get(), a.get(), b.get(), w.get(), 0,
                                                                   z.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 3; ++i) expectNear(z.get(i), (i + 1) * 0.1 * (a.get(i) - 0.5), ACL_FLOAT, "GradV2");
  // KlDiv gradients, reduction batchmean (3) divides by the first dimension.
  HostTensorBuf s(ACL_FLOAT, {2, 2}), t(ACL_FLOAT, {2, 2}), go(ACL_FLOAT, {}), out(ACL_FLOAT, {2, 2});
  go.set(0, 1);
  for (int i = 0; i < 4; ++i) {
    s.set(i, -0.5 * i);
    t.set(i, 0.2 * (i + 1));
  }
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnKlDivBackwardGetWorkspaceSize(go.get(), s.get(), t.get(), 3, false, out.get(), ws,
                                                        ex);
            }),
            0);
  for (int i = 0; i < 4; ++i)
    expectNear(out.get(i), -0.2 * (i + 1) / 2, ACL_FLOAT, "KlDivBackward batchmean");
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnKlDivTargetBackwardGetWorkspaceSize(go.get(), s.get(), t.get(), 2, true, out.get(),
                                                              ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i) {
    const double ti = t.get(i), si = s.get(i);
    expectNear(out.get(i), std::exp(ti) * (ti - si + 1), ACL_FLOAT, "KlDivTargetBackward logTarget");
  }
}

TEST(Losses, EmptyTensors) {
  HostTensorBuf x(ACL_FLOAT, {0, 3}), y(ACL_FLOAT, {0, 3}), none(ACL_FLOAT, {0, 3}), one(ACL_FLOAT, {});
  EXPECT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnMseLossGetWorkspaceSize(x.get(), y.get(), 0, none.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnMseLossGetWorkspaceSize(x.get(), y.get(), 1, one.get(), ws, ex);
            }),
            0);
  EXPECT_TRUE(std::isnan(one.get(0)));
  EXPECT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnMseLossGetWorkspaceSize(x.get(), y.get(), 2, one.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(one.get(0), 0);
}

TEST(Losses, ErrorCodes) {
  HostTensorBuf x(ACL_FLOAT, {2, 3}), y(ACL_FLOAT, {2, 3}), out(ACL_FLOAT, {2, 3}), one(ACL_FLOAT, {}),
      bad(ACL_FLOAT, {3, 2}), xi(ACL_INT32, {2, 3}), y4(ACL_FLOAT, {4});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnMseLossGetWorkspaceSize(nullptr, y.get(), 0, out.get(), &ws, &ex), kParamNull);
  EXPECT_EQ(aclnnMseLossGetWorkspaceSize(x.get(), y.get(), 0, nullptr, &ws, &ex), kParamNull);
  EXPECT_EQ(aclnnMseLossGetWorkspaceSize(x.get(), y.get(), 3, out.get(), &ws, &ex), kParamInvalid);
  EXPECT_EQ(aclnnMseLossGetWorkspaceSize(x.get(), y.get(), 0, bad.get(), &ws, &ex), kParamInvalid);
  EXPECT_EQ(aclnnMseLossGetWorkspaceSize(x.get(), y.get(), 1, out.get(), &ws, &ex),
            kParamInvalid);  // not one element
  EXPECT_EQ(aclnnMseLossGetWorkspaceSize(xi.get(), y.get(), 0, out.get(), &ws, &ex), kParamInvalid);
  EXPECT_EQ(aclnnMseLossGetWorkspaceSize(x.get(), y4.get(), 0, out.get(), &ws, &ex), kParamInvalid);
  EXPECT_EQ(aclnnL1LossBackwardGetWorkspaceSize(one.get(), x.get(), y.get(), -1, out.get(), &ws, &ex),
            kParamInvalid);
  EXPECT_EQ(aclnnSmoothL1LossGetWorkspaceSize(x.get(), y.get(), 0, -1.0f, out.get(), &ws, &ex),
            kParamInvalid);
  EXPECT_EQ(aclnnHuberLossGetWorkspaceSize(x.get(), y.get(), 0.0, out.get(), &ws, &ex), kParamInvalid);
  HostTensorBuf row(ACL_FLOAT, {3});  // HingeLoss and Huber take no broadcast
  EXPECT_EQ(aclnnHingeLossGetWorkspaceSize(x.get(), row.get(), out.get(), &ws, &ex), kParamInvalid);
  char mean[] = "mean";
  EXPECT_EQ(
      aclnnGaussianNllLossGetWorkspaceSize(x.get(), y.get(), y.get(), false, 0.0, mean, one.get(), &ws, &ex),
      kParamInvalid);
  EXPECT_EQ(aclnnBinaryCrossEntropyGetWorkspaceSize(x.get(), y.get(), y4.get(), 0, out.get(), &ws, &ex),
            kParamInvalid);
}

TEST(Losses, BytesCharged) {
  // MseLoss with mean on fp16 [64, 1024]: both operands read once, one element written.
  HostTensorBuf x(ACL_FLOAT16, {64, 1024}), y(ACL_FLOAT16, {64, 1024}), one(ACL_FLOAT16, {}),
      g(ACL_FLOAT16, {}), gx(ACL_FLOAT16, {64, 1024}), var(ACL_FLOAT16, {64}), gv(ACL_FLOAT16, {64});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnMseLossGetWorkspaceSize(x.get(), y.get(), 1, one.get(), &ws, &ex), 0);
  Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, 2u * 64 * 1024 * 2);
  EXPECT_EQ(c.written, 2u);
  // The gradient: gradOutput's one element, self and target read; gradInput written.
  ASSERT_EQ(aclnnMseLossBackwardGetWorkspaceSize(g.get(), x.get(), y.get(), 1, gx.get(), &ws, &ex), 0);
  c = chargedBytes(ex);
  EXPECT_EQ(c.read, 2u + 2u * 64 * 1024 * 2);
  EXPECT_EQ(c.written, 64u * 1024 * 2);
  // Two outs: gradVar's bytes are written too.
  char none[] = "none";
  ASSERT_EQ(aclnnGaussianNllLossGradGetWorkspaceSize(gx.get(), x.get(), y.get(), var.get(), false, 1e-6, none,
                                                     gx.get(), gv.get(), &ws, &ex),
            0);
  c = chargedBytes(ex);
  EXPECT_EQ(c.written, 64u * 1024 * 2 + 64 * 2);
}

}  // namespace

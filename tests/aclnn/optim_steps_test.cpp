// The optimiser steps of experimental/optim (runtime/aclnn/ops/optim_steps.cpp on optim_op.h):
// each result against its formula evaluated here in fp64 (AdamW written as PyTorch's algorithm:
// bias corrections from step counts, weight decay applied to the parameter first), in place and
// into separate outputs, one-element hyper-parameter tensors broadcast, fp32/fp16/bf16, the
// error codes and the bytes charged.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_adam_apply_one.h"
#include "aclnnop/aclnn_apply_adagrad_d.h"
#include "aclnnop/aclnn_apply_adam_d.h"
#include "aclnnop/aclnn_apply_adam_w.h"
#include "aclnnop/aclnn_apply_gradient_descent.h"
#include "aclnnop/aclnn_apply_proximal_gradient_descent.h"
#include "host_values.h"

using namespace aclnn_test;

namespace {

std::mt19937& rng() {
  static std::mt19937 g(7);
  return g;
}

// A one-element tensor holding v.
struct One {
  HostTensorBuf t;
  One(aclDataType dt, double v) : t(dt, {1}) { t.set(0, v); }
  aclTensor* get() { return t.get(); }
  double v() { return t.get(0); }
};

}  // namespace

// var -= alpha * delta, in place, on a transposed view.
TEST(OptimSteps, GradientDescentInPlace) {
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf var(dt, {4, 3}, {1, 4}, 0), delta(dt, {4, 3});
    var.fillRandom(rng(), -2, 2);
    delta.fillRandom(rng(), -1, 1);
    One alpha(dt, 0.25);
    const std::vector<double> before = values(var);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnApplyGradientDescentGetWorkspaceSize(var.get(), alpha.get(), delta.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t i = 0; i < var.numel(); ++i) {
      expectNear(var.get(i), var.stored(before[static_cast<size_t>(i)] - 0.25 * delta.get(i)), dt, "var");
    }
  }
}

// The proximal step shrinks toward 0 by alpha*l1 and scales by 1/(1 + alpha*l2); values inside
// the threshold become exactly 0.
TEST(OptimSteps, ProximalGradientDescent) {
  HostTensorBuf var(ACL_FLOAT, {8}), delta(ACL_FLOAT, {8}), out(ACL_FLOAT, {8});
  const std::vector<double> v = {0.5, -0.3, 0.012, -0.002, 0.0, 2.0, -2.0, 0.02};
  for (size_t i = 0; i < v.size(); ++i) {
    var.set(static_cast<int64_t>(i), v[i]);
    delta.set(static_cast<int64_t>(i), 0.1);
  }
  One alpha(ACL_FLOAT, 0.1), l1(ACL_FLOAT, 0.05), l2(ACL_FLOAT, 0.5);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnApplyProximalGradientDescentGetWorkspaceSize(
                  var.get(), alpha.get(), l1.get(), l2.get(), delta.get(), out.get(), ws, ex);
            }),
            0);
  for (int64_t i = 0; i < 8; ++i) {
    const double p = var.get(i) - alpha.v() * delta.get(i);
    const double mag = std::fabs(p) - alpha.v() * l1.v();
    const double want = mag <= 0 ? 0.0 : std::copysign(mag, p) / (1 + alpha.v() * l2.v());
    EXPECT_NEAR(out.get(i), want, 1e-6) << i;
  }
  EXPECT_EQ(out.get(2), 0.0);  // |0.012 - 0.01| is below alpha * l1 = 0.005
}

// accum += grad^2 then var -= lr * grad / sqrt(accum); without updateSlots accum is kept.
TEST(OptimSteps, AdagradUpdatesBothOrOnlyVar) {
  for (bool update : {true, false}) {
    HostTensorBuf var(ACL_FLOAT, {5}), accum(ACL_FLOAT, {5}), grad(ACL_FLOAT, {5});
    var.fillRandom(rng(), -1, 1);
    accum.fillRandom(rng(), 0.5, 2);
    grad.fillRandom(rng(), -1, 1);
    const std::vector<double> v0 = values(var), a0 = values(accum);
    One lr(ACL_FLOAT, 0.1);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnApplyAdagradDGetWorkspaceSize(var.get(), accum.get(), lr.get(), grad.get(),
                                                          update, false, ws, ex);
              }),
              0);
    for (int64_t i = 0; i < 5; ++i) {
      const double g = grad.get(i), a = a0[static_cast<size_t>(i)] + (update ? g * g : 0);
      EXPECT_NEAR(accum.get(i), a, 1e-6);
      EXPECT_NEAR(var.get(i), v0[static_cast<size_t>(i)] - lr.v() * g / std::sqrt(a), 1e-6);
    }
  }
}

// ApplyAdamD with and without Nesterov, into separate outputs.
TEST(OptimSteps, AdamD) {
  for (bool nesterov : {false, true}) {
    HostTensorBuf var(ACL_FLOAT, {6}), m(ACL_FLOAT, {6}), v(ACL_FLOAT, {6}), grad(ACL_FLOAT, {6});
    HostTensorBuf varOut(ACL_FLOAT, {6}), mOut(ACL_FLOAT, {6}), vOut(ACL_FLOAT, {6});
    var.fillRandom(rng(), -1, 1);
    m.fillRandom(rng(), -0.1, 0.1);
    v.fillRandom(rng(), 0, 0.01);
    grad.fillRandom(rng(), -1, 1);
    One b1p(ACL_FLOAT, 0.81), b2p(ACL_FLOAT, 0.998), lr(ACL_FLOAT, 0.01), b1(ACL_FLOAT, 0.9),
        b2(ACL_FLOAT, 0.999), eps(ACL_FLOAT, 1e-7);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnApplyAdamDGetWorkspaceSize(
                    var.get(), m.get(), v.get(), b1p.get(), b2p.get(), lr.get(), b1.get(), b2.get(),
                    eps.get(), grad.get(), false, nesterov, varOut.get(), mOut.get(), vOut.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < 6; ++i) {
      const double g = grad.get(i);
      const double mt = m.get(i) + (1 - b1.v()) * (g - m.get(i));
      const double vt = v.get(i) + (1 - b2.v()) * (g * g - v.get(i));
      const double step = lr.v() * std::sqrt(1 - b2p.v()) / (1 - b1p.v());
      const double dir = nesterov ? b1.v() * mt + (1 - b1.v()) * g : mt;
      EXPECT_NEAR(mOut.get(i), mt, 1e-6);
      EXPECT_NEAR(vOut.get(i), vt, 1e-7);
      EXPECT_NEAR(varOut.get(i), var.get(i) - step * dir / (std::sqrt(vt) + eps.v()), 1e-6) << nesterov;
    }
  }
}

// ApplyAdamW against PyTorch's AdamW at step t (betaPower = beta^(t-1)): decoupled decay, bias
// corrections, amsgrad's running maximum in the denominator, maximize negating the gradient.
TEST(OptimSteps, AdamWMatchesTorchAlgorithm) {
  for (bool amsgrad : {false, true}) {
    for (bool maximize : {false, true}) {
      HostTensorBuf var(ACL_FLOAT, {2, 3}), m(ACL_FLOAT, {2, 3}), v(ACL_FLOAT, {2, 3}),
          grad(ACL_FLOAT, {2, 3}), maxSq(ACL_FLOAT, {2, 3});
      var.fillRandom(rng(), -1, 1);
      m.fillRandom(rng(), -0.1, 0.1);
      v.fillRandom(rng(), 0, 0.01);
      grad.fillRandom(rng(), -1, 1);
      maxSq.fillRandom(rng(), 0, 0.02);
      const std::vector<double> p0 = values(var), m0 = values(m), v0 = values(v);
      const int t = 3;
      const double beta1 = 0.9, beta2 = 0.99, lrV = 0.01, wd = 0.1, epsV = 1e-6;
      One b1p(ACL_FLOAT, std::pow(beta1, t - 1)), b2p(ACL_FLOAT, std::pow(beta2, t - 1)), lr(ACL_FLOAT, lrV),
          decay(ACL_FLOAT, wd), b1(ACL_FLOAT, beta1), b2(ACL_FLOAT, beta2), eps(ACL_FLOAT, epsV);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnApplyAdamWGetWorkspaceSize(var.get(), m.get(), v.get(), b1p.get(), b2p.get(),
                                                         lr.get(), decay.get(), b1.get(), b2.get(), eps.get(),
                                                         grad.get(), maxSq.get(), amsgrad, maximize, ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      for (int64_t i = 0; i < 6; ++i) {
        const size_t k = static_cast<size_t>(i);
        const double g = maximize ? -grad.get(i) : grad.get(i);
        double p = p0[k] * (1 - static_cast<float>(lrV) * static_cast<float>(wd));
        const double mt = static_cast<float>(beta1) * m0[k] + (1 - static_cast<float>(beta1)) * g;
        const double vt = static_cast<float>(beta2) * v0[k] + (1 - static_cast<float>(beta2)) * g * g;
        const double bc1 = 1 - b1p.v() * static_cast<float>(beta1),
                     bc2 = 1 - b2p.v() * static_cast<float>(beta2);
        const double second = amsgrad ? std::max(maxSq.get(i), vt) : vt;
        p -= static_cast<float>(lrV) / bc1 * mt / (std::sqrt(second / bc2) + eps.v());
        EXPECT_NEAR(m.get(i), mt, 1e-6);
        EXPECT_NEAR(v.get(i), vt, 1e-7);
        EXPECT_NEAR(var.get(i), p, 2e-6) << "amsgrad " << amsgrad << " maximize " << maximize;
      }
    }
  }
}

// One-element hyper-parameters broadcast over full-shape ones (the example passes them full).
TEST(OptimSteps, AdamApplyOneBroadcastsOneElementInputs) {
  std::vector<std::unique_ptr<HostTensorBuf>> in;
  for (int k = 0; k < 5; ++k) {
    in.push_back(std::make_unique<HostTensorBuf>(ACL_FLOAT16, std::vector<int64_t>{3, 4}));
    in.back()->fillRandom(rng(), 0.1, 2);
  }
  One mul0(ACL_FLOAT16, 0.9), mul1(ACL_FLOAT16, 0.1), mul2(ACL_FLOAT16, 0.999), mul3(ACL_FLOAT16, 0.001),
      add2(ACL_FLOAT16, 1e-3);
  HostTensorBuf o0(ACL_FLOAT16, {3, 4}), o1(ACL_FLOAT16, {3, 4}), o2(ACL_FLOAT16, {3, 4});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAdamApplyOneGetWorkspaceSize(
                  in[0]->get(), in[1]->get(), in[2]->get(), in[3]->get(), in[4]->get(), mul0.get(),
                  mul1.get(), mul2.get(), mul3.get(), add2.get(), o0.get(), o1.get(), o2.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int64_t i = 0; i < 12; ++i) {
    const double g = in[0]->get(i), v = g * g * mul3.v() + in[1]->get(i) * mul2.v();
    const double mm = in[2]->get(i) * mul0.v() + g * mul1.v();
    expectNear(o0.get(i), o0.stored(v), ACL_FLOAT16, "output0");
    expectNear(o1.get(i), o1.stored(mm), ACL_FLOAT16, "output1");
    expectNear(o2.get(i), o2.stored(in[3]->get(i) - mm / (std::sqrt(v) + add2.v()) * in[4]->get(i)),
               ACL_FLOAT16, "output2");
  }
}

TEST(OptimSteps, BadArgumentsAreRefused) {
  HostTensorBuf var(ACL_FLOAT, {4}), delta(ACL_FLOAT, {4}), delta16(ACL_FLOAT16, {4}), delta3(ACL_FLOAT, {3}),
      ivar(ACL_INT32, {4});
  One alpha(ACL_FLOAT, 0.1), alpha2(ACL_FLOAT, 0.1);
  HostTensorBuf twoAlpha(ACL_FLOAT, {2});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnApplyGradientDescentGetWorkspaceSize(nullptr, alpha.get(), delta.get(), &ws, &ex), 161001);
  EXPECT_EQ(aclnnApplyGradientDescentGetWorkspaceSize(var.get(), alpha.get(), delta16.get(), &ws, &ex),
            161002);
  EXPECT_EQ(aclnnApplyGradientDescentGetWorkspaceSize(var.get(), alpha.get(), delta3.get(), &ws, &ex),
            161002);
  EXPECT_EQ(aclnnApplyGradientDescentGetWorkspaceSize(var.get(), twoAlpha.get(), delta.get(), &ws, &ex),
            161002);
  EXPECT_EQ(aclnnApplyGradientDescentGetWorkspaceSize(ivar.get(), alpha.get(), ivar.get(), &ws, &ex), 161002);
  // amsgrad needs maxGradNorm; without amsgrad it may be absent
  HostTensorBuf m(ACL_FLOAT, {4}), v(ACL_FLOAT, {4});
  EXPECT_EQ(aclnnApplyAdamWGetWorkspaceSize(var.get(), m.get(), v.get(), alpha.get(), alpha.get(),
                                            alpha.get(), alpha.get(), alpha.get(), alpha.get(), alpha.get(),
                                            delta.get(), nullptr, true, false, &ws, &ex),
            161001);
  ASSERT_EQ(aclnnApplyAdamWGetWorkspaceSize(var.get(), m.get(), v.get(), alpha.get(), alpha.get(),
                                            alpha.get(), alpha.get(), alpha.get(), alpha.get(), alpha.get(),
                                            delta.get(), nullptr, false, false, &ws, &ex),
            0);
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), 0);
}

// Every input and output streamed once: GradientDescent reads var, delta and alpha and writes var.
TEST(OptimSteps, ChargesEveryTensorOnce) {
  HostTensorBuf var(ACL_FLOAT16, {64, 64}), delta(ACL_FLOAT16, {64, 64});
  One alpha(ACL_FLOAT16, 0.1);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnApplyGradientDescentGetWorkspaceSize(var.get(), alpha.get(), delta.get(), &ws, &ex), 0);
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, 2u * 64 * 64 * 2 + 2);
  EXPECT_EQ(c.written, 2u * 64 * 64);
}

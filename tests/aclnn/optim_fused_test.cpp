// FusedSgd and FusedAdamw (runtime/aclnn/ops/optim_fused.cpp): lists of parameters of different
// shapes updated in one launch, against PyTorch's SGD (momentum, dampening, Nesterov, first
// step, gradient scale written back unscaled) and AdamW (per-tensor step counts, amsgrad, a
// found inf skipping the step), the list checks and the bytes of one launch.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_fused_adamw.h"
#include "aclnnop/aclnn_fused_sgd.h"
#include "host_values.h"

using namespace aclnn_test;

namespace {

// Tensors of shapes [2,3] and [5] with their list (the list holds handles of its own).
struct Pair {
  HostTensorBuf a{ACL_FLOAT, {2, 3}}, b{ACL_FLOAT, {5}};
  aclTensorList* list = nullptr;
  Pair(std::mt19937& g, double lo, double hi) {
    a.fillRandom(g, lo, hi);
    b.fillRandom(g, lo, hi);
    aclTensor* h[] = {listHandle(a), listHandle(b)};
    list = aclCreateTensorList(h, 2);
  }
  ~Pair() { aclDestroyTensorList(list); }
  HostTensorBuf& at(int i) { return i == 0 ? a : b; }
};

}  // namespace

TEST(OptimFused, SgdWithMomentumAndScale) {
  std::mt19937 g(11);
  for (bool first : {true, false}) {
    for (bool nesterov : {false, true}) {
      Pair p(g, -1, 1), gr(g, -1, 1), buf(g, -0.5, 0.5);
      HostTensorBuf scale(ACL_FLOAT, {1});
      scale.set(0, 4);
      std::vector<std::vector<double>> p0, g0, b0;
      for (int i = 0; i < 2; ++i) {
        p0.push_back(values(p.at(i)));
        g0.push_back(values(gr.at(i)));
        b0.push_back(values(buf.at(i)));
      }
      const float wd = 0.01f, mu = 0.9f, lr = 0.1f, damp = 0.2f;
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnFusedSgdGetWorkspaceSize(p.list, gr.list, buf.list, scale.get(), wd, mu, lr,
                                                       damp, nesterov, false, first, ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      for (int i = 0; i < 2; ++i) {
        for (int64_t e = 0; e < p.at(i).numel(); ++e) {
          const size_t k = static_cast<size_t>(e);
          const double unscaled = g0[static_cast<size_t>(i)][k] / 4;
          const double d = unscaled + wd * p0[static_cast<size_t>(i)][k];
          const double v = first ? d : mu * b0[static_cast<size_t>(i)][k] + (1 - damp) * d;
          const double step = nesterov ? d + mu * v : v;
          EXPECT_NEAR(p.at(i).get(e), p0[static_cast<size_t>(i)][k] - lr * step, 1e-6);
          EXPECT_NEAR(buf.at(i).get(e), v, 1e-6);
          EXPECT_NEAR(gr.at(i).get(e), unscaled, 1e-7);  // gradsRef holds the unscaled gradient
        }
      }
    }
  }
  // without buffers: plain SGD with weight decay
  Pair p(g, -1, 1), gr(g, -1, 1);
  const std::vector<double> q0 = values(p.a), h0 = values(gr.a);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFusedSgdGetWorkspaceSize(p.list, gr.list, nullptr, nullptr, 0.5f, 0.9f, 0.1f, 0,
                                                   false, true, false, ws, ex);
            }),
            0);
  for (int64_t e = 0; e < 6; ++e) {
    const size_t k = static_cast<size_t>(e);
    EXPECT_NEAR(p.a.get(e), q0[k] - 0.1 * (-h0[k] + 0.5 * q0[k]), 1e-6);  // maximize
  }
}

TEST(OptimFused, AdamwPerTensorStepsAndFoundInf) {
  std::mt19937 g(13);
  for (bool inf : {false, true}) {
    Pair p(g, -1, 1), gr(g, -1, 1), m(g, -0.1, 0.1), v(g, 0, 0.01), mx(g, 0, 0.02);
    HostTensorBuf s0(ACL_INT64, {1}), s1(ACL_FLOAT, {1}), scale(ACL_FLOAT, {1}), found(ACL_FLOAT, {1});
    s0.set(0, 3);
    s1.set(0, 7);
    scale.set(0, 2);
    found.set(0, inf ? 1 : 0);
    aclTensor* st[] = {listHandle(s0), listHandle(s1)};
    aclTensorList* steps = aclCreateTensorList(st, 2);
    std::vector<std::vector<double>> P, G, M, V, X;
    for (int i = 0; i < 2; ++i) {
      P.push_back(values(p.at(i)));
      G.push_back(values(gr.at(i)));
      M.push_back(values(m.at(i)));
      V.push_back(values(v.at(i)));
      X.push_back(values(mx.at(i)));
    }
    const double lr = 0.01, b1 = 0.9, b2 = 0.99, wd = 0.1, eps = 1e-6;
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnFusedAdamwGetWorkspaceSize(p.list, gr.list, m.list, v.list, mx.list, steps,
                                                       scale.get(), found.get(), lr, b1, b2, wd, eps, true,
                                                       false, ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int i = 0; i < 2; ++i) {
      const size_t n = static_cast<size_t>(i);
      const double t = i == 0 ? 3 : 7;
      for (int64_t e = 0; e < p.at(i).numel(); ++e) {
        const size_t k = static_cast<size_t>(e);
        if (inf) {  // the step is skipped
          EXPECT_EQ(p.at(i).get(e), P[n][k]);
          EXPECT_EQ(m.at(i).get(e), M[n][k]);
          continue;
        }
        const double gg = G[n][k] / 2;
        const double mt = b1 * M[n][k] + (1 - b1) * gg, vt = b2 * V[n][k] + (1 - b2) * gg * gg;
        const double vmax = std::max(X[n][k], vt);
        const double want =
            P[n][k] - lr * wd * P[n][k] -
            lr / (1 - std::pow(b1, t)) * mt / (std::sqrt(vmax) / std::sqrt(1 - std::pow(b2, t)) + eps);
        EXPECT_NEAR(p.at(i).get(e), want, 2e-6);
        EXPECT_NEAR(m.at(i).get(e), mt, 1e-6);
        EXPECT_NEAR(v.at(i).get(e), vt, 1e-7);
        EXPECT_NEAR(mx.at(i).get(e), vmax, 1e-7);
      }
    }
    aclDestroyTensorList(steps);
  }
}

TEST(OptimFused, ListChecksAndOneLaunch) {
  std::mt19937 g(17);
  Pair p(g, -1, 1), gr(g, -1, 1);
  HostTensorBuf lone(ACL_FLOAT, {2, 3});
  aclTensor* h[] = {listHandle(lone)};
  aclTensorList* shortList = aclCreateTensorList(h, 1);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnFusedSgdGetWorkspaceSize(nullptr, gr.list, nullptr, nullptr, 0, 0, 0.1f, 0, false, false,
                                          false, &ws, &ex),
            161001);
  EXPECT_EQ(aclnnFusedSgdGetWorkspaceSize(p.list, shortList, nullptr, nullptr, 0, 0, 0.1f, 0, false, false,
                                          false, &ws, &ex),
            161002);
  EXPECT_EQ(aclnnFusedAdamwGetWorkspaceSize(p.list, gr.list, gr.list, gr.list, nullptr, gr.list, nullptr,
                                            nullptr, 0.1, 0.9, 0.99, 0, 1e-8, true, false, &ws, &ex),
            161001);
  aclDestroyTensorList(shortList);
  // one launch: both entries' params and grads read once, params and grads written once
  ASSERT_EQ(aclnnFusedSgdGetWorkspaceSize(p.list, gr.list, nullptr, nullptr, 0, 0, 0.1f, 0, false, false,
                                          false, &ws, &ex),
            0);
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, 2u * (6 + 5) * 4);
  EXPECT_EQ(c.written, 2u * (6 + 5) * 4);
}

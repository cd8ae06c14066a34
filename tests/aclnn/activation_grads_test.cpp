// Gradients of the activations (runtime/aclnn/ops/activation_grads.cpp): each gradInput against
// gradOutput times the central difference of the forward function written in the test, on
// points away from the kinks; broadcasting, fp16/bf16, the scalar parameters, the error codes
// and the bytes charged.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_elu_backward.h"
#include "aclnnop/aclnn_fast_gelu_backward.h"
#include "aclnnop/aclnn_gelu_backward.h"
#include "aclnnop/aclnn_gelu_backward_v2.h"
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "aclnnop/aclnn_hardswish_backward.h"
#include "aclnnop/aclnn_hardtanh_backward.h"
#include "aclnnop/aclnn_leaky_relu_backward.h"
#include "aclnnop/aclnn_logsigmoid_backward.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "aclnnop/aclnn_selu_backward.h"
#include "aclnnop/aclnn_sigmoid_backward.h"
#include "aclnnop/aclnn_silu_backward.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "aclnnop/aclnn_softshrink_backward.h"
#include "aclnnop/aclnn_softsign_backward.h"
#include "aclnnop/aclnn_swish_backward.h"
#include "aclnnop/aclnn_tanh_backward.h"
#include "aclnnop/aclnn_threshold_backward.h"
#include "runtime/aclnn/base/executor.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

using ScalarPtr = std::unique_ptr<aclScalar, decltype(&aclDestroyScalar)>;
ScalarPtr sc(double v) { return ScalarPtr(makeScalar(ACL_FLOAT, v), aclDestroyScalar); }

using Phase1 =
    std::function<int(const aclTensor* g, const aclTensor* x, aclTensor* out, uint64_t*, aclOpExecutor**)>;

struct Grad {
  std::string name;
  Phase1 op;
  std::function<double(double)> forward;  // f
  bool ofOutput = false;                  // the operator takes y = f(x) instead of x
  std::vector<double> kinks = {};         // points where f' jumps (tested away from them)
};

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }
double geluErf(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }
double geluTanh(double x) {
  return 0.5 * x * (1 + std::tanh(std::sqrt(2 / std::acos(-1.0)) * (x + 0.044715 * x * x * x)));
}
double softplus(double x, double beta, double threshold) {
  return beta * x > threshold ? x : std::log(1 + std::exp(beta * x)) / beta;
}
const double kSeluAlpha = 1.6732632423543772848, kSeluScale = 1.0507009873554804934;

// Scalars live as long as the test.
ScalarPtr kBeta = sc(2), kThreshold = sc(3), kMin = sc(-1), kMax = sc(2), kSlope = sc(0.1), kThr = sc(0.5),
          kLambda = sc(0.7), kSwishBeta = sc(1.5), kAlpha = sc(0.8), kScale = sc(1.2), kInScale = sc(0.9);

std::vector<Grad> grads() {
  return {
      {"SigmoidBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnSigmoidBackwardGetWorkspaceSize(g, x, o, w, e);
       },
       sigmoid, true},
      {"TanhBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnTanhBackwardGetWorkspaceSize(g, x, o, w, e);
       },
       [](double x) { return std::tanh(x); }, true},
      {"SiluBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnSiluBackwardGetWorkspaceSize(g, x, o, w, e);
       },
       [](double x) { return x * sigmoid(x); }},
      {"GeluBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnGeluBackwardGetWorkspaceSize(g, x, o, w, e);
       },
       geluErf},
      {"GeluBackwardV2 tanh",
       [](auto g, auto x, auto o, auto w, auto e) {
         char a[] = "tanh";
         return aclnnGeluBackwardV2GetWorkspaceSize(g, x, a, o, w, e);
       },
       geluTanh},
      {"GeluBackwardV2 none",
       [](auto g, auto x, auto o, auto w, auto e) {
         char a[] = "none";
         return aclnnGeluBackwardV2GetWorkspaceSize(g, x, a, o, w, e);
       },
       geluErf},
      {"HardswishBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnHardswishBackwardGetWorkspaceSize(g, x, o, w, e);
       },
       [](double x) { return x * std::min(std::max(x + 3, 0.0), 6.0) / 6; },
       false,
       {-3, 3}},
      {"HardsigmoidBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnHardsigmoidBackwardGetWorkspaceSize(g, x, o, w, e);
       },
       [](double x) { return std::min(std::max(x + 3, 0.0), 6.0) / 6; },
       false,
       {-3, 3}},
      {"MishBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnMishBackwardGetWorkspaceSize(g, x, o, w, e);
       },
       [](double x) { return x * std::tanh(std::log(1 + std::exp(x))); }},
      {"LogSigmoidBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnLogSigmoidBackwardGetWorkspaceSize(g, x, x, o, w, e);
       },
       [](double x) { return std::log(sigmoid(x)); }},
      {"SeluBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnSeluBackwardGetWorkspaceSize(g, x, o, w, e);
       },
       [](double x) { return kSeluScale * (x > 0 ? x : kSeluAlpha * (std::exp(x) - 1)); },
       true,
       {0}},
      {"SoftplusBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnSoftplusBackwardGetWorkspaceSize(g, x, kBeta.get(), kThreshold.get(), o, w, e);
       },
       [](double x) { return softplus(x, 2, 3); },
       false,
       {1.5}},
      {"HardtanhBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnHardtanhBackwardGetWorkspaceSize(g, x, kMin.get(), kMax.get(), o, w, e);
       },
       [](double x) { return std::min(std::max(x, -1.0), 2.0); },
       false,
       {-1, 2}},
      {"LeakyReluBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnLeakyReluBackwardGetWorkspaceSize(g, x, kSlope.get(), false, o, w, e);
       },
       [](double x) { return x > 0 ? x : 0.1 * x; },
       false,
       {0}},
      {"ThresholdBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnThresholdBackwardGetWorkspaceSize(g, x, kThr.get(), o, w, e);
       },
       [](double x) { return x > 0.5 ? x : -7.0; },
       false,
       {0.5}},
      {"SoftshrinkBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnSoftshrinkBackwardGetWorkspaceSize(g, x, kLambda.get(), o, w, e);
       },
       [](double x) { return x > 0.7    ? x - 0.7
                             : x < -0.7 ? x + 0.7
                                        : 0; },
       false,
       {-0.7, 0.7}},
      {"HardshrinkBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnHardshrinkBackwardGetWorkspaceSize(g, x, kLambda.get(), o, w, e);
       },
       [](double x) { return std::fabs(x) > 0.7 ? x : 0; },
       false,
       {-0.7, 0.7}},
      {"FastGeluBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnFastGeluBackwardGetWorkspaceSize(g, x, o, w, e);
       },
       [](double x) { return x / (1 + std::exp(-1.702 * x)); }},
      {"SoftsignBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnSoftsignBackwardGetWorkspaceSize(g, x, o, w, e);
       },
       [](double x) { return x / (1 + std::fabs(x)); },
       false,
       {0}},
      {"SwishBackward",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnSwishBackwardGetWorkspaceSize(g, x, kSwishBeta.get(), o, w, e);
       },
       [](double x) { return x * sigmoid(1.5 * x); }},
      {"SwishBackward default beta",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnSwishBackwardGetWorkspaceSize(g, x, nullptr, o, w, e);
       },
       [](double x) { return x * sigmoid(x); }},
      {"EluBackward of input",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnEluBackwardGetWorkspaceSize(g, kAlpha.get(), kScale.get(), kInScale.get(), false, x, o,
                                                 w, e);
       },
       [](double x) { return x > 0 ? 1.2 * x : 1.2 * 0.8 * (std::exp(0.9 * x) - 1); },
       false,
       {0}},
      {"EluBackward of result",
       [](auto g, auto x, auto o, auto w, auto e) {
         return aclnnEluBackwardGetWorkspaceSize(g, kAlpha.get(), kScale.get(), kInScale.get(), true, x, o, w,
                                                 e);
       },
       [](double x) { return x > 0 ? 1.2 * x : 1.2 * 0.8 * (std::exp(0.9 * x) - 1); },
       true,
       {0}},
  };
}

}  // namespace

TEST(ActivationGrads, MatchCentralDifferences) {
  std::mt19937 g(9);
  std::uniform_real_distribution<double> u(-4, 4);
  for (const Grad& d : grads()) {
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      // gradOutput [3, 8] against x [8]: x broadcast over the rows.
      HostTensorBuf go(dt, {3, 8}), x(dt, {8}), gi(dt, {3, 8});
      std::vector<double> xs(8);
      for (int i = 0; i < 8; ++i) {
        double v;
        bool nearKink;
        do {
          v = x.stored(u(g));
          nearKink = false;
          for (double k : d.kinks) nearKink = nearKink || std::fabs(v - k) < 0.05;
        } while (nearKink);
        xs[i] = v;
        x.set(i, d.ofOutput ? d.forward(v) : v);
      }
      go.fillRandom(g, -2, 2);
      const std::string what = d.name + " dtype " + std::to_string(dt);
      ASSERT_EQ(
          run([&](uint64_t* ws, aclOpExecutor** ex) { return d.op(go.get(), x.get(), gi.get(), ws, ex); }), 0)
          << what << ": " << aclGetRecentErrMsg();
      for (int64_t i = 0; i < 24; ++i) {
        const double xv = xs[i % 8], h = 1e-6;
        const double slope = (d.forward(xv + h) - d.forward(xv - h)) / (2 * h);
        const double want = go.get(i) * slope;  // with y rounded to dt for the ofOutput ones
        const double tolerance = dt == ACL_FLOAT ? 1e-4 : dt == ACL_FLOAT16 ? 2e-2 : 8e-2;
        EXPECT_NEAR(gi.get(i), want, tolerance * std::max(1.0, std::fabs(want))) << what << " at x = " << xv;
      }
    }
  }
}

TEST(ActivationGrads, ErrorCodes) {
  HostTensorBuf go(ACL_FLOAT, {2, 3}), x(ACL_FLOAT, {2, 3}), gi(ACL_FLOAT, {2, 3}), bad(ACL_FLOAT, {3, 3});
  HostTensorBuf half(ACL_FLOAT16, {2, 3}), ints(ACL_INT32, {2, 3});
  for (const Grad& d : grads()) {
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return d.op(nullptr, x.get(), gi.get(), ws, ex); }),
              kParamNull)
        << d.name;
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return d.op(go.get(), x.get(), nullptr, ws, ex); }),
              kParamNull)
        << d.name;
    EXPECT_EQ(
        run([&](uint64_t* ws, aclOpExecutor** ex) { return d.op(go.get(), x.get(), bad.get(), ws, ex); }),
        kParamInvalid)
        << d.name;
    EXPECT_EQ(
        run([&](uint64_t* ws, aclOpExecutor** ex) { return d.op(go.get(), half.get(), gi.get(), ws, ex); }),
        0)
        << d.name << " (fp32 and fp16 promote to fp32)";
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return d.op(ints.get(), ints.get(), ints.get(), ws, ex);
              }),
              kParamInvalid)
        << d.name << " (integers)";
  }
  char bogus[] = "erf";
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGeluBackwardV2GetWorkspaceSize(go.get(), x.get(), bogus, gi.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSoftplusBackwardGetWorkspaceSize(go.get(), x.get(), nullptr, kThreshold.get(),
                                                           gi.get(), ws, ex);
            }),
            kParamNull);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnEluBackwardGetWorkspaceSize(go.get(), nullptr, kScale.get(), kInScale.get(), false,
                                                      x.get(), gi.get(), ws, ex);
            }),
            kParamNull);
}

// Both operands are read and gradInput written once; an empty gradient is accepted.
TEST(ActivationGrads, BytesChargedAndEmpty) {
  HostTensorBuf go(ACL_BF16, {32, 500}), x(ACL_BF16, {32, 500}), gi(ACL_BF16, {32, 500});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnSiluBackwardGetWorkspaceSize(go.get(), x.get(), gi.get(), &ws, &ex), 0);
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, 2u * 16000 * 2);
  EXPECT_EQ(c.written, 16000u * 2);
  HostTensorBuf e(ACL_FLOAT, {0, 4}), eo(ACL_FLOAT, {0, 4});
  EXPECT_EQ(run([&](uint64_t* w, aclOpExecutor** x2) {
              return aclnnSiluBackwardGetWorkspaceSize(e.get(), e.get(), eo.get(), w, x2);
            }),
            0);
}

// An int32 gradOutput with an fp32 self computes in fp32 (ops-nn gelu_grad's own example).
TEST(ActivationGrads, IntegerGradOutputPromotes) {
  HostTensorBuf go(ACL_INT32, {4}), x(ACL_FLOAT, {4}), gi(ACL_FLOAT, {4});
  for (int i = 0; i < 4; ++i) {
    go.set(i, 2);
    x.set(i, i);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGeluBackwardGetWorkspaceSize(go.get(), x.get(), gi.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i) {
    const double h = 1e-6, xv = i;
    const double slope = (0.5 * (xv + h) * (1 + std::erf((xv + h) / std::sqrt(2.0))) -
                          0.5 * (xv - h) * (1 + std::erf((xv - h) / std::sqrt(2.0)))) /
                         (2 * h);
    EXPECT_NEAR(gi.get(i), 2 * slope, 1e-4);
  }
}

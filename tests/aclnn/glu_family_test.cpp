// The gated units of glu_family.cpp (gated engine) and the softmax gradients: forward values
// against the definitions written in the test, the gradient forms against central differences
// of the forward function, the activated half, fp32/fp16/bf16, error codes and bytes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_clipped_swiglu.h"
#include "aclnnop/aclnn_clipped_swiglu_grad.h"
#include "aclnnop/aclnn_clipped_swiglu_v2.h"
#include "aclnnop/aclnn_fatrelu_mul.h"
#include "aclnnop/aclnn_geglu.h"
#include "aclnnop/aclnn_geglu_backward.h"
#include "aclnnop/aclnn_gelu_mul.h"
#include "aclnnop/aclnn_glu.h"
#include "aclnnop/aclnn_glu_backward.h"
#include "aclnnop/aclnn_logsoftmax_backward.h"
#include "aclnnop/aclnn_situ_glu.h"
#include "aclnnop/aclnn_situ_glu_grad.h"
#include "aclnnop/aclnn_softmax_backward.h"
#include "aclnnop/aclnn_swi_glu_grad.h"
#include "aclnnop/aclnn_swiglu_clamp.h"
#include "aclnnop/aclnn_swiglu_group.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

double sig(double x) { return 1 / (1 + std::exp(-x)); }
double geluErf(double x) { return x * 0.5 * std::erfc(-x / std::sqrt(2.0)); }
double geluTanh(double x) {
  const double c = std::sqrt(2 / M_PI);
  return x / 2 * (1 + std::tanh(c * (x + 0.044715 * x * x * x)));
}

// Element (o, i) of the first and second half of a [outer, 2h, inner] x split along dim 1.
struct Halves {
  HostTensorBuf& x;
  int64_t h, inner;
  double first(int64_t o, int64_t k) { return x.get((o * 2 * h) * inner + k); }
  double second(int64_t o, int64_t k) { return x.get((o * 2 * h + h) * inner + k); }
};

}  // namespace

TEST(GluFamily, ForwardFormsAndTheActivatedHalf) {
  std::mt19937 g(31);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    // x [2, 6, 3] split along dim 1 into halves of 3 x 3
    HostTensorBuf x(dt, {2, 6, 3}), y(dt, {2, 3, 3}), gate(dt, {2, 3, 3});
    x.fillRandom(g, -3, 3);
    Halves hv{x, 3, 3};
    const auto check = [&](const std::string& name, const std::function<double(double, double)>& f) {
      for (int64_t o = 0; o < 2; ++o)
        for (int64_t k = 0; k < 9; ++k)
          expectNear(y.get(o * 9 + k), y.stored(f(hv.first(o, k), hv.second(o, k))), dt, name);
    };
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnGluGetWorkspaceSize(x.get(), 1, y.get(), ws, ex);
              }),
              0);
    check("Glu", [](double a, double b) { return a * sig(b); });
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnGeGluGetWorkspaceSize(x.get(), 1, 0, y.get(), gate.get(), ws, ex);
              }),
              0);
    check("GeGlu erf", [](double a, double b) { return a * geluErf(b); });
    for (int64_t o = 0; o < 2; ++o)
      for (int64_t k = 0; k < 9; ++k)
        expectNear(gate.get(o * 9 + k), gate.stored(geluErf(hv.second(o, k))), dt, "outGelu");
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnGeGluV3GetWorkspaceSize(x.get(), -2, 1, true, y.get(), gate.get(), ws, ex);
              }),
              0);
    check("GeGluV3 tanh, left", [](double a, double b) { return geluTanh(a) * b; });
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnSituGluGetWorkspaceSize(x.get(), 1, 2.0, 0.5, false, y.get(), ws, ex);
              }),
              0);
    check("SituGlu right",
          [](double a, double b) { return 2 * std::tanh(b / 2) * sig(b) * 0.5 * std::tanh(a / 0.5); });
  }
  // the last-dimension forms: GeluMul, FatreluMul (threshold tensor), SwigluClamp
  HostTensorBuf in(ACL_FLOAT, {3, 8}), out(ACL_FLOAT, {3, 4}), thr(ACL_FLOAT, {1});
  in.fillRandom(g, -8, 8);
  thr.set(0, 0.5);
  char tanh[] = "tanh";
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGeluMulGetWorkspaceSize(in.get(), tanh, out.get(), ws, ex);
            }),
            0);
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 4; ++k)
      expectNear(out.get(r * 4 + k), geluTanh(in.get(r * 8 + k)) * in.get(r * 8 + 4 + k), ACL_FLOAT,
                 "GeluMul");
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFatreluMulGetWorkspaceSize(in.get(), thr.get(), out.get(), ws, ex);
            }),
            0);
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 4; ++k) {
      const double a = in.get(r * 8 + k);
      expectNear(out.get(r * 4 + k), (a >= 0.5 ? a : 0) * in.get(r * 8 + 4 + k), ACL_FLOAT, "FatreluMul");
    }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSwigluClampGetWorkspaceSize(in.get(), 2.0, out.get(), ws, ex);
            }),
            0);
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 4; ++k) {
      const double a = in.get(r * 8 + k), b = in.get(r * 8 + 4 + k);
      expectNear(out.get(r * 4 + k), std::min(a * sig(a), 2.0) * std::max(-2.0, std::min(b, 2.0)), ACL_FLOAT,
                 "Clamp");
    }
  // errors: odd split, bad approximate, a null threshold, a bad mode string, beta 0
  HostTensorBuf odd(ACL_FLOAT, {3, 5}), oo(ACL_FLOAT, {3, 2});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGluGetWorkspaceSize(odd.get(), -1, oo.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGeGluGetWorkspaceSize(in.get(), -1, 2, out.get(), out.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFatreluMulGetWorkspaceSize(in.get(), nullptr, out.get(), ws, ex);
            }),
            kParamNull);
  char bad[] = "exact";
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGeluMulGetWorkspaceSize(in.get(), bad, out.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSituGluGetWorkspaceSize(in.get(), -1, 0.0, 0.0, true, out.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(GluFamily, GradientsAgainstCentralDifferences) {
  using Fwd = std::function<double(double, double)>;  // of (first half, second half)
  using Phase1 =
      std::function<int(const aclTensor*, const aclTensor*, const aclTensor*, uint64_t*, aclOpExecutor**)>;
  struct Case {
    std::string name;
    Phase1 fn;  // (grad, x, out)
    Fwd f;
  };
  HostTensorBuf gelu(ACL_FLOAT, {4, 3});  // read for the cost, recomputed from x
  const std::vector<Case> cases = {
      {"GluBackward",
       [](const aclTensor* g, const aclTensor* x, const aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnGluBackwardGetWorkspaceSize(g, x, -1, o, w, e);
       },
       [](double a, double b) { return a * sig(b); }},
      {"SwiGluGrad",
       [](const aclTensor* g, const aclTensor* x, const aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnSwiGluGradGetWorkspaceSize(g, x, -1, o, w, e);
       },
       [](double a, double b) { return a * sig(a) * b; }},
      {"GeGluBackward tanh",
       [&gelu](const aclTensor* g, const aclTensor* x, const aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnGeGluBackwardGetWorkspaceSize(g, x, gelu.get(), -1, 1, const_cast<aclTensor*>(o), w, e);
       },
       [](double a, double b) { return a * geluTanh(b); }},
      {"SituGluGrad",
       [](const aclTensor* g, const aclTensor* x, const aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnSituGluGradGetWorkspaceSize(g, x, -1, 1.5, 2.0, true, o, w, e);
       },
       [](double a, double b) { return 1.5 * std::tanh(a / 1.5) * sig(a) * 2 * std::tanh(b / 2); }},
  };
  std::mt19937 gen(17);
  for (const Case& c : cases) {
    HostTensorBuf grad(ACL_FLOAT, {4, 3}), x(ACL_FLOAT, {4, 6}), dx(ACL_FLOAT, {4, 6});
    grad.fillRandom(gen, -2, 2);
    x.fillRandom(gen, -2.5, 2.5);
    ASSERT_EQ(
        run([&](uint64_t* ws, aclOpExecutor** ex) { return c.fn(grad.get(), x.get(), dx.get(), ws, ex); }), 0)
        << c.name << ": " << aclGetRecentErrMsg();
    const double h = 1e-5;
    for (int r = 0; r < 4; ++r) {
      for (int k = 0; k < 3; ++k) {
        const double a = x.get(r * 6 + k), b = x.get(r * 6 + 3 + k), gv = grad.get(r * 3 + k);
        const double da = (c.f(a + h, b) - c.f(a - h, b)) / (2 * h),
                     db = (c.f(a, b + h) - c.f(a, b - h)) / (2 * h);
        EXPECT_NEAR(dx.get(r * 6 + k), gv * da, 1e-4 * std::max(1.0, std::fabs(gv * da))) << c.name;
        EXPECT_NEAR(dx.get(r * 6 + 3 + k), gv * db, 1e-4 * std::max(1.0, std::fabs(gv * db))) << c.name;
      }
    }
  }
  HostTensorBuf grad(ACL_FLOAT, {4, 2}), x(ACL_FLOAT, {4, 6}), dx(ACL_FLOAT, {4, 6});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGluBackwardGetWorkspaceSize(grad.get(), x.get(), -1, dx.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSituGluGradGetWorkspaceSize(nullptr, x.get(), -1, 1.0, 0.0, true, dx.get(), ws, ex);
            }),
            kParamNull);
}

TEST(GluFamily, ClippedSwigluInterleavedWithGroupIndex) {
  // x [3, 8]: pairs (even, odd) along the last dim; groupIndex sums to 2, so row 2 is written as 0
  std::mt19937 g(23);
  HostTensorBuf x(ACL_FLOAT, {3, 8}), y(ACL_FLOAT, {3, 4}), gi(ACL_INT64, {2}), gy(ACL_FLOAT, {3, 4}),
      gx(ACL_FLOAT, {3, 8});
  x.fillRandom(g, -9, 9);
  gy.fillRandom(g, -1, 1);
  gi.set(0, 1);
  gi.set(1, 1);
  const double alpha = 1.702, l = 7, bias = 1;
  const auto f = [&](double a, double b) {
    const double ac = std::min(a, l), bc = std::max(-l, std::min(b, l));
    return ac * sig(alpha * ac) * (bc + bias);
  };
  for (int i = 0; i < 24; ++i) y.set(i % 12, 99);  // poison: row 2 must become 0
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnClippedSwigluGetWorkspaceSize(x.get(), gi.get(), -1, alpha, l, bias, true, y.get(),
                                                        ws, ex);
            }),
            0);
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 4; ++k)
      expectNear(y.get(r * 4 + k), r < 2 ? f(x.get(r * 8 + 2 * k), x.get(r * 8 + 2 * k + 1)) : 0, ACL_FLOAT,
                 "Clipped");
  // ClippedSwigluV2 and SwigluGroup are Ascend 950 operators: refused on the simulated 910B, with the reason
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnClippedSwigluV2GetWorkspaceSize(x.get(), nullptr, -1, alpha, l, bias, false, 1,
                                                          y.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("950"), std::string::npos);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSwigluGroupGetWorkspaceSize(x.get(), nullptr, nullptr, -1.0, y.get(), ws, ex);
            }),
            kParamInvalid);
  // the gradient against central differences away from the clamp bounds
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnClippedSwigluGradGetWorkspaceSize(gy.get(), x.get(), gi.get(), -1, alpha, l, bias,
                                                            true, gx.get(), ws, ex);
            }),
            0);
  const double h = 1e-5;
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 4; ++k) {
      const double a = x.get(r * 8 + 2 * k), b = x.get(r * 8 + 2 * k + 1), gv = r < 2 ? gy.get(r * 4 + k) : 0;
      if (std::fabs(a - l) < 1e-3 || std::fabs(std::fabs(b) - l) < 1e-3) continue;
      EXPECT_NEAR(gx.get(r * 8 + 2 * k), gv * (f(a + h, b) - f(a - h, b)) / (2 * h), 1e-3);
      EXPECT_NEAR(gx.get(r * 8 + 2 * k + 1), gv * (f(a, b + h) - f(a, b - h)) / (2 * h), 1e-3);
    }
}

TEST(GluFamily, SoftmaxGradientsAlongADim) {
  std::mt19937 g(3);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16}) {
    HostTensorBuf go(dt, {3, 4}), y(dt, {3, 4}), out(dt, {3, 4});
    go.fillRandom(g, -1, 1);
    y.fillRandom(g, 0.05, 0.5);
    // along dim 0 (columns of 3)
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnSoftmaxBackwardGetWorkspaceSize(go.get(), y.get(), 0, out.get(), ws, ex);
              }),
              0);
    for (int c = 0; c < 4; ++c) {
      double s = 0;
      for (int r = 0; r < 3; ++r) s += go.get(r * 4 + c) * y.get(r * 4 + c);
      for (int r = 0; r < 3; ++r)
        expectNear(out.get(r * 4 + c), out.stored(y.get(r * 4 + c) * (go.get(r * 4 + c) - s)), dt,
                   "SoftmaxBackward");
    }
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnLogSoftmaxBackwardGetWorkspaceSize(go.get(), y.get(), -1, out.get(), ws, ex);
              }),
              0);
    for (int r = 0; r < 3; ++r) {
      double s = 0;
      for (int c = 0; c < 4; ++c) s += go.get(r * 4 + c);
      for (int c = 0; c < 4; ++c)
        expectNear(out.get(r * 4 + c), out.stored(go.get(r * 4 + c) - s * std::exp(y.get(r * 4 + c))), dt,
                   "LogSoftmaxBackward");
    }
  }
  HostTensorBuf a(ACL_FLOAT, {3, 4}), b(ACL_FLOAT, {4, 3}), o(ACL_FLOAT, {3, 4});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSoftmaxBackwardGetWorkspaceSize(a.get(), b.get(), 0, o.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSoftmaxBackwardGetWorkspaceSize(a.get(), a.get(), 2, o.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(GluFamily, CostReadsXAndWritesTheHalves) {
  // Glu of [256, 2048] fp16: x read once (1 MiB), the [256, 1024] result written once.
  HostTensorBuf x(ACL_FLOAT16, {256, 2048}), y(ACL_FLOAT16, {256, 1024});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnGluGetWorkspaceSize(x.get(), -1, y.get(), &ws, &ex), 0);
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, 256u * 2048 * 2);
  EXPECT_EQ(c.written, 256u * 1024 * 2);
  // GeGlu writes out and outGelu
  HostTensorBuf gate(ACL_FLOAT16, {256, 1024});
  ASSERT_EQ(aclnnGeGluGetWorkspaceSize(x.get(), -1, 0, y.get(), gate.get(), &ws, &ex), 0);
  const Charged c2 = chargedBytes(ex);
  EXPECT_EQ(c2.written, 2u * 256 * 1024 * 2);
}

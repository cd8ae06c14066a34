// Elementwise operators with host scalars (runtime/aclnn/ops/unary_params.cpp) and Log2/Log10/
// Sinc: values against the definitions written in the test for fp32/fp16/bf16 on strided views,
// integers through the clamps, in-place forms, absent scalars and their error codes.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_celu.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_hardshrink.h"
#include "aclnnop/aclnn_hardtanh.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_log10.h"
#include "aclnnop/aclnn_log2.h"
#include "aclnnop/aclnn_nan_to_num.h"
#include "aclnnop/aclnn_sinc.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_softshrink.h"
#include "aclnnop/aclnn_swish.h"
#include "aclnnop/aclnn_threshold.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

using ScalarPtr = std::unique_ptr<aclScalar, decltype(&aclDestroyScalar)>;
ScalarPtr sc(double v) { return ScalarPtr(makeScalar(ACL_FLOAT, v), aclDestroyScalar); }

using Phase1 = std::function<int(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**)>;

struct ParamCase {
  std::string name;
  Phase1 op;
  std::function<double(double)> ref;
};

ScalarPtr kLo = sc(-1.5), kHi = sc(2), kSlope = sc(0.2), kBeta = sc(2), kThr = sc(4), kThreshold = sc(0.5),
          kValue = sc(-3), kAlpha = sc(0.7), kScale = sc(1.1), kInScale = sc(0.8), kLambd = sc(0.6);
const double kPi = std::acos(-1.0);

std::vector<ParamCase> cases() {
  return {
      {"Clamp",
       [](auto s, auto o, auto w, auto e) {
         return aclnnClampGetWorkspaceSize(s, kLo.get(), kHi.get(), o, w, e);
       },
       [](double x) { return x < -1.5 ? -1.5
                             : x > 2  ? 2
                                      : x; }},
      {"ClampMin",
       [](auto s, auto o, auto w, auto e) { return aclnnClampMinGetWorkspaceSize(s, kLo.get(), o, w, e); },
       [](double x) { return x < -1.5 ? -1.5 : x; }},
      {"ClampMax",
       [](auto s, auto o, auto w, auto e) { return aclnnClampMaxGetWorkspaceSize(s, kHi.get(), o, w, e); },
       [](double x) { return x > 2 ? 2 : x; }},
      {"Hardtanh",
       [](auto s, auto o, auto w, auto e) {
         return aclnnHardtanhGetWorkspaceSize(s, kLo.get(), kHi.get(), o, w, e);
       },
       [](double x) { return x < -1.5 ? -1.5
                             : x > 2  ? 2
                                      : x; }},
      {"LeakyRelu",
       [](auto s, auto o, auto w, auto e) {
         return aclnnLeakyReluGetWorkspaceSize(s, kSlope.get(), o, w, e);
       },
       [](double x) { return x >= 0 ? x : 0.2 * x; }},
      {"Softplus",
       [](auto s, auto o, auto w, auto e) {
         return aclnnSoftplusGetWorkspaceSize(s, kBeta.get(), kThr.get(), o, w, e);
       },
       [](double x) { return 2 * x > 4 ? x : std::log(1 + std::exp(2 * x)) / 2; }},
      {"Threshold",
       [](auto s, auto o, auto w, auto e) {
         return aclnnThresholdGetWorkspaceSize(s, kThreshold.get(), kValue.get(), o, w, e);
       },
       [](double x) { return x <= 0.5 ? -3 : x; }},
      {"Elu",
       [](auto s, auto o, auto w, auto e) {
         return aclnnEluGetWorkspaceSize(s, kAlpha.get(), kScale.get(), kInScale.get(), o, w, e);
       },
       [](double x) { return x > 0 ? 1.1 * x : 1.1 * 0.7 * (std::exp(0.8 * x) - 1); }},
      {"Celu",
       [](auto s, auto o, auto w, auto e) { return aclnnCeluGetWorkspaceSize(s, kAlpha.get(), o, w, e); },
       [](double x) { return x > 0 ? x : 0.7 * (std::exp(x / 0.7) - 1); }},
      {"Hardshrink",
       [](auto s, auto o, auto w, auto e) {
         return aclnnHardshrinkGetWorkspaceSize(s, kLambd.get(), o, w, e);
       },
       [](double x) { return std::fabs(x) <= 0.6 ? 0 : x; }},
      {"Softshrink",
       [](auto s, auto o, auto w, auto e) {
         return aclnnSoftshrinkGetWorkspaceSize(s, kLambd.get(), o, w, e);
       },
       [](double x) { return std::fabs(x) <= 0.6 ? 0 : x - std::copysign(0.6, x); }},
      {"Swish",
       [](auto s, auto o, auto w, auto e) { return aclnnSwishGetWorkspaceSize(s, kBeta.get(), o, w, e); },
       [](double x) { return x / (1 + std::exp(-2 * x)); }},
      {"Swish without beta",
       [](auto s, auto o, auto w, auto e) { return aclnnSwishGetWorkspaceSize(s, nullptr, o, w, e); },
       [](double x) { return x / (1 + std::exp(-x)); }},
      {"Log2", [](auto s, auto o, auto w, auto e) { return aclnnLog2GetWorkspaceSize(s, o, w, e); },
       [](double x) { return std::log(std::fabs(x) + 0.1) / std::log(2.0); }},
      {"Log10", [](auto s, auto o, auto w, auto e) { return aclnnLog10GetWorkspaceSize(s, o, w, e); },
       [](double x) { return std::log(std::fabs(x) + 0.1) / std::log(10.0); }},
      {"Sinc", [](auto s, auto o, auto w, auto e) { return aclnnSincGetWorkspaceSize(s, o, w, e); },
       [](double x) { return x == 0 ? 1 : std::sin(kPi * x) / (kPi * x); }},
  };
}

}  // namespace

TEST(UnaryParams, MatchDefinitions) {
  std::mt19937 g(4);
  for (const ParamCase& c : cases()) {
    const bool logs = c.name.rfind("Log", 0) == 0;
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      HostTensorBuf x(dt, {4, 6}, {1, 4}, 0), y(dt, {4, 6});  // a transposed view
      x.fillRandom(g, -4, 4);
      std::vector<double> in(24);
      for (int i = 0; i < 24; ++i) {
        // the logs are tested on |x| + 0.1 (their reference reads the stored x the same way)
        if (logs) x.set(i, std::fabs(x.get(i)) + 0.1);
        in[i] = logs ? x.get(i) - 0.1 : x.get(i);
      }
      const std::string what = c.name + " dtype " + std::to_string(dt);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return c.op(x.get(), y.get(), ws, ex); }), 0)
          << what << ": " << aclGetRecentErrMsg();
      for (int i = 0; i < 24; ++i) {
        const double want = logs ? (c.name == "Log2" ? std::log(x.get(i)) / std::log(2.0)
                                                     : std::log(x.get(i)) / std::log(10.0))
                                 : c.ref(in[i]);
        expectNear(y.get(i), y.stored(want), dt, what + " at " + std::to_string(in[i]));
      }
    }
  }
}

TEST(UnaryParams, IntegersNanAndInplace) {
  // Clamps keep integers exact; NaN passes through a clamp.
  HostTensorBuf n(ACL_INT32, {4}), no(ACL_INT32, {4});
  const double v[] = {-100000000, -1, 1, 300000001};
  for (int i = 0; i < 4; ++i) n.set(i, v[i]);
  ScalarPtr lo(makeScalar(ACL_INT64, -5), aclDestroyScalar),
      hi(makeScalar(ACL_INT64, 200000003), aclDestroyScalar);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnClampGetWorkspaceSize(n.get(), lo.get(), hi.get(), no.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(no.get(0), -5);
  EXPECT_EQ(no.get(1), -1);
  EXPECT_EQ(no.get(3), 200000003);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnClampGetWorkspaceSize(n.get(), nullptr, hi.get(), no.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(no.get(0), -100000000);  // no lower bound
  HostTensorBuf f(ACL_FLOAT, {3}), fo(ACL_FLOAT, {3});
  f.set(0, NAN);
  f.set(1, INFINITY);
  f.set(2, -INFINITY);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnClampGetWorkspaceSize(f.get(), kLo.get(), kHi.get(), fo.get(), ws, ex);
            }),
            0);
  EXPECT_TRUE(std::isnan(fo.get(0)));
  EXPECT_EQ(fo.get(1), 2);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnNanToNumGetWorkspaceSize(f.get(), 0.5f, 100.f, -200.f, fo.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(fo.get(0), 0.5);
  EXPECT_EQ(fo.get(1), 100);
  EXPECT_EQ(fo.get(2), -200);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceNanToNumGetWorkspaceSize(f.get(), 1.f, 2.f, 3.f, ws, ex);
            }),
            0);
  EXPECT_EQ(f.get(0), 1);
  EXPECT_EQ(f.get(2), 3);
  // In-place forms.
  HostTensorBuf z(ACL_FLOAT, {4});
  const double zv[] = {-2, -0.5, 0.25, 3};
  auto reset = [&] {
    for (int i = 0; i < 4; ++i) z.set(i, zv[i]);
  };
  reset();
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceLeakyReluGetWorkspaceSize(z.get(), kSlope.get(), ws, ex);
            }),
            0);
  EXPECT_NEAR(z.get(0), -0.4, 1e-6);
  EXPECT_EQ(z.get(3), 3);
  reset();
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceHardtanhGetWorkspaceSize(z.get(), kLo.get(), kHi.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(z.get(0), -1.5);
  EXPECT_EQ(z.get(3), 2);
  reset();
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceThresholdGetWorkspaceSize(z.get(), kThreshold.get(), kValue.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(z.get(2), -3);
  EXPECT_EQ(z.get(3), 3);
  reset();
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceClampMaxGetWorkspaceSize(z.get(), kSlope.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(z.get(0), -2);
  EXPECT_NEAR(z.get(3), 0.2, 1e-6);
  reset();
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceEluGetWorkspaceSize(z.get(), kAlpha.get(), kScale.get(), kInScale.get(), ws,
                                                     ex);
            }),
            0);
  EXPECT_NEAR(z.get(3), 3.3, 1e-5);
  reset();
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceCeluGetWorkspaceSize(z.get(), kAlpha.get(), ws, ex);
            }),
            0);
  EXPECT_NEAR(z.get(0), 0.7 * (std::exp(-2 / 0.7) - 1), 1e-6);
}

TEST(UnaryParams, ErrorCodes) {
  HostTensorBuf x(ACL_FLOAT, {2, 3}), y(ACL_FLOAT, {2, 3}), bad(ACL_FLOAT, {3, 2}), i(ACL_INT32, {2, 3});
  for (const ParamCase& c : cases()) {
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return c.op(nullptr, y.get(), ws, ex); }),
              kParamNull)
        << c.name;
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return c.op(x.get(), bad.get(), ws, ex); }),
              kParamInvalid)
        << c.name;
  }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnClampGetWorkspaceSize(x.get(), nullptr, nullptr, y.get(), ws, ex);
            }),
            kParamNull);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLeakyReluGetWorkspaceSize(x.get(), nullptr, y.get(), ws, ex);
            }),
            kParamNull);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnEluGetWorkspaceSize(x.get(), kAlpha.get(), nullptr, kInScale.get(), y.get(), ws,
                                              ex);
            }),
            kParamNull);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLeakyReluGetWorkspaceSize(i.get(), kSlope.get(), i.get(), ws, ex);
            }),
            kParamInvalid);  // the activations take floating types
}

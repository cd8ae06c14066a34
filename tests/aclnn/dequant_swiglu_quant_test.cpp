// aclnnDequantSwigluQuant(V2) (runtime/aclnn/ops/dequant_swiglu_quant.cpp): dequant, SwiGLU and
// int8 quant against a loop over the docs' formulas written here: static and dynamic modes,
// activateLeft, groups with per-group parameters, the GPT-OSS variants, errors and bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_dequant_swiglu_quant.h"
#include "aclnnop/aclnn_dequant_swiglu_quant_v2.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

int8_t toInt8(double t) { return static_cast<int8_t>(std::clamp(std::nearbyint(t), -128.0, 127.0)); }

// The activated and linear values of column pair j of a dequantised row.
double swiglu(const std::vector<double>& d, int64_t j, bool left, int mode, double lim, double alpha,
              double bias) {
  const int64_t half = static_cast<int64_t>(d.size()) / 2;
  double a = mode == 1 ? d[2 * j] : (left ? d[j] : d[half + j]);
  double b = mode == 1 ? d[2 * j + 1] : (left ? d[half + j] : d[j]);
  if (mode != 0) {
    a = std::min(a, lim);
    b = std::clamp(b, -lim, lim) + bias;
  } else {
    alpha = 1;
  }
  return a / (1 + std::exp(-alpha * a)) * b;
}

}  // namespace

// fp16 x [3, 2, 8] in static mode: one scale and offset, and per-column ones.
TEST(DequantSwigluQuant, StaticBothHalves) {
  std::mt19937 g(41);
  for (bool left : {false, true}) {
    for (int64_t qn : {1, 4}) {
      HostTensorBuf x(ACL_FLOAT16, {3, 2, 8}), qs(ACL_FLOAT, {qn}), qo(ACL_FLOAT, {qn}),
          y(ACL_INT8, {3, 2, 4}), scaleOut(ACL_FLOAT, {3, 2});
      x.fillRandom(g, -6, 6);
      qs.fillRandom(g, 0.02, 0.2);
      qo.fillRandom(g, -3, 3);
      char mode[] = "static";
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnDequantSwigluQuantGetWorkspaceSize(x.get(), nullptr, nullptr, nullptr, qs.get(),
                                                                 qo.get(), nullptr, left, mode, y.get(),
                                                                 scaleOut.get(), ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      for (int64_t r = 0; r < 6; ++r) {
        std::vector<double> d(8);
        for (int64_t c = 0; c < 8; ++c) d[c] = x.get(r * 8 + c);
        for (int64_t j = 0; j < 4; ++j) {
          const int64_t k = qn == 1 ? 0 : j;
          const double t = swiglu(d, j, left, 0, 0, 0, 0) / qs.get(k) + qo.get(k);
          EXPECT_NEAR(y.get(r * 4 + j), toInt8(t), std::fabs(t - std::trunc(t) - 0.5) < 1e-3 ? 1 : 0)
              << r << "," << j;
        }
      }
    }
  }
}

// int32 x [5, 8] with weightScale and bias per group, activationScale per row, groupIndex
// counts {2, 2} (row 4 is not written), dynamic quant with per-group quantScale; V1 and the
// three V2 modes.
TEST(DequantSwigluQuant, DynamicGroupsAndVariants) {
  std::mt19937 g(43);
  for (int mode : {-1, 0, 1, 2}) {  // -1: V1
    HostTensorBuf x(ACL_INT32, {5, 8}), wscale(ACL_FLOAT, {2, 8}), ascale(ACL_FLOAT, {5}),
        bias(ACL_FLOAT, {2, 8}), qs(ACL_FLOAT, {2, 4}), groups(ACL_INT64, {2}), y(ACL_INT8, {5, 4}),
        scaleOut(ACL_FLOAT, {5});
    x.fillRandom(g, -200, 200);
    wscale.fillRandom(g, 0.001, 0.05);
    ascale.fillRandom(g, 0.5, 2);
    bias.fillRandom(g, -1, 1);
    qs.fillRandom(g, 0.5, 2);
    groups.set(0, 2);
    groups.set(1, 2);
    for (int64_t i = 0; i < 20; ++i) y.set(i, 55);
    scaleOut.set(4, 9);
    const double lim = 1.5, alpha = 1.702, gbias = 1.0;
    char dyn[] = "dynamic", rint[] = "rint";
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                if (mode < 0)
                  return aclnnDequantSwigluQuantGetWorkspaceSize(x.get(), wscale.get(), ascale.get(),
                                                                 bias.get(), qs.get(), nullptr, groups.get(),
                                                                 true, dyn, y.get(), scaleOut.get(), ws, ex);
                return aclnnDequantSwigluQuantV2GetWorkspaceSize(
                    x.get(), wscale.get(), ascale.get(), bias.get(), qs.get(), nullptr, groups.get(), true,
                    dyn, 2, rint, -1, mode, lim, alpha, gbias, y.get(), scaleOut.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t r = 0; r < 4; ++r) {
      const int64_t grp = r / 2;
      std::vector<double> d(8), t(4);
      for (int64_t c = 0; c < 8; ++c)
        d[c] = x.get(r * 8 + c) * wscale.get(grp * 8 + c) * ascale.get(r) + bias.get(grp * 8 + c);
      double mx = 0;
      for (int64_t j = 0; j < 4; ++j) {
        t[j] = swiglu(d, j, true, std::max(mode, 0), lim, alpha, gbias) * qs.get(grp * 4 + j);
        mx = std::max(mx, std::fabs(t[j]));
      }
      EXPECT_NEAR(scaleOut.get(r), mx / 127, 1e-5 * mx) << r;
      for (int64_t j = 0; j < 4; ++j)
        EXPECT_NEAR(y.get(r * 4 + j), toInt8(t[j] * 127 / mx), 1) << r << "," << j;
      EXPECT_TRUE(std::fabs(y.get(r * 4)) == 127 || std::fabs(y.get(r * 4 + 1)) == 127 ||
                  std::fabs(y.get(r * 4 + 2)) == 127 || std::fabs(y.get(r * 4 + 3)) == 127);
    }
    for (int64_t j = 0; j < 4; ++j) EXPECT_EQ(y.get(16 + j), 55);  // past the groups: not written
    EXPECT_EQ(scaleOut.get(4), 9);
  }
}

TEST(DequantSwigluQuant, ErrorsAndBytes) {
  HostTensorBuf x(ACL_FLOAT16, {2, 8}), xOdd(ACL_FLOAT16, {2, 7}), x32f(ACL_FLOAT, {2, 8}),
      y(ACL_INT8, {2, 4}), yWrong(ACL_INT8, {2, 8}), scaleOut(ACL_FLOAT, {2}), qs(ACL_FLOAT, {1});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  char st[] = "static", bad[] = "other", rint[] = "rint", round[] = "round";
  auto v1 = [&](const aclTensor* xx, const aclTensor* yy, const aclTensor* so, char* mode) {
    return aclnnDequantSwigluQuantGetWorkspaceSize(xx, nullptr, nullptr, nullptr, qs.get(), nullptr, nullptr,
                                                   false, mode, yy, so, &ws, &ex);
  };
  EXPECT_EQ(v1(nullptr, y.get(), scaleOut.get(), st), kParamNull);
  EXPECT_EQ(v1(x.get(), y.get(), nullptr, st), kParamNull);
  EXPECT_EQ(v1(x32f.get(), y.get(), scaleOut.get(), st), kParamInvalid);  // fp32 x
  EXPECT_EQ(v1(xOdd.get(), y.get(), scaleOut.get(), st), kParamInvalid);  // odd last dimension
  EXPECT_EQ(v1(x.get(), yWrong.get(), scaleOut.get(), st), kParamInvalid);
  EXPECT_EQ(v1(x.get(), y.get(), scaleOut.get(), bad), kParamInvalid);
  auto v2 = [&](int64_t dst, char* roundMode, int64_t dim, int64_t mode) {
    return aclnnDequantSwigluQuantV2GetWorkspaceSize(x.get(), nullptr, nullptr, nullptr, qs.get(), nullptr,
                                                     nullptr, false, st, dst, roundMode, dim, mode, 7.0,
                                                     1.702, 1.0, y.get(), scaleOut.get(), &ws, &ex);
  };
  EXPECT_EQ(v2(35, rint, -1, 0), kParamInvalid);  // fp8 output
  EXPECT_EQ(v2(2, round, -1, 0), kParamInvalid);  // int8 takes rint only
  EXPECT_EQ(v2(2, rint, 0, 0), kParamInvalid);    // activateDim other than the last
  EXPECT_EQ(v2(2, rint, -1, 3), kParamInvalid);   // swigluMode
  // Bytes: x 32 + quantScale 4 read; y 8 + scaleOut 8 written.
  ASSERT_EQ(v1(x.get(), y.get(), scaleOut.get(), st), 0);
  const Charged ch = chargedBytes(ex);
  EXPECT_EQ(ch.read, 32u + 4u);
  EXPECT_EQ(ch.written, 8u + 8u);
}

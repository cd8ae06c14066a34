// aclnnRotateQuant (Atlas A2 forms): block rotation on the cube, optional group clamp, per-row
// symmetric int8 / packed int4 quantisation, against a reference written here; errors; cost.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_rotate_quant.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

// Y = x rotated block by block (k columns at a time), clamped per group of 32 when 0 < alpha < 1.
std::vector<double> rotated(HostTensorBuf& x, HostTensorBuf& r, int64_t m, int64_t n, int64_t k,
                            double alpha) {
  std::vector<double> y(static_cast<size_t>(m * n), 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t b = 0; b < n; b += k)
      for (int64_t j = 0; j < k; ++j) {
        double p = 0;
        for (int64_t q = 0; q < k; ++q) p += x.get(i * n + b + q) * r.get(q * k + j);
        y[static_cast<size_t>(i * n + b + j)] = p;
      }
  if (alpha > 0 && alpha < 1) {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t g = 0; g < n; g += 32) {
        double mx = 0;
        for (int64_t j = g; j < std::min(n, g + 32); ++j)
          mx = std::max(mx, std::fabs(y[static_cast<size_t>(i * n + j)]));
        for (int64_t j = g; j < std::min(n, g + 32); ++j) {
          double& v = y[static_cast<size_t>(i * n + j)];
          v = std::clamp(v, -alpha * mx, alpha * mx);
        }
      }
  }
  return y;
}

}  // namespace

TEST(RotateQuant, RotatesClampsAndQuantisesPerRow) {
  std::mt19937 g(2881);
  const int64_t m = 5, n = 128, k = 64;
  for (aclDataType dt : {ACL_BF16, ACL_FLOAT16}) {
    for (double alpha : {0.0, 0.5}) {
      for (aclDataType yt : {ACL_INT8, ACL_INT32}) {
        HostTensorBuf x(dt, {m, n}), rot(dt, {k, k}), scale(ACL_FLOAT, {m}), al(ACL_BF16, {1});
        HostTensorBuf y(yt, {m, yt == ACL_INT8 ? n : n / 8});
        x.fillRandom(g, -1, 1);
        rot.fillRandom(g, -0.2, 0.2);
        al.set(0, alpha);
        char mode[] = "rint";
        ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                    return aclnnRotateQuantGetWorkspaceSize(x.get(), rot.get(),
                                                            alpha > 0 ? al.get() : nullptr, -1, mode, 0, 0.0,
                                                            false, y.get(), scale.get(), ws, ex);
                  }),
                  0)
            << aclGetRecentErrMsg();
        const std::vector<double> ref = rotated(x, rot, m, n, k, alpha);
        const double cmax = yt == ACL_INT8 ? 127 : 7;
        for (int64_t i = 0; i < m; ++i) {
          double mx = 0;
          for (int64_t j = 0; j < n; ++j) mx = std::max(mx, std::fabs(ref[static_cast<size_t>(i * n + j)]));
          EXPECT_NEAR(scale.get(i), mx / cmax, 1e-5 * mx) << i;
          for (int64_t j = 0; j < n; ++j) {
            const double v = ref[static_cast<size_t>(i * n + j)] / (mx / cmax);
            double got;
            if (yt == ACL_INT8) {
              got = y.get(i * n + j);
            } else {  // value j of the row sits in bits 4(j % 8).. of word j / 8
              const auto word = static_cast<uint32_t>(static_cast<int64_t>(y.get((i * n + j) / 8)));
              const int nib = static_cast<int>((word >> (4 * (j % 8))) & 0xF);
              got = nib >= 8 ? nib - 16 : nib;
            }
            // fp32 accumulation may move a value lying within 1e-3 of a rounding boundary.
            EXPECT_NEAR(got, std::nearbyint(v), std::fabs(std::fabs(v - std::trunc(v)) - 0.5) < 1e-3 ? 1 : 0)
                << dt << " " << alpha << " " << yt << " " << i << "," << j;
          }
        }
      }
    }
  }
}

TEST(RotateQuant, ErrorsAndWork) {
  HostTensorBuf x(ACL_BF16, {4, 64}), rot(ACL_BF16, {32, 32}), y(ACL_INT8, {4, 64}), s(ACL_FLOAT, {4}),
      rot16(ACL_FLOAT16, {32, 32}), rotBad(ACL_BF16, {48, 48}), yBad(ACL_INT8, {4, 63}),
      y8(ACL_FLOAT8_E4M3FN, {4, 64}), sBad(ACL_FLOAT16, {4}), al32(ACL_FLOAT, {1});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  char rint[] = "rint", bad[] = "nearest";
  auto call = [&](const aclTensor* a, const aclTensor* r, const aclTensor* al, int64_t axis, char* mode,
                  bool trans, aclTensor* yo, aclTensor* so) {
    return aclnnRotateQuantGetWorkspaceSize(a, r, al, axis, mode, 0, 0.0, trans, yo, so, &ws, &ex);
  };
  EXPECT_EQ(call(nullptr, rot.get(), nullptr, -1, rint, false, y.get(), s.get()), kParamNull);
  EXPECT_EQ(call(x.get(), rot.get(), nullptr, -1, rint, false, y.get(), nullptr), kParamNull);
  EXPECT_EQ(call(x.get(), rot16.get(), nullptr, -1, rint, false, y.get(), s.get()), kParamInvalid);
  EXPECT_EQ(call(x.get(), rotBad.get(), nullptr, -1, rint, false, y.get(), s.get()),
            kParamInvalid);  // 48 ∤ 64
  EXPECT_EQ(call(x.get(), rot.get(), nullptr, 0, rint, false, y.get(), s.get()), kParamInvalid);
  EXPECT_EQ(call(x.get(), rot.get(), nullptr, -1, bad, false, y.get(), s.get()), kParamInvalid);
  EXPECT_EQ(call(x.get(), rot.get(), nullptr, -1, rint, true, y.get(), s.get()), kParamInvalid);
  EXPECT_EQ(call(x.get(), rot.get(), nullptr, -1, rint, false, yBad.get(), s.get()), kParamInvalid);
  EXPECT_EQ(call(x.get(), rot.get(), nullptr, -1, rint, false, y8.get(), s.get()),
            kParamInvalid);  // MX: 950 only
  EXPECT_EQ(call(x.get(), rot.get(), nullptr, -1, rint, false, y.get(), sBad.get()), kParamInvalid);
  EXPECT_EQ(call(x.get(), rot.get(), al32.get(), -1, rint, false, y.get(), s.get()), kParamInvalid);
  // Work: (m·n/k)·k·k MACs at the fp16 rate; Y (fp32) through the vector unit once.
  ASSERT_EQ(call(x.get(), rot.get(), nullptr, -1, rint, false, y.get(), s.get()), 0);
  uint64_t macs = 0, vec = 0;
  for (const auto& t : npusim::aclnn::executorOp(ex)->work().tiles) {
    macs += t.cubeMacs;
    vec += t.vectorBytes;
  }
  aclDestroyAclOpExecutor(ex);
  EXPECT_EQ(macs, 4u * 64u * 32u);
  EXPECT_EQ(vec, 4u * 64u * 4u);
}

// aclnnFFN / FFNV2 / FFNV3 on host memory against y = act(x · W1 + b1) · W2 + b2 evaluated here
// in fp64 (hidden activations rounded to x's type, as the second matmul's input): each
// activation without experts on 3-D fp16/bf16 x, experts from host counts (V1), host end rows
// (V2 with tokensIndexFlag) and a device tensor (V3, counts and end rows); the refused forms;
// the cube work and vector pass charged, and the simulated time against the cube's rate.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_ffn.h"
#include "aclnnop/aclnn_ffn_v2.h"
#include "aclnnop/aclnn_ffn_v3.h"
#include "runtime/aclnn/base/executor.h"

using namespace aclnn_test;

namespace {

double activation(const std::string& a, double v) {
  if (a == "relu") return v > 0 ? v : 0;
  if (a == "silu") return v * (1 / (1 + std::exp(-v)));
  if (a == "fastgelu") return v / (1 + std::exp(-1.702 * v));
  // gelu, tanh form
  const double c = std::sqrt(2 / M_PI);
  return 0.5 * v * (1 + std::tanh(c * (v + 0.044715 * std::pow(v, 3))));
}

// Reference for rows [start, end) of x through expert e (weights [E, K, N] or [K, N] with e = 0).
void expectRows(HostTensorBuf& x, HostTensorBuf& w1, HostTensorBuf& w2, HostTensorBuf* b1, HostTensorBuf* b2,
                HostTensorBuf& y, const std::string& act, int64_t e, int64_t start, int64_t end) {
  const int64_t K1 = x.shape().back(), N1 = w1.shape().back(), N2 = w2.shape().back();
  const aclDataType dt = x.dtype();
  std::vector<double> h(static_cast<size_t>(N1));
  for (int64_t m = start; m < end; ++m) {
    for (int64_t n = 0; n < N1; ++n) {
      double acc = b1 != nullptr ? b1->get(e * N1 + n) : 0.0;
      for (int64_t k = 0; k < K1; ++k) acc += x.get(m * K1 + k) * w1.get((e * K1 + k) * N1 + n);
      h[static_cast<size_t>(n)] = roundTo(dt, activation(act, acc));
    }
    for (int64_t n = 0; n < N2; ++n) {
      double acc = b2 != nullptr ? b2->get(e * N2 + n) : 0.0;
      for (int64_t k = 0; k < N1; ++k) acc += h[static_cast<size_t>(k)] * w2.get((e * N1 + k) * N2 + n);
      // the hidden value is rounded from an fp32 sum: allow one rounding of it per term
      EXPECT_NEAR(y.get(m * N2 + n), acc, 6 * tol(dt) * std::max(1.0, std::fabs(acc)))
          << act << " row " << m << " col " << n;
    }
  }
}

int ffnV3(HostTensorBuf& x, HostTensorBuf& w1, HostTensorBuf& w2, HostTensorBuf* tokens, HostTensorBuf* b1,
          HostTensorBuf* b2, const char* act, bool tokensIndexFlag, HostTensorBuf& y,
          int64_t innerPrecise = 0) {
  return run([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnFFNV3GetWorkspaceSize(
        x.get(), w1.get(), w2.get(), tokens != nullptr ? tokens->get() : nullptr,
        b1 != nullptr ? b1->get() : nullptr, b2 != nullptr ? b2->get() : nullptr, nullptr, nullptr, nullptr,
        nullptr, nullptr, nullptr, nullptr, nullptr, act, innerPrecise, tokensIndexFlag, y.get(), ws, ex);
  });
}

}  // namespace

TEST(Ffn, EachActivationWithoutExpertsOnThreeDimensionalX) {
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    for (const char* act : {"relu", "gelu", "fastgelu", "SiLU"}) {
      std::mt19937 g(31);
      const int64_t K1 = 24, N1 = 40;
      const aclDataType biasType = dt == ACL_BF16 ? ACL_FLOAT : ACL_FLOAT16;
      HostTensorBuf x(dt, {2, 3, K1}), w1(dt, {K1, N1}), w2(dt, {N1, K1}), b1(biasType, {N1}),
          b2(biasType, {K1}), y(dt, {2, 3, K1});
      x.fillRandom(g, -1, 1);
      w1.fillRandom(g, -0.5, 0.5);
      w2.fillRandom(g, -0.5, 0.5);
      b1.fillRandom(g, -1, 1);
      b2.fillRandom(g, -1, 1);
      ASSERT_EQ(ffnV3(x, w1, w2, nullptr, &b1, &b2, act, false, y), 0) << aclGetRecentErrMsg();
      const std::string name = std::string(act) == "SiLU" ? "silu" : act;  // names are case-insensitive
      expectRows(x, w1, w2, &b1, &b2, y, name, 0, 0, 6);
    }
  }
}

TEST(Ffn, ExpertsFromHostCountsHostEndRowsAndADeviceTensor) {
  std::mt19937 g(32);
  const int64_t M = 9, K1 = 16, N1 = 20, E = 3;
  const int64_t counts[E] = {4, 0, 5};  // expert 1 takes no rows
  const aclDataType dt = ACL_FLOAT16;
  HostTensorBuf x(dt, {M, K1}), w1(dt, {E, K1, N1}), w2(dt, {E, N1, K1}), b1(ACL_FLOAT, {E, N1}),
      y(dt, {M, K1});
  x.fillRandom(g, -1, 1);
  w1.fillRandom(g, -0.5, 0.5);
  w2.fillRandom(g, -0.5, 0.5);
  b1.fillRandom(g, -1, 1);
  auto check = [&](const char* what) {
    SCOPED_TRACE(what);
    expectRows(x, w1, w2, &b1, nullptr, y, "silu", 0, 0, 4);
    expectRows(x, w1, w2, &b1, nullptr, y, "silu", 2, 4, 9);
  };
  {  // V1: host counts
    std::vector<int64_t> c(counts, counts + E);
    aclIntArray* arr = aclCreateIntArray(c.data(), c.size());
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnFFNGetWorkspaceSize(x.get(), w1.get(), w2.get(), arr, b1.get(), nullptr, nullptr,
                                                nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                                "silu", 1, y.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    aclDestroyIntArray(arr);
    check("V1 counts");
  }
  {  // V2: host end rows
    std::vector<int64_t> ends = {4, 4, 9};
    aclIntArray* arr = aclCreateIntArray(ends.data(), ends.size());
    for (int64_t i = 0; i < M * K1; ++i) y.set(i, 0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnFFNV2GetWorkspaceSize(x.get(), w1.get(), w2.get(), arr, b1.get(), nullptr,
                                                  nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                                  nullptr, nullptr, "silu", 0, true, y.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    aclDestroyIntArray(arr);
    check("V2 end rows");
  }
  for (bool cumulative : {false, true}) {  // V3: a device tensor of counts or end rows
    HostTensorBuf tokens(ACL_INT64, {E});
    for (int64_t e = 0; e < E; ++e) tokens.set(e, cumulative ? (e == 0 ? 4 : e == 1 ? 4 : 9) : counts[e]);
    for (int64_t i = 0; i < M * K1; ++i) y.set(i, 0);
    ASSERT_EQ(ffnV3(x, w1, w2, &tokens, &b1, nullptr, "silu", cumulative, y), 0) << aclGetRecentErrMsg();
    check(cumulative ? "V3 end rows" : "V3 counts");
  }
}

TEST(Ffn, RefusedArgumentsNameTheProblem) {
  const int64_t M = 4, K1 = 8, N1 = 16;
  HostTensorBuf x(ACL_FLOAT16, {M, K1}), w1(ACL_FLOAT16, {K1, N1}), w2(ACL_FLOAT16, {N1, K1}),
      y(ACL_FLOAT16, {M, K1});
  auto v3 = [&](const aclTensor* xt, const aclTensor* w1t, const aclTensor* w2t, const aclTensor* scale,
                const char* act, int64_t innerPrecise, const aclTensor* yt) {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    const int st = aclnnFFNV3GetWorkspaceSize(xt, w1t, w2t, nullptr, nullptr, nullptr, scale, nullptr,
                                              nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, act,
                                              innerPrecise, false, yt, &ws, &ex);
    if (st == 0) aclDestroyAclOpExecutor(ex);
    return st;
  };
  EXPECT_EQ(v3(x.get(), w1.get(), w2.get(), nullptr, "relu", 0, y.get()), 0);
  EXPECT_EQ(v3(nullptr, w1.get(), w2.get(), nullptr, "relu", 0, y.get()), 161001);
  EXPECT_EQ(v3(x.get(), w1.get(), w2.get(), nullptr, nullptr, 0, y.get()), 161001);
  EXPECT_EQ(v3(x.get(), w1.get(), w2.get(), nullptr, "tanh", 0, y.get()), 161002);
  EXPECT_EQ(v3(x.get(), w1.get(), w2.get(), nullptr, "swiglu", 0, y.get()), 161002);  // not supported
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not supported"), std::string::npos);
  HostTensorBuf scale(ACL_FLOAT, {1});
  EXPECT_EQ(v3(x.get(), w1.get(), w2.get(), scale.get(), "relu", 0, y.get()), 161002);  // quantised form
  EXPECT_EQ(v3(x.get(), w1.get(), w2.get(), nullptr, "relu", 2, y.get()), 161002);      // innerPrecise
  HostTensorBuf w2Bad(ACL_FLOAT16, {N1, K1 + 1}), yBf(ACL_BF16, {M, K1}), w1Bf(ACL_BF16, {K1, N1});
  EXPECT_EQ(v3(x.get(), w1.get(), w2Bad.get(), nullptr, "relu", 0, y.get()), 161002);  // N2 != K1
  EXPECT_EQ(v3(x.get(), w1.get(), w2.get(), nullptr, "relu", 0, yBf.get()), 161002);   // y's type
  EXPECT_EQ(v3(x.get(), w1Bf.get(), w2.get(), nullptr, "relu", 0, y.get()), 161002);   // weight's type
  HostTensorBuf xBf(ACL_BF16, {M, K1}), w2Bf(ACL_BF16, {N1, K1});
  EXPECT_EQ(v3(xBf.get(), w1Bf.get(), w2Bf.get(), nullptr, "relu", 1, yBf.get()),
            161002);  // bf16: precise only
  // expert counts that do not cover the rows of x
  HostTensorBuf we1(ACL_FLOAT16, {2, K1, N1}), we2(ACL_FLOAT16, {2, N1, K1});
  std::vector<int64_t> c = {1, 2};
  aclIntArray* arr = aclCreateIntArray(c.data(), c.size());
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnFFNGetWorkspaceSize(x.get(), we1.get(), we2.get(), arr, nullptr, nullptr, nullptr, nullptr,
                                     nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, "relu", 0, y.get(),
                                     &ws, &ex),
            161002);
  aclDestroyIntArray(arr);
}

// Cube work: M x K1 x N1 then M x N1 x K1 MACs, the hidden activations passed once through the
// vector unit; on the device the operator takes at least the cube's time for those MACs
// (configs/910b.json: 24 cube cores x 4096 fp16 MACs/cycle at 1.8 GHz) plus the device's 3 us
// task start (aicore.task_start_ns), and at most that plus every byte it moves at one core's
// 32 B/cycle MTE rate spread over the 24 cores plus 7 us of host launch and dispatch
// (host.op_launch_ns 5 us, sched.dispatch_ns, with margin).
TEST(Ffn, ChargesTwoMatmulsAndTakesTheCubeTime) {
  const int64_t M = 256, K1 = 512, N1 = 1024;
  {
    HostTensorBuf x(ACL_FLOAT16, {M, K1}), w1(ACL_FLOAT16, {K1, N1}), w2(ACL_FLOAT16, {N1, K1}),
        y(ACL_FLOAT16, {M, K1});
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnFFNV3GetWorkspaceSize(x.get(), w1.get(), w2.get(), nullptr, nullptr, nullptr, nullptr,
                                         nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                         "gelu", 0, false, y.get(), &ws, &ex),
              0);
    const Charged c = chargedBytes(ex);
    EXPECT_EQ(c.macs, static_cast<uint64_t>(2 * M * K1 * N1));
    EXPECT_EQ(c.vector, static_cast<uint64_t>(M * N1 * 2));  // the activation over the hidden rows
    EXPECT_EQ(c.written, static_cast<uint64_t>(M * N1 * 2 + M * K1 * 2));  // hidden rows, then y
  }
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  {
    DeviceBuf x(ACL_FLOAT16, {M, K1}), w1(ACL_FLOAT16, {K1, N1}), w2(ACL_FLOAT16, {N1, K1}),
        y(ACL_FLOAT16, {M, K1});
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnFFNV3GetWorkspaceSize(x.t, w1.t, w2.t, nullptr, nullptr, nullptr, nullptr, nullptr,
                                         nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, "relu", 0,
                                         false, y.t, &ws, &ex),
              0);
    const double us = simulatedMs(stream, [&] { return aclnnFFNV3(nullptr, ws, ex, stream); }) * 1e3;
    const double cubeUs = 2.0 * M * K1 * N1 / (24 * 4096.0) / 1.8e3;
    const double bytes = 2.0 * (M * K1 + K1 * N1 + 2 * M * N1 + N1 * K1 + M * K1);
    const double mteUs = bytes / (24 * 32.0) / 1.8e3;
    std::printf("FFN %ldx%ldx%ld: %.2f us (cube %.2f us, bytes at the MTE rate %.2f us)\n",
                static_cast<long>(M), static_cast<long>(K1), static_cast<long>(N1), us, cubeUs, mteUs);
    EXPECT_GT(us, cubeUs + 3);
    EXPECT_LT(us, cubeUs + 3 + mteUs + 7);
  }
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
}

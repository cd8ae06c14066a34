// aclnnMlaProlog (and V2WeightNz) on host memory at the documented sizes (He 7168, Hcq 1536, Hckv 512, D 128,
// Dr 64) with two heads and three tokens, against the docs' formulas evaluated here in fp64
// (bf16 roundings of the intermediates as the operator stores them, hence a bf16 tolerance):
// queryOut, queryRopeOut and the two cache rows each token scatters to (a token with index −1
// writes none; other rows keep their values); NZ weights given as the fractal view and as the
// logical view; the refused forms; the cube work charged.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_mla_prolog.h"
#include "aclnnop/aclnn_mla_prolog_v2_weight_nz.h"
#include "runtime/aclnn/base/executor.h"

using namespace aclnn_test;

namespace {

constexpr int64_t T = 3, He = 7168, Hcq = 1536, Hckv = 512, D = 128, Dr = 64, N = 2, kBlocks = 2, kBlock = 16;
const int64_t kIndex[T] = {5, -1, 20};

// A [K, Nw] bf16 matrix (row-major values) stored in FRACTAL_NZ: fractals of 16 x 16.
struct NzWeight {
  int64_t K, Nw;
  std::vector<double> values;
  std::vector<uint16_t> nz;
  aclTensor* t = nullptr;
  NzWeight(int64_t k, int64_t n, std::mt19937& g, double scale, bool fractalView) : K(k), Nw(n) {
    std::uniform_real_distribution<double> u(-scale, scale);
    values.resize(static_cast<size_t>(K * Nw));
    nz.resize(values.size());
    for (int64_t r = 0; r < K; ++r) {
      for (int64_t c = 0; c < Nw; ++c) {
        const double v = roundBf16(u(g));
        values[r * Nw + c] = v;
        nz[((c / 16) * K + r) * 16 + c % 16] = bf16Bits(v);
      }
    }
    const std::vector<int64_t> shape =
        fractalView ? std::vector<int64_t>{Nw / 16, K / 16, 16, 16} : std::vector<int64_t>{K, Nw};
    const std::vector<int64_t> strides = denseStrides(shape), storage = {K * Nw};
    t = aclCreateTensor(shape.data(), shape.size(), ACL_BF16, strides.data(), 0, ACL_FORMAT_FRACTAL_NZ,
                        storage.data(), 1, nz.data());
  }
  ~NzWeight() { aclDestroyTensor(t); }
  double at(int64_t r, int64_t c) const { return values[r * Nw + c]; }
};

struct Mla {
  std::mt19937 g{61};
  HostTensorBuf x{ACL_BF16, {T, He}}, wuk{ACL_BF16, {N, D, Hckv}}, gq{ACL_BF16, {Hcq}}, gkv{ACL_BF16, {Hckv}},
      sin{ACL_BF16, {T, Dr}}, cos{ACL_BF16, {T, Dr}}, index{ACL_INT64, {T}},
      kvCache{ACL_BF16, {kBlocks, kBlock, 1, Hckv}}, krCache{ACL_BF16, {kBlocks, kBlock, 1, Dr}},
      query{ACL_BF16, {T, N, Hckv}}, queryRope{ACL_BF16, {T, N, Dr}};
  NzWeight wdq, wuqqr, wdkvkr;
  explicit Mla(bool fractal)
      : wdq(He, Hcq, g, 0.02, fractal),
        wuqqr(Hcq, N * (D + Dr), g, 0.05, fractal),
        wdkvkr(He, Hckv + Dr, g, 0.02, fractal) {
    x.fillRandom(g, -1, 1);
    wuk.fillRandom(g, -0.1, 0.1);
    gq.fillRandom(g, 0.5, 1.5);
    gkv.fillRandom(g, 0.5, 1.5);
    std::uniform_real_distribution<double> angle(0, 6.28);
    for (int64_t i = 0; i < T * Dr; ++i) {
      const double a = angle(g);
      sin.set(i, std::sin(a));
      cos.set(i, std::cos(a));
    }
    for (int64_t t = 0; t < T; ++t) index.set(t, kIndex[t]);
    for (int64_t i = 0; i < kBlocks * kBlock * Hckv; ++i) kvCache.set(i, 3);
    for (int64_t i = 0; i < kBlocks * kBlock * Dr; ++i) krCache.set(i, 3);
  }
  int call(const char* mode = "PA_BSND", aclTensor* smooth = nullptr) {
    std::string m = mode;
    return run([&](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnMlaPrologGetWorkspaceSize(x.get(), wdq.t, wuqqr.t, wuk.get(), wdkvkr.t, gq.get(), gkv.get(),
                                            sin.get(), cos.get(), index.get(), kvCache.get(), krCache.get(),
                                            nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, smooth,
                                            1e-5, 1e-6, m.data(), query.get(), queryRope.get(), ws, ex);
    });
  }
  int callV2(aclTensor* qNopeScale) {
    char mode[] = "PA_BSND";
    return run([&](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnMlaPrologV2WeightNzGetWorkspaceSize(
          x.get(), wdq.t, wuqqr.t, wuk.get(), wdkvkr.t, gq.get(), gkv.get(), sin.get(), cos.get(),
          index.get(), kvCache.get(), krCache.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
          nullptr, 1e-5, 1e-6, mode, query.get(), queryRope.get(), qNopeScale, ws, ex);
    });
  }
  std::vector<double> matmulRow(int64_t t, const NzWeight& w, const std::vector<double>* in) {
    std::vector<double> out(static_cast<size_t>(w.Nw), 0.0);
    for (int64_t k = 0; k < w.K; ++k) {
      const double a = in != nullptr ? (*in)[k] : x.get(t * He + k);
      for (int64_t c = 0; c < w.Nw; ++c) out[c] += a * w.at(k, c);
    }
    for (double& v : out) v = roundBf16(v);
    return out;
  }
  static void rmsNorm(std::vector<double>& v, int64_t n, HostTensorBuf& gamma, double eps) {
    double sq = 0;
    for (int64_t i = 0; i < n; ++i) sq += v[i] * v[i];
    for (int64_t i = 0; i < n; ++i) v[i] = roundBf16(v[i] / std::sqrt(sq / n + eps) * gamma.get(i));
  }
  std::vector<double> rope(const double* v, int64_t t) {
    std::vector<double> out(Dr);
    for (int64_t j = 0; j < Dr / 2; ++j) {
      out[j] = v[2 * j] * cos.get(t * Dr + j) - v[2 * j + 1] * sin.get(t * Dr + j);
      out[Dr / 2 + j] = v[2 * j + 1] * cos.get(t * Dr + Dr / 2 + j) + v[2 * j] * sin.get(t * Dr + Dr / 2 + j);
    }
    return out;
  }
  void expect(const char* what) {
    auto near = [&](double got, double want, const std::string& where) {
      EXPECT_NEAR(got, want, 3 * tol(ACL_BF16) * std::max(1.0, std::fabs(want))) << what << " " << where;
    };
    for (int64_t t = 0; t < T; ++t) {
      std::vector<double> cq = matmulRow(t, wdq, nullptr);
      rmsNorm(cq, Hcq, gq, 1e-5);
      const std::vector<double> qcqr = matmulRow(t, wuqqr, &cq);
      for (int64_t n = 0; n < N; ++n) {
        const double* head = qcqr.data() + n * (D + Dr);
        for (int64_t c = 0; c < Hckv; c += 7) {  // every 7th column keeps the test quick
          double q = 0;
          for (int64_t k = 0; k < D; ++k) q += head[k] * wuk.get((n * D + k) * Hckv + c);
          near(query.get((t * N + n) * Hckv + c), q, "query");
        }
        const std::vector<double> qr = rope(head + D, t);
        for (int64_t j = 0; j < Dr; ++j) near(queryRope.get((t * N + n) * Dr + j), qr[j], "queryRope");
      }
      std::vector<double> ckvkr = matmulRow(t, wdkvkr, nullptr);
      rmsNorm(ckvkr, Hckv, gkv, 1e-6);
      const std::vector<double> kr = rope(ckvkr.data() + Hckv, t);
      if (kIndex[t] < 0) continue;
      for (int64_t c = 0; c < Hckv; ++c) near(kvCache.get(kIndex[t] * Hckv + c), ckvkr[c], "kvCache");
      for (int64_t j = 0; j < Dr; ++j) near(krCache.get(kIndex[t] * Dr + j), kr[j], "krCache");
    }
    for (int64_t row : {0, 6, 31}) {  // rows no token writes keep their values
      EXPECT_EQ(kvCache.get(row * Hckv), 3) << what;
      EXPECT_EQ(krCache.get(row * Dr + 5), 3) << what;
    }
  }
};

}  // namespace

TEST(MlaProlog, QueryRopeAndCachesFromFractalNzWeights) {
  Mla m(true);
  ASSERT_EQ(m.call(), 0) << aclGetRecentErrMsg();
  m.expect("fractal view");
}

// V2WeightNz computes the same; its dequantScaleQNopeOut belongs to the quantised query.
TEST(MlaProlog, V2WeightNzIsTheBf16FormWithoutItsQuantScale) {
  Mla m(true);
  ASSERT_EQ(m.callV2(nullptr), 0) << aclGetRecentErrMsg();
  m.expect("V2WeightNz");
  HostTensorBuf qNopeScale(ACL_FLOAT, {T, N, 1});
  EXPECT_EQ(m.callV2(qNopeScale.get()), 161002);
}

TEST(MlaProlog, LogicalNzViewRefusedFormsAndCubeWork) {
  Mla m(false);
  ASSERT_EQ(m.call(), 0) << aclGetRecentErrMsg();
  m.expect("logical view");
  EXPECT_EQ(m.call("PA_NZ"), 161002);  // not supported
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not supported"), std::string::npos);
  EXPECT_EQ(m.call("BSND"), 161002);
  HostTensorBuf smooth(ACL_FLOAT, {1, Hcq});
  EXPECT_EQ(m.call("PA_BSND", smooth.get()), 161002);  // the quantised form
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  char mode[] = "PA_BSND";
  EXPECT_EQ(aclnnMlaPrologGetWorkspaceSize(
                m.x.get(), m.wdq.t, m.wuqqr.t, m.wuk.get(), m.wdkvkr.t, m.gq.get(), m.gkv.get(), m.sin.get(),
                m.cos.get(), nullptr, m.kvCache.get(), m.krCache.get(), nullptr, nullptr, nullptr, nullptr,
                nullptr, nullptr, nullptr, 1e-5, 1e-5, mode, m.query.get(), m.queryRope.get(), &ws, &ex),
            161001);
  HostTensorBuf xSmall(ACL_BF16, {T, 4096});  // He outside {7168, 7680}
  EXPECT_EQ(
      aclnnMlaPrologGetWorkspaceSize(xSmall.get(), m.wdq.t, m.wuqqr.t, m.wuk.get(), m.wdkvkr.t, m.gq.get(),
                                     m.gkv.get(), m.sin.get(), m.cos.get(), m.index.get(), m.kvCache.get(),
                                     m.krCache.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                     nullptr, 1e-5, 1e-5, mode, m.query.get(), m.queryRope.get(), &ws, &ex),
      161002);
  ASSERT_EQ(
      aclnnMlaPrologGetWorkspaceSize(m.x.get(), m.wdq.t, m.wuqqr.t, m.wuk.get(), m.wdkvkr.t, m.gq.get(),
                                     m.gkv.get(), m.sin.get(), m.cos.get(), m.index.get(), m.kvCache.get(),
                                     m.krCache.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                     nullptr, 1e-5, 1e-5, mode, m.query.get(), m.queryRope.get(), &ws, &ex),
      0);
  // Four matmuls' MACs: x·Wdq, x·WdkvKr, cQ·WuqQr and the heads' qC·Wuk (the last as N groups of
  // ceil(T·N / N) = T rows).
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.macs, static_cast<uint64_t>(T * He * Hcq + T * He * (Hckv + Dr) + T * Hcq * N * (D + Dr) +
                                          T * N * D * Hckv));
  EXPECT_GT(c.vector, 0u);
}

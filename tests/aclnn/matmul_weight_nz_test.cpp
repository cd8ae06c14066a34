// Weights in FRACTAL_NZ (aclnnCalculateMatmulWeightSize(V2), aclnnTransMatmulWeight and the
// matmuls that read them: aclnnMatmulWeightNz, aclnnBatchMatMulWeightNz, aclnnMatmul) and
// aclnnTransposeBatchMatMul(WeightNz): the NZ layout element by element as the doc defines it,
// products against double-precision references written here, error codes and the work charged.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "aclnnop/aclnn_transpose_batch_mat_mul.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

int64_t align(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

uint64_t weightSize(std::vector<int64_t> shape, aclDataType dt) {
  aclIntArray* s = aclCreateIntArray(shape.data(), shape.size());
  uint64_t n = 0;
  EXPECT_EQ(aclnnCalculateMatmulWeightSizeV2(s, dt, &n), 0) << aclGetRecentErrMsg();
  aclDestroyIntArray(s);
  return n;
}

// A weight [.., K, N] in a buffer sized for its NZ form: dense [.., K, N] or, `transposed`, a
// dense [.., N, K] read through a [.., K, N] view. Values are set by their (b, k, n) position.
class NzWeight {
 public:
  NzWeight(aclDataType dt, int64_t batch, int64_t k, int64_t n, bool transposed)
      : dt_(dt), batch_(batch), k_(k), n_(n), transposed_(transposed) {
    std::vector<int64_t> shape = {k, n},
                         strides = transposed ? std::vector<int64_t>{1, k} : std::vector<int64_t>{n, 1};
    if (batch > 0) {
      shape.insert(shape.begin(), batch);
      strides.insert(strides.begin(), k * n);
    }
    const int64_t rows = transposed ? n : k, cols = transposed ? k : n;
    c0_ = 32 / static_cast<int64_t>(elemSize(dt));
    nzNumel_ = std::max<int64_t>(batch, 1) * align(rows, 16) * align(cols, c0_);
    bytes_.assign(static_cast<size_t>(nzNumel_) * elemSize(dt), 0xcd);
    tensor_ = aclCreateTensor(shape.data(), shape.size(), dt, strides.data(), 0, ACL_FORMAT_ND, &nzNumel_, 1,
                              bytes_.data());
  }
  ~NzWeight() { aclDestroyTensor(tensor_); }
  aclTensor* get() const { return tensor_; }
  // Dense (pre-conversion) position of element (b, k, n).
  int64_t denseIndex(int64_t b, int64_t k, int64_t n) const {
    return b * k_ * n_ + (transposed_ ? n * k_ + k : k * n_ + n);
  }
  // Where the doc's NZ layout puts element (b, k, n): the storage matrix [R, C] in fractals of
  // 16 x C0, column block after column block.
  int64_t nzIndex(int64_t b, int64_t k, int64_t n) const {
    const int64_t r = transposed_ ? n : k, c = transposed_ ? k : n;
    const int64_t rows = transposed_ ? n_ : k_, cols = transposed_ ? k_ : n_;
    return b * align(rows, 16) * align(cols, c0_) + ((c / c0_) * align(rows, 16) + r) * c0_ + c % c0_;
  }
  void setDense(int64_t b, int64_t k, int64_t n, double v) { encode(dt_, v, at(denseIndex(b, k, n))); }
  double getNz(int64_t b, int64_t k, int64_t n) { return decode(dt_, at(nzIndex(b, k, n))); }
  double getRaw(int64_t i) { return decode(dt_, at(i)); }
  int64_t nzNumel() const { return nzNumel_; }
  int64_t c0() const { return c0_; }

 private:
  unsigned char* at(int64_t i) { return bytes_.data() + i * static_cast<int64_t>(elemSize(dt_)); }
  aclDataType dt_;
  int64_t batch_, k_, n_;
  bool transposed_;
  int64_t c0_ = 16, nzNumel_ = 0;
  std::vector<unsigned char> bytes_;
  aclTensor* tensor_ = nullptr;
};

int transWeight(aclTensor* w) {
  return run(
      [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnTransMatmulWeightGetWorkspaceSize(w, ws, ex); });
}

// Fills a weight with random values and returns them by (b, k, n) in row-major order.
std::vector<double> fillWeight(NzWeight& w, HostTensorBuf& probe, std::mt19937& g, int64_t batch, int64_t k,
                               int64_t n) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> v(static_cast<size_t>(batch * k * n));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < k; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const double x = probe.stored(u(g));
        v[static_cast<size_t>((b * k + i) * n + j)] = x;
        w.setDense(b, i, j, x);
      }
    }
  }
  return v;
}

}  // namespace

TEST(MatmulWeightNz, CalculateWeightSizeAlignsAsDocumented) {
  EXPECT_EQ(weightSize({32, 16}, ACL_FLOAT16), 512u);
  EXPECT_EQ(weightSize({17, 33}, ACL_FLOAT16), 32u * 48u);
  EXPECT_EQ(weightSize({17, 33}, ACL_BF16), 32u * 48u);
  EXPECT_EQ(weightSize({17, 33}, ACL_INT8), 32u * 64u);  // int8 columns align to 32
  EXPECT_EQ(weightSize({2, 3, 17, 33}, ACL_FLOAT16), 6u * 32u * 48u);
  std::vector<int64_t> s = {17, 33};
  aclIntArray* a = aclCreateIntArray(s.data(), s.size());
  uint64_t n = 0;
  EXPECT_EQ(aclnnCalculateMatmulWeightSize(a, &n), 0);
  EXPECT_EQ(n, 32u * 48u);  // the fp16/bf16 formula
  EXPECT_EQ(aclnnCalculateMatmulWeightSizeV2(a, ACL_FLOAT, &n), kParamInvalid);
  EXPECT_EQ(aclnnCalculateMatmulWeightSize(a, nullptr), kParamNull);
  EXPECT_EQ(aclnnCalculateMatmulWeightSize(nullptr, &n), kParamNull);
  aclDestroyIntArray(a);
  for (std::vector<int64_t> bad : {std::vector<int64_t>{16}, {2, 0}, {1, 1, 1, 1, 1, 1, 1}}) {
    aclIntArray* b = aclCreateIntArray(bad.data(), bad.size());
    EXPECT_EQ(aclnnCalculateMatmulWeightSize(b, &n), kParamInvalid) << bad.size();
    aclDestroyIntArray(b);
  }
}

TEST(MatmulWeightNz, TransMatmulWeightWritesTheNzLayout) {
  std::mt19937 g(281);
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16, ACL_INT8}) {
    for (bool transposed : {false, true}) {
      const int64_t batch = 2, k = 20, n = 37;
      NzWeight w(dt, batch, k, n, transposed);
      HostTensorBuf probe(dt, {1});
      std::vector<double> v = fillWeight(w, probe, g, batch, k, n);
      if (dt == ACL_INT8) {
        for (auto& x : v) x = 0;  // random in [-1, 1) floors to -1 or 0: use positions instead
        for (int64_t b = 0; b < batch; ++b)
          for (int64_t i = 0; i < k; ++i)
            for (int64_t j = 0; j < n; ++j) {
              const double x = static_cast<double>((b * 7 + i * 3 + j) % 200 - 100);
              v[static_cast<size_t>((b * k + i) * n + j)] = x;
              w.setDense(b, i, j, x);
            }
      }
      ASSERT_EQ(transWeight(w.get()), 0) << aclGetRecentErrMsg();
      aclFormat f = ACL_FORMAT_ND;
      ASSERT_EQ(aclGetFormat(w.get(), &f), 0);
      EXPECT_EQ(f, ACL_FORMAT_FRACTAL_NZ);
      std::vector<bool> used(static_cast<size_t>(w.nzNumel()), false);
      for (int64_t b = 0; b < batch; ++b)
        for (int64_t i = 0; i < k; ++i)
          for (int64_t j = 0; j < n; ++j) {
            ASSERT_EQ(w.getNz(b, i, j), v[static_cast<size_t>((b * k + i) * n + j)])
                << dt << " " << transposed << " " << b << "," << i << "," << j;
            used[static_cast<size_t>(w.nzIndex(b, i, j))] = true;
          }
      for (int64_t i = 0; i < w.nzNumel(); ++i) {
        if (!used[static_cast<size_t>(i)]) {
          ASSERT_EQ(w.getRaw(i), 0) << "padding " << i;
        }
      }
      // The storage shape names the fractals: (batch, C / C0, R / 16, 16, C0).
      int64_t* dims = nullptr;
      uint64_t nd = 0;
      ASSERT_EQ(aclGetStorageShape(w.get(), &dims, &nd), 0);
      const int64_t rows = transposed ? n : k, cols = transposed ? k : n;
      EXPECT_EQ(
          std::vector<int64_t>(dims, dims + nd),
          (std::vector<int64_t>{batch, align(cols, w.c0()) / w.c0(), align(rows, 16) / 16, 16, w.c0()}));
      delete[] dims;
    }
  }
}

TEST(MatmulWeightNz, TransMatmulWeightErrors) {
  HostTensorBuf f32(ACL_FLOAT, {16, 16}), v1(ACL_FLOAT16, {16}), empty(ACL_FLOAT16, {0, 16}),
      gap(ACL_FLOAT16, {16, 16}, {32, 1}, 0);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnTransMatmulWeightGetWorkspaceSize(nullptr, &ws, &ex), kParamNull);
  EXPECT_EQ(aclnnTransMatmulWeightGetWorkspaceSize(f32.get(), &ws, &ex), kParamInvalid);
  EXPECT_EQ(aclnnTransMatmulWeightGetWorkspaceSize(v1.get(), &ws, &ex), kParamInvalid);
  EXPECT_EQ(aclnnTransMatmulWeightGetWorkspaceSize(empty.get(), &ws, &ex), kParamInvalid);
  EXPECT_EQ(aclnnTransMatmulWeightGetWorkspaceSize(gap.get(), &ws, &ex), kParamInvalid);  // rows not dense
  // A weight already converted is not converted again.
  NzWeight w(ACL_FLOAT16, 0, 16, 16, false);
  ASSERT_EQ(transWeight(w.get()), 0);
  EXPECT_EQ(aclnnTransMatmulWeightGetWorkspaceSize(w.get(), &ws, &ex), kParamInvalid);
}

TEST(MatmulWeightNz, MatmulsReadTheConvertedWeight) {
  std::mt19937 g(282);
  const int64_t m = 9, k = 40, n = 23;
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    for (bool transposed : {false, true}) {
      for (bool plainMatmul : {false, true}) {
        HostTensorBuf self(dt, {m, k}), out(dt, {m, n});
        self.fillRandom(g, -1, 1);
        NzWeight w(dt, 0, k, n, transposed);
        std::vector<double> v = fillWeight(w, self, g, 1, k, n);
        ASSERT_EQ(transWeight(w.get()), 0) << aclGetRecentErrMsg();
        ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                    return plainMatmul
                               ? aclnnMatmulGetWorkspaceSize(self.get(), w.get(), out.get(), 0, ws, ex)
                               : aclnnMatmulWeightNzGetWorkspaceSize(self.get(), w.get(), out.get(), 0, ws,
                                                                     ex);
                  }),
                  0)
            << aclGetRecentErrMsg();
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < n; ++j) {
            double p = 0;
            for (int64_t q = 0; q < k; ++q) p += self.get(i * k + q) * v[static_cast<size_t>(q * n + j)];
            EXPECT_NEAR(out.get(i * n + j), p, 4 * tol(dt) * std::max(1.0, std::fabs(p)))
                << dt << " " << transposed << " " << plainMatmul << " " << i << "," << j;
          }
      }
    }
  }
}

TEST(MatmulWeightNz, BatchMatMulWeightNz) {
  std::mt19937 g(283);
  const int64_t b = 3, m = 5, k = 33, n = 18;
  HostTensorBuf self(ACL_FLOAT16, {b, m, k}), out(ACL_FLOAT16, {b, m, n});
  self.fillRandom(g, -1, 1);
  NzWeight w(ACL_FLOAT16, b, k, n, false);
  std::vector<double> v = fillWeight(w, self, g, b, k, n);
  ASSERT_EQ(transWeight(w.get()), 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBatchMatMulWeightNzGetWorkspaceSize(self.get(), w.get(), out.get(), 0, ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int64_t z = 0; z < b; ++z)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double p = 0;
        for (int64_t q = 0; q < k; ++q)
          p += self.get((z * m + i) * k + q) * v[static_cast<size_t>((z * k + q) * n + j)];
        EXPECT_NEAR(out.get((z * m + i) * n + j), p, 4 * tol(ACL_FLOAT16) * std::max(1.0, std::fabs(p)));
      }
}

TEST(MatmulWeightNz, WeightNzErrorsAndWork) {
  HostTensorBuf self(ACL_FLOAT16, {4, 32}), nd(ACL_FLOAT16, {32, 16}), out(ACL_FLOAT16, {4, 16}),
      self3(ACL_FLOAT16, {1, 4, 32}), out3(ACL_FLOAT16, {1, 4, 16});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  // An ND weight is refused by the WeightNz forms (aclnnMatmul still takes it).
  EXPECT_EQ(aclnnMatmulWeightNzGetWorkspaceSize(self.get(), nd.get(), out.get(), 0, &ws, &ex), kParamInvalid);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("FRACTAL_NZ"), std::string::npos);
  EXPECT_EQ(aclnnMatmulWeightNzGetWorkspaceSize(nullptr, nd.get(), out.get(), 0, &ws, &ex), kParamNull);
  NzWeight w(ACL_FLOAT16, 0, 32, 16, false);
  ASSERT_EQ(transWeight(w.get()), 0);
  EXPECT_EQ(aclnnMatmulWeightNzGetWorkspaceSize(self3.get(), w.get(), out3.get(), 0, &ws, &ex),
            kParamInvalid);
  EXPECT_EQ(aclnnMatmulWeightNzGetWorkspaceSize(self.get(), w.get(), out3.get(), 0, &ws, &ex), kParamInvalid);
  // Cube work: M·N·K MACs at the fp16 rate; the weight's NZ storage is what the executor holds.
  ASSERT_EQ(aclnnMatmulWeightNzGetWorkspaceSize(self.get(), w.get(), out.get(), 0, &ws, &ex), 0);
  uint64_t macs = 0;
  for (const auto& t : npusim::aclnn::executorOp(ex)->work().tiles) macs += t.cubeMacs;
  EXPECT_EQ(macs, 4u * 16u * 32u);
  aclDestroyAclOpExecutor(ex);
  // The conversion reads the dense weight once and writes its NZ storage (padding included) once.
  NzWeight odd(ACL_FLOAT16, 0, 20, 24, false);
  ASSERT_EQ(aclnnTransMatmulWeightGetWorkspaceSize(odd.get(), &ws, &ex), 0);
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, 20u * 24u * 2u);
  EXPECT_EQ(c.written, static_cast<uint64_t>(odd.nzNumel()) * 2u);
  EXPECT_EQ(odd.nzNumel(), 32 * 32);
}

TEST(TransposeBatchMatMul, PermutedOperandsAndOutput) {
  std::mt19937 g(284);
  const int64_t B = 4, M = 3, K = 20, N = 6;
  for (bool swapX2 : {false, true}) {
    for (int32_t split : {1, 2}) {
      for (bool nz : {false, true}) {
        HostTensorBuf x1(ACL_FLOAT16, {M, B, K});  // permX1 [1, 0, 2]
        x1.fillRandom(g, -1, 1);
        NzWeight x2(ACL_FLOAT16, B, K, N, swapX2);  // [B, K, N] or [B, N, K] read transposed
        std::vector<double> v = fillWeight(x2, x1, g, B, K, N);
        std::vector<int64_t> outShape =
            split == 1 ? std::vector<int64_t>{M, B, N} : std::vector<int64_t>{split, M, B * N / split};
        HostTensorBuf out(ACL_FLOAT16, outShape);
        // The weight view is [B, K, N]; with permX2 [0, 2, 1] the operator reads x2 = that view's
        // transpose [B, N, K] and permutes it back.
        aclTensor* x2Arg = x2.get();
        aclTensor* x2T = nullptr;
        if (swapX2) {
          std::vector<int64_t> sh = {B, N, K}, st = {K * N, K, 1};
          int64_t nzn = x2.nzNumel();
          void* addr = nullptr;
          ASSERT_EQ(aclGetRawTensorAddr(x2.get(), &addr), 0);
          x2T = aclCreateTensor(sh.data(), 3, ACL_FLOAT16, st.data(), 0, ACL_FORMAT_ND, &nzn, 1, addr);
          x2Arg = x2T;
        }
        if (nz) {
          ASSERT_EQ(transWeight(x2Arg), 0) << aclGetRecentErrMsg();
        }
        std::vector<int64_t> p1 = {1, 0, 2},
                             p2 = swapX2 ? std::vector<int64_t>{0, 2, 1} : std::vector<int64_t>{0, 1, 2},
                             py = {1, 0, 2};
        aclIntArray* a1 = aclCreateIntArray(p1.data(), 3);
        aclIntArray* a2 = aclCreateIntArray(p2.data(), 3);
        aclIntArray* ay = aclCreateIntArray(py.data(), 3);
        ASSERT_EQ(
            run([&](uint64_t* ws, aclOpExecutor** ex) {
              return nz ? aclnnTransposeBatchMatMulWeightNzGetWorkspaceSize(
                              x1.get(), x2Arg, nullptr, nullptr, a1, a2, ay, 0, split, out.get(), ws, ex)
                        : aclnnTransposeBatchMatMulGetWorkspaceSize(x1.get(), x2Arg, nullptr, nullptr, a1, a2,
                                                                    ay, 0, split, out.get(), ws, ex);
            }),
            0)
            << aclGetRecentErrMsg();
        for (int64_t b = 0; b < B; ++b)
          for (int64_t m = 0; m < M; ++m)
            for (int64_t n = 0; n < N; ++n) {
              double p = 0;
              for (int64_t k = 0; k < K; ++k)
                p += x1.get((m * B + b) * K + k) * v[static_cast<size_t>((b * K + k) * N + n)];
              const int64_t bf = B / split;
              const int64_t idx =
                  split == 1 ? (m * B + b) * N + n : ((b / bf) * M + m) * (bf * N) + (b % bf) * N + n;
              EXPECT_NEAR(out.get(idx), p, 4 * tol(ACL_FLOAT16) * std::max(1.0, std::fabs(p)))
                  << swapX2 << split << nz << " " << b << "," << m << "," << n;
            }
        aclDestroyIntArray(a1);
        aclDestroyIntArray(a2);
        aclDestroyIntArray(ay);
        if (x2T != nullptr) aclDestroyTensor(x2T);
      }
    }
  }
}

TEST(TransposeBatchMatMul, Errors) {
  HostTensorBuf x1(ACL_FLOAT16, {3, 4, 8}), x2(ACL_FLOAT16, {4, 8, 5}), out(ACL_FLOAT16, {3, 4, 5}),
      bad(ACL_FLOAT16, {3, 4, 6}), bias(ACL_FLOAT16, {5}), x2d(ACL_FLOAT16, {8, 5});
  std::vector<int64_t> p102 = {1, 0, 2}, p012 = {0, 1, 2}, p210 = {2, 1, 0};
  aclIntArray* a102 = aclCreateIntArray(p102.data(), 3);
  aclIntArray* a012 = aclCreateIntArray(p012.data(), 3);
  aclIntArray* a210 = aclCreateIntArray(p210.data(), 3);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto call = [&](const aclTensor* a, const aclTensor* b, const aclTensor* bi, const aclIntArray* q1,
                  const aclIntArray* q2, const aclIntArray* qy, int8_t cmt, int32_t f, aclTensor* o) {
    return aclnnTransposeBatchMatMulGetWorkspaceSize(a, b, bi, nullptr, q1, q2, qy, cmt, f, o, &ws, &ex);
  };
  EXPECT_EQ(call(x1.get(), x2.get(), nullptr, a102, a012, a102, 0, 1, out.get()), 0) << aclGetRecentErrMsg();
  aclDestroyAclOpExecutor(ex);
  EXPECT_EQ(call(nullptr, x2.get(), nullptr, a102, a012, a102, 0, 1, out.get()), kParamNull);
  EXPECT_EQ(call(x1.get(), x2.get(), nullptr, nullptr, a012, a102, 0, 1, out.get()), kParamNull);
  EXPECT_EQ(call(x1.get(), x2.get(), bias.get(), a102, a012, a102, 0, 1, out.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), x2.get(), nullptr, a210, a012, a102, 0, 1, out.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), x2.get(), nullptr, a102, a102, a102, 0, 1, out.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), x2.get(), nullptr, a102, a012, a012, 0, 1, out.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), x2.get(), nullptr, a102, a012, a102, 4, 1, out.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), x2.get(), nullptr, a102, a012, a102, 0, 3, out.get()), kParamInvalid);  // 4 % 3
  EXPECT_EQ(call(x1.get(), x2.get(), nullptr, a102, a012, a102, 0, 1, bad.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), x2d.get(), nullptr, a102, a012, a102, 0, 1, out.get()), kParamInvalid);
  aclDestroyIntArray(a102);
  aclDestroyIntArray(a012);
  aclDestroyIntArray(a210);
}

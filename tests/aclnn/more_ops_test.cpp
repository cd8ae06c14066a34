// The second set of operators, run on host memory (phase 1 + the operator's kernel) against
// plain double-precision references written here: Pow (tensor/scalar and tensor/tensor), Mean,
// Amax, ArgMax, LayerNorm, Addmm, SplitTensor / SplitWithSize, IndexSelect, Embedding, Gather,
// InplaceZero, InplaceFillScalar, Arange; their documented error codes; and the MTE traffic
// their cost models charge (every byte read and written once).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_fill_tensor.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_ones.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_real.h"
#include "aclnnop/aclnn_split_tensor.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "aclnnop/aclnn_zero.h"
#include "runtime/aclnn/ops/registry.h"

using namespace aclnn_test;

namespace {

using Phase1 = std::function<int(uint64_t*, aclOpExecutor**)>;

constexpr int kParamNull = 161001, kParamInvalid = 161002;

// Bytes phase 1's executor reads and writes through MTE (its cost model's traffic).
struct Traffic {
  uint64_t read = 0, written = 0, vector = 0, macs = 0;
};
Traffic traffic(const Phase1& p1) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  Traffic t;
  EXPECT_EQ(p1(&ws, &ex), 0) << aclGetRecentErrMsg();
  if (ex == nullptr) return t;
  for (const auto& tile : npusim::aclnn::executorOp(ex)->work().tiles) {
    t.read += tile.readBytes;
    t.written += tile.writeBytes;
    t.vector += tile.vectorBytes;
    t.macs += tile.cubeMacs;
  }
  aclDestroyAclOpExecutor(ex);
  return t;
}

using ScalarPtr = std::unique_ptr<aclScalar, decltype(&aclDestroyScalar)>;
ScalarPtr scalar(aclDataType dt, double v) { return ScalarPtr(makeScalar(dt, v), aclDestroyScalar); }

using IntArrayPtr = std::unique_ptr<aclIntArray, decltype(&aclDestroyIntArray)>;
IntArrayPtr ints(std::vector<int64_t> v) {
  return IntArrayPtr(aclCreateIntArray(v.data(), v.size()), aclDestroyIntArray);
}

}  // namespace

TEST(MoreOps, PowTensorScalarAndTensorTensor) {
  std::mt19937 g(11);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf x(dt, {4, 9}), e(dt, {9}), y(dt, {4, 9});
    x.fillRandom(g, 0.1, 3);
    e.fillRandom(g, -2, 2);
    auto two = scalar(ACL_FLOAT, 2.5);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnPowTensorScalarGetWorkspaceSize(x.get(), two.get(), y.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < x.numel(); ++i)
      expectNear(y.get(i), y.stored(std::pow(x.get(i), 2.5)), dt, "pow ts");
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnPowTensorTensorGetWorkspaceSize(x.get(), e.get(), y.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < x.numel(); ++i)
      expectNear(y.get(i), y.stored(std::pow(x.get(i), e.get(i % 9))), dt, "pow tt");
  }
  // Integers raise exactly (wrapping), in place too; a negative exponent truncates 1/x^n.
  HostTensorBuf a(ACL_INT32, {5}), b(ACL_INT32, {5});
  const double as[] = {-3, 2, 7, 1, -1}, bs[] = {3, 10, 0, -2, -3};
  for (int i = 0; i < 5; ++i) {
    a.set(i, as[i]);
    b.set(i, bs[i]);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplacePowTensorTensorGetWorkspaceSize(a.get(), b.get(), ws, ex);
            }),
            0);
  const double want[] = {-27, 1024, 1, 1, -1};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(a.get(i), want[i]) << i;
  auto three = scalar(ACL_INT64, 3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplacePowTensorScalarGetWorkspaceSize(b.get(), three.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(b.get(1), 1000);
  EXPECT_EQ(b.get(3), -8);
  // Errors: bool is not accepted, shapes must broadcast to out, null exponent.
  HostTensorBuf flags(ACL_BOOL, {5}), wrong(ACL_INT32, {4});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnPowTensorScalarGetWorkspaceSize(flags.get(), three.get(), flags.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnPowTensorTensorGetWorkspaceSize(a.get(), b.get(), wrong.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnPowTensorScalarGetWorkspaceSize(a.get(), nullptr, a.get(), ws, ex);
            }),
            kParamNull);
}

TEST(MoreOps, MeanAmaxArgMaxReduceTheGivenDims) {
  std::mt19937 g(5);
  const std::vector<int64_t> shape{3, 4, 5};
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf x(dt, shape);
    x.fillRandom(g, -4, 4);
    // Mean over {0, 2} keeping dims, in fp32 out; Amax over {-1}.
    HostTensorBuf m(ACL_FLOAT, {1, 4, 1}), mx(dt, {3, 4});
    auto d02 = ints({0, 2}), dlast = ints({-1});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnMeanGetWorkspaceSize(x.get(), d02.get(), true, ACL_FLOAT, m.get(), ws, ex);
              }),
              0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnAmaxGetWorkspaceSize(x.get(), dlast.get(), false, mx.get(), ws, ex);
              }),
              0);
    for (int64_t j = 0; j < 4; ++j) {
      double s = 0;
      for (int64_t i = 0; i < 3; ++i)
        for (int64_t k = 0; k < 5; ++k) s += x.get((i * 4 + j) * 5 + k);
      expectNear(m.get(j), s / 15, ACL_FLOAT, "mean");
    }
    for (int64_t r = 0; r < 12; ++r) {
      double best = -INFINITY;
      for (int64_t k = 0; k < 5; ++k) best = std::max(best, x.get(r * 5 + k));
      EXPECT_EQ(mx.get(r), best) << r;
    }
    // ArgMax along dim 1 into int64, keepdim.
    HostTensorBuf am(ACL_INT64, {3, 1, 5});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnArgMaxGetWorkspaceSize(x.get(), 1, true, am.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < 3; ++i) {
      for (int64_t k = 0; k < 5; ++k) {
        int64_t best = 0;
        for (int64_t j = 1; j < 4; ++j)
          if (x.get((i * 4 + j) * 5 + k) > x.get((i * 4 + best) * 5 + k)) best = j;
        EXPECT_EQ(am.get(i * 5 + k), best) << i << "," << k;
      }
    }
  }
  // Empty dims reduce everything; integers reduce exactly; NaN wins in Amax and ArgMax.
  HostTensorBuf xi(ACL_INT32, {2, 3}), all(ACL_FLOAT, {}), imax(ACL_INT32, {});
  for (int i = 0; i < 6; ++i) xi.set(i, i * 7 - 20);
  auto none = ints({});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMeanGetWorkspaceSize(xi.get(), none.get(), false, ACL_FLOAT, all.get(), ws, ex);
            }),
            0);
  EXPECT_DOUBLE_EQ(all.get(0), (-20 - 13 - 6 + 1 + 8 + 15) / 6.0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAmaxGetWorkspaceSize(xi.get(), none.get(), false, imax.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(imax.get(0), 15);
  HostTensorBuf xn(ACL_FLOAT, {4}), nmax(ACL_FLOAT, {}), narg(ACL_INT32, {});
  const double xs[] = {1, NAN, 9, NAN};
  for (int i = 0; i < 4; ++i) xn.set(i, xs[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAmaxGetWorkspaceSize(xn.get(), none.get(), false, nmax.get(), ws, ex);
            }),
            0);
  EXPECT_TRUE(std::isnan(nmax.get(0)));
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnArgMaxGetWorkspaceSize(xn.get(), 0, false, narg.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(narg.get(0), 1);
  // Errors: dim out of range / repeated, dtype not out's type, ArgMax into a float, Amax type change.
  HostTensorBuf x(ACL_FLOAT, shape), o(ACL_FLOAT, {3, 4}), oh(ACL_FLOAT16, {3, 4});
  auto bad = ints({3}), twice = ints({1, -2}), d2 = ints({2});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMeanGetWorkspaceSize(x.get(), bad.get(), false, ACL_FLOAT, o.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAmaxGetWorkspaceSize(x.get(), twice.get(), false, o.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMeanGetWorkspaceSize(x.get(), d2.get(), false, ACL_FLOAT16, o.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnArgMaxGetWorkspaceSize(x.get(), 2, false, o.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAmaxGetWorkspaceSize(x.get(), d2.get(), false, oh.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAmaxGetWorkspaceSize(x.get(), nullptr, false, o.get(), ws, ex);
            }),
            kParamNull);
}

TEST(MoreOps, LayerNormWithAndWithoutAffineAndStatistics) {
  std::mt19937 g(9);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf x(dt, {2, 3, 8}), w(dt, {8}), b(dt, {8}), y(dt, {2, 3, 8}), mean(dt, {2, 3, 1}),
        rstd(dt, {2, 3, 1}), y2(dt, {2, 3, 8});
    x.fillRandom(g, -3, 5);
    w.fillRandom(g, 0.5, 1.5);
    b.fillRandom(g, -1, 1);
    auto ns = ints({8});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnLayerNormGetWorkspaceSize(x.get(), ns.get(), w.get(), b.get(), 1e-5, y.get(),
                                                      mean.get(), rstd.get(), ws, ex);
              }),
              0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnLayerNormGetWorkspaceSize(x.get(), ns.get(), nullptr, nullptr, 1e-5, y2.get(),
                                                      nullptr, nullptr, ws, ex);
              }),
              0);
    for (int64_t r = 0; r < 6; ++r) {
      double s = 0, ss = 0;
      for (int64_t i = 0; i < 8; ++i) s += x.get(r * 8 + i);
      const double m = s / 8;
      for (int64_t i = 0; i < 8; ++i) ss += (x.get(r * 8 + i) - m) * (x.get(r * 8 + i) - m);
      const double rs = 1 / std::sqrt(ss / 8 + 1e-5);
      expectNear(mean.get(r), mean.stored(m), dt, "mean");
      expectNear(rstd.get(r), rstd.stored(rs), dt, "rstd");
      for (int64_t i = 0; i < 8; ++i) {
        const double n = (x.get(r * 8 + i) - m) * rs;
        expectNear(y.get(r * 8 + i), y.stored(n * w.get(i) + b.get(i)), dt, "layer norm");
        expectNear(y2.get(r * 8 + i), y2.stored(n), dt, "layer norm without affine");
      }
    }
  }
  // Errors: normalizedShape not the trailing dims, weight of the wrong shape, out of another type.
  HostTensorBuf x(ACL_FLOAT, {2, 8}), w(ACL_FLOAT, {4}), y(ACL_FLOAT, {2, 8}), yh(ACL_FLOAT16, {2, 8});
  auto ns4 = ints({4}), ns8 = ints({8}), nsEmpty = ints({}), ns3 = ints({1, 2, 8});
  for (const aclIntArray* ns : {ns4.get(), nsEmpty.get(), ns3.get()}) {
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnLayerNormGetWorkspaceSize(x.get(), ns, nullptr, nullptr, 1e-5, y.get(), nullptr,
                                                      nullptr, ws, ex);
              }),
              kParamInvalid);
  }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLayerNormGetWorkspaceSize(x.get(), ns8.get(), w.get(), nullptr, 1e-5, y.get(),
                                                    nullptr, nullptr, ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLayerNormGetWorkspaceSize(x.get(), ns8.get(), nullptr, nullptr, 1e-5, yh.get(),
                                                    nullptr, nullptr, ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLayerNormGetWorkspaceSize(nullptr, ns8.get(), nullptr, nullptr, 1e-5, y.get(),
                                                    nullptr, nullptr, ws, ex);
            }),
            kParamNull);
}

TEST(MoreOps, AddmmScalesAndBroadcastsTheAddend) {
  std::mt19937 g(4);
  const int64_t M = 5, K = 7, N = 6;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf a(dt, {M, K}), b(dt, {K, N}), bias(dt, {N}), out(dt, {M, N}), acc(dt, {M, N});
    a.fillRandom(g, -1, 1);
    b.fillRandom(g, -1, 1);
    bias.fillRandom(g, -2, 2);
    acc.fillRandom(g, -2, 2);
    std::vector<double> acc0(M * N);
    for (int64_t i = 0; i < M * N; ++i) acc0[static_cast<size_t>(i)] = acc.get(i);
    auto beta = scalar(ACL_FLOAT, 0.5), alpha = scalar(ACL_FLOAT, 2.0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnAddmmGetWorkspaceSize(bias.get(), a.get(), b.get(), beta.get(), alpha.get(),
                                                  out.get(), 0, ws, ex);
              }),
              0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceAddmmGetWorkspaceSize(acc.get(), a.get(), b.get(), beta.get(), alpha.get(),
                                                         0, ws, ex);
              }),
              0);
    for (int64_t m = 0; m < M; ++m) {
      for (int64_t n = 0; n < N; ++n) {
        double p = 0;
        for (int64_t k = 0; k < K; ++k) p += a.get(m * K + k) * b.get(k * N + n);
        // Products are rounded to the operand type before the epilogue: allow two roundings.
        const double t = 2 * tol(dt) * std::max(1.0, std::fabs(p)) * 2;
        EXPECT_NEAR(out.get(m * N + n), 0.5 * bias.get(n) + 2 * p, t) << m << "," << n;
        EXPECT_NEAR(acc.get(m * N + n), 0.5 * acc0[static_cast<size_t>(m * N + n)] + 2 * p, t)
            << m << "," << n;
      }
    }
  }
  // Errors: an addend that does not broadcast, 3-D mat1, null beta.
  HostTensorBuf a(ACL_FLOAT, {M, K}), a3(ACL_FLOAT, {1, M, K}), b(ACL_FLOAT, {K, N}), bad(ACL_FLOAT, {4}),
      out(ACL_FLOAT, {M, N});
  auto one = scalar(ACL_FLOAT, 1);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddmmGetWorkspaceSize(bad.get(), a.get(), b.get(), one.get(), one.get(), out.get(),
                                                0, ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddmmGetWorkspaceSize(out.get(), a3.get(), b.get(), one.get(), one.get(), out.get(),
                                                0, ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddmmGetWorkspaceSize(out.get(), a.get(), b.get(), nullptr, one.get(), out.get(), 0,
                                                ws, ex);
            }),
            kParamNull);
}

TEST(MoreOps, SplitTensorAndSplitWithSize) {
  HostTensorBuf x(ACL_FLOAT16, {7, 3});
  for (int i = 0; i < 21; ++i) x.set(i, i);
  HostTensorBuf p0(ACL_FLOAT16, {3, 3}), p1(ACL_FLOAT16, {3, 3}), p2(ACL_FLOAT16, {1, 3});
  const aclTensor* parts[] = {listHandle(p0), listHandle(p1), listHandle(p2)};
  aclTensorList* list = aclCreateTensorList(parts, 3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSplitTensorGetWorkspaceSize(x.get(), 3, 0, list, ws, ex);
            }),
            0);
  for (int i = 0; i < 9; ++i) {
    EXPECT_EQ(p0.get(i), i);
    EXPECT_EQ(p1.get(i), 9 + i);
  }
  for (int i = 0; i < 3; ++i) EXPECT_EQ(p2.get(i), 18 + i);
  // Along the last dim with sizes {1, 2}.
  HostTensorBuf q0(ACL_FLOAT16, {7, 1}), q1(ACL_FLOAT16, {7, 2});
  const aclTensor* qs[] = {listHandle(q0), listHandle(q1)};
  aclTensorList* qlist = aclCreateTensorList(qs, 2);
  auto sizes = ints({1, 2}), badSizes = ints({2, 2});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSplitWithSizeGetWorkspaceSize(x.get(), sizes.get(), -1, qlist, ws, ex);
            }),
            0);
  for (int r = 0; r < 7; ++r) {
    EXPECT_EQ(q0.get(r), 3 * r);
    EXPECT_EQ(q1.get(2 * r), 3 * r + 1);
    EXPECT_EQ(q1.get(2 * r + 1), 3 * r + 2);
  }
  // Errors: sizes not summing to the dim, a wrong number of outputs, dim out of range.
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSplitWithSizeGetWorkspaceSize(x.get(), badSizes.get(), 1, qlist, ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSplitTensorGetWorkspaceSize(x.get(), 2, 0, list, ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSplitTensorGetWorkspaceSize(x.get(), 3, 2, list, ws, ex);
            }),
            kParamInvalid);
  // The copies move each element once: reads = writes = self's bytes.
  const Traffic t = traffic([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnSplitTensorGetWorkspaceSize(x.get(), 3, 0, list, ws, ex);
  });
  EXPECT_EQ(t.read, 21u * 2);
  EXPECT_EQ(t.written, 21u * 2);
  aclDestroyTensorList(list);
  aclDestroyTensorList(qlist);
}

TEST(MoreOps, IndexSelectEmbeddingAndGather) {
  HostTensorBuf w(ACL_BF16, {5, 4}), idx(ACL_INT64, {3}), sel(ACL_BF16, {5, 3}), rows(ACL_BF16, {3, 4});
  for (int i = 0; i < 20; ++i) w.set(i, i);
  const int64_t picks[] = {4, 0, 4};
  for (int i = 0; i < 3; ++i) idx.set(i, static_cast<double>(picks[i]));
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnIndexSelectGetWorkspaceSize(w.get(), 0, idx.get(), rows.get(), ws, ex);
            }),
            0);
  HostTensorBuf colIdx(ACL_INT32, {3});
  for (int i = 0; i < 3; ++i) colIdx.set(i, 3 - i);
  HostTensorBuf cols(ACL_BF16, {5, 3});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnIndexSelectGetWorkspaceSize(w.get(), 1, colIdx.get(), cols.get(), ws, ex);
            }),
            0);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) EXPECT_EQ(rows.get(r * 4 + c), picks[r] * 4 + c);
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 3; ++c) EXPECT_EQ(cols.get(r * 3 + c), r * 4 + (3 - c));
  // Embedding of a [2, 2] index tensor gives [2, 2, 4].
  HostTensorBuf tok(ACL_INT32, {2, 2}), emb(ACL_BF16, {2, 2, 4});
  const int toks[] = {1, 3, 3, 2};
  for (int i = 0; i < 4; ++i) tok.set(i, toks[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnEmbeddingGetWorkspaceSize(w.get(), tok.get(), emb.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 4; ++c) EXPECT_EQ(emb.get(i * 4 + c), toks[i] * 4 + c);
  // Gather along dim 1: out[r][c] = w[r][index[r][c]].
  HostTensorBuf gi(ACL_INT64, {2, 3}), go(ACL_BF16, {2, 3});
  const int gis[] = {3, 3, 0, 1, 2, 0};
  for (int i = 0; i < 6; ++i) gi.set(i, gis[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGatherGetWorkspaceSize(w.get(), 1, gi.get(), go.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(go.get(i), (i / 3) * 4 + gis[i]) << i;
  // Errors: a float index, a 2-D IndexSelect index, a 1-D embedding table, Gather of another rank.
  HostTensorBuf fidx(ACL_FLOAT, {3}), w1(ACL_BF16, {5}), e1(ACL_BF16, {2, 2, 1}), gi1(ACL_INT64, {3});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnIndexSelectGetWorkspaceSize(w.get(), 0, fidx.get(), rows.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnIndexSelectGetWorkspaceSize(w.get(), 0, tok.get(), rows.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnEmbeddingGetWorkspaceSize(w1.get(), tok.get(), e1.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGatherGetWorkspaceSize(w.get(), 1, gi1.get(), go.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGatherGetWorkspaceSize(w.get(), 2, gi.get(), go.get(), ws, ex);
            }),
            kParamInvalid);
  // Cost: the index and the gathered rows are read, out written; the rest of the table is not.
  const Traffic t = traffic([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnEmbeddingGetWorkspaceSize(w.get(), tok.get(), emb.get(), ws, ex);
  });
  EXPECT_EQ(t.read, 4u * 4 + 16u * 2);
  EXPECT_EQ(t.written, 16u * 2);
}

TEST(MoreOps, ZeroFillAndArange) {
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT8}) {
    HostTensorBuf t(dt, {3, 5});
    for (int i = 0; i < 15; ++i) t.set(i, 7);
    auto v = scalar(ACL_DOUBLE, 2.75);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceFillScalarGetWorkspaceSize(t.get(), v.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 15; ++i) EXPECT_EQ(t.get(i), isFloatType(dt) ? 2.75 : 2.0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceZeroGetWorkspaceSize(t.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 15; ++i) EXPECT_EQ(t.get(i), 0.0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceOneGetWorkspaceSize(t.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 15; ++i) EXPECT_EQ(t.get(i), 1.0);
  }
  {  // InplaceOne on a strided view writes only its elements; bool becomes true.
    HostTensorBuf v(ACL_FLOAT, {3}, {2}, 1), b(ACL_BOOL, {4});
    for (auto& x : v.raw()) x = 0;
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceOneGetWorkspaceSize(v.get(), ws, ex);
              }),
              0);
    const float* f = reinterpret_cast<const float*>(v.raw().data());
    EXPECT_EQ(f[0], 0.0f);
    EXPECT_EQ(f[1], 1.0f);
    EXPECT_EQ(f[2], 0.0f);
    EXPECT_EQ(f[3], 1.0f);
    EXPECT_EQ(f[5], 1.0f);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceOneGetWorkspaceSize(b.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(b.get(i), 1.0);
    HostTensorBuf c(ACL_COMPLEX64, {2});
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceOneGetWorkspaceSize(c.get(), ws, ex);
              }),
              kParamInvalid);
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceOneGetWorkspaceSize(nullptr, ws, ex);
              }),
              kParamNull);
  }
  // A strided view is filled in place, its gaps untouched.
  HostTensorBuf view(ACL_FLOAT, {3}, {2}, 1);
  for (auto& b : view.raw()) b = 0;
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceFillScalarGetWorkspaceSize(view.get(), scalar(ACL_FLOAT, 1).get(), ws, ex);
            }),
            0);
  const float* raw = reinterpret_cast<const float*>(view.raw().data());
  EXPECT_EQ(raw[0], 0.0f);
  EXPECT_EQ(raw[1], 1.0f);
  EXPECT_EQ(raw[2], 0.0f);
  EXPECT_EQ(raw[5], 1.0f);
  {  // InplaceFillTensor: a 0-D or one-element value converted to selfRef's type, on a strided view.
    HostTensorBuf iv(ACL_INT32, {}), fv(ACL_FLOAT, {1}), target(ACL_FLOAT16, {3, 2}, {1, 3}, 0),
        it(ACL_INT8, {4});
    iv.set(0, -3);
    fv.set(0, 2.5);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceFillTensorGetWorkspaceSize(target.get(), iv.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int i = 0; i < 6; ++i) EXPECT_EQ(target.get(i), -3.0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceFillTensorGetWorkspaceSize(target.get(), fv.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 6; ++i) EXPECT_EQ(target.get(i), 2.5);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceFillTensorGetWorkspaceSize(it.get(), iv.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(it.get(i), -3.0);
    HostTensorBuf two(ACL_FLOAT, {2}), d(ACL_DOUBLE, {2});
    auto fillT = [](aclTensor* s, const aclTensor* v) {
      return run([&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnInplaceFillTensorGetWorkspaceSize(s, v, ws, ex);
      });
    };
    EXPECT_EQ(fillT(target.get(), two.get()), kParamInvalid);  // two elements
    EXPECT_EQ(fillT(it.get(), fv.get()), kParamInvalid);       // a float into an integer tensor
    EXPECT_EQ(fillT(d.get(), fv.get()), kParamInvalid);        // double is not in the doc's list
    EXPECT_EQ(fillT(nullptr, fv.get()), kParamNull);
    EXPECT_EQ(fillT(it.get(), nullptr), kParamNull);
  }
  // Arange: float steps (out sized with the doc's fp32 formula), integer steps, negative steps.
  {
    auto s = scalar(ACL_FLOAT, 1), e = scalar(ACL_FLOAT, 2), st = scalar(ACL_FLOAT, 0.1);
    const auto n = static_cast<int64_t>(std::ceil((2.0f - 1.0f) / 0.1f));
    HostTensorBuf out(ACL_FLOAT, {n});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnArangeGetWorkspaceSize(s.get(), e.get(), st.get(), out.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < n; ++i)
      expectNear(out.get(i), 1 + 0.1f * static_cast<double>(i), ACL_FLOAT, "arange");
  }
  {
    auto s = scalar(ACL_INT64, 10), e = scalar(ACL_INT64, -3), st = scalar(ACL_INT64, -4);
    HostTensorBuf out(ACL_INT64, {4});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnArangeGetWorkspaceSize(s.get(), e.get(), st.get(), out.get(), ws, ex);
              }),
              0);
    const double want[] = {10, 6, 2, -2};
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out.get(i), want[i]);
    // Errors: zero step, start after end for a positive step, out of the wrong length, bool out.
    auto zero = scalar(ACL_INT64, 0), up = scalar(ACL_INT64, 4);
    HostTensorBuf five(ACL_INT64, {5}), i8(ACL_BOOL, {4});
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnArangeGetWorkspaceSize(s.get(), e.get(), zero.get(), out.get(), ws, ex);
              }),
              kParamInvalid);
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnArangeGetWorkspaceSize(s.get(), e.get(), up.get(), out.get(), ws, ex);
              }),
              kParamInvalid);
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnArangeGetWorkspaceSize(s.get(), e.get(), st.get(), five.get(), ws, ex);
              }),
              kParamInvalid);
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnArangeGetWorkspaceSize(s.get(), e.get(), st.get(), i8.get(), ws, ex);
              }),
              kParamInvalid);
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnArangeGetWorkspaceSize(nullptr, e.get(), st.get(), out.get(), ws, ex);
              }),
              kParamNull);
  }
  // Narrow integer outs (the experimental ops-math arange example's INT8 case: -3, 0, 3, 6, 9);
  // values past the type's range wrap as numpy's.
  for (aclDataType dt : {ACL_INT8, ACL_UINT8, ACL_INT16}) {
    const bool u = dt == ACL_UINT8;
    auto s = scalar(dt, u ? 3 : -3), e = scalar(dt, 12), st = scalar(dt, 3);
    HostTensorBuf out(dt, {u ? 3 : 5});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnArangeGetWorkspaceSize(s.get(), e.get(), st.get(), out.get(), ws, ex);
              }),
              0)
        << static_cast<int>(dt);
    for (int i = 0; i < (u ? 3 : 5); ++i) EXPECT_EQ(out.get(i), (u ? 3 : -3) + 3 * i) << static_cast<int>(dt);
  }
  {
    auto s = scalar(ACL_INT64, 120), e = scalar(ACL_INT64, 140), st = scalar(ACL_INT64, 5);
    HostTensorBuf out(ACL_INT8, {4});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnArangeGetWorkspaceSize(s.get(), e.get(), st.get(), out.get(), ws, ex);
              }),
              0);
    const double want[] = {120, 125, -126, -121};
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out.get(i), want[i]);
  }
  // Non-finite scalars are not checked: out keeps the caller's length, inf and nan propagate.
  {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    auto one = scalar(ACL_FLOAT, 1), zero = scalar(ACL_FLOAT, 0);
    auto pinf = scalar(ACL_FLOAT, inf), qnan = scalar(ACL_FLOAT, nan);
    HostTensorBuf a(ACL_FLOAT, {5}), b(ACL_FLOAT, {5});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnArangeGetWorkspaceSize(pinf.get(), pinf.get(), one.get(), a.get(), ws, ex);
              }),
              0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnArangeGetWorkspaceSize(qnan.get(), zero.get(), one.get(), b.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 5; ++i) {
      EXPECT_EQ(a.get(i), inf);
      EXPECT_TRUE(std::isnan(b.get(i)));
    }
    HostTensorBuf twoD(ACL_FLOAT, {5, 1});
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnArangeGetWorkspaceSize(qnan.get(), zero.get(), one.get(), twoD.get(), ws, ex);
              }),
              kParamInvalid);
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnArangeGetWorkspaceSize(pinf.get(), pinf.get(), zero.get(), a.get(), ws, ex);
              }),
              kParamInvalid);
  }
  {  // More elements than any tensor holds.
    auto s0 = scalar(ACL_DOUBLE, 0), s1 = scalar(ACL_DOUBLE, 1), tiny = scalar(ACL_DOUBLE, 1e-30);
    HostTensorBuf out(ACL_FLOAT, {4});
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnArangeGetWorkspaceSize(s0.get(), s1.get(), tiny.get(), out.get(), ws, ex);
              }),
              kParamInvalid);
  }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceZeroGetWorkspaceSize(nullptr, ws, ex);
            }),
            kParamNull);
}

// Each operator's cost model charges its MTE traffic exactly once: memory-bound operators then
// run at the HBM model's streaming rate for that mix (checked on the simulator in
// tests/aicore/more_ops_roofline_test.cpp).
TEST(MoreOps, CostModelsChargeEachByteOnce) {
  const int64_t R = 64, C = 1000;
  HostTensorBuf x(ACL_FLOAT16, {R, C}), y(ACL_FLOAT16, {R, C}), row(ACL_FLOAT, {R}), idx(ACL_INT64, {R});
  auto dim1 = ints({1});
  Traffic t = traffic([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnMeanGetWorkspaceSize(x.get(), dim1.get(), false, ACL_FLOAT, row.get(), ws, ex);
  });
  EXPECT_EQ(t.read, static_cast<uint64_t>(R * C * 2));
  EXPECT_EQ(t.written, static_cast<uint64_t>(R * 4));
  EXPECT_GT(t.vector, t.read);  // the cast to fp32 is a second pass
  t = traffic([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnArgMaxGetWorkspaceSize(x.get(), 1, false, idx.get(), ws, ex);
  });
  EXPECT_EQ(t.read, static_cast<uint64_t>(R * C * 2));
  EXPECT_EQ(t.written, static_cast<uint64_t>(R * 8));
  auto two = scalar(ACL_FLOAT, 2);
  t = traffic([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnPowTensorScalarGetWorkspaceSize(x.get(), two.get(), y.get(), ws, ex);
  });
  EXPECT_EQ(t.read, static_cast<uint64_t>(R * C * 2));
  EXPECT_EQ(t.written, static_cast<uint64_t>(R * C * 2));
  EXPECT_EQ(t.vector, 3u * (t.read + t.written));  // ln, multiply, exp
  auto ns = ints({C});
  HostTensorBuf mean(ACL_FLOAT16, {R, 1});
  t = traffic([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnLayerNormGetWorkspaceSize(x.get(), ns.get(), nullptr, nullptr, 1e-5, y.get(), mean.get(),
                                          nullptr, ws, ex);
  });
  EXPECT_EQ(t.read, static_cast<uint64_t>(R * C * 2));
  EXPECT_EQ(t.written, static_cast<uint64_t>(R * C * 2 + R * 2));
  t = traffic(
      [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceZeroGetWorkspaceSize(y.get(), ws, ex); });
  EXPECT_EQ(t.read, 0u);
  EXPECT_EQ(t.written, static_cast<uint64_t>(R * C * 2));
  // Addmm: the matmul's MACs on the cube plus one read of the addend.
  HostTensorBuf a(ACL_FLOAT16, {128, 256}), b(ACL_FLOAT16, {256, 192}), bias(ACL_FLOAT16, {192}),
      out(ACL_FLOAT16, {128, 192});
  auto one = scalar(ACL_FLOAT, 1);
  const Traffic mm = traffic([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnAddmmGetWorkspaceSize(out.get(), a.get(), b.get(), one.get(), one.get(), out.get(), 0, ws,
                                      ex);
  });
  const Traffic withBias = traffic([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnAddmmGetWorkspaceSize(bias.get(), a.get(), b.get(), one.get(), one.get(), out.get(), 0, ws,
                                      ex);
  });
  EXPECT_EQ(mm.macs, 128u * 256 * 192);
  EXPECT_EQ(withBias.macs, mm.macs);
  EXPECT_EQ(mm.read - withBias.read, 128u * 192 * 2 - 192 * 2);
  EXPECT_EQ(mm.written, 128u * 192 * 2);
}

TEST(MoreOps, NewOperatorsAreRegistered) {
  using npusim::aclnn::ExecUnit;
  using npusim::aclnn::OpRegistry;
  for (const char* name :
       {"aclnnPowTensorScalar", "aclnnPowTensorTensor", "aclnnMean", "aclnnAmax", "aclnnArgMax",
        "aclnnLayerNorm", "aclnnSplitTensor", "aclnnSplitWithSize", "aclnnIndexSelect", "aclnnEmbedding",
        "aclnnGather", "aclnnInplaceZero", "aclnnInplaceFillScalar", "aclnnArange"}) {
    const auto* info = OpRegistry::instance().find(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_EQ(info->unit, ExecUnit::kVector) << name;
    EXPECT_TRUE(info->accepts(ACL_FLOAT16) && info->accepts(ACL_BF16)) << name;
  }
  ASSERT_NE(OpRegistry::instance().find("aclnnAddmm"), nullptr);
  EXPECT_EQ(OpRegistry::instance().find("aclnnAddmm")->unit, ExecUnit::kCube);
}

// Real of a real tensor is the tensor: a transposed fp32 view and an fp16 tensor copied exactly;
// complex self, another out type or shape are refused.
TEST(MoreOps, RealOfRealTensors) {
  std::mt19937 g(28);
  HostTensorBuf x(ACL_FLOAT, {3, 4}, {1, 3}, 0), y(ACL_FLOAT, {3, 4}), h(ACL_FLOAT16, {5}),
      ho(ACL_FLOAT16, {5});
  x.fillRandom(g, -5, 5);
  h.fillRandom(g, -5, 5);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRealGetWorkspaceSize(x.get(), y.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int i = 0; i < 12; ++i) EXPECT_EQ(y.get(i), x.get(i));
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRealGetWorkspaceSize(h.get(), ho.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(ho.get(i), h.get(i));
  HostTensorBuf c(ACL_COMPLEX64, {5}), wrong(ACL_FLOAT16, {4});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRealGetWorkspaceSize(c.get(), y.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRealGetWorkspaceSize(h.get(), y.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRealGetWorkspaceSize(h.get(), wrong.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRealGetWorkspaceSize(nullptr, y.get(), ws, ex);
            }),
            kParamNull);
}

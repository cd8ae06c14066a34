// The reductions of reduce_math.cpp against folds written in the test over random inputs:
// dims and keepdim, all-dims forms, the noop forms, two-output forms (aminmax, var/std with
// mean), corrections, NaN handling, fp16/bf16, error codes and the bytes charged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_all.h"
#include "aclnnop/aclnn_aminmax.h"
#include "aclnnop/aclnn_aminmax_all.h"
#include "aclnnop/aclnn_any.h"
#include "aclnnop/aclnn_batch_norm_stats.h"
#include "aclnnop/aclnn_global_average_pool.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_max_v2.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_reduce_log_sum.h"
#include "aclnnop/aclnn_reduce_nansum.h"
#include "aclnnop/aclnn_reduce_sum_v2.h"
#include "aclnnop/aclnn_std.h"
#include "aclnnop/aclnn_var.h"
#include "aclnnop/aclnn_var_mean.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

struct IntArray {
  aclIntArray* a;
  explicit IntArray(std::vector<int64_t> v) : a(aclCreateIntArray(v.data(), v.size())) {}
  ~IntArray() { aclDestroyIntArray(a); }
};

// Values of a [2, 3, 4] buffer grouped by (i, k) when dim 1 is reduced.
std::vector<double> along1(HostTensorBuf& t, int i, int k) {
  std::vector<double> v;
  for (int j = 0; j < 3; ++j) v.push_back(t.get(i * 12 + j * 4 + k));
  return v;
}

}  // namespace

TEST(ReduceMath, FoldsAlongOneDim) {
  std::mt19937 g(21);
  struct Case {
    std::string name;
    std::function<int(const aclTensor*, const aclIntArray*, aclTensor*, uint64_t*, aclOpExecutor**)> fn;
    std::function<double(const std::vector<double>&)> ref;
  };
  const std::vector<Case> cases = {
      {"LogSumExp",
       [](const aclTensor* s, const aclIntArray* d, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnLogSumExpGetWorkspaceSize(s, d, false, o, w, e);
       },
       [](const std::vector<double>& v) {
         double s = 0;
         for (double x : v) s += std::exp(x);
         return std::log(s);
       }},
      {"ReduceLogSum",
       [](const aclTensor* s, const aclIntArray* d, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnReduceLogSumGetWorkspaceSize(s, d, false, false, o, w, e);
       },
       [](const std::vector<double>& v) {
         double s = 0;
         for (double x : v) s += x;
         return std::log(s);
       }},
      {"MaxV2",
       [](const aclTensor* s, const aclIntArray* d, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnMaxV2GetWorkspaceSize(s, d, false, false, o, w, e);
       },
       [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }},
      {"Std correction 1",
       [](const aclTensor* s, const aclIntArray* d, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnStdGetWorkspaceSize(s, d, 1, false, o, w, e);
       },
       [](const std::vector<double>& v) {
         double m = 0, q = 0;
         for (double x : v) m += x / v.size();
         for (double x : v) q += (x - m) * (x - m);
         return std::sqrt(q / (v.size() - 1));
       }},
      {"Var biased",
       [](const aclTensor* s, const aclIntArray* d, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnVarGetWorkspaceSize(s, d, false, false, o, w, e);
       },
       [](const std::vector<double>& v) {
         double m = 0, q = 0;
         for (double x : v) m += x / v.size();
         for (double x : v) q += (x - m) * (x - m);
         return q / v.size();
       }},
  };
  IntArray dim1({1});
  for (const Case& c : cases) {
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      HostTensorBuf x(dt, {2, 3, 4}), out(dt, {2, 4});
      x.fillRandom(g, 0.1, 3);
      ASSERT_EQ(
          run([&](uint64_t* ws, aclOpExecutor** ex) { return c.fn(x.get(), dim1.a, out.get(), ws, ex); }), 0)
          << c.name << ": " << aclGetRecentErrMsg();
      for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 4; ++k)
          expectNear(out.get(i * 4 + k), out.stored(c.ref(along1(x, i, k))), dt, c.name);
    }
  }
  // A dim out of range, an out of the wrong shape, a null self
  HostTensorBuf x(ACL_FLOAT, {2, 3, 4}), bad(ACL_FLOAT, {2, 3}), out(ACL_FLOAT, {2, 4});
  IntArray dim5({5});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLogSumExpGetWorkspaceSize(x.get(), dim5.a, false, out.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLogSumExpGetWorkspaceSize(x.get(), dim1.a, false, bad.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLogSumExpGetWorkspaceSize(nullptr, dim1.a, false, out.get(), ws, ex);
            }),
            kParamNull);
}

TEST(ReduceMath, AllAnyNansumProdAndNoop) {
  HostTensorBuf x(ACL_INT32, {2, 3}), all(ACL_BOOL, {2}), any(ACL_BOOL, {1, 3});
  const double v[] = {1, 0, 2, 3, 4, 5};
  for (int i = 0; i < 6; ++i) x.set(i, v[i]);
  IntArray d1({1}), d0({0}), none({});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAllGetWorkspaceSize(x.get(), d1.a, false, all.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(all.get(0), 0);
  EXPECT_EQ(all.get(1), 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAnyGetWorkspaceSize(x.get(), d0.a, true, any.get(), ws, ex);
            }),
            0);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(any.get(k), 1);
  HostTensorBuf fo(ACL_FLOAT, {2});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAllGetWorkspaceSize(x.get(), d1.a, false, fo.get(), ws, ex);
            }),
            kParamInvalid);
  // Nansum skips NaN; the dtype argument must be out's type
  HostTensorBuf f(ACL_FLOAT, {2, 3}), s(ACL_FLOAT, {3});
  const double fv[] = {1.5, NAN, 2, -4, 3, NAN};
  for (int i = 0; i < 6; ++i) f.set(i, fv[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnReduceNansumGetWorkspaceSize(f.get(), d0.a, false, ACL_FLOAT, s.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(s.get(0), -2.5);
  EXPECT_EQ(s.get(1), 3);
  EXPECT_EQ(s.get(2), 2);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnReduceNansumGetWorkspaceSize(f.get(), d0.a, false, ACL_FLOAT16, s.get(), ws, ex);
            }),
            kParamInvalid);
  // Prod of all elements of an int32 tensor into fp32; ProdDim along dim 1
  HostTensorBuf p(ACL_FLOAT, {}), pd(ACL_FLOAT, {2});
  for (int i = 0; i < 6; ++i) x.set(i, i + 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnProdGetWorkspaceSize(x.get(), ACL_FLOAT, p.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(p.get(0), 720);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnProdDimGetWorkspaceSize(x.get(), 1, false, ACL_FLOAT, pd.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(pd.get(0), 6);
  EXPECT_EQ(pd.get(1), 120);
  // ReduceLogSum with empty axes: every axis, or none with noopWithEmptyAxes (out = data)
  HostTensorBuf l(ACL_FLOAT, {2, 2}), lall(ACL_FLOAT, {}), lsame(ACL_FLOAT, {2, 2});
  for (int i = 0; i < 4; ++i) l.set(i, i + 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnReduceLogSumGetWorkspaceSize(l.get(), none.a, false, false, lall.get(), ws, ex);
            }),
            0);
  expectNear(lall.get(0), std::log(10.0), ACL_FLOAT, "log sum of all");
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnReduceLogSumGetWorkspaceSize(l.get(), none.a, false, true, lsame.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(lsame.get(i), i + 1);
}

TEST(ReduceMath, TwoOutputsMaxMinAndPools) {
  std::mt19937 g(13);
  HostTensorBuf x(ACL_FLOAT, {2, 3, 4}), mn(ACL_FLOAT, {2, 1, 4}), mx(ACL_FLOAT, {2, 1, 4});
  x.fillRandom(g, -10, 10);
  x.set(5, NAN);  // (0, 1, 1): its group's min and max are NaN
  IntArray d1({1});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAminmaxGetWorkspaceSize(x.get(), d1.a, true, mn.get(), mx.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 2; ++i) {
    for (int k = 0; k < 4; ++k) {
      const auto v = along1(x, i, k);
      if (i == 0 && k == 1) {
        EXPECT_TRUE(std::isnan(mn.get(i * 4 + k)));
        EXPECT_TRUE(std::isnan(mx.get(i * 4 + k)));
        continue;
      }
      EXPECT_EQ(mn.get(i * 4 + k), *std::min_element(v.begin(), v.end()));
      EXPECT_EQ(mx.get(i * 4 + k), *std::max_element(v.begin(), v.end()));
    }
  }
  x.set(5, 0.5);
  HostTensorBuf amin(ACL_FLOAT, {}), amax(ACL_FLOAT, {}), m(ACL_FLOAT, {});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAminmaxAllGetWorkspaceSize(x.get(), amin.get(), amax.get(), ws, ex);
            }),
            0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMaxGetWorkspaceSize(x.get(), m.get(), ws, ex);
            }),
            0);
  double lo = INFINITY, hi = -INFINITY;
  for (int i = 0; i < 24; ++i) {
    lo = std::min(lo, x.get(i));
    hi = std::max(hi, x.get(i));
  }
  EXPECT_EQ(amin.get(0), lo);
  EXPECT_EQ(amax.get(0), hi);
  EXPECT_EQ(m.get(0), hi);
  // VarMean with correction 0 over dims 0 and 2
  HostTensorBuf var(ACL_FLOAT, {3}), mean(ACL_FLOAT, {3});
  IntArray d02({0, 2});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnVarMeanGetWorkspaceSize(x.get(), d02.a, 0, false, var.get(), mean.get(), ws, ex);
            }),
            0);
  for (int j = 0; j < 3; ++j) {
    double s = 0, q = 0;
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 4; ++k) s += x.get(i * 12 + j * 4 + k);
    const double mu = s / 8;
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 4; ++k) q += std::pow(x.get(i * 12 + j * 4 + k) - mu, 2);
    expectNear(mean.get(j), mu, ACL_FLOAT, "VarMean mean");
    expectNear(var.get(j), q / 8, ACL_FLOAT, "VarMean var");
  }
  // GlobalAveragePool over H, W of NCHW; BatchNormStats per channel
  HostTensorBuf img(ACL_FLOAT, {2, 3, 2, 2}), pool(ACL_FLOAT, {2, 3, 1, 1}), bm(ACL_FLOAT, {3}),
      bi(ACL_FLOAT, {3});
  img.fillRandom(g, -1, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGlobalAveragePoolGetWorkspaceSize(img.get(), pool.get(), ws, ex);
            }),
            0);
  for (int nc = 0; nc < 6; ++nc) {
    double s = 0;
    for (int k = 0; k < 4; ++k) s += img.get(nc * 4 + k);
    expectNear(pool.get(nc), s / 4, ACL_FLOAT, "GlobalAveragePool");
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBatchNormStatsGetWorkspaceSize(img.get(), 1e-5, bm.get(), bi.get(), ws, ex);
            }),
            0);
  for (int c = 0; c < 3; ++c) {
    std::vector<double> v;
    for (int n = 0; n < 2; ++n)
      for (int k = 0; k < 4; ++k) v.push_back(img.get(n * 12 + c * 4 + k));
    double mu = 0, q = 0;
    for (double e : v) mu += e / 8;
    for (double e : v) q += (e - mu) * (e - mu) / 8;
    expectNear(bm.get(c), mu, ACL_FLOAT, "BatchNormStats mean");
    expectNear(bi.get(c), 1 / std::sqrt(q + 1e-5), ACL_FLOAT, "BatchNormStats invstd");
  }
  HostTensorBuf flat(ACL_FLOAT, {4}), fo(ACL_FLOAT, {4});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGlobalAveragePoolGetWorkspaceSize(flat.get(), fo.get(), ws, ex);
            }),
            kParamInvalid);
  // The experimental ReduceSumV2: one axis, keepdims 1
  HostTensorBuf s2(ACL_FLOAT, {2, 1, 4});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnReduceSumV2GetWorkspaceSize(x.get(), 1, 1, s2.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) {
      const auto v = along1(x, i, k);
      expectNear(s2.get(i * 4 + k), v[0] + v[1] + v[2], ACL_FLOAT, "ReduceSumV2");
    }
}

TEST(ReduceMath, CostIsOneStreamingPass) {
  // LogSumExp over the last dim of [256, 1024] fp32: self read once, the [256] result written once.
  HostTensorBuf x(ACL_FLOAT, {256, 1024}), out(ACL_FLOAT, {256});
  IntArray d({-1});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnLogSumExpGetWorkspaceSize(x.get(), d.a, false, out.get(), &ws, &ex), 0);
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, 256u * 1024 * 4);
  EXPECT_EQ(c.written, 256u * 4);
  // VarMean writes both of its outputs
  HostTensorBuf v(ACL_FLOAT, {256}), m(ACL_FLOAT, {256});
  ASSERT_EQ(aclnnVarMeanGetWorkspaceSize(x.get(), d.a, 1, false, v.get(), m.get(), &ws, &ex), 0);
  const Charged c2 = chargedBytes(ex);
  EXPECT_EQ(c2.read, 256u * 1024 * 4);
  EXPECT_EQ(c2.written, 2u * 256 * 4);
}

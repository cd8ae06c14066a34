// The math operators a-l of issue 28 outside the pointwise and scan engines' own tests: the
// exported variants (AcosV2, CoshV2, Inv, InvertV2, IsInf, DivV3, CastV3, ...), the inverse
// trigonometric gradients, MaxDim/MinDim/ArgMin, Dot/DotV2, KlDiv, Linspace/LogSpace/LinSpaceD,
// Bincount/Histc, the isin family, Ger/Addr and LinalgCross. Each against its definition written
// in the test, with its error codes.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_acos_grad.h"
#include "aclnnop/aclnn_acos_grad_v2.h"
#include "aclnnop/aclnn_acos_v2.h"
#include "aclnnop/aclnn_acosh_grad.h"
#include "aclnnop/aclnn_add_lora.h"
#include "aclnnop/aclnn_add_v2.h"
#include "aclnnop/aclnn_addr.h"
#include "aclnnop/aclnn_affine_grid.h"
#include "aclnnop/aclnn_amp_update_scale.h"
#include "aclnnop/aclnn_angle_v2.h"
#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_asin_grad.h"
#include "aclnnop/aclnn_asinh_grad.h"
#include "aclnnop/aclnn_bincount.h"
#include "aclnnop/aclnn_cast_v3.h"
#include "aclnnop/aclnn_cdist.h"
#include "aclnnop/aclnn_cdist_backward.h"
#include "aclnnop/aclnn_complex.h"
#include "aclnnop/aclnn_cosh_v2.h"
#include "aclnnop/aclnn_div_v3.h"
#include "aclnnop/aclnn_dot.h"
#include "aclnnop/aclnn_dot_v2.h"
#include "aclnnop/aclnn_erf_inv.h"
#include "aclnnop/aclnn_exp_segsum_backward.h"
#include "aclnnop/aclnn_floor_div.h"
#include "aclnnop/aclnn_ger.h"
#include "aclnnop/aclnn_ger_v2.h"
#include "aclnnop/aclnn_grouped_bias_add_grad.h"
#include "aclnnop/aclnn_histc.h"
#include "aclnnop/aclnn_inv.h"
#include "aclnnop/aclnn_invert_v2.h"
#include "aclnnop/aclnn_is_inf.h"
#include "aclnnop/aclnn_isin.h"
#include "aclnnop/aclnn_isin_part_v1.h"
#include "aclnnop/aclnn_isin_tensor_scalar.h"
#include "aclnnop/aclnn_kl_div.h"
#include "aclnnop/aclnn_lin_space_d.h"
#include "aclnnop/aclnn_linalg_cholesky.h"
#include "aclnnop/aclnn_linalg_cross.h"
#include "aclnnop/aclnn_linspace.h"
#include "aclnnop/aclnn_log_space.h"
#include "aclnnop/aclnn_logdet.h"
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_min_dim.h"
#include "aclnnop/aclnn_remainder.h"
#include "runtime/aclnn/base/executor.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;
using ScalarPtr = std::unique_ptr<aclScalar, decltype(&aclDestroyScalar)>;
ScalarPtr scalar(aclDataType dt, double v) { return ScalarPtr(makeScalar(dt, v), aclDestroyScalar); }

template <typename Phase1>
std::string opName(const Phase1& p1) {  // the name the executor carries into the trace
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  if (p1(&ws, &ex) != 0) return "";
  const std::string n = npusim::aclnn::executorOp(ex)->name;
  aclDestroyAclOpExecutor(ex);
  return n;
}

}  // namespace

TEST(MathAlOps, UnaryVariantsAgainstDefinitions) {
  std::mt19937 g(1);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf x(dt, {3, 4}, {1, 3}, 0), y(dt, {3, 4});  // a transposed view
    x.fillRandom(g, -0.95, 0.95);
    const std::string what = "dtype " + std::to_string(dt);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnAcosV2GetWorkspaceSize(x.get(), y.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 12; ++i)
      expectNear(y.get(i), y.stored(M_PI / 2 - std::asin(x.get(i))), dt, what + " acos");
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnCoshV2GetWorkspaceSize(x.get(), y.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 12; ++i)
      expectNear(y.get(i), y.stored((std::exp(x.get(i)) + std::exp(-x.get(i))) / 2), dt, what + " cosh");
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInvGetWorkspaceSize(x.get(), y.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 12; ++i) expectNear(y.get(i), y.stored(1 / x.get(i)), dt, what + " inv");
  }
  // ErfInv through erf; fp32 and fp16 only (its op definition).
  HostTensorBuf x(ACL_FLOAT, {9}), y(ACL_FLOAT, {9}), b(ACL_BF16, {9});
  for (int i = 0; i < 9; ++i) x.set(i, -0.9 + 0.2 * i);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnErfInvGetWorkspaceSize(x.get(), y.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(std::erf(y.get(i)), x.get(i), 1e-6) << i;
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnErfInvGetWorkspaceSize(b.get(), b.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(opName([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnErfInvGetWorkspaceSize(x.get(), y.get(), ws, ex);
            }),
            "aclnnErfInv");
  // InvertV2: ~x on int16 (uint16 too, which the test's buffers do not encode); a float is refused.
  HostTensorBuf u(ACL_INT16, {3}), uo(ACL_INT16, {3});
  const int16_t uv[] = {0, 1, -16};
  for (int i = 0; i < 3; ++i) u.set(i, uv[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInvertV2GetWorkspaceSize(u.get(), uo.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(uo.get(i), ~uv[i]) << i;
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInvertV2GetWorkspaceSize(x.get(), y.get(), ws, ex);
            }),
            kParamInvalid);
  // IsInf: bool out; integers are never infinite.
  HostTensorBuf f(ACL_FLOAT, {4}), fb(ACL_BOOL, {4}), n(ACL_INT32, {4});
  const double fv[] = {INFINITY, -INFINITY, NAN, 3};
  for (int i = 0; i < 4; ++i) {
    f.set(i, fv[i]);
    n.set(i, i);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnIsInfGetWorkspaceSize(f.get(), fb.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(fb.get(i), i < 2 ? 1 : 0) << i;
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnIsInfGetWorkspaceSize(n.get(), fb.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(fb.get(i), 0) << i;
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnIsInfGetWorkspaceSize(f.get(), f.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(MathAlOps, BinaryVariantsAndCasts) {
  HostTensorBuf a(ACL_INT32, {2, 3}), b(ACL_INT32, {3}), o(ACL_INT32, {2, 3});
  const double av[] = {7, -7, 9, 0, -9, 5}, bv[] = {2, 2, -4};
  for (int i = 0; i < 6; ++i) a.set(i, av[i]);
  for (int i = 0; i < 3; ++i) b.set(i, bv[i]);
  for (int64_t mode : {1, 2}) {  // TruncDiv, FloorDiv on integers
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnDivV3GetWorkspaceSize(a.get(), b.get(), mode, o.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 6; ++i) {
      const double q = av[i] / bv[i % 3];
      EXPECT_EQ(o.get(i), mode == 1 ? std::trunc(q) : std::floor(q)) << i << " mode " << mode;
    }
  }
  HostTensorBuf fa(ACL_FLOAT, {2, 3}), fb(ACL_FLOAT, {3}), fo(ACL_FLOAT, {2, 3});
  for (int i = 0; i < 6; ++i) fa.set(i, av[i] + 0.5);
  for (int i = 0; i < 3; ++i) fb.set(i, bv[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnDivV3GetWorkspaceSize(fa.get(), fb.get(), 0, fo.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(fo.get(i), static_cast<float>((av[i] + 0.5) / bv[i % 3])) << i;
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnDivV3GetWorkspaceSize(fa.get(), fb.get(), 3, fo.get(), ws, ex);
            }),
            kParamInvalid);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFloorDivGetWorkspaceSize(fa.get(), fb.get(), fo.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(fo.get(i), std::floor((av[i] + 0.5) / bv[i % 3])) << i;
  HostTensorBuf s16(ACL_INT16, {3}), s16o(ACL_INT16, {3});
  for (int i = 0; i < 3; ++i) s16.set(i, 30000 - i);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddV2GetWorkspaceSize(s16.get(), s16.get(), s16o.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(s16o.get(i), static_cast<int16_t>(2 * (30000 - i))) << i;  // wraps
  EXPECT_EQ(opName([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddV2GetWorkspaceSize(s16.get(), s16.get(), s16o.get(), ws, ex);
            }),
            "aclnnAddV2");
  // CastV3: dstType is a ge::DataType, the same numbers as aclDataType; it must be y's type.
  HostTensorBuf h(ACL_FLOAT16, {2, 3});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnCastV3GetWorkspaceSize(fa.get(), 1, h.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(h.get(i), av[i] + 0.5);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnCastV3GetWorkspaceSize(fa.get(), 0, h.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(MathAlOps, InverseTrigGradients) {
  std::mt19937 g(3);
  HostTensorBuf y(ACL_FLOAT, {2, 4}), dy(ACL_FLOAT, {4}), z(ACL_FLOAT, {2, 4});
  y.fillRandom(g, -0.9, 0.9);
  dy.fillRandom(g, -2, 2);
  struct Case {
    const char* name;
    std::function<int(uint64_t*, aclOpExecutor**)> p1;
    std::function<double(double)> d;  // the derivative written differently: from the forward's difference
  };
  auto central = [](double (*f)(double), double x) { return (f(x + 1e-6) - f(x - 1e-6)) / 2e-6; };
  const std::vector<Case> cases = {
      {"AcosGrad",
       [&](uint64_t* ws, aclOpExecutor** ex) {
         return aclnnAcosGradGetWorkspaceSize(dy.get(), y.get(), z.get(), ws, ex);
       },
       [&](double x) { return central([](double v) { return std::acos(v); }, x); }},
      {"AcosGradV2",
       [&](uint64_t* ws, aclOpExecutor** ex) {
         return aclnnAcosGradV2GetWorkspaceSize(y.get(), dy.get(), z.get(), ws, ex);
       },
       [&](double x) { return central([](double v) { return std::acos(v); }, x); }},
      {"AsinGrad",
       [&](uint64_t* ws, aclOpExecutor** ex) {
         return aclnnAsinGradGetWorkspaceSize(y.get(), dy.get(), z.get(), ws, ex);
       },
       [&](double x) { return central([](double v) { return std::asin(v); }, x); }},
      // y is the forward result: d asinh(x)/dx at x = sinh(y), d acosh(x)/dx at x = cosh(y).
      {"AsinhGrad",
       [&](uint64_t* ws, aclOpExecutor** ex) {
         return aclnnAsinhGradGetWorkspaceSize(y.get(), dy.get(), z.get(), ws, ex);
       },
       [&](double r) { return central([](double v) { return std::asinh(v); }, std::sinh(r)); }},
  };
  for (const Case& c : cases) {
    ASSERT_EQ(run(c.p1), 0) << c.name << ": " << aclGetRecentErrMsg();
    for (int i = 0; i < 8; ++i)
      EXPECT_NEAR(z.get(i), dy.get(i % 4) * c.d(y.get(i)), 1e-4) << c.name << " " << i;
  }
  HostTensorBuf r(ACL_FLOAT, {4}), dr(ACL_FLOAT, {4}), dx(ACL_FLOAT, {4});
  for (int i = 0; i < 4; ++i) {
    r.set(i, 0.5 + i);
    dr.set(i, 1 - i);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAcoshGradGetWorkspaceSize(r.get(), dr.get(), dx.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i) {
    const double want =
        dr.get(i) * (std::acosh(std::cosh(r.get(i)) + 1e-6) - std::acosh(std::cosh(r.get(i)) - 1e-6)) / 2e-6;
    EXPECT_NEAR(dx.get(i), want, 1e-4) << i;
  }
  HostTensorBuf i32(ACL_INT32, {4});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAsinGradGetWorkspaceSize(i32.get(), i32.get(), dx.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAsinGradGetWorkspaceSize(nullptr, dr.get(), dx.get(), ws, ex);
            }),
            kParamNull);
}

TEST(MathAlOps, ExtremaWithPositions) {
  HostTensorBuf x(ACL_FLOAT, {3, 4}), vals(ACL_FLOAT, {4}), idx(ACL_INT64, {4}), keep(ACL_FLOAT, {3, 1}),
      keepIdx(ACL_INT32, {3, 1});
  const double v[] = {1, 5, 2, 5, 7, 0, 2, NAN, 3, 5, -1, 4};
  for (int i = 0; i < 12; ++i) x.set(i, v[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMaxDimGetWorkspaceSize(x.get(), 0, false, vals.get(), idx.get(), ws, ex);
            }),
            0);
  const double maxV[] = {7, 5, 2, NAN}, maxI[] = {1, 0, 0, 1};  // the first maximum, the first NaN
  for (int i = 0; i < 4; ++i) {
    if (std::isnan(maxV[i]))
      EXPECT_TRUE(std::isnan(vals.get(i)));
    else
      EXPECT_EQ(vals.get(i), maxV[i]) << i;
    EXPECT_EQ(idx.get(i), maxI[i]) << i;
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMinDimGetWorkspaceSize(x.get(), -1, true, keep.get(), keepIdx.get(), ws, ex);
            }),
            0);
  const double minV[] = {1, NAN, -1}, minI[] = {0, 3, 2};
  for (int i = 0; i < 3; ++i) {
    if (std::isnan(minV[i]))
      EXPECT_TRUE(std::isnan(keep.get(i)));
    else
      EXPECT_EQ(keep.get(i), minV[i]) << i;
    EXPECT_EQ(keepIdx.get(i), minI[i]) << i;
  }
  HostTensorBuf am(ACL_INT64, {4});
  x.set(7, 9);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnArgMinGetWorkspaceSize(x.get(), 0, false, am.get(), ws, ex);
            }),
            0);
  const double argMin[] = {0, 1, 2, 2};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(am.get(i), argMin[i]) << i;
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnArgMinGetWorkspaceSize(x.get(), 2, false, am.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMaxDimGetWorkspaceSize(x.get(), 0, false, vals.get(), vals.get(), ws, ex);
            }),
            kParamInvalid);  // indices must be an integer type
}

TEST(MathAlOps, DotKlDivAndOuterProducts) {
  std::mt19937 g(5);
  HostTensorBuf a(ACL_FLOAT16, {64}), b(ACL_FLOAT16, {64}), d0(ACL_FLOAT16, {});
  a.fillRandom(g, -1, 1);
  b.fillRandom(g, -1, 1);
  double dot = 0;
  for (int i = 0; i < 64; ++i) dot += a.get(i) * b.get(i);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnDotGetWorkspaceSize(a.get(), b.get(), d0.get(), ws, ex);
            }),
            0);
  expectNear(d0.get(0), d0.stored(dot), ACL_FLOAT16, "dot");
  HostTensorBuf m1(ACL_FLOAT, {8, 8}), m2(ACL_FLOAT, {64}), d1(ACL_FLOAT, {1});
  for (int i = 0; i < 64; ++i) {
    m1.set(i, a.get(i));
    m2.set(i, b.get(i));
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnDotV2GetWorkspaceSize(m1.get(), m2.get(), d1.get(), ws, ex);
            }),
            0);
  EXPECT_NEAR(d1.get(0), dot, 1e-5);
  HostTensorBuf shortB(ACL_FLOAT16, {63});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnDotGetWorkspaceSize(a.get(), shortB.get(), d0.get(), ws, ex);
            }),
            kParamInvalid);
  // KlDiv: the pointwise loss and its reductions (the doc's formula, logTarget both ways).
  HostTensorBuf s(ACL_FLOAT, {2, 3}), t(ACL_FLOAT, {2, 3}), none(ACL_FLOAT, {2, 3}), red(ACL_FLOAT, {});
  s.fillRandom(g, -2, 0);
  t.fillRandom(g, 0.1, 1);
  for (bool logTarget : {false, true}) {
    std::vector<double> pw(6);
    double sum = 0;
    for (int i = 0; i < 6; ++i) {
      pw[i] =
          logTarget ? std::exp(t.get(i)) * (t.get(i) - s.get(i)) : t.get(i) * (std::log(t.get(i)) - s.get(i));
      sum += pw[i];
    }
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnKlDivGetWorkspaceSize(s.get(), t.get(), 0, logTarget, none.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(none.get(i), pw[i], 1e-5) << i;
    const double want[] = {0, sum / 6, sum, sum / 2};
    for (int64_t r : {1, 2, 3}) {
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnKlDivGetWorkspaceSize(s.get(), t.get(), r, logTarget, red.get(), ws, ex);
                }),
                0);
      EXPECT_NEAR(red.get(0), want[r], 1e-5) << "reduction " << r;
    }
  }
  t.set(0, 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnKlDivGetWorkspaceSize(s.get(), t.get(), 0, false, none.get(), ws, ex);
            }),
            0);
  EXPECT_TRUE(std::isnan(none.get(0)));  // target <= 0 without logTarget (its doc)
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnKlDivGetWorkspaceSize(s.get(), t.get(), 4, false, red.get(), ws, ex);
            }),
            kParamInvalid);
  // Ger, GerV2 and Addr: outer products with a strided vector.
  HostTensorBuf v1(ACL_FLOAT, {3}, {2}, 0), v2(ACL_FLOAT, {2}), self(ACL_FLOAT, {3, 2}),
      out(ACL_FLOAT, {3, 2});
  for (int i = 0; i < 3; ++i) v1.set(i, i + 1);
  v2.set(0, 10);
  v2.set(1, -1);
  for (int i = 0; i < 6; ++i) self.set(i, i);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGerGetWorkspaceSize(v1.get(), v2.get(), out.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out.get(i), (i / 2 + 1) * v2.get(i % 2)) << i;
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGerV2GetWorkspaceSize(v1.get(), v2.get(), self.get(), 3.0, out.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out.get(i), i + 3 * (i / 2 + 1) * v2.get(i % 2)) << i;
  auto beta = scalar(ACL_FLOAT, 0.5), alpha = scalar(ACL_FLOAT, 2);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddrGetWorkspaceSize(self.get(), v1.get(), v2.get(), beta.get(), alpha.get(),
                                               out.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out.get(i), 0.5 * i + 2 * (i / 2 + 1) * v2.get(i % 2)) << i;
  self.set(0, NAN);
  auto zero = scalar(ACL_FLOAT, 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceAddrGetWorkspaceSize(self.get(), v1.get(), v2.get(), zero.get(), nullptr, ws,
                                                      ex);
            }),
            0);
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(self.get(i), (i / 2 + 1) * v2.get(i % 2)) << i;  // beta 0 drops self's NaN
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGerGetWorkspaceSize(self.get(), v2.get(), out.get(), ws, ex);
            }),
            kParamInvalid);  // self must be 1-D
}

TEST(MathAlOps, SequencesCountsMembershipAndCross) {
  HostTensorBuf lin(ACL_FLOAT, {5}), li(ACL_INT32, {5});
  auto s0 = scalar(ACL_FLOAT, -1), s1 = scalar(ACL_FLOAT, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLinspaceGetWorkspaceSize(s0.get(), s1.get(), 5, lin.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 5; ++i)
    EXPECT_FLOAT_EQ(static_cast<float>(lin.get(i)), static_cast<float>(-1 + 0.5 * i)) << i;
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLinspaceGetWorkspaceSize(s0.get(), s1.get(), 4, lin.get(), ws, ex);
            }),
            kParamInvalid);  // out must hold steps elements
  auto e0 = scalar(ACL_FLOAT, 0), e4 = scalar(ACL_FLOAT, 4);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLogSpaceGetWorkspaceSize(e0.get(), e4.get(), 5, 3.0, li.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(li.get(i), std::pow(3.0, i)) << i;
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLogSpaceGetWorkspaceSize(e0.get(), e4.get(), 5, -2.0, li.get(), ws, ex);
            }),
            kParamInvalid);
  HostTensorBuf st(ACL_UINT8, {1}), en(ACL_FLOAT, {1}), z(ACL_FLOAT, {7});
  st.set(0, 3);
  en.set(0, 0);
  const int64_t num = 7;
  aclIntArray* numArr = aclCreateIntArray(&num, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLinSpaceDGetWorkspaceSize(st.get(), en.get(), numArr, z.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 7; ++i)
    EXPECT_FLOAT_EQ(static_cast<float>(z.get(i)), static_cast<float>(3 - 0.5 * i)) << i;
  aclDestroyIntArray(numArr);
  // Bincount with and without weights; Histc over [min, max] and over the data's own range.
  HostTensorBuf v(ACL_INT32, {6}), w(ACL_FLOAT, {6}), cnt(ACL_INT64, {5}), wcnt(ACL_FLOAT, {5});
  const double vv[] = {0, 2, 2, 4, 1, 2};
  for (int i = 0; i < 6; ++i) {
    v.set(i, vv[i]);
    w.set(i, 0.5 * i);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBincountGetWorkspaceSize(v.get(), nullptr, 5, cnt.get(), ws, ex);
            }),
            0);
  const double c[] = {1, 1, 3, 0, 1};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(cnt.get(i), c[i]) << i;
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBincountGetWorkspaceSize(v.get(), w.get(), 0, wcnt.get(), ws, ex);
            }),
            0);
  const double wc[] = {0, 2, 0.5 + 1 + 2.5, 0, 1.5};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(wcnt.get(i), wc[i]) << i;
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBincountGetWorkspaceSize(v.get(), nullptr, 6, cnt.get(), ws, ex);
            }),
            kParamInvalid);  // out shorter than minlength
  HostTensorBuf hx(ACL_FLOAT, {7}), h(ACL_FLOAT, {4});
  const double hv[] = {0, 0.5, 1, 1.9, 2, 4, 5};
  for (int i = 0; i < 7; ++i) hx.set(i, hv[i]);
  auto lo = scalar(ACL_FLOAT, 0), hi = scalar(ACL_FLOAT, 4), same = scalar(ACL_FLOAT, 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnHistcGetWorkspaceSize(hx.get(), 4, lo.get(), hi.get(), h.get(), ws, ex);
            }),
            0);
  const double hw[] = {2, 2, 1, 1};  // [0,1) [1,2) [2,3) [3,4]; 5 is outside
  for (int i = 0; i < 4; ++i) EXPECT_EQ(h.get(i), hw[i]) << i;
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnHistcGetWorkspaceSize(hx.get(), 4, same.get(), same.get(), h.get(), ws, ex);
            }),
            0);
  const double hs[] = {3, 2, 0, 2};  // the data's range [0, 5]: bins of 1.25
  for (int i = 0; i < 4; ++i) EXPECT_EQ(h.get(i), hs[i]) << i;
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnHistcGetWorkspaceSize(hx.get(), 4, hi.get(), lo.get(), h.get(), ws, ex);
            }),
            kParamInvalid);
  // isin.
  HostTensorBuf el(ACL_FLOAT, {4}), inb(ACL_BOOL, {4}), any(ACL_BOOL, {});
  for (int i = 0; i < 4; ++i) el.set(i, i * 0.5);
  auto one = scalar(ACL_DOUBLE, 1.0), nine = scalar(ACL_DOUBLE, 9.0);
  for (bool invert : {false, true}) {
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnIsInTensorScalarGetWorkspaceSize(el.get(), one.get(), false, invert, inb.get(),
                                                             ws, ex);
              }),
              0);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(inb.get(i), (i == 2) != invert ? 1 : 0) << i;
    for (auto* e : {one.get(), nine.get()}) {
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnIsInScalarTensorGetWorkspaceSize(e, el.get(), false, invert, any.get(), ws, ex);
                }),
                0);
      EXPECT_EQ(any.get(0), (e == one.get()) != invert ? 1 : 0);
    }
  }
  // isin_part_v1 over sorted (elements [1, 1, 4, 1, 1] ++ tests [0, 1, 2, 3]).
  HostTensorBuf val(ACL_FLOAT, {9}), pos(ACL_INT32, {9}), cntN(ACL_INT32, {1}), zb(ACL_BOOL, {5});
  const double sv[] = {0, 1, 1, 1, 1, 1, 2, 3, 4}, sp[] = {5, 0, 1, 3, 4, 6, 7, 8, 2};
  for (int i = 0; i < 9; ++i) {
    val.set(i, sv[i]);
    pos.set(i, sp[i]);
  }
  cntN.set(0, 5);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnIsinPartV1GetWorkspaceSize(val.get(), pos.get(), cntN.get(), zb.get(), ws, ex);
            }),
            0);
  const double zw[] = {1, 1, 0, 1, 1};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(zb.get(i), zw[i]) << i;
  // LinalgCross along dim 0 of [3, 2] with other broadcast from [3, 1].
  HostTensorBuf p(ACL_FLOAT, {3, 2}), q(ACL_FLOAT, {3, 1}), cr(ACL_FLOAT, {3, 2});
  const double pv[] = {1, 0, 0, 1, 0, 0}, qv[] = {0, 1, 0};  // columns e1 and e2, times e2
  for (int i = 0; i < 6; ++i) p.set(i, pv[i]);
  for (int i = 0; i < 3; ++i) q.set(i, qv[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLinalgCrossGetWorkspaceSize(p.get(), q.get(), 0, cr.get(), ws, ex);
            }),
            0);
  const double cw[] = {0, 0, 0, 0, 1, 0};  // e1 x e2 = e3, e2 x e2 = 0
  for (int i = 0; i < 6; ++i) EXPECT_EQ(cr.get(i), cw[i]) << i;
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLinalgCrossGetWorkspaceSize(p.get(), q.get(), 1, cr.get(), ws, ex);
            }),
            kParamInvalid);  // length 2 along dim 1
}

TEST(MathAlOps, AngleRemainderOfAScalarAndAmpUpdateScale) {
  HostTensorBuf x(ACL_FLOAT, {5}), y(ACL_FLOAT, {5}), n(ACL_INT32, {5});
  const double xv[] = {2, -0.5, 0, -INFINITY, NAN};
  for (int i = 0; i < 5; ++i) {
    x.set(i, xv[i]);
    n.set(i, i - 2);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAngleV2GetWorkspaceSize(x.get(), y.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i)
    EXPECT_FLOAT_EQ(static_cast<float>(y.get(i)), static_cast<float>(std::atan2(0.0, xv[i]))) << i;
  EXPECT_TRUE(std::isnan(y.get(4)));
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAngleV2GetWorkspaceSize(n.get(), y.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 5; ++i)
    EXPECT_FLOAT_EQ(static_cast<float>(y.get(i)), i < 2 ? static_cast<float>(M_PI) : 0.f) << i;
  // 7 mod other, the sign of other (Python's %), integers exact.
  HostTensorBuf o(ACL_INT32, {5}), f(ACL_FLOAT, {5}), fo(ACL_FLOAT, {5});
  for (int i = 0; i < 5; ++i) {
    n.set(i, i == 2 ? 3 : i - 2);
    f.set(i, 0.75 * (i - 2) + (i == 2 ? 1 : 0));
  }
  auto seven = scalar(ACL_INT64, 7), minusSeven = scalar(ACL_FLOAT, -7.5);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRemainderScalarTensorGetWorkspaceSize(seven.get(), n.get(), o.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 5; ++i) {
    const double b = n.get(i);
    EXPECT_EQ(o.get(i), 7 - std::floor(7 / b) * b) << i;
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRemainderScalarTensorGetWorkspaceSize(minusSeven.get(), f.get(), fo.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 5; ++i) {
    const double b = f.get(i);
    EXPECT_NEAR(fo.get(i), -7.5 - std::floor(-7.5 / b) * b, 1e-6) << i;
  }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRemainderScalarTensorGetWorkspaceSize(nullptr, f.get(), fo.get(), ws, ex);
            }),
            kParamNull);
  // The loss scale: growth at the interval, backoff on inf, the tracker counting otherwise.
  HostTensorBuf scale(ACL_FLOAT, {1}), tracker(ACL_INT32, {1}), inf(ACL_FLOAT, {1}), newScale(ACL_FLOAT, {1}),
      newTracker(ACL_INT32, {1});
  struct Step {
    double scale, tracker, inf, wantScale, wantTracker;
  };
  for (const Step& s : {Step{1024, 3, 0, 1024, 4}, Step{1024, 9, 0, 2048, 0}, Step{1024, 5, 1, 512, 0}}) {
    scale.set(0, s.scale);
    tracker.set(0, s.tracker);
    inf.set(0, s.inf);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnAmpUpdateScaleGetWorkspaceSize(scale.get(), tracker.get(), inf.get(), 2.0, 0.5,
                                                           10, newScale.get(), newTracker.get(), ws, ex);
              }),
              0);
    EXPECT_EQ(newScale.get(0), s.wantScale);
    EXPECT_EQ(newTracker.get(0), s.wantTracker);
  }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAmpUpdateScaleGetWorkspaceSize(scale.get(), scale.get(), inf.get(), 2.0, 0.5, 10,
                                                         newScale.get(), newTracker.get(), ws, ex);
            }),
            kParamInvalid);  // the tracker is int32
}

TEST(MathAlOps, DistancesAndSmallLinearAlgebra) {
  std::mt19937 g(9);
  // x1 [2, 3, 4] and x2 [1, 2, 4] (batch broadcast): out [2, 3, 2] for p = 2, 1, 0.5, 0 and inf.
  HostTensorBuf x1(ACL_FLOAT, {2, 3, 4}), x2(ACL_FLOAT, {1, 2, 4}), d(ACL_FLOAT, {2, 3, 2}),
      grad(ACL_FLOAT, {2, 3, 2}), gx(ACL_FLOAT, {2, 3, 4});
  x1.fillRandom(g, -2, 2);
  x2.fillRandom(g, -2, 2);
  x1.set(0, x2.get(0));  // one equal coordinate
  grad.fillRandom(g, -1, 1);
  const auto dist = [&](int b, int i, int j, double p) {
    double s = 0;
    for (int k = 0; k < 4; ++k) {
      const double diff = std::fabs(x1.get((b * 3 + i) * 4 + k) - x2.get(j * 4 + k));
      s = std::isinf(p) ? std::max(s, diff) : p == 0 ? s + (diff != 0) : s + std::pow(diff, p);
    }
    return std::isinf(p) || p == 0 ? s : std::pow(s, 1 / p);
  };
  for (double p : {2.0, 1.0, 0.5, 0.0, static_cast<double>(INFINITY)}) {
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnCdistGetWorkspaceSize(x1.get(), x2.get(), static_cast<float>(p), 0, d.get(), ws,
                                                  ex);
              }),
              0);
    for (int i = 0; i < 12; ++i)
      EXPECT_NEAR(d.get(i), dist(i / 6, (i / 2) % 3, i % 2, p), 1e-5) << "p " << p << " " << i;
    if (p == 0) continue;
    // The gradient against the central difference of the distance in each x1 coordinate.
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnCdistBackwardGetWorkspaceSize(grad.get(), x1.get(), x2.get(), d.get(),
                                                          static_cast<float>(p), gx.get(), ws, ex);
              }),
              0);
    if (std::isinf(p)) continue;    // not differentiable at ties; the values were checked above
    for (int e = 1; e < 24; ++e) {  // element 0 sits on an equal coordinate (a kink for p <= 1)
      const int b = e / 12, i = (e / 4) % 3;
      const double x = x1.get(e);
      double num = 0;
      for (int j = 0; j < 2; ++j) {
        x1.set(e, x + 1e-4);
        const double up = dist(b, i, j, p);
        x1.set(e, x - 1e-4);
        const double down = dist(b, i, j, p);
        x1.set(e, x);
        num += grad.get((b * 3 + i) * 2 + j) * (up - down) / 2e-4;
      }
      EXPECT_NEAR(gx.get(e), num, 2e-2) << "p " << p << " " << e;
    }
  }
  HostTensorBuf bad(ACL_FLOAT, {2, 3, 5});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnCdistGetWorkspaceSize(x1.get(), bad.get(), 2, 0, d.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnCdistGetWorkspaceSize(x1.get(), x2.get(), -1, 0, d.get(), ws, ex);
            }),
            kParamInvalid);
  // Cholesky of A = B B^T + 4 I: L L^T reproduces A, U = L^T; logdet against 2 * sum ln L_ii.
  HostTensorBuf a(ACL_FLOAT, {2, 3, 3}), l(ACL_FLOAT, {2, 3, 3}), u(ACL_FLOAT, {2, 3, 3}), ld(ACL_FLOAT, {2});
  std::uniform_real_distribution<double> un(-1, 1);
  for (int b = 0; b < 2; ++b) {
    double m[3][3];
    for (auto& row : m)
      for (double& v : row) v = un(g);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double s = i == j ? 4 : 0;
        for (int k = 0; k < 3; ++k) s += m[i][k] * m[j][k];
        a.set(b * 9 + i * 3 + j, s);
      }
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLinalgCholeskyGetWorkspaceSize(a.get(), false, l.get(), ws, ex);
            }),
            0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLinalgCholeskyGetWorkspaceSize(a.get(), true, u.get(), ws, ex);
            }),
            0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLogdetGetWorkspaceSize(a.get(), ld.get(), ws, ex);
            }),
            0);
  for (int b = 0; b < 2; ++b) {
    double logDiag = 0;
    for (int i = 0; i < 3; ++i) {
      logDiag += 2 * std::log(l.get(b * 9 + i * 4));
      for (int j = 0; j < 3; ++j) {
        if (j > i) {
          EXPECT_EQ(l.get(b * 9 + i * 3 + j), 0) << b << i << j;
        }
        EXPECT_EQ(u.get(b * 9 + i * 3 + j), l.get(b * 9 + j * 3 + i)) << b << i << j;
        double s = 0;
        for (int k = 0; k < 3; ++k) s += l.get(b * 9 + i * 3 + k) * l.get(b * 9 + j * 3 + k);
        EXPECT_NEAR(s, a.get(b * 9 + i * 3 + j), 1e-5) << b << i << j;
      }
    }
    EXPECT_NEAR(ld.get(b), logDiag, 1e-5) << b;
  }
  // Not positive definite: nan from the failing column; determinants 0 and negative: -inf, nan.
  HostTensorBuf m(ACL_DOUBLE, {2, 2, 2}), md(ACL_DOUBLE, {2}), f2(ACL_FLOAT, {2, 2}), l2(ACL_FLOAT, {2, 2});
  const double mv[] = {1, 2, 2, 4, 0, 1, 1, 0};  // det 0, det -1
  for (int i = 0; i < 8; ++i) m.set(i, mv[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLogdetGetWorkspaceSize(m.get(), md.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(md.get(0), -INFINITY);
  EXPECT_TRUE(std::isnan(md.get(1)));
  const double fv[] = {1, 2, 2, 1};  // eigenvalues 3 and -1
  for (int i = 0; i < 4; ++i) f2.set(i, fv[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLinalgCholeskyGetWorkspaceSize(f2.get(), false, l2.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(l2.get(0), 1);
  EXPECT_TRUE(std::isnan(l2.get(3)));
  HostTensorBuf rect(ACL_FLOAT, {2, 3}), rectOut(ACL_FLOAT, {2, 3});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLinalgCholeskyGetWorkspaceSize(rect.get(), false, rectOut.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLogdetGetWorkspaceSize(m.get(), ld.get(), ws, ex);
            }),
            kParamInvalid);  // out of another type
}

TEST(MathAlOps, GroupedBiasAddGrad) {
  HostTensorBuf gy(ACL_FLOAT16, {7, 3}), ends(ACL_INT64, {3}), sizes(ACL_INT32, {3}),
      out(ACL_FLOAT16, {3, 3});
  for (int i = 0; i < 21; ++i) gy.set(i, i % 5 - 2 + 0.5 * (i / 3));
  const int e[] = {2, 2, 6}, n[] = {2, 0, 4};  // group 1 empty; row 6 in no group
  for (int j = 0; j < 3; ++j) {
    ends.set(j, e[j]);
    sizes.set(j, n[j]);
  }
  const auto want = [&](int g, int h) {
    double s = 0;
    for (int r = g == 0 ? 0 : e[g - 1]; r < e[g]; ++r) s += gy.get(r * 3 + h);
    return s;
  };
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGroupedBiasAddGradGetWorkspaceSize(gy.get(), ends.get(), out.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(out.get(i), out.stored(want(i / 3, i % 3))) << i;
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGroupedBiasAddGradV2GetWorkspaceSize(gy.get(), sizes.get(), 1, out.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(out.get(i), out.stored(want(i / 3, i % 3))) << i;
  // Without groupIdx: [G, C, H] summed over C.
  HostTensorBuf g3(ACL_FLOAT, {2, 4, 3}), o3(ACL_FLOAT, {2, 3});
  for (int i = 0; i < 24; ++i) g3.set(i, i);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGroupedBiasAddGradGetWorkspaceSize(g3.get(), nullptr, o3.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i) {
    double s = 0;
    for (int c = 0; c < 4; ++c) s += (i / 3) * 12 + c * 3 + i % 3;
    EXPECT_EQ(o3.get(i), s) << i;
  }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGroupedBiasAddGradGetWorkspaceSize(gy.get(), nullptr, out.get(), ws, ex);
            }),
            kParamInvalid);  // 2-D gradY needs groupIdx
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGroupedBiasAddGradV2GetWorkspaceSize(gy.get(), ends.get(), 2, out.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(MathAlOps, AffineGrid2dAnd3d) {
  std::mt19937 g(12);
  for (bool align : {false, true}) {
    // 2-D: theta [2, 2, 3], size (2, 1, 3, 4): out [2, 3, 4, 2].
    HostTensorBuf th(ACL_FLOAT, {2, 2, 3}), out(ACL_FLOAT, {2, 3, 4, 2});
    th.fillRandom(g, -1, 1);
    const int64_t s2[] = {2, 1, 3, 4};
    aclIntArray* size = aclCreateIntArray(s2, 4);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnAffineGridGetWorkspaceSize(th.get(), size, align, out.get(), ws, ex);
              }),
              0);
    const auto coord = [align](int64_t k, int64_t len) {
      return align ? (len == 1 ? 0.0 : -1 + 2.0 * k / (len - 1)) : -1 + (2.0 * k + 1) / len;
    };
    for (int n = 0; n < 2; ++n)
      for (int h = 0; h < 3; ++h)
        for (int w = 0; w < 4; ++w)
          for (int r = 0; r < 2; ++r) {
            const double want = th.get(n * 6 + r * 3) * coord(w, 4) +
                                th.get(n * 6 + r * 3 + 1) * coord(h, 3) + th.get(n * 6 + r * 3 + 2);
            EXPECT_NEAR(out.get(((n * 3 + h) * 4 + w) * 2 + r), want, 1e-6) << n << h << w << r << align;
          }
    aclDestroyIntArray(size);
    // 3-D: theta [1, 3, 4], size (1, 2, 2, 1, 3): out [1, 2, 1, 3, 3].
    HostTensorBuf t3(ACL_FLOAT, {1, 3, 4}), o3(ACL_FLOAT, {1, 2, 1, 3, 3});
    t3.fillRandom(g, -1, 1);
    const int64_t s3[] = {1, 2, 2, 1, 3};
    aclIntArray* size3 = aclCreateIntArray(s3, 5);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnAffineGridGetWorkspaceSize(t3.get(), size3, align, o3.get(), ws, ex);
              }),
              0);
    for (int d = 0; d < 2; ++d)
      for (int w = 0; w < 3; ++w)
        for (int r = 0; r < 3; ++r) {
          const double want = t3.get(r * 4) * coord(w, 3) + t3.get(r * 4 + 1) * coord(0, 1) +
                              t3.get(r * 4 + 2) * coord(d, 2) + t3.get(r * 4 + 3);
          EXPECT_NEAR(o3.get((d * 3 + w) * 3 + r), want, 1e-6) << d << w << r << align;
        }
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnAffineGridGetWorkspaceSize(th.get(), size3, align, o3.get(), ws, ex);
              }),
              kParamInvalid);  // a 2-D theta for a 3-D size
    aclDestroyIntArray(size3);
  }
}

// ExpSegsumBackward against the nine steps of its doc carried out literally (mask, flip, cumsum,
// flip, mask, row sums) on a [2, 1, 5, 5] input.
TEST(MathAlOps, ExpSegsumBackwardFollowsItsNineSteps) {
  std::mt19937 g(13);
  const int L = 5;
  HostTensorBuf go(ACL_FLOAT, {2, 1, L, L}), gs(ACL_FLOAT, {2, 1, L, L}), gi(ACL_FLOAT, {2, 1, L});
  go.fillRandom(g, -1, 1);
  gs.fillRandom(g, 0, 2);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnExpSegsumBackwardGetWorkspaceSize(go.get(), gs.get(), gi.get(), ws, ex);
            }),
            0);
  for (int b = 0; b < 2; ++b) {
    double m[L][L], flip[L][L], cum[L][L], back[L][L];
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < L; ++j)
        m[i][j] = j >= i ? 0.0 : go.get(b * 25 + i * L + j) * gs.get(b * 25 + i * L + j);
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < L; ++j) flip[i][j] = m[L - 1 - i][j];
    for (int j = 0; j < L; ++j)
      for (int i = 0; i < L; ++i) cum[i][j] = flip[i][j] + (i > 0 ? cum[i - 1][j] : 0);
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < L; ++j) back[i][j] = j >= i ? 0.0 : cum[L - 1 - i][j];
    for (int i = 0; i < L; ++i) {
      double s = 0;
      for (int j = 0; j < L; ++j) s += back[i][j];
      EXPECT_NEAR(gi.get(b * L + i), s, 1e-5) << b << " " << i;
    }
  }
  HostTensorBuf wrong(ACL_FLOAT, {2, 1, L, L});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnExpSegsumBackwardGetWorkspaceSize(go.get(), gs.get(), wrong.get(), ws, ex);
            }),
            kParamInvalid);
}

// AddLora: rows routed to their LoRA pair (one row's index is out of range: not updated), the
// product added to y's columns [1, 4); with and without weightA.
TEST(MathAlOps, AddLoraAddsEachRowsLowRankProduct) {
  std::mt19937 g(14);
  const int B = 3, H1 = 4, H3 = 5, R = 2, S = 3, loras = 2, layers = 2, layer = 1, off = 1;
  HostTensorBuf y(ACL_FLOAT16, {B, H3}), x(ACL_FLOAT16, {B, H1}), a(ACL_FLOAT16, {loras, layers, R, H1}),
      b(ACL_FLOAT16, {loras, layers, S, R}), idx(ACL_INT32, {B}), out(ACL_FLOAT16, {B, H3}),
      xr(ACL_FLOAT16, {B, R});
  for (auto* t : {&y, &x, &a, &b, &xr}) t->fillRandom(g, -1, 1);
  const int iv[] = {1, 0, 5};
  for (int i = 0; i < B; ++i) idx.set(i, iv[i]);
  for (bool withA : {true, false}) {
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnAddLoraGetWorkspaceSize(y.get(), withA ? x.get() : xr.get(), b.get(), idx.get(),
                                                    withA ? a.get() : nullptr, layer, 0.5, off, S, out.get(),
                                                    ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int r = 0; r < B; ++r) {
      for (int c = 0; c < H3; ++c) {
        double want = y.get(r * H3 + c);
        const int i = iv[r];
        if (i < loras && c >= off && c < off + S) {
          double z2 = 0;
          for (int k = 0; k < R; ++k) {
            double z1 = 0;
            if (withA) {
              for (int h = 0; h < H1; ++h)
                z1 += x.get(r * H1 + h) * a.get(((i * layers + layer) * R + k) * H1 + h);
            } else {
              z1 = xr.get(r * R + k);
            }
            z2 += z1 * b.get(((i * layers + layer) * S + (c - off)) * R + k);
          }
          want += 0.5 * z2;
        }
        expectNear(out.get(r * H3 + c), out.stored(want), ACL_FLOAT16,
                   "row " + std::to_string(r) + " col " + std::to_string(c));
      }
    }
  }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddLoraGetWorkspaceSize(y.get(), x.get(), b.get(), idx.get(), a.get(), 2, 1.0, 0, S,
                                                  out.get(), ws, ex);
            }),
            kParamInvalid);  // layerIdx past the layers
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddLoraGetWorkspaceSize(y.get(), x.get(), b.get(), idx.get(), a.get(), 0, 1.0, 3, S,
                                                  out.get(), ws, ex);
            }),
            kParamInvalid);  // the slice past y's columns
}

// Complex: the parts side by side in each complex64 element, imag broadcast; types checked.
TEST(MathAlOps, ComplexStoresThePartsSideBySide) {
  HostTensorBuf re(ACL_FLOAT, {2, 3}), im(ACL_FLOAT, {3}), d(ACL_DOUBLE, {2, 3});
  for (int i = 0; i < 6; ++i) re.set(i, i - 2.5);
  for (int i = 0; i < 3; ++i) im.set(i, 10 * i + 0.25);
  std::vector<float> raw(12, -1);
  const std::vector<int64_t> shape = {2, 3}, strides = {3, 1};
  aclTensor* out = aclCreateTensor(shape.data(), 2, ACL_COMPLEX64, strides.data(), 0, ACL_FORMAT_ND,
                                   shape.data(), 2, raw.data());
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnComplexGetWorkspaceSize(re.get(), im.get(), out, ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(raw[2 * i], static_cast<float>(i - 2.5)) << i;
    EXPECT_EQ(raw[2 * i + 1], static_cast<float>(10 * (i % 3) + 0.25)) << i;
  }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnComplexGetWorkspaceSize(re.get(), d.get(), out, ws, ex);
            }),
            kParamInvalid);  // parts of two types
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnComplexGetWorkspaceSize(d.get(), d.get(), out, ws, ex);
            }),
            kParamInvalid);  // fp64 parts make complex128, not complex64
  aclDestroyTensor(out);
}

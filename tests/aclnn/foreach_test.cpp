// The aclnnForeach* operators (runtime/aclnn/ops/foreach_math.cpp on foreach_op.h): each result
// against its definition evaluated in fp64 here (written differently where it can be: sigmoid
// through tanh, tan as sin/cos, lerp as (1-w)a + wb), on lists of tensors of different shapes
// with a transposed view and an empty tensor, in fp32/fp16/bf16 and integers; the scalar forms
// (device tensor, aclScalar, aclScalarList, one per entry), norm, round-off, non-finite check,
// copy and zero; every error code; the bytes one launch charges for the whole list.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_foreach_abs.h"
#include "aclnnop/aclnn_foreach_add_list.h"
#include "aclnnop/aclnn_foreach_add_scalar_list.h"
#include "aclnnop/aclnn_foreach_add_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar_list.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_copy.h"
#include "aclnnop/aclnn_foreach_div_scalar.h"
#include "aclnnop/aclnn_foreach_erf.h"
#include "aclnnop/aclnn_foreach_exp.h"
#include "aclnnop/aclnn_foreach_lerp_list.h"
#include "aclnnop/aclnn_foreach_lerp_scalar.h"
#include "aclnnop/aclnn_foreach_log1p.h"
#include "aclnnop/aclnn_foreach_maximum_scalar_list.h"
#include "aclnnop/aclnn_foreach_minimum_list.h"
#include "aclnnop/aclnn_foreach_mul_list.h"
#include "aclnnop/aclnn_foreach_neg.h"
#include "aclnnop/aclnn_foreach_non_finite_check_and_unscale.h"
#include "aclnnop/aclnn_foreach_norm.h"
#include "aclnnop/aclnn_foreach_pow_list.h"
#include "aclnnop/aclnn_foreach_pow_scalar_and_tensor.h"
#include "aclnnop/aclnn_foreach_round_off_number.h"
#include "aclnnop/aclnn_foreach_round_off_number_v2.h"
#include "aclnnop/aclnn_foreach_sigmoid.h"
#include "aclnnop/aclnn_foreach_sign.h"
#include "aclnnop/aclnn_foreach_sqrt.h"
#include "aclnnop/aclnn_foreach_sub_list_v2.h"
#include "aclnnop/aclnn_foreach_tan.h"
#include "aclnnop/aclnn_foreach_zero_inplace.h"

using namespace aclnn_test;

namespace {

using Buf = std::unique_ptr<HostTensorBuf>;

// A list of tensors of the shapes the tests use: [3,5], a transposed [4,6] view, [7] and an
// empty [0,3].
struct TensorSet {
  std::vector<Buf> t;
  aclTensorList* list = nullptr;

  TensorSet(aclDataType dt, std::mt19937& g, double lo, double hi, bool withEmpty = true) {
    std::vector<std::vector<int64_t>> shapes = {{3, 5}, {4, 6}, {7}}, strides = {{5, 1}, {1, 4}, {1}};
    if (withEmpty) {
      shapes.push_back({0, 3});
      strides.push_back({3, 1});
    }
    std::vector<aclTensor*> handles;
    for (size_t i = 0; i < shapes.size(); ++i) {
      t.push_back(std::make_unique<HostTensorBuf>(dt, shapes[i], strides[i], 0));
      t.back()->fillRandom(g, lo, hi);
      // the list destroys its tensors: each gets a handle of its own over the same memory
      int64_t storage = static_cast<int64_t>((t.back()->raw().size() - 16) / elemSize(dt));
      handles.push_back(aclCreateTensor(shapes[i].data(), shapes[i].size(), dt, strides[i].data(), 0,
                                        ACL_FORMAT_ND, &storage, 1, t.back()->raw().data()));
    }
    list = aclCreateTensorList(handles.data(), handles.size());
  }
  ~TensorSet() { aclDestroyTensorList(list); }
  HostTensorBuf& operator[](size_t i) { return *t[i]; }
  size_t size() const { return t.size(); }
};

std::mt19937& rng() {
  static std::mt19937 g(28);
  return g;
}

using Phase1List = std::function<int(uint64_t*, aclOpExecutor**)>;

// Each element of every output against want(entry, element) rounded to the type.
void expectEach(TensorSet& out, aclDataType dt, const std::function<double(size_t, int64_t)>& want,
                const std::string& what, double relTol = 0) {
  for (size_t i = 0; i < out.size(); ++i) {
    for (int64_t e = 0; e < out[i].numel(); ++e) {
      const double w = want(i, e);
      const double got = out[i].get(e);
      const std::string where = what + " entry " + std::to_string(i) + " element " + std::to_string(e);
      if (std::isnan(w)) {
        EXPECT_TRUE(std::isnan(got)) << where;
      } else if (std::isinf(w)) {
        EXPECT_EQ(got, w) << where;
      } else if (relTol > 0) {
        EXPECT_NEAR(got, w, relTol * std::max(1.0, std::fabs(w))) << where;
      } else {
        expectNear(got, w, dt, where);
      }
    }
  }
}

struct UnaryCase {
  const char* name;
  int (*p1)(const aclTensorList*, const aclTensorList*, uint64_t*, aclOpExecutor**);
  double (*ref)(double);
  double lo, hi;
};

const UnaryCase kUnary[] = {
    {"Exp", aclnnForeachExpGetWorkspaceSize, [](double x) { return std::pow(2.718281828459045, x); }, -3, 3},
    {"Log1p", aclnnForeachLog1pGetWorkspaceSize, [](double x) { return std::log(1 + x); }, 0.1, 4},
    {"Sqrt", aclnnForeachSqrtGetWorkspaceSize, [](double x) { return std::pow(x, 0.5); }, 0, 9},
    {"Tan", aclnnForeachTanGetWorkspaceSize, [](double x) { return std::sin(x) / std::cos(x); }, -1.2, 1.2},
    {"Sigmoid", aclnnForeachSigmoidGetWorkspaceSize, [](double x) { return 0.5 * (1 + std::tanh(x / 2)); },
     -6, 6},
    {"Erf", aclnnForeachErfGetWorkspaceSize, [](double x) { return 1 - std::erfc(x); }, -2, 2},
    {"Abs", aclnnForeachAbsGetWorkspaceSize, [](double x) { return x < 0 ? -x : x; }, -5, 5},
    {"Neg", aclnnForeachNegGetWorkspaceSize, [](double x) { return 0 - x; }, -5, 5},
    {"Sign", aclnnForeachSignGetWorkspaceSize,
     [](double x) { return static_cast<double>((x > 0) - (x < 0)); }, -5, 5},
};

}  // namespace

// Every entry of the list, including the transposed view and the empty tensor, through the
// element function in fp32, fp16 and bf16 (computed in fp32, rounded once when stored).
TEST(Foreach, UnaryOperatorsMatchTheirDefinitions) {
  for (const UnaryCase& c : kUnary) {
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      TensorSet x(dt, rng(), c.lo, c.hi), out(dt, rng(), 0, 0);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return c.p1(x.list, out.list, ws, ex); }), 0)
          << c.name << " " << aclGetRecentErrMsg();
      expectEach(
          out, dt, [&](size_t i, int64_t e) { return out[i].stored(c.ref(x[i].get(e))); }, c.name);
    }
  }
}

// Integer lists: Neg and Sign exact on int32, Neg wrapping on int8 (-(-128) is -128).
TEST(Foreach, IntegerListsAreExact) {
  TensorSet x(ACL_INT32, rng(), -1000, 1000), out(ACL_INT32, rng(), 0, 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnForeachSignGetWorkspaceSize(x.list, out.list, ws, ex);
            }),
            0);
  expectEach(
      out, ACL_INT32,
      [&](size_t i, int64_t e) { return x[i].get(e) > 0   ? 1.0
                                        : x[i].get(e) < 0 ? -1.0
                                                          : 0.0; },
      "Sign int32");
  TensorSet b(ACL_INT8, rng(), -100, 100), bo(ACL_INT8, rng(), 0, 0);
  b[0].set(0, -128);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnForeachNegGetWorkspaceSize(b.list, bo.list, ws, ex);
            }),
            0);
  EXPECT_EQ(bo[0].get(0), -128);
  expectEach(
      bo, ACL_INT8, [&](size_t i, int64_t e) { return i == 0 && e == 0 ? -128 : -b[i].get(e); }, "Neg int8");
}

// AddList's alpha is a device tensor read when the operator runs; SubListV2's an aclScalar.
TEST(Foreach, ListFormsWithAlpha) {
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    TensorSet a(dt, rng(), -4, 4), b(dt, rng(), -4, 4), out(dt, rng(), 0, 0);
    HostTensorBuf alpha(dt == ACL_BF16 ? ACL_FLOAT : dt, {1});
    alpha.set(0, 1.5);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnForeachAddListGetWorkspaceSize(a.list, b.list, alpha.get(), out.list, ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    expectEach(
        out, dt, [&](size_t i, int64_t e) { return out[i].stored(a[i].get(e) + 1.5 * b[i].get(e)); },
        "AddList");
    aclScalar* s = makeScalar(ACL_DOUBLE, 0.25);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnForeachSubListV2GetWorkspaceSize(a.list, b.list, s, out.list, ws, ex);
              }),
              0);
    expectEach(
        out, dt, [&](size_t i, int64_t e) { return out[i].stored(a[i].get(e) - 0.25 * b[i].get(e)); },
        "SubListV2");
    aclDestroyScalar(s);
  }
  // int32 wraps as the vector unit's adds do
  TensorSet a(ACL_INT32, rng(), -9, 9), b(ACL_INT32, rng(), -9, 9), out(ACL_INT32, rng(), 0, 0);
  a[0].set(0, 2147483647);
  b[0].set(0, 1);
  HostTensorBuf alpha(ACL_INT32, {1});
  alpha.set(0, 3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnForeachAddListGetWorkspaceSize(a.list, b.list, alpha.get(), out.list, ws, ex);
            }),
            0);
  EXPECT_EQ(out[0].get(0), -2147483646.0);
  EXPECT_EQ(out[2].get(3), a[2].get(3) + 3 * b[2].get(3));
}

// Binary lists: MulList, MinimumList (NaN wins), PowList on int32 (exact, wrapping).
TEST(Foreach, BinaryLists) {
  TensorSet a(ACL_FLOAT16, rng(), -3, 3), b(ACL_FLOAT16, rng(), -3, 3), out(ACL_FLOAT16, rng(), 0, 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnForeachMulListGetWorkspaceSize(a.list, b.list, out.list, ws, ex);
            }),
            0);
  expectEach(
      out, ACL_FLOAT16, [&](size_t i, int64_t e) { return out[i].stored(a[i].get(e) * b[i].get(e)); },
      "MulList");
  TensorSet c(ACL_FLOAT, rng(), -3, 3), d(ACL_FLOAT, rng(), -3, 3), o(ACL_FLOAT, rng(), 0, 0);
  c[1].set(2, std::numeric_limits<double>::quiet_NaN());
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnForeachMinimumListGetWorkspaceSize(c.list, d.list, o.list, ws, ex);
            }),
            0);
  expectEach(
      o, ACL_FLOAT,
      [&](size_t i, int64_t e) {
        const double p = c[i].get(e), q = d[i].get(e);
        return std::isnan(p) ? p : p < q ? p : q;
      },
      "MinimumList");
  TensorSet x(ACL_INT32, rng(), -4, 5), y(ACL_INT32, rng(), 0, 6), z(ACL_INT32, rng(), 0, 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnForeachPowListGetWorkspaceSize(x.list, y.list, z.list, ws, ex);
            }),
            0);
  expectEach(
      z, ACL_INT32,
      [&](size_t i, int64_t e) {
        double r = 1;
        for (int k = 0; k < static_cast<int>(y[i].get(e)); ++k) r *= x[i].get(e);
        return r;
      },
      "PowList int32");
}

// Scalar forms: one device scalar (DivScalar), one per entry (AddScalarList, MaximumScalarList),
// the scalar as base (PowScalarAndTensor).
TEST(Foreach, ScalarForms) {
  TensorSet x(ACL_FLOAT, rng(), -5, 5), out(ACL_FLOAT, rng(), 0, 0);
  HostTensorBuf s(ACL_FLOAT, {1});
  s.set(0, -4);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnForeachDivScalarGetWorkspaceSize(x.list, s.get(), out.list, ws, ex);
            }),
            0);
  expectEach(
      out, ACL_FLOAT, [&](size_t i, int64_t e) { return x[i].get(e) * -0.25; }, "DivScalar");

  std::vector<aclScalar*> scalars;
  for (size_t i = 0; i < x.size(); ++i)
    scalars.push_back(makeScalar(ACL_FLOAT, 0.5 * static_cast<double>(i) - 1));
  aclScalarList* sl = aclCreateScalarList(scalars.data(), scalars.size());
  x[2].set(1, std::numeric_limits<double>::quiet_NaN());
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnForeachMaximumScalarListGetWorkspaceSize(x.list, sl, out.list, ws, ex);
            }),
            0);
  expectEach(
      out, ACL_FLOAT,
      [&](size_t i, int64_t e) {
        const double v = x[i].get(e), m = 0.5 * static_cast<double>(i) - 1;
        return std::isnan(v) ? v : v > m ? v : m;
      },
      "MaximumScalarList");
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnForeachAddScalarListGetWorkspaceSize(x.list, sl, out.list, ws, ex);
            }),
            0);
  expectEach(
      out, ACL_FLOAT, [&](size_t i, int64_t e) { return x[i].get(e) + 0.5 * static_cast<double>(i) - 1; },
      "AddScalarList");
  aclDestroyScalarList(sl);

  TensorSet h(ACL_BF16, rng(), -2, 2), ho(ACL_BF16, rng(), 0, 0);
  aclScalar* base = makeScalar(ACL_FLOAT, 3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnForeachPowScalarAndTensorGetWorkspaceSize(base, h.list, ho.list, ws, ex);
            }),
            0);
  expectEach(
      ho, ACL_BF16, [&](size_t i, int64_t e) { return ho[i].stored(std::exp(h[i].get(e) * std::log(3.0))); },
      "PowScalarAndTensor");
  aclDestroyScalar(base);
}

// Three lists: addcdiv with one scalar per entry (a device tensor), addcmul with an aclScalar,
// lerp with a weight list and a weight scalar.
TEST(Foreach, PointwiseAndLerp) {
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16}) {
    TensorSet a(dt, rng(), -2, 2), b(dt, rng(), -2, 2), c(dt, rng(), 0.5, 3), out(dt, rng(), 0, 0);
    HostTensorBuf scalars(dt, {static_cast<int64_t>(a.size())});
    for (int64_t i = 0; i < scalars.numel(); ++i) scalars.set(i, 0.75 - 0.5 * static_cast<double>(i));
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnForeachAddcdivScalarListGetWorkspaceSize(a.list, b.list, c.list, scalars.get(),
                                                                     out.list, ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    expectEach(
        out, dt,
        [&](size_t i, int64_t e) {
          return out[i].stored(a[i].get(e) +
                               scalars.get(static_cast<int64_t>(i)) * b[i].get(e) / c[i].get(e));
        },
        "AddcdivScalarList");
    aclScalar* v = makeScalar(ACL_DOUBLE, -0.5);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnForeachAddcmulScalarV2GetWorkspaceSize(a.list, b.list, c.list, v, out.list, ws,
                                                                   ex);
              }),
              0);
    expectEach(
        out, dt,
        [&](size_t i, int64_t e) { return out[i].stored(a[i].get(e) - 0.5 * b[i].get(e) * c[i].get(e)); },
        "AddcmulScalarV2");
    TensorSet w(dt, rng(), 0, 1);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnForeachLerpListGetWorkspaceSize(a.list, b.list, w.list, out.list, ws, ex);
              }),
              0);
    expectEach(
        out, dt,
        [&](size_t i, int64_t e) {
          const double t = w[i].get(e);
          return out[i].stored((1 - t) * a[i].get(e) + t * b[i].get(e));
        },
        "LerpList");
    aclScalar* wt = makeScalar(ACL_FLOAT, 0.3);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnForeachLerpScalarGetWorkspaceSize(a.list, b.list, wt, out.list, ws, ex);
              }),
              0);
    const double w03 = static_cast<float>(0.3);
    expectEach(
        out, dt,
        [&](size_t i, int64_t e) { return out[i].stored((1 - w03) * a[i].get(e) + w03 * b[i].get(e)); },
        "LerpScalar");
    aclDestroyScalar(v);
    aclDestroyScalar(wt);
  }
}

// One value per tensor: p = 2, 1 and inf; an empty tensor's norm is 0.
TEST(Foreach, NormPerTensor) {
  TensorSet x(ACL_FLOAT, rng(), -3, 3);
  for (double p : {2.0, 1.0, 3.0, std::numeric_limits<double>::infinity()}) {
    std::vector<Buf> outs;
    std::vector<aclTensor*> handles;
    for (size_t i = 0; i < x.size(); ++i) {
      outs.push_back(std::make_unique<HostTensorBuf>(ACL_FLOAT, std::vector<int64_t>{1, 1}));
      handles.push_back(listHandle(*outs.back()));
    }
    aclTensorList* out = aclCreateTensorList(handles.data(), handles.size());
    aclScalar* ps = makeScalar(ACL_FLOAT, p);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnForeachNormGetWorkspaceSize(x.list, ps, out, ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (size_t i = 0; i < x.size(); ++i) {
      double want = 0;
      for (int64_t e = 0; e < x[i].numel(); ++e) {
        const double a = std::fabs(x[i].get(e));
        want = std::isinf(p) ? std::max(want, a) : want + std::pow(a, p);
      }
      if (!std::isinf(p)) want = std::pow(want, 1 / p);
      EXPECT_NEAR(outs[i]->get(0), want, 1e-5 * std::max(1.0, want)) << "p " << p << " entry " << i;
    }
    aclDestroyScalar(ps);
    aclDestroyTensorList(out);
  }
}

// The round modes of the kernel's Cast: 1 even, 2 floor, 3 ceil, 4 half away, 5 trunc, 6 odd,
// 7 the fraction; 0 leaves the value.
TEST(Foreach, RoundOffNumberModes) {
  TensorSet x(ACL_FLOAT, rng(), -5, 5, false), out(ACL_FLOAT, rng(), 0, 0, false);
  x[0].set(0, 2.5);
  x[0].set(1, -2.5);
  x[0].set(2, 3.5);
  auto odd = [](double v) {
    const double f = std::floor(v);
    return f == v ? v : (static_cast<int64_t>(f) % 2 != 0 ? f : f + 1);
  };
  const std::vector<std::function<double(double)>> want = {
      [](double v) { return v; },
      [](double v) { return v - std::remainder(v, 1.0); },
      [](double v) { return std::floor(v); },
      [](double v) { return -std::floor(-v); },
      [](double v) { return v < 0 ? -std::floor(-v + 0.5) : std::floor(v + 0.5); },
      [](double v) { return v < 0 ? -std::floor(-v) : std::floor(v); },
      odd,
      [](double v) { return v - (v < 0 ? -std::floor(-v) : std::floor(v)); }};
  for (int mode = 0; mode < 8; ++mode) {
    HostTensorBuf m(ACL_INT8, {1});
    m.set(0, mode);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnForeachRoundOffNumberGetWorkspaceSize(x.list, m.get(), out.list, ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    expectEach(
        out, ACL_FLOAT, [&](size_t i, int64_t e) { return static_cast<float>(want[mode](x[i].get(e))); },
        "mode " + std::to_string(mode), 1e-6);
  }
  aclScalar* m = makeScalar(ACL_INT64, 2);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnForeachRoundOffNumberV2GetWorkspaceSize(x.list, m, out.list, ws, ex);
            }),
            0);
  EXPECT_EQ(out[0].get(1), -3);
  aclDestroyScalar(m);
}

// foundInf keeps its value when every element is finite and becomes 1 otherwise; the grads
// are unscaled in place either way.
TEST(Foreach, NonFiniteCheckAndUnscale) {
  for (bool withInf : {false, true}) {
    TensorSet g(ACL_FLOAT16, rng(), -8, 8);
    if (withInf) g[2].set(4, INFINITY);
    std::vector<std::vector<double>> before(g.size());
    for (size_t i = 0; i < g.size(); ++i) {
      for (int64_t e = 0; e < g[i].numel(); ++e) before[i].push_back(g[i].get(e));
    }
    HostTensorBuf found(ACL_FLOAT, {1}), inv(ACL_FLOAT, {1});
    found.set(0, -1);
    inv.set(0, 0.125);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(g.list, found.get(), inv.get(),
                                                                            ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    EXPECT_EQ(found.get(0), withInf ? 1.0 : -1.0);
    expectEach(
        g, ACL_FLOAT16, [&](size_t i, int64_t e) { return before[i][static_cast<size_t>(e)] / 8; },
        "unscaled");
  }
}

// Copy keeps int64 and fp64 values exactly; ZeroInplace writes zeros without reading.
TEST(Foreach, CopyAndZero) {
  TensorSet x(ACL_INT64, rng(), -1e6, 1e6), out(ACL_INT64, rng(), 0, 0);
  const int64_t big = (int64_t{1} << 62) + 1;
  std::memcpy(x[0].at(1), &big, 8);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnForeachCopyGetWorkspaceSize(x.list, out.list, ws, ex);
            }),
            0);
  int64_t got = 0;
  std::memcpy(&got, out[0].at(1), 8);
  EXPECT_EQ(got, big);
  expectEach(
      out, ACL_INT64, [&](size_t i, int64_t e) { return x[i].get(e); }, "Copy int64", 1e-15);
  TensorSet z(ACL_BF16, rng(), 1, 5);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnForeachZeroInplaceGetWorkspaceSize(z.list, ws, ex);
            }),
            0);
  expectEach(
      z, ACL_BF16, [](size_t, int64_t) { return 0.0; }, "ZeroInplace");
}

TEST(Foreach, BadArgumentsAreRefused) {
  TensorSet a(ACL_FLOAT, rng(), 0, 1), b(ACL_FLOAT, rng(), 0, 1), out(ACL_FLOAT, rng(), 0, 0);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnForeachMulListGetWorkspaceSize(nullptr, b.list, out.list, &ws, &ex), 161001);
  EXPECT_EQ(aclnnForeachMulListGetWorkspaceSize(a.list, b.list, nullptr, &ws, &ex), 161001);
  EXPECT_EQ(aclnnForeachAddListGetWorkspaceSize(a.list, b.list, nullptr, out.list, &ws, &ex), 161001);
  // a list of another length
  TensorSet shortList(ACL_FLOAT, rng(), 0, 1, false);
  EXPECT_EQ(aclnnForeachMulListGetWorkspaceSize(a.list, shortList.list, out.list, &ws, &ex), 161002);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("tensors"), std::string::npos);
  // another type, another shape
  TensorSet h(ACL_FLOAT16, rng(), 0, 1);
  EXPECT_EQ(aclnnForeachMulListGetWorkspaceSize(a.list, h.list, out.list, &ws, &ex), 161002);
  TensorSet other(ACL_FLOAT, rng(), 0, 1);
  std::vector<aclTensor*> swapped = {listHandle(other[2]), listHandle(other[0]), listHandle(other[2]),
                                     listHandle(other[3])};
  aclTensorList* wrongShapes = aclCreateTensorList(swapped.data(), swapped.size());
  EXPECT_EQ(aclnnForeachMulListGetWorkspaceSize(a.list, wrongShapes, out.list, &ws, &ex), 161002);
  aclDestroyTensorList(wrongShapes);
  // a type the operator does not take, a null entry, an empty list
  TensorSet i32(ACL_INT32, rng(), 0, 5), o32(ACL_INT32, rng(), 0, 0);
  EXPECT_EQ(aclnnForeachSqrtGetWorkspaceSize(i32.list, o32.list, &ws, &ex), 161002);
  const aclTensor* withNull[] = {listHandle(a[0]), nullptr};
  aclTensorList* nullEntry = aclCreateTensorList(withNull, 2);
  EXPECT_EQ(aclnnForeachAbsGetWorkspaceSize(nullEntry, nullEntry, &ws, &ex), 161001);
  aclDestroyTensorList(nullEntry);
  aclTensorList* empty = aclCreateTensorList(nullptr, 0);
  EXPECT_EQ(aclnnForeachAbsGetWorkspaceSize(empty, empty, &ws, &ex), 161002);
  aclDestroyTensorList(empty);
  // scalars: a float scalar for int32 lists, a count that is not the list's, a wrong scalar type
  HostTensorBuf twoScalars(ACL_FLOAT, {2});
  EXPECT_EQ(aclnnForeachDivScalarGetWorkspaceSize(a.list, twoScalars.get(), out.list, &ws, &ex), 161002);
  EXPECT_EQ(aclnnForeachAddcdivScalarListGetWorkspaceSize(a.list, b.list, b.list, twoScalars.get(), out.list,
                                                          &ws, &ex),
            161002);
  HostTensorBuf fAlpha(ACL_FLOAT, {1});
  EXPECT_EQ(aclnnForeachAddListGetWorkspaceSize(i32.list, i32.list, fAlpha.get(), o32.list, &ws, &ex),
            161002);
  aclScalar* s = makeScalar(ACL_FLOAT, 1);
  std::vector<aclScalar*> one = {s};
  aclScalarList* sl = aclCreateScalarList(one.data(), 1);
  EXPECT_EQ(aclnnForeachAddScalarListGetWorkspaceSize(a.list, sl, out.list, &ws, &ex), 161002);
  aclDestroyScalarList(sl);
  // Norm's out entries hold one element; foundInf is one fp32 element
  aclScalar* p = makeScalar(ACL_FLOAT, 2);
  EXPECT_EQ(aclnnForeachNormGetWorkspaceSize(a.list, p, out.list, &ws, &ex), 161002);
  aclDestroyScalar(p);
  HostTensorBuf found16(ACL_FLOAT16, {1}), inv(ACL_FLOAT, {1});
  EXPECT_EQ(aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(a.list, found16.get(), inv.get(), &ws, &ex),
            161002);
  EXPECT_EQ(aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(a.list, nullptr, inv.get(), &ws, &ex),
            161001);
  // mode out of INT8 for the V1 round-off
  HostTensorBuf mode32(ACL_INT32, {1});
  EXPECT_EQ(aclnnForeachRoundOffNumberGetWorkspaceSize(a.list, mode32.get(), out.list, &ws, &ex), 161002);
}

// One launch charges every entry's bytes: both lists read once, the outputs written once;
// ZeroInplace reads nothing.
TEST(Foreach, OneLaunchChargesTheWholeList) {
  TensorSet a(ACL_FLOAT16, rng(), 0, 1), b(ACL_FLOAT16, rng(), 0, 1), out(ACL_FLOAT16, rng(), 0, 0);
  uint64_t elems = 0;
  for (size_t i = 0; i < a.size(); ++i) elems += static_cast<uint64_t>(a[i].numel());
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnForeachMulListGetWorkspaceSize(a.list, b.list, out.list, &ws, &ex), 0);
  const Charged mul = chargedBytes(ex);
  EXPECT_EQ(mul.read, 2 * 2 * elems);
  EXPECT_EQ(mul.written, 2 * elems);
  ASSERT_EQ(aclnnForeachZeroInplaceGetWorkspaceSize(a.list, &ws, &ex), 0);
  const Charged zero = chargedBytes(ex);
  EXPECT_EQ(zero.read, 0u);
  EXPECT_EQ(zero.written, 2 * elems);
  ASSERT_EQ(aclnnForeachTanGetWorkspaceSize(a.list, out.list, &ws, &ex), 0);
  const Charged tan = chargedBytes(ex);
  EXPECT_EQ(tan.read, 2 * elems);
  // the vector unit streams the tile's inputs and output once per pass: 1 for a multiply, 8
  // for Tan's series
  EXPECT_EQ(mul.vector, (2 + 2 + 2) * elems);
  EXPECT_EQ(tan.vector, 8 * (2 + 2) * elems);
}

// The out list may be the input list itself (an in-place call): each element is read before it
// is written.
TEST(Foreach, OutMayBeTheInputList) {
  TensorSet x(ACL_FLOAT16, rng(), -2, 2);
  std::vector<std::vector<double>> before(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    for (int64_t e = 0; e < x[i].numel(); ++e) before[i].push_back(x[i].get(e));
  }
  aclScalar* s = makeScalar(ACL_FLOAT16, 0.5);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnForeachAddScalarV2GetWorkspaceSize(x.list, s, x.list, ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  expectEach(
      x, ACL_FLOAT16,
      [&](size_t i, int64_t e) { return x[i].stored(before[i][static_cast<size_t>(e)] + 0.5); },
      "AddScalarV2 in place");
  aclDestroyScalar(s);
}

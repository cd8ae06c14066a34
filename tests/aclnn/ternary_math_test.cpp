// The pointwise engine of three or more operands (ternary_op.h) and its operators: each against
// its definition evaluated in the test on the values as stored, with broadcasting, fp32/fp16/bf16
// (and integers where the doc lists them), transposed views, in-place forms, empty tensors, the
// tensor-list forms, IsClose's special values, error codes and the bytes the cost model charges.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_add_mat_mat_elements_plus.h"
#include "aclnnop/aclnn_add_n.h"
#include "aclnnop/aclnn_addcdiv.h"
#include "aclnnop/aclnn_addcmul.h"
#include "aclnnop/aclnn_axpy_v2.h"
#include "aclnnop/aclnn_axpy_v3.h"
#include "aclnnop/aclnn_bias_add.h"
#include "aclnnop/aclnn_eltwise.h"
#include "aclnnop/aclnn_fused_mul_add_n.h"
#include "aclnnop/aclnn_isclose.h"
#include "aclnnop/aclnn_lerp_scalar.h"
#include "aclnnop/aclnn_lerp_tensor.h"
#include "aclnnop/aclnn_sum.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;
using ScalarPtr = std::unique_ptr<aclScalar, decltype(&aclDestroyScalar)>;

ScalarPtr scalar(aclDataType dt, double v) { return ScalarPtr(makeScalar(dt, v), aclDestroyScalar); }

// self [3, 4] as a transposed view of a [4, 3] buffer, t1 [4] and t2 [3, 1] broadcast to it.
struct Three {
  explicit Three(aclDataType dt)
      : self(dt, {3, 4}, {1, 3}, 0), t1(dt, {4}), t2(dt, {3, 1}), out(dt, {3, 4}) {}
  HostTensorBuf self, t1, t2, out;
  double s(int64_t i) { return self.get(i); }
  double a(int64_t i) { return t1.get(i % 4); }
  double b(int64_t i) { return t2.get(i / 4); }
};

}  // namespace

TEST(TernaryMath, AddcmulAddcdivLerpAgainstDefinitions) {
  std::mt19937 g(11);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    Three x(dt);
    x.self.fillRandom(g, -3, 3);
    x.t1.fillRandom(g, -3, 3);
    x.t2.fillRandom(g, 0.5, 2);  // away from 0 (a divisor)
    auto v = scalar(ACL_FLOAT, 0.75);
    const std::string what = "dtype " + std::to_string(dt);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnAddcmulGetWorkspaceSize(x.self.get(), x.t1.get(), x.t2.get(), v.get(),
                                                    x.out.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t i = 0; i < 12; ++i)
      expectNear(x.out.get(i), x.out.stored(x.s(i) + 0.75 * x.a(i) * x.b(i)), dt, what);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnAddcdivGetWorkspaceSize(x.self.get(), x.t1.get(), x.t2.get(), v.get(),
                                                    x.out.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < 12; ++i)
      expectNear(x.out.get(i), x.out.stored(x.s(i) + 0.75 * x.a(i) / x.b(i)), dt, what);
    // Lerp: weight the third operand; Lerps: weight a scalar.
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnLerpGetWorkspaceSize(x.self.get(), x.t1.get(), x.t2.get(), x.out.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < 12; ++i)
      expectNear(x.out.get(i), x.out.stored(x.s(i) + x.b(i) * (x.a(i) - x.s(i))), dt, what);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnLerpsGetWorkspaceSize(x.self.get(), x.t1.get(), v.get(), x.out.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < 12; ++i)
      expectNear(x.out.get(i), x.out.stored(x.s(i) + 0.75 * (x.a(i) - x.s(i))), dt, what);
  }
}

TEST(TernaryMath, IntegersInPlaceAndEmpty) {
  // Addcmul on int32 is exact; the in-place form writes selfRef.
  HostTensorBuf self(ACL_INT32, {2, 3}), t1(ACL_INT32, {2, 3}), t2(ACL_INT32, {3});
  for (int i = 0; i < 6; ++i) {
    self.set(i, i * 7 - 20);
    t1.set(i, 3 - i);
  }
  for (int i = 0; i < 3; ++i) t2.set(i, i - 1);
  auto v = scalar(ACL_INT64, 3);
  std::vector<double> want(6);
  for (int i = 0; i < 6; ++i) want[i] = self.get(i) + 3 * t1.get(i) * t2.get(i % 3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceAddcmulGetWorkspaceSize(self.get(), t1.get(), t2.get(), v.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(self.get(i), want[i]) << i;
  // In place, the broadcast result must have selfRef's shape.
  HostTensorBuf small(ACL_FLOAT, {3}), big(ACL_FLOAT, {2, 3});
  auto one = scalar(ACL_FLOAT, 1);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceAddcdivGetWorkspaceSize(small.get(), big.get(), big.get(), one.get(), ws,
                                                         ex);
            }),
            kParamInvalid);
  // Empty tensors: nothing computed, nothing launched.
  HostTensorBuf e(ACL_FLOAT, {0, 4}), eo(ACL_FLOAT, {0, 4});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLerpGetWorkspaceSize(e.get(), e.get(), e.get(), eo.get(), ws, ex);
            }),
            0);
  // The in-place Lerp with a tensor weight.
  HostTensorBuf s2(ACL_FLOAT, {4}), end(ACL_FLOAT, {4}), w(ACL_FLOAT, {1});
  for (int i = 0; i < 4; ++i) {
    s2.set(i, i);
    end.set(i, 10 + i);
  }
  w.set(0, 0.25);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceLerpGetWorkspaceSize(s2.get(), end.get(), w.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i)
    EXPECT_FLOAT_EQ(static_cast<float>(s2.get(i)), static_cast<float>(i + 2.5)) << i;
}

TEST(TernaryMath, AxpyFusedMulAddAndAddMatMat) {
  HostTensorBuf x(ACL_FLOAT16, {2, 4}), y(ACL_FLOAT16, {2, 4}), z(ACL_FLOAT16, {2, 4}), m(ACL_FLOAT16, {1});
  std::mt19937 g(2);
  x.fillRandom(g, -4, 4);
  y.fillRandom(g, -4, 4);
  m.set(0, 1.5);
  auto alpha = scalar(ACL_FLOAT, -2.5);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAxpyV2GetWorkspaceSize(x.get(), y.get(), alpha.get(), z.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 8; ++i)
    expectNear(z.get(i), z.stored(x.get(i) - 2.5 * y.get(i)), ACL_FLOAT16, "axpy_v2");
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAxpyV3GetWorkspaceSize(x.get(), y.get(), 7.0, z.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 8; ++i) expectNear(z.get(i), z.stored(7 * x.get(i) + y.get(i)), ACL_FLOAT16, "axpy_v3");
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFusedMulAddNGetWorkspaceSize(x.get(), y.get(), m.get(), z.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 8; ++i) expectNear(z.get(i), z.stored(x.get(i) * 1.5 + y.get(i)), ACL_FLOAT16, "fused");
  HostTensorBuf notOne(ACL_FLOAT16, {2});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFusedMulAddNGetWorkspaceSize(x.get(), y.get(), notOne.get(), z.get(), ws, ex);
            }),
            kParamInvalid);
  // cOut = c * beta + alpha * a * b with beta, alpha one-element tensors.
  HostTensorBuf c(ACL_BF16, {3, 2}), a(ACL_BF16, {3, 2}), b(ACL_BF16, {2}), beta(ACL_BF16, {1}),
      al(ACL_BF16, {1}), co(ACL_BF16, {3, 2});
  c.fillRandom(g, -2, 2);
  a.fillRandom(g, -2, 2);
  b.fillRandom(g, -2, 2);
  beta.set(0, 0.5);
  al.set(0, 2);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddMatMatElementsPlusGetWorkspaceSize(c.get(), a.get(), b.get(), beta.get(),
                                                                al.get(), co.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i)
    expectNear(co.get(i), co.stored(c.get(i) * 0.5 + 2 * a.get(i) * b.get(i % 2)), ACL_BF16, "add_mat_mat");
}

TEST(TernaryMath, BiasAddFollowsTheChannelDimension) {
  HostTensorBuf x(ACL_FLOAT, {2, 3, 2}), nhwc(ACL_FLOAT, {2}), nchw(ACL_FLOAT, {3}),
      out(ACL_FLOAT, {2, 3, 2});
  for (int i = 0; i < 12; ++i) x.set(i, i);
  nhwc.set(0, 100);
  nhwc.set(1, 200);
  for (int i = 0; i < 3; ++i) nchw.set(i, 1000 * (i + 1));
  char fmtNhwc[] = "NHWC", fmtNchw[] = "NCHW", bad[] = "HWCN";
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBiasAddGetWorkspaceSize(x.get(), nhwc.get(), fmtNhwc, out.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(out.get(i), i + (i % 2 ? 200 : 100)) << i;
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBiasAddGetWorkspaceSize(x.get(), nchw.get(), fmtNchw, out.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(out.get(i), i + 1000 * ((i / 2) % 3 + 1)) << i;
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBiasAddGetWorkspaceSize(x.get(), nchw.get(), fmtNhwc, out.get(), ws, ex);
            }),
            kParamInvalid);  // 3 biases for a channel dimension of 2
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBiasAddGetWorkspaceSize(x.get(), nhwc.get(), bad, out.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(TernaryMath, TensorListsSumAndEltwise) {
  std::mt19937 g(4);
  std::vector<std::unique_ptr<HostTensorBuf>> in;
  std::vector<aclTensor*> handles;
  for (int k = 0; k < 7; ++k) {  // more operands than the streamed path holds
    in.push_back(std::make_unique<HostTensorBuf>(ACL_FLOAT, std::vector<int64_t>{2, 3}));
    in.back()->fillRandom(g, -2, 2);
    handles.push_back(listHandle(*in.back()));
  }
  aclTensorList* list = aclCreateTensorList(handles.data(), handles.size());
  HostTensorBuf out(ACL_FLOAT, {2, 3});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddNGetWorkspaceSize(list, out.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i) {
    double s = 0;
    for (auto& t : in) s += t->get(i);
    expectNear(out.get(i), out.stored(s), ACL_FLOAT, "AddN");
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSumGetWorkspaceSize(list, out.get(), ws, ex);
            }),
            0);
  std::vector<float> coeff = {1, -1, 2, 0.5f, 0, 3, -2};
  aclFloatArray* c = aclCreateFloatArray(coeff.data(), coeff.size());
  for (int64_t mode : {0, 1, 2}) {
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnEltwiseGetWorkspaceSize(list, mode, c, out.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 6; ++i) {
      double r = mode == 0 ? 1 : mode == 1 ? 0 : -1e300;
      for (size_t k = 0; k < in.size(); ++k) {
        const double v = in[k]->get(i);
        r = mode == 0 ? r * v : mode == 1 ? r + coeff[k] * v : std::max(r, v);
      }
      expectNear(out.get(i), out.stored(r), ACL_FLOAT, "Eltwise mode " + std::to_string(mode));
    }
  }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnEltwiseGetWorkspaceSize(list, 3, c, out.get(), ws, ex);
            }),
            kParamInvalid);
  aclDestroyFloatArray(c);
  std::vector<float> shortCoeff = {1, 2};
  aclFloatArray* c2 = aclCreateFloatArray(shortCoeff.data(), shortCoeff.size());
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnEltwiseGetWorkspaceSize(list, 1, c2, out.get(), ws, ex);
            }),
            kParamInvalid);
  aclDestroyFloatArray(c2);
  aclDestroyTensorList(list);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddNGetWorkspaceSize(nullptr, out.get(), ws, ex);
            }),
            kParamNull);
}

TEST(TernaryMath, IsCloseSpecialValues) {
  HostTensorBuf a(ACL_FLOAT, {8}), b(ACL_FLOAT, {8}), out(ACL_BOOL, {8});
  const double inf = INFINITY, nan = NAN;
  const double av[] = {1.0, 1.0, 100.0, inf, inf, nan, nan, -0.0};
  const double bv[] = {1.0 + 5e-6, 1.1, 100.0005, inf, -inf, nan, 1.0, 0.0};
  for (int i = 0; i < 8; ++i) {
    a.set(i, av[i]);
    b.set(i, bv[i]);
  }
  for (bool equalNan : {false, true}) {
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnIsCloseGetWorkspaceSize(a.get(), b.get(), 1e-5, 1e-8, equalNan, out.get(), ws,
                                                    ex);
              }),
              0);
    const double want[] = {1, 0, 1, 1, 0, equalNan ? 1.0 : 0.0, 0, 1};
    for (int i = 0; i < 8; ++i) EXPECT_EQ(out.get(i), want[i]) << i << " equalNan " << equalNan;
  }
  HostTensorBuf f(ACL_FLOAT, {8});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnIsCloseGetWorkspaceSize(a.get(), b.get(), 1e-5, 1e-8, false, f.get(), ws, ex);
            }),
            kParamInvalid);  // out must be bool
}

TEST(TernaryMath, ErrorsAndBytes) {
  HostTensorBuf a(ACL_FLOAT, {2, 3}), b(ACL_FLOAT, {4}), o(ACL_FLOAT, {2, 3}), d(ACL_DOUBLE, {2, 3}),
      i8(ACL_INT8, {2, 3}), i64(ACL_INT64, {2, 3});
  auto v = scalar(ACL_FLOAT, 1);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddcmulGetWorkspaceSize(a.get(), a.get(), a.get(), nullptr, o.get(), ws, ex);
            }),
            kParamNull);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddcmulGetWorkspaceSize(a.get(), nullptr, a.get(), v.get(), o.get(), ws, ex);
            }),
            kParamNull);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddcmulGetWorkspaceSize(a.get(), b.get(), a.get(), v.get(), o.get(), ws, ex);
            }),
            kParamInvalid);  // [4] does not broadcast with [2, 3]
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLerpGetWorkspaceSize(i8.get(), i8.get(), i8.get(), i8.get(), ws, ex);
            }),
            kParamInvalid);  // Lerp takes floating types only
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddcdivGetWorkspaceSize(d.get(), a.get(), a.get(), v.get(), i64.get(), ws, ex);
            }),
            kParamInvalid);  // a floating result does not cast to an int64 out
  // Cost: every operand read once (a broadcast one by its own bytes), out written once, and the
  // vector unit streams three operands and the result through 3 passes (multiply, multiply, add).
  HostTensorBuf x(ACL_FLOAT16, {64, 1024}), w(ACL_FLOAT16, {1024}), out(ACL_FLOAT16, {64, 1024});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnAddcmulGetWorkspaceSize(x.get(), x.get(), w.get(), v.get(), out.get(), &ws, &ex), 0);
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, 2u * 64 * 1024 * 2 + 1024 * 2);
  EXPECT_EQ(c.written, 64u * 1024 * 2);
  EXPECT_EQ(c.vector, 3u * (64 * 1024 * 2 * 4));
}

// ops-nn vfusion operators (vfusion.cpp): aclnnModulate against its definition evaluated in the
// test on the values as stored, with both documented scale/shift shapes, optional operands,
// fp32/fp16/bf16, a transposed view, empty tensors, error codes and the bytes it charges;
// aclnnModulateBackward against its kernel's formula (grad_input = grad_output * scale).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_modulate.h"
#include "aclnnop/aclnn_modulate_backward.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

int modulate(HostTensorBuf& self, HostTensorBuf* scale, HostTensorBuf* shift, HostTensorBuf& out) {
  return run([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnModulateGetWorkspaceSize(self.get(), scale ? scale->get() : nullptr,
                                         shift ? shift->get() : nullptr, out.get(), ws, ex);
  });
}

}  // namespace

TEST(Vfusion, ModulateAgainstDefinition) {
  std::mt19937 g(5);
  const int64_t B = 2, L = 3, D = 5;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (bool flat : {false, true}) {  // scale/shift as (B, 1, D) or (B, D)
      const std::vector<int64_t> ms = flat ? std::vector<int64_t>{B, D} : std::vector<int64_t>{B, 1, D};
      HostTensorBuf self(dt, {B, L, D}), scale(dt, ms), shift(dt, ms), out(dt, {B, L, D});
      self.fillRandom(g, -2, 2);
      scale.fillRandom(g, -1, 1);
      shift.fillRandom(g, -1, 1);
      const std::string what = "dtype " + std::to_string(dt) + (flat ? " (B, D)" : " (B, 1, D)");
      ASSERT_EQ(modulate(self, &scale, &shift, out), 0) << aclGetRecentErrMsg();
      for (int64_t i = 0; i < B * L * D; ++i) {
        const int64_t m = (i / (L * D)) * D + i % D;  // (b, d) of element (b, l, d)
        expectNear(out.get(i), out.stored(self.get(i) * (1 + scale.get(m)) + shift.get(m)), dt, what);
      }
      // Either operand may be left out: no scaling, no shift.
      ASSERT_EQ(modulate(self, nullptr, &shift, out), 0);
      for (int64_t i = 0; i < B * L * D; ++i)
        expectNear(out.get(i), out.stored(self.get(i) + shift.get((i / (L * D)) * D + i % D)), dt, what);
      ASSERT_EQ(modulate(self, &scale, nullptr, out), 0);
      for (int64_t i = 0; i < B * L * D; ++i)
        expectNear(out.get(i), out.stored(self.get(i) * (1 + scale.get((i / (L * D)) * D + i % D))), dt,
                   what);
    }
  }
}

TEST(Vfusion, ModulateViewsEmptyTensorsAndErrors) {
  std::mt19937 g(6);
  // self as a transposed view: (2, 4, 3) over a buffer laid out (2, 3, 4).
  HostTensorBuf self(ACL_FLOAT, {2, 4, 3}, {12, 1, 4}, 0), scale(ACL_FLOAT, {2, 3}),
      out(ACL_FLOAT, {2, 4, 3});
  self.fillRandom(g, -2, 2);
  scale.fillRandom(g, -1, 1);
  ASSERT_EQ(modulate(self, &scale, nullptr, out), 0) << aclGetRecentErrMsg();
  for (int64_t i = 0; i < 24; ++i)
    expectNear(out.get(i), self.get(i) * (1 + scale.get((i / 12) * 3 + i % 3)), ACL_FLOAT, "view");
  // Empty self with empty operands: nothing to do. Empty self with a non-empty scale: refused.
  HostTensorBuf e(ACL_FLOAT, {2, 0, 3}), eo(ACL_FLOAT, {2, 0, 3}), es(ACL_FLOAT, {2, 1, 3});
  EXPECT_EQ(modulate(e, nullptr, nullptr, eo), 0);
  EXPECT_EQ(modulate(e, &es, nullptr, eo), kParamInvalid);
  // Null self/out, wrong ranks and shapes, mixed or unsupported types.
  EXPECT_EQ(aclnnModulateGetWorkspaceSize(nullptr, nullptr, nullptr, out.get(), nullptr, nullptr),
            kParamNull);
  HostTensorBuf flat(ACL_FLOAT, {2, 12}), flatOut(ACL_FLOAT, {2, 12});
  EXPECT_EQ(modulate(flat, nullptr, nullptr, flatOut), kParamInvalid);
  HostTensorBuf badScale(ACL_FLOAT, {2, 4}), half(ACL_FLOAT16, {2, 3}), ints(ACL_INT32, {2, 4, 3}),
      intOut(ACL_INT32, {2, 4, 3}), smallOut(ACL_FLOAT, {2, 4, 2});
  EXPECT_EQ(modulate(self, &badScale, nullptr, out), kParamInvalid);
  EXPECT_EQ(modulate(self, &half, nullptr, out), kParamInvalid);
  EXPECT_EQ(modulate(ints, nullptr, nullptr, intOut), kParamInvalid);
  EXPECT_EQ(modulate(self, nullptr, nullptr, smallOut), kParamInvalid);
}

TEST(Vfusion, ModulateChargesItsBytes) {
  // Every operand read once (scale and shift by their own bytes), out written once; the vector
  // unit streams the three operands and the result through 2 passes (multiply-add, add).
  HostTensorBuf x(ACL_FLOAT16, {4, 64, 256}), s(ACL_FLOAT16, {4, 1, 256}), t(ACL_FLOAT16, {4, 256}),
      out(ACL_FLOAT16, {4, 64, 256});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnModulateGetWorkspaceSize(x.get(), s.get(), t.get(), out.get(), &ws, &ex), 0);
  const Charged c = chargedBytes(ex);
  const uint64_t n = 4 * 64 * 256;
  EXPECT_EQ(c.read, n * 2 + 2u * 4 * 256 * 2);
  EXPECT_EQ(c.written, n * 2);
  EXPECT_EQ(c.vector, 2u * (n * 2 * 4));
}

TEST(Vfusion, ModulateBackwardAgainstDefinition) {
  std::mt19937 g(7);
  const int64_t B = 2, L = 5, D = 3;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf go(dt, {B, L, D}), x(dt, {B, L, D}), scale(dt, {B, D}), shift(dt, {B, D}),
        gx(dt, {B, L, D}), gs(dt, {B, D}), gt(dt, {B, D});
    go.fillRandom(g, -1, 1);
    x.fillRandom(g, -2, 2);
    scale.fillRandom(g, -1, 1);
    shift.fillRandom(g, -1, 1);
    const std::string what = "dtype " + std::to_string(dt);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnModulateBackwardGetWorkspaceSize(go.get(), x.get(), scale.get(), shift.get(),
                                                             gx.get(), gs.get(), gt.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t d = 0; d < D; ++d) {
        double sumScale = 0, sumShift = 0;
        for (int64_t l = 0; l < L; ++l) {
          const int64_t i = (b * L + l) * D + d;
          expectNear(gx.get(i), gx.stored(go.get(i) * scale.get(b * D + d)), dt, what);
          sumScale += go.get(i) * x.get(i);
          sumShift += go.get(i);
        }
        EXPECT_NEAR(gs.get(b * D + d), gs.stored(sumScale), 2 * tol(dt) * (1 + std::fabs(sumScale))) << what;
        EXPECT_NEAR(gt.get(b * D + d), gt.stored(sumShift), 2 * tol(dt) * (1 + std::fabs(sumShift))) << what;
      }
    }
    // Without scale the gradient passes through and grad_scale is not written.
    gs.set(0, 42);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnModulateBackwardGetWorkspaceSize(go.get(), x.get(), nullptr, shift.get(),
                                                             gx.get(), gs.get(), gt.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < B * L * D; ++i) EXPECT_EQ(gx.get(i), go.get(i)) << what;
    EXPECT_EQ(gs.get(0), gs.stored(42));
  }
  // Errors: null required tensors, a scale of rank 3, a missing grad_scale, mixed types.
  HostTensorBuf go(ACL_FLOAT, {2, 3, 4}), x(ACL_FLOAT, {2, 3, 4}), gx(ACL_FLOAT, {2, 3, 4}),
      s3(ACL_FLOAT, {2, 1, 4}), s2(ACL_FLOAT, {2, 4}), h2(ACL_FLOAT16, {2, 4});
  auto call = [&](const aclTensor* a, const aclTensor* b, const aclTensor* sc, const aclTensor* gsc) {
    return run([&](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnModulateBackwardGetWorkspaceSize(a, b, sc, nullptr, gx.get(), gsc, nullptr, ws, ex);
    });
  };
  EXPECT_EQ(call(nullptr, x.get(), nullptr, nullptr), kParamNull);
  EXPECT_EQ(call(go.get(), nullptr, nullptr, nullptr), kParamNull);
  EXPECT_EQ(call(go.get(), x.get(), s2.get(), nullptr), kParamNull);
  EXPECT_EQ(call(go.get(), x.get(), s3.get(), s2.get()), kParamInvalid);
  EXPECT_EQ(call(go.get(), x.get(), h2.get(), s2.get()), kParamInvalid);
  EXPECT_EQ(call(go.get(), x.get(), s2.get(), s2.get()), 0);
}

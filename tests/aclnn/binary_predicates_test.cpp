// Comparisons, logical operators and aclnnAtan2 on the binary engine: values against the
// definitions written in the test, broadcasting, promotion (the comparison made in the
// promoted type), scalar and in-place forms, NaN, the error codes and the bytes charged.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_atan2.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "runtime/aclnn/base/executor.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

using TensorOp =
    std::function<int(const aclTensor*, const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**)>;
using ScalarOp =
    std::function<int(const aclTensor*, const aclScalar*, aclTensor*, uint64_t*, aclOpExecutor**)>;
using InplaceOp = std::function<int(aclTensor*, const aclTensor*, uint64_t*, aclOpExecutor**)>;

struct Predicate {
  std::string name;
  TensorOp tensor;
  ScalarOp scalar;  // empty for the logical operators
  InplaceOp inplace;
  std::function<bool(double, double)> ref;
};

#define T_OP(Name)                                                                           \
  [](const aclTensor* a, const aclTensor* b, aclTensor* o, uint64_t* w, aclOpExecutor** e) { \
    return aclnn##Name##GetWorkspaceSize(a, b, o, w, e);                                     \
  }
#define S_OP(Name)                                                                           \
  [](const aclTensor* a, const aclScalar* b, aclTensor* o, uint64_t* w, aclOpExecutor** e) { \
    return aclnn##Name##GetWorkspaceSize(a, b, o, w, e);                                     \
  }
#define I_OP(Name)                                                       \
  [](aclTensor* a, const aclTensor* b, uint64_t* w, aclOpExecutor** e) { \
    return aclnnInplace##Name##GetWorkspaceSize(a, b, w, e);             \
  }

std::vector<Predicate> predicates() {
  return {
      {"Eq", T_OP(EqTensor), S_OP(EqScalar), I_OP(EqTensor),
       [](double a, double b) { return !(a < b) && !(b < a) && a == a && b == b; }},
      {"Ne", T_OP(NeTensor), S_OP(NeScalar), I_OP(NeTensor), [](double a, double b) { return !(a == b); }},
      {"Gt", T_OP(GtTensor), S_OP(GtScalar), I_OP(GtTensor), [](double a, double b) { return b < a; }},
      {"Ge", T_OP(GeTensor), S_OP(GeScalar), I_OP(GeTensor),
       [](double a, double b) { return b < a || a == b; }},
      {"Lt", T_OP(LtTensor), S_OP(LtScalar), I_OP(LtTensor), [](double a, double b) { return a < b; }},
      {"Le", T_OP(LeTensor), S_OP(LeScalar), I_OP(LeTensor),
       [](double a, double b) { return a < b || a == b; }},
      {"LogicalAnd", T_OP(LogicalAnd), nullptr, I_OP(LogicalAnd),
       [](double a, double b) { return a != 0 && b != 0; }},
      {"LogicalOr", T_OP(LogicalOr), nullptr, I_OP(LogicalOr),
       [](double a, double b) { return a != 0 || b != 0; }},
      {"LogicalXor", T_OP(LogicalXor), nullptr, nullptr,
       [](double a, double b) { return (a != 0) != (b != 0); }},
  };
}

using ScalarPtr = std::unique_ptr<aclScalar, decltype(&aclDestroyScalar)>;

}  // namespace

// self [4, 6] against other [6] (broadcast), values drawn from a few integers so equality is
// frequent, in several type pairs; out bool, then out fp32.
TEST(BinaryPredicates, TensorFormsBroadcastAndPromote) {
  std::mt19937 g(5);
  const std::pair<aclDataType, aclDataType> pairs[] = {{ACL_FLOAT, ACL_FLOAT}, {ACL_FLOAT16, ACL_FLOAT},
                                                       {ACL_INT32, ACL_FLOAT}, {ACL_INT64, ACL_INT8},
                                                       {ACL_BF16, ACL_BF16},   {ACL_BOOL, ACL_INT32}};
  for (const Predicate& p : predicates()) {
    for (auto [sa, sb] : pairs) {
      for (aclDataType od : {ACL_BOOL, ACL_FLOAT}) {
        HostTensorBuf a(sa, {4, 6}), b(sb, {6}), out(od, {4, 6});
        a.fillRandom(g, sa == ACL_BOOL ? 0 : -2, sa == ACL_BOOL ? 2 : 3);
        b.fillRandom(g, sb == ACL_BOOL ? 0 : -2, sb == ACL_BOOL ? 2 : 3);
        if (sb == ACL_FLOAT) b.set(1, 0.5);  // an int self against a fraction compares in fp32
        const std::string what = p.name + " " + std::to_string(sa) + "/" + std::to_string(sb);
        ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                    return p.tensor(a.get(), b.get(), out.get(), ws, ex);
                  }),
                  0)
            << what << ": " << aclGetRecentErrMsg();
        for (int64_t i = 0; i < 24; ++i) {
          EXPECT_EQ(out.get(i), p.ref(a.get(i), b.get(i % 6)) ? 1.0 : 0.0) << what << " at " << i;
        }
      }
    }
  }
}

TEST(BinaryPredicates, ScalarAndInplaceForms) {
  std::mt19937 g(6);
  for (const Predicate& p : predicates()) {
    HostTensorBuf a(ACL_FLOAT, {3, 5}), out(ACL_BOOL, {3, 5}), other(ACL_FLOAT, {1, 5});
    a.fillRandom(g, -2, 3);
    other.fillRandom(g, -2, 3);
    if (p.scalar) {
      ScalarPtr s(makeScalar(ACL_INT64, 1), aclDestroyScalar);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return p.scalar(a.get(), s.get(), out.get(), ws, ex);
                }),
                0)
          << p.name;
      for (int64_t i = 0; i < 15; ++i) EXPECT_EQ(out.get(i), p.ref(a.get(i), 1) ? 1.0 : 0.0) << p.name;
    }
    if (!p.inplace) continue;
    std::vector<double> before(15);
    for (int i = 0; i < 15; ++i) before[i] = a.get(i);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return p.inplace(a.get(), other.get(), ws, ex); }),
              0)
        << p.name << ": " << aclGetRecentErrMsg();
    for (int i = 0; i < 15; ++i)
      EXPECT_EQ(a.get(i), p.ref(before[i], other.get(i % 5)) ? 1.0 : 0.0) << p.name;
    // In place, the broadcast result must have selfRef's shape.
    HostTensorBuf small(ACL_FLOAT, {5}), big(ACL_FLOAT, {3, 5});
    EXPECT_EQ(
        run([&](uint64_t* ws, aclOpExecutor** ex) { return p.inplace(small.get(), big.get(), ws, ex); }),
        kParamInvalid)
        << p.name;
  }
}

TEST(BinaryPredicates, NanAndErrors) {
  HostTensorBuf a(ACL_FLOAT, {2}), b(ACL_FLOAT, {2}), out(ACL_BOOL, {2}), bad(ACL_FLOAT, {3});
  a.set(0, NAN);
  a.set(1, 1);
  b.set(0, NAN);
  b.set(1, 1);
  for (const Predicate& p : predicates()) {
    ASSERT_EQ(
        run([&](uint64_t* ws, aclOpExecutor** ex) { return p.tensor(a.get(), b.get(), out.get(), ws, ex); }),
        0);
    EXPECT_EQ(out.get(0), p.ref(NAN, NAN) ? 1.0 : 0.0) << p.name;  // NaN is unequal to itself, nonzero
    EXPECT_EQ(
        run([&](uint64_t* ws, aclOpExecutor** ex) { return p.tensor(nullptr, b.get(), out.get(), ws, ex); }),
        kParamNull);
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return p.tensor(a.get(), bad.get(), out.get(), ws, ex);
              }),
              kParamInvalid)
        << p.name;
    EXPECT_EQ(
        run([&](uint64_t* ws, aclOpExecutor** ex) { return p.tensor(a.get(), b.get(), bad.get(), ws, ex); }),
        kParamInvalid)
        << p.name;
  }
}

TEST(BinaryPredicates, Atan2) {
  std::mt19937 g(7);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf y(dt, {3, 4}), x(dt, {4}), out(dt, {3, 4});
    y.fillRandom(g, -3, 3);
    x.fillRandom(g, -3, 3);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnAtan2GetWorkspaceSize(y.get(), x.get(), out.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 12; ++i) {
      const double yy = y.get(i), xx = x.get(i % 4), pi = std::acos(-1.0);
      // the angle of (x, y): atan(y / x) moved into the quadrant of (x, y)
      const double want = xx > 0   ? std::atan(yy / xx)
                          : xx < 0 ? std::atan(yy / xx) + (yy >= 0 ? pi : -pi)
                                   : (yy > 0   ? pi / 2
                                      : yy < 0 ? -pi / 2
                                               : 0);
      expectNear(out.get(i), out.stored(want), dt, "atan2");
    }
  }
  // Integers are computed in fp32 and need a floating out.
  HostTensorBuf yi(ACL_INT32, {2}), xi(ACL_INT32, {2}), fo(ACL_FLOAT, {2}), io(ACL_INT32, {2});
  yi.set(0, 1);
  xi.set(0, 1);
  yi.set(1, -1);
  xi.set(1, 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAtan2GetWorkspaceSize(yi.get(), xi.get(), fo.get(), ws, ex);
            }),
            0);
  EXPECT_NEAR(fo.get(0), std::acos(-1.0) / 4, 1e-6);
  EXPECT_NEAR(fo.get(1), -std::acos(-1.0) / 2, 1e-6);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAtan2GetWorkspaceSize(yi.get(), xi.get(), io.get(), ws, ex);
            }),
            kParamInvalid);
}

// Cost: both operands read, out (bool, 1 byte) written once.
TEST(BinaryPredicates, BytesCharged) {
  HostTensorBuf a(ACL_FLOAT16, {64, 1000}), b(ACL_FLOAT16, {64, 1000}), out(ACL_BOOL, {64, 1000});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnGtTensorGetWorkspaceSize(a.get(), b.get(), out.get(), &ws, &ex), 0);
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, 2u * 64000 * 2);
  EXPECT_EQ(c.written, 64000u);
}

// aclnnAdd / aclnnSub / aclnnMul and their scalar and in-place forms, run on host memory
// (phase 1 + the operator's kernel), against double-precision references.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_sub.h"
#include "runtime/aclnn/base/error.h"

using namespace aclnn_test;

namespace {

enum class Op { kAdd, kSub, kMul };

int binary(Op op, HostTensorBuf& self, HostTensorBuf& other, aclScalar* alpha, HostTensorBuf& out) {
  uint64_t ws = 1;
  aclOpExecutor* ex = nullptr;
  int st = 0;
  switch (op) {
    case Op::kAdd:
      st = aclnnAddGetWorkspaceSize(self.get(), other.get(), alpha, out.get(), &ws, &ex);
      break;
    case Op::kSub:
      st = aclnnSubGetWorkspaceSize(self.get(), other.get(), alpha, out.get(), &ws, &ex);
      break;
    case Op::kMul:
      st = aclnnMulGetWorkspaceSize(self.get(), other.get(), out.get(), &ws, &ex);
      break;
  }
  if (st != 0) return st;
  EXPECT_EQ(ws, 0u);
  runOnHost(ex);
  return 0;
}

double apply(Op op, double a, double b, double alpha) {
  switch (op) {
    case Op::kAdd:
      return a + alpha * b;
    case Op::kSub:
      return a - alpha * b;
    case Op::kMul:
      return a * b;
  }
  return 0;
}

// Inputs are multiples of 1/64 small enough that every intermediate is exact in fp32, so the
// only rounding is the final one to the element type (checked bit for bit).
void checkFloatOp(Op op, aclDataType dt) {
  std::mt19937 g(static_cast<unsigned>(dt) * 31 + static_cast<unsigned>(op));
  const int64_t range = dt == ACL_BF16 ? 128 : 512;
  std::uniform_int_distribution<int64_t> k(-range, range);
  HostTensorBuf a(dt, {7, 33}), b(dt, {7, 33}), o(dt, {7, 33});
  for (int64_t i = 0; i < a.numel(); ++i) {
    a.set(i, static_cast<double>(k(g)) / 64);
    b.set(i, static_cast<double>(k(g)) / 64);
  }
  aclScalar* alpha = makeScalar(ACL_FLOAT, 1.5);
  ASSERT_EQ(binary(op, a, b, alpha, o), 0);
  for (int64_t i = 0; i < o.numel(); ++i) {
    const double expect = roundTo(dt, apply(op, a.get(i), b.get(i), 1.5));
    ASSERT_EQ(o.get(i), expect) << "element " << i << " " << a.get(i) << " op " << b.get(i);
  }
  aclDestroyScalar(alpha);
}

}  // namespace

TEST(BinaryOps, FloatTypesRoundOnceToNearestEven) {
  for (Op op : {Op::kAdd, Op::kSub, Op::kMul}) {
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) checkFloatOp(op, dt);
  }
}

TEST(BinaryOps, Fp32MatchesFloatArithmeticOnRandomValues) {
  std::mt19937 g(5);
  HostTensorBuf a(ACL_FLOAT, {1000}), b(ACL_FLOAT, {1000}), o(ACL_FLOAT, {1000});
  a.fillRandom(g, -1e3, 1e3);
  b.fillRandom(g, -1e-2, 1e-2);
  const float alpha = 1.1f;
  aclScalar* s = aclCreateScalar(const_cast<float*>(&alpha), ACL_FLOAT);
  ASSERT_EQ(binary(Op::kAdd, a, b, s, o), 0);
  for (int64_t i = 0; i < 1000; ++i) {
    const float x = static_cast<float>(a.get(i)), y = static_cast<float>(b.get(i));
    const float prod = alpha * y;
    ASSERT_EQ(o.get(i), static_cast<double>(x + prod)) << i;
  }
  aclDestroyScalar(s);
}

TEST(BinaryOps, Fp16ResultTiesRoundToEven) {
  // 1 + 2^-11 is exactly between two fp16 values: the even one (1.0) wins; 1 + 3*2^-11 -> 1 + 2^-9.
  HostTensorBuf a(ACL_FLOAT16, {2}), b(ACL_FLOAT16, {2}), o(ACL_FLOAT16, {2});
  a.set(0, 1.0);
  b.set(0, 0x1p-11);
  a.set(1, 1.0);
  b.set(1, 3 * 0x1p-11);
  aclScalar* one = makeScalar(ACL_INT32, 1);
  ASSERT_EQ(binary(Op::kAdd, a, b, one, o), 0);
  EXPECT_EQ(o.get(0), 1.0);
  EXPECT_EQ(o.get(1), 1.0 + 0x1p-9);
  aclDestroyScalar(one);
}

TEST(BinaryOps, IntegersAreExactAndWrapAround) {
  std::mt19937 g(9);
  struct Case {
    aclDataType dt;
    int64_t lo, hi, bits;
  };
  for (Case c : {Case{ACL_INT32, -2147483648LL, 2147483647LL, 32}, Case{ACL_INT8, -128, 127, 8},
                 Case{ACL_INT16, -32768, 32767, 16}, Case{ACL_UINT8, 0, 255, 8},
                 Case{ACL_INT64, -(1LL << 62), (1LL << 62), 64}}) {
    for (Op op : {Op::kAdd, Op::kSub, Op::kMul}) {
      std::uniform_int_distribution<int64_t> u(c.lo, c.hi);
      HostTensorBuf a(c.dt, {257}), b(c.dt, {257}), o(c.dt, {257});
      std::vector<int64_t> va(257), vb(257);
      for (int i = 0; i < 257; ++i) {
        va[i] = u(g);
        vb[i] = u(g);
        // int64 values above 2^53 do not survive the double-based helpers: write raw.
        std::memcpy(a.at(i), &va[i], elemSize(c.dt));
        std::memcpy(b.at(i), &vb[i], elemSize(c.dt));
      }
      const int64_t alpha = 3;
      aclScalar* s = aclCreateScalar(const_cast<int64_t*>(&alpha), ACL_INT64);
      ASSERT_EQ(binary(op, a, b, s, o), 0);
      for (int i = 0; i < 257; ++i) {
        uint64_t x = static_cast<uint64_t>(va[i]), y = static_cast<uint64_t>(vb[i]);
        uint64_t r = op == Op::kAdd ? x + 3 * y : op == Op::kSub ? x - 3 * y : x * y;
        int64_t got = 0;
        std::memcpy(&got, o.at(i), elemSize(c.dt));
        const uint64_t mask = c.bits == 64 ? ~0ULL : ((1ULL << c.bits) - 1);
        ASSERT_EQ(static_cast<uint64_t>(got) & mask, r & mask)
            << "dtype " << c.dt << " op " << static_cast<int>(op) << " i " << i;
      }
      aclDestroyScalar(s);
    }
  }
}

TEST(BinaryOps, BroadcastsLikeNumpy) {
  HostTensorBuf a(ACL_FLOAT, {2, 1, 4}), b(ACL_FLOAT, {3, 1}), o(ACL_FLOAT, {2, 3, 4});
  for (int64_t i = 0; i < a.numel(); ++i) a.set(i, static_cast<double>(i));
  for (int64_t i = 0; i < b.numel(); ++i) b.set(i, 100.0 * (i + 1));
  aclScalar* alpha = makeScalar(ACL_FLOAT, 2.0);
  ASSERT_EQ(binary(Op::kAdd, a, b, alpha, o), 0);
  for (int64_t i = 0; i < o.numel(); ++i) {
    const double x = a.get(broadcastIndex(o.shape(), i, a.shape()));
    const double y = b.get(broadcastIndex(o.shape(), i, b.shape()));
    ASSERT_EQ(o.get(i), x + 2 * y) << i;
  }
  // [d0, d1, d2] = [i/12, (i/4)%3, i%4]: spot-check one element by hand.
  EXPECT_EQ(o.get(1 * 12 + 2 * 4 + 3), 7.0 + 2 * 300.0);
  aclDestroyScalar(alpha);
}

TEST(BinaryOps, StridedViewsAndOffsetsReadAndWriteOnlyTheView) {
  // self: a transposed 3x4 view with offset 2; other: every second element; out: a column
  // slice of a wider buffer.
  HostTensorBuf a(ACL_FLOAT, {3, 4}, {1, 3}, 2);
  HostTensorBuf b(ACL_FLOAT, {3, 4}, {8, 2}, 1);
  HostTensorBuf o(ACL_FLOAT, {3, 4}, {10, 2}, 3);
  for (int64_t i = 0; i < 12; ++i) {
    a.set(i, i + 0.5);
    b.set(i, -2.0 * i);
  }
  const std::vector<unsigned char> before = o.raw();
  ASSERT_EQ(binary(Op::kMul, a, b, nullptr, o), 0);
  std::vector<bool> touched(o.raw().size(), false);
  for (int64_t i = 0; i < 12; ++i) {
    EXPECT_EQ(o.get(i), (i + 0.5) * (-2.0 * i)) << i;
    const size_t off = static_cast<size_t>(o.at(i) - o.raw().data());
    for (size_t k = 0; k < 4; ++k) touched[off + k] = true;
  }
  for (size_t k = 0; k < before.size(); ++k) {
    if (!touched[k]) {
      ASSERT_EQ(o.raw()[k], before[k]) << "byte " << k << " outside the view changed";
    }
  }
}

TEST(BinaryOps, TypePromotion) {
  // fp16 + fp32 -> fp32: no fp16 rounding of the result.
  {
    HostTensorBuf a(ACL_FLOAT16, {1}), b(ACL_FLOAT, {1}), o(ACL_FLOAT, {1});
    a.set(0, 1.0);
    b.set(0, 0x1p-20);
    aclScalar* one = makeScalar(ACL_FLOAT, 1.0);
    ASSERT_EQ(binary(Op::kAdd, a, b, one, o), 0);
    EXPECT_EQ(o.get(0), 1.0 + 0x1p-20);
    aclDestroyScalar(one);
  }
  // fp16 + fp16 into an fp32 out: computed (and rounded) in fp16, then widened.
  {
    HostTensorBuf a(ACL_FLOAT16, {1}), b(ACL_FLOAT16, {1}), o(ACL_FLOAT, {1});
    a.set(0, 1.0);
    b.set(0, 0x1p-11);
    aclScalar* one = makeScalar(ACL_FLOAT, 1.0);
    ASSERT_EQ(binary(Op::kAdd, a, b, one, o), 0);
    EXPECT_EQ(o.get(0), 1.0);
    aclDestroyScalar(one);
  }
  // Sub with alpha != 1 widens fp16 to fp32 (910B aclnnSub), so the fp32 out keeps the bit.
  {
    HostTensorBuf a(ACL_FLOAT16, {1}), b(ACL_FLOAT16, {1}), o(ACL_FLOAT, {1});
    a.set(0, 1.0);
    b.set(0, -0x1p-12);
    aclScalar* two = makeScalar(ACL_FLOAT, 2.0);
    ASSERT_EQ(binary(Op::kSub, a, b, two, o), 0);
    EXPECT_EQ(o.get(0), 1.0 + 0x1p-11);
    aclDestroyScalar(two);
  }
  // int32 * fp32 -> fp32.
  {
    HostTensorBuf a(ACL_INT32, {2}), b(ACL_FLOAT, {2}), o(ACL_FLOAT, {2});
    a.set(0, 3);
    a.set(1, -7);
    b.set(0, 0.5);
    b.set(1, 0.25);
    ASSERT_EQ(binary(Op::kMul, a, b, nullptr, o), 0);
    EXPECT_EQ(o.get(0), 1.5);
    EXPECT_EQ(o.get(1), -1.75);
  }
  // int8 + uint8 -> int16: no wrap at 8 bits.
  {
    HostTensorBuf a(ACL_INT8, {1}), b(ACL_UINT8, {1}), o(ACL_INT16, {1});
    a.set(0, 127);
    b.set(0, 255);
    aclScalar* one = makeScalar(ACL_INT8, 1);
    ASSERT_EQ(binary(Op::kAdd, a, b, one, o), 0);
    EXPECT_EQ(o.get(0), 382);
    aclDestroyScalar(one);
  }
  // int8 + int8 into int32 out: computed in int8 (wraps) and then widened.
  {
    HostTensorBuf a(ACL_INT8, {1}), b(ACL_INT8, {1}), o(ACL_INT32, {1});
    a.set(0, 100);
    b.set(0, 100);
    aclScalar* one = makeScalar(ACL_INT32, 1);
    ASSERT_EQ(binary(Op::kAdd, a, b, one, o), 0);
    EXPECT_EQ(o.get(0), -56);
    aclDestroyScalar(one);
  }
  // bool + bool stays bool (logical or); bool + int8 -> int8.
  {
    HostTensorBuf a(ACL_BOOL, {4}), b(ACL_BOOL, {4}), o(ACL_BOOL, {4}), oi(ACL_INT32, {4});
    for (int i = 0; i < 4; ++i) {
      a.set(i, i & 1);
      b.set(i, (i >> 1) & 1);
    }
    aclScalar* t = makeScalar(ACL_BOOL, 1);
    ASSERT_EQ(binary(Op::kAdd, a, b, t, o), 0);
    ASSERT_EQ(binary(Op::kAdd, a, b, t, oi), 0);
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(o.get(i), (i != 0) ? 1.0 : 0.0);
      EXPECT_EQ(oi.get(i), (i != 0) ? 1.0 : 0.0);
    }
    HostTensorBuf c(ACL_INT8, {4}), oc(ACL_INT8, {4});
    for (int i = 0; i < 4; ++i) c.set(i, 10 * i);
    ASSERT_EQ(binary(Op::kMul, a, c, nullptr, oc), 0);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(oc.get(i), (i & 1) * 10.0 * i);
    aclDestroyScalar(t);
  }
}

TEST(BinaryOps, ScalarVariants) {
  // int32 tensor + float scalar -> fp32 (the scalar's float type promotes).
  HostTensorBuf a(ACL_INT32, {3}), o(ACL_FLOAT, {3});
  for (int i = 0; i < 3; ++i) a.set(i, i);
  aclScalar* half = makeScalar(ACL_FLOAT, 0.5);
  aclScalar* two = makeScalar(ACL_INT32, 2);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnAddsGetWorkspaceSize(a.get(), half, two, o.get(), &ws, &ex), 0);
  runOnHost(ex);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(o.get(i), i + 1.0);
  // fp16 tensor * fp32 scalar stays fp16; the scalar is rounded to fp16 first (1/3 -> fp16).
  HostTensorBuf h(ACL_FLOAT16, {2}), ho(ACL_FLOAT16, {2});
  h.set(0, 3.0);
  h.set(1, 1.0);
  aclScalar* third = makeScalar(ACL_FLOAT, 1.0 / 3);
  ASSERT_EQ(aclnnMulsGetWorkspaceSize(h.get(), third, ho.get(), &ws, &ex), 0);
  runOnHost(ex);
  EXPECT_EQ(ho.get(1), roundF16(1.0 / 3));
  EXPECT_EQ(ho.get(0), roundF16(3.0 * roundF16(1.0 / 3)));
  // Subs: int tensor - 2 * int scalar stays int.
  HostTensorBuf si(ACL_INT32, {2}), so(ACL_INT32, {2});
  si.set(0, 10);
  si.set(1, -10);
  aclScalar* three = makeScalar(ACL_INT64, 3);
  ASSERT_EQ(aclnnSubsGetWorkspaceSize(si.get(), three, two, so.get(), &ws, &ex), 0);
  runOnHost(ex);
  EXPECT_EQ(so.get(0), 4);
  EXPECT_EQ(so.get(1), -16);
  aclDestroyScalar(half);
  aclDestroyScalar(two);
  aclDestroyScalar(third);
  aclDestroyScalar(three);
}

TEST(BinaryOps, InPlaceVariantsWriteSelf) {
  HostTensorBuf a(ACL_FLOAT, {2, 3}), b(ACL_FLOAT, {3});
  for (int i = 0; i < 6; ++i) a.set(i, i);
  for (int i = 0; i < 3; ++i) b.set(i, 10 * i);
  aclScalar* alpha = makeScalar(ACL_FLOAT, 0.5);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnInplaceAddGetWorkspaceSize(a.get(), b.get(), alpha, &ws, &ex), 0);
  runOnHost(ex);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(a.get(i), i + 5.0 * (i % 3));
  ASSERT_EQ(aclnnInplaceMulGetWorkspaceSize(a.get(), b.get(), &ws, &ex), 0);
  runOnHost(ex);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(a.get(i), (i + 5.0 * (i % 3)) * 10 * (i % 3));
  aclScalar* s = makeScalar(ACL_FLOAT, 1.0);
  ASSERT_EQ(aclnnInplaceSubsGetWorkspaceSize(a.get(), s, alpha, &ws, &ex), 0);
  runOnHost(ex);
  EXPECT_EQ(a.get(0), -0.5);
  // In-place needs the broadcast result to have self's shape.
  HostTensorBuf small(ACL_FLOAT, {3}), big(ACL_FLOAT, {2, 3});
  EXPECT_EQ(aclnnInplaceAddGetWorkspaceSize(small.get(), big.get(), alpha, &ws, &ex), 161002);
  aclDestroyScalar(alpha);
  aclDestroyScalar(s);
}

TEST(BinaryOps, ArgumentErrors) {
  HostTensorBuf a(ACL_FLOAT, {2, 3}), b(ACL_FLOAT, {2, 3}), o(ACL_FLOAT, {2, 3});
  aclScalar* alpha = makeScalar(ACL_FLOAT, 1.0);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnAddGetWorkspaceSize(nullptr, b.get(), alpha, o.get(), &ws, &ex), 161001);
  EXPECT_NE(npusim::aclnn::lastErrorMessage().find("self must not be nullptr"), std::string::npos);
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(msg, nullptr);
  EXPECT_NE(std::string(msg).find("EZ1001"), std::string::npos) << msg;
  EXPECT_NE(std::string(msg).find("aclnnAddGetWorkspaceSize"), std::string::npos) << msg;
  EXPECT_EQ(aclnnAddGetWorkspaceSize(a.get(), nullptr, alpha, o.get(), &ws, &ex), 161001);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(a.get(), b.get(), nullptr, o.get(), &ws, &ex), 161001);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha, nullptr, &ws, &ex), 161001);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha, o.get(), nullptr, &ex), 161001);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha, o.get(), &ws, nullptr), 161001);
  EXPECT_EQ(aclnnMulGetWorkspaceSize(a.get(), b.get(), nullptr, &ws, &ex), 161001);

  // Not broadcastable, wrong out shape.
  HostTensorBuf c(ACL_FLOAT, {4}), wrong(ACL_FLOAT, {3, 2});
  EXPECT_EQ(aclnnAddGetWorkspaceSize(a.get(), c.get(), alpha, o.get(), &ws, &ex), 161002);
  EXPECT_NE(npusim::aclnn::lastErrorMessage().find("not broadcastable"), std::string::npos);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha, wrong.get(), &ws, &ex), 161002);
  EXPECT_NE(npusim::aclnn::lastErrorMessage().find("out shape should be [2,3]"), std::string::npos)
      << npusim::aclnn::lastErrorMessage();
  // Promoted float cannot be written to an int out; a float alpha cannot scale ints.
  HostTensorBuf oi(ACL_INT32, {2, 3}), ai(ACL_INT32, {2, 3});
  EXPECT_EQ(aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha, oi.get(), &ws, &ex), 161002);
  aclScalar* fa = makeScalar(ACL_FLOAT, 1.5);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(ai.get(), ai.get(), fa, oi.get(), &ws, &ex), 161002);
  EXPECT_NE(npusim::aclnn::lastErrorMessage().find("alpha"), std::string::npos);
  // Unsupported element types; more than 8 dimensions; a view outside its storage.
  HostTensorBuf u16(ACL_FLOAT, {2, 3});
  aclTensor* bad = aclCreateTensor(std::vector<int64_t>{2, 3}.data(), 2, ACL_UINT16, nullptr, 0,
                                   ACL_FORMAT_ND, std::vector<int64_t>{6}.data(), 1, u16.raw().data());
  EXPECT_EQ(aclnnAddGetWorkspaceSize(bad, b.get(), alpha, o.get(), &ws, &ex), 161002);
  aclDestroyTensor(bad);
  std::vector<int64_t> nine(9, 1);
  HostTensorBuf n1(ACL_FLOAT, nine), n2(ACL_FLOAT, nine), n3(ACL_FLOAT, nine);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(n1.get(), n2.get(), alpha, n3.get(), &ws, &ex), 161002);
  const int64_t dims[] = {2, 3}, storage[] = {5};
  aclTensor* outside =
      aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, u16.raw().data());
  EXPECT_EQ(aclnnAddGetWorkspaceSize(outside, b.get(), alpha, o.get(), &ws, &ex), 161002);
  EXPECT_NE(npusim::aclnn::lastErrorMessage().find("outside its storage"), std::string::npos);
  aclDestroyTensor(outside);
  aclDestroyScalar(alpha);
  aclDestroyScalar(fa);
}

TEST(BinaryOps, EmptyTensorsProduceAnEmptyOperator) {
  HostTensorBuf a(ACL_FLOAT, {0, 3}), b(ACL_FLOAT, {3}), o(ACL_FLOAT, {0, 3});
  aclScalar* alpha = makeScalar(ACL_FLOAT, 1.0);
  uint64_t ws = 7;
  aclOpExecutor* ex = nullptr;
  const size_t live = npusim::aclnn::liveExecutorCount();
  ASSERT_EQ(aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha, o.get(), &ws, &ex), 0);
  EXPECT_EQ(ws, 0u);
  EXPECT_EQ(npusim::aclnn::liveExecutorCount(), live + 1);
  ASSERT_NE(npusim::aclnn::executorOp(ex), nullptr);
  EXPECT_FALSE(npusim::aclnn::executorOp(ex)->hasWork());
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), 0);
  EXPECT_EQ(npusim::aclnn::liveExecutorCount(), live);
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), 561000);  // destroyed twice
  EXPECT_EQ(aclDestroyAclOpExecutor(nullptr), 561103);
  EXPECT_EQ(aclSetAclOpExecutorRepeatable(nullptr), 561103);
  aclDestroyScalar(alpha);
}

// The RNN family (runtime/aclnn/ops/lstm_cell.cpp): the fused LSTM cell and its backward against
// step-by-step definitions written here (gate blocks i, f, g, o), the backward also against
// central differences of the forward, the documented error codes and the bytes the cost model
// charges.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "aclnn_test_util.h"
#include "aclnnop/aclnn_thnn_fused_lstm_cell.h"
#include "aclnnop/aclnn_thnn_fused_lstm_cell_backward.h"

namespace {

using aclnn_test::Charged;
using aclnn_test::chargedBytes;
using aclnn_test::expectNear;
using aclnn_test::HostTensorBuf;
using aclnn_test::run;

constexpr int kNullptr = 161001, kParamInvalid = 161002;

double sigm(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// One cell step in doubles: gates a (4H per row, i f g o), previous cell c; returns h, c', acts.
struct CellRef {
  std::vector<double> hy, cy, act;
};
CellRef cellRef(int64_t B, int64_t H, const std::vector<double>& a, const std::vector<double>& cx) {
  CellRef r{std::vector<double>(B * H), std::vector<double>(B * H), std::vector<double>(B * 4 * H)};
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t j = 0; j < H; ++j) {
      const double* row = &a[b * 4 * H];
      const double i = sigm(row[j]), f = sigm(row[H + j]), g = std::tanh(row[2 * H + j]),
                   o = sigm(row[3 * H + j]);
      const double c = f * cx[b * H + j] + i * g;
      r.cy[b * H + j] = c;
      r.hy[b * H + j] = o * std::tanh(c);
      r.act[b * 4 * H + j] = i;
      r.act[b * 4 * H + H + j] = f;
      r.act[b * 4 * H + 2 * H + j] = g;
      r.act[b * 4 * H + 3 * H + j] = o;
    }
  }
  return r;
}

std::vector<double> values(HostTensorBuf& t) {
  std::vector<double> v(t.numel());
  for (int64_t i = 0; i < t.numel(); ++i) v[i] = t.get(i);
  return v;
}

int cellForward(HostTensorBuf& xg, HostTensorBuf& hg, HostTensorBuf& cx, HostTensorBuf* bi, HostTensorBuf* bh,
                HostTensorBuf& hy, HostTensorBuf& cy, HostTensorBuf& st) {
  return run([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnThnnFusedLstmCellGetWorkspaceSize(xg.get(), hg.get(), cx.get(), bi ? bi->get() : nullptr,
                                                  bh ? bh->get() : nullptr, hy.get(), cy.get(), st.get(), ws,
                                                  ex);
  });
}

TEST(FusedLstmCell, MatchesTheGateDefinitions) {
  std::mt19937 gen(28);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16}) {
    for (bool bias : {false, true}) {
      const int64_t B = 3, H = 5;
      HostTensorBuf xg(dt, {B, 4 * H}), hg(dt, {B, 4 * H}), cx(dt, {B, H}), bi(dt, {4 * H}), bh(dt, {4 * H});
      HostTensorBuf hy(dt, {B, H}), cy(dt, {B, H}), st(dt, {B, 4 * H});
      for (HostTensorBuf* t : {&xg, &hg, &cx, &bi, &bh}) t->fillRandom(gen, -2, 2);
      ASSERT_EQ(cellForward(xg, hg, cx, bias ? &bi : nullptr, bias ? &bh : nullptr, hy, cy, st), 0);
      std::vector<double> a(B * 4 * H);
      for (int64_t e = 0; e < B * 4 * H; ++e) {
        a[e] = xg.get(e) + hg.get(e) + (bias ? bi.get(e % (4 * H)) + bh.get(e % (4 * H)) : 0.0);
      }
      const CellRef r = cellRef(B, H, a, values(cx));
      for (int64_t e = 0; e < B * H; ++e) {
        expectNear(hy.get(e), r.hy[e], dt, "hy " + std::to_string(e));
        expectNear(cy.get(e), r.cy[e], dt, "cy " + std::to_string(e));
      }
      for (int64_t e = 0; e < B * 4 * H; ++e)
        expectNear(st.get(e), r.act[e], dt, "storage " + std::to_string(e));
    }
  }
}

TEST(FusedLstmCell, ReadsStridedViewsAndAcceptsAnEmptyBatch) {
  std::mt19937 gen(7);
  const int64_t B = 2, H = 3;
  // inputGates as the transpose of a (4H, B) buffer: strides (1, B).
  HostTensorBuf xg(ACL_FLOAT, {B, 4 * H}, {1, B}, 0), hg(ACL_FLOAT, {B, 4 * H}), cx(ACL_FLOAT, {B, H});
  HostTensorBuf hy(ACL_FLOAT, {B, H}), cy(ACL_FLOAT, {B, H}), st(ACL_FLOAT, {B, 4 * H});
  for (HostTensorBuf* t : {&xg, &hg, &cx}) t->fillRandom(gen, -1, 1);
  ASSERT_EQ(cellForward(xg, hg, cx, nullptr, nullptr, hy, cy, st), 0);
  std::vector<double> a(B * 4 * H);
  for (int64_t e = 0; e < B * 4 * H; ++e) a[e] = xg.get(e) + hg.get(e);
  const CellRef r = cellRef(B, H, a, values(cx));
  for (int64_t e = 0; e < B * H; ++e) expectNear(hy.get(e), r.hy[e], ACL_FLOAT, "hy");

  HostTensorBuf ex(ACL_FLOAT, {0, 8}), eh(ACL_FLOAT, {0, 8}), ec(ACL_FLOAT, {0, 2}), ey(ACL_FLOAT, {0, 2}),
      ecy(ACL_FLOAT, {0, 2}), es(ACL_FLOAT, {0, 8});
  EXPECT_EQ(cellForward(ex, eh, ec, nullptr, nullptr, ey, ecy, es), 0);
}

TEST(FusedLstmCell, RefusesBadArguments) {
  const int64_t B = 2, H = 3;
  HostTensorBuf xg(ACL_FLOAT, {B, 4 * H}), hg(ACL_FLOAT, {B, 4 * H}), cx(ACL_FLOAT, {B, H}),
      b(ACL_FLOAT, {4 * H});
  HostTensorBuf hy(ACL_FLOAT, {B, H}), cy(ACL_FLOAT, {B, H}), st(ACL_FLOAT, {B, 4 * H});
  HostTensorBuf half(ACL_FLOAT16, {B, H}), wide(ACL_FLOAT, {B, 4 * H + 1}), bf(ACL_BF16, {B, 4 * H}),
      badCx(ACL_FLOAT, {B, H + 1});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto call = [&](const aclTensor* x, const aclTensor* c, const aclTensor* bi, const aclTensor* bh,
                  aclTensor* h) {
    return aclnnThnnFusedLstmCellGetWorkspaceSize(x, hg.get(), c, bi, bh, h, cy.get(), st.get(), &ws, &ex);
  };
  EXPECT_EQ(call(nullptr, cx.get(), nullptr, nullptr, hy.get()), kNullptr);
  EXPECT_EQ(call(xg.get(), nullptr, nullptr, nullptr, hy.get()), kNullptr);
  EXPECT_EQ(call(xg.get(), cx.get(), nullptr, nullptr, nullptr), kNullptr);
  EXPECT_EQ(call(bf.get(), cx.get(), nullptr, nullptr, hy.get()), kParamInvalid);    // bf16 not documented
  EXPECT_EQ(call(xg.get(), cx.get(), nullptr, nullptr, half.get()), kParamInvalid);  // mixed types
  EXPECT_EQ(call(wide.get(), cx.get(), nullptr, nullptr, hy.get()), kParamInvalid);  // 4H not a multiple of 4
  EXPECT_EQ(call(xg.get(), badCx.get(), nullptr, nullptr, hy.get()), kParamInvalid);  // cx not (B, H)
  EXPECT_EQ(call(xg.get(), cx.get(), b.get(), nullptr, hy.get()), kParamInvalid);     // one bias only
  EXPECT_EQ(call(xg.get(), cx.get(), cx.get(), cx.get(), hy.get()), kParamInvalid);   // bias not (4H)
}

TEST(FusedLstmCell, ChargesOnePassOverItsTensors) {
  const int64_t B = 64, H = 128;
  HostTensorBuf xg(ACL_FLOAT16, {B, 4 * H}), hg(ACL_FLOAT16, {B, 4 * H}), cx(ACL_FLOAT16, {B, H}),
      bi(ACL_FLOAT16, {4 * H}), bh(ACL_FLOAT16, {4 * H});
  HostTensorBuf hy(ACL_FLOAT16, {B, H}), cy(ACL_FLOAT16, {B, H}), st(ACL_FLOAT16, {B, 4 * H});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnThnnFusedLstmCellGetWorkspaceSize(xg.get(), hg.get(), cx.get(), bi.get(), bh.get(), hy.get(),
                                                   cy.get(), st.get(), &ws, &ex),
            0);
  const Charged c = chargedBytes(ex);
  // Read: both gate sums, cx and the two biases once; written: hy, cy and the activations once.
  EXPECT_EQ(c.read, 2u * (2 * B * 4 * H + B * H + 2 * 4 * H));
  EXPECT_EQ(c.written, 2u * (2 * B * H + B * 4 * H));
  EXPECT_GT(c.vector, 2u * B * 4 * H);  // several vector passes over the gates
}

// Backward reference in doubles from the forward's saved values.
struct CellGradRef {
  std::vector<double> dgates, dcx, dbias;
};
CellGradRef cellGradRef(int64_t B, int64_t H, const std::vector<double>& dhy, const std::vector<double>& dcy,
                        const std::vector<double>& cx, const std::vector<double>& cy,
                        const std::vector<double>& s) {
  CellGradRef r{std::vector<double>(B * 4 * H), std::vector<double>(B * H), std::vector<double>(4 * H, 0.0)};
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t j = 0; j < H; ++j) {
      const int64_t e = b * H + j;
      const double i = s[b * 4 * H + j], f = s[b * 4 * H + H + j], g = s[b * 4 * H + 2 * H + j],
                   o = s[b * 4 * H + 3 * H + j];
      const double t = std::tanh(cy[e]);
      const double dc = dhy[e] * o * (1 - t * t) + dcy[e];
      r.dcx[e] = dc * f;
      const double d[4] = {dc * g * i * (1 - i), dc * cx[e] * f * (1 - f), dc * i * (1 - g * g),
                           dhy[e] * t * o * (1 - o)};
      for (int k = 0; k < 4; ++k) {
        r.dgates[b * 4 * H + k * H + j] = d[k];
        r.dbias[k * H + j] += d[k];
      }
    }
  }
  return r;
}

int cellBackward(HostTensorBuf& dhy, HostTensorBuf& dcy, HostTensorBuf& cx, HostTensorBuf& cy,
                 HostTensorBuf& st, bool hasBias, HostTensorBuf& dg, HostTensorBuf& dcx, HostTensorBuf& db) {
  return run([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnThnnFusedLstmCellBackwardGetWorkspaceSize(dhy.get(), dcy.get(), cx.get(), cy.get(), st.get(),
                                                          hasBias, dg.get(), dcx.get(), db.get(), ws, ex);
  });
}

TEST(FusedLstmCellBackward, MatchesTheChainRuleAndFiniteDifferences) {
  std::mt19937 gen(29);
  const int64_t B = 3, H = 4;
  // A forward step in fp32 gives consistent cx, cy, storage for the backward.
  HostTensorBuf xg(ACL_FLOAT, {B, 4 * H}), hg(ACL_FLOAT, {B, 4 * H}), cx(ACL_FLOAT, {B, H});
  HostTensorBuf hy(ACL_FLOAT, {B, H}), cy(ACL_FLOAT, {B, H}), st(ACL_FLOAT, {B, 4 * H});
  for (HostTensorBuf* t : {&xg, &hg, &cx}) t->fillRandom(gen, -1.5, 1.5);
  ASSERT_EQ(cellForward(xg, hg, cx, nullptr, nullptr, hy, cy, st), 0);
  HostTensorBuf dhy(ACL_FLOAT, {B, H}), dcy(ACL_FLOAT, {B, H});
  dhy.fillRandom(gen, -1, 1);
  dcy.fillRandom(gen, -1, 1);
  HostTensorBuf dg(ACL_FLOAT, {B, 4 * H}), dcx(ACL_FLOAT, {B, H}), db(ACL_FLOAT, {4 * H});
  ASSERT_EQ(cellBackward(dhy, dcy, cx, cy, st, true, dg, dcx, db), 0);

  // Loss L = sum(dhy * hy + dcy * cy) of the forward in doubles; its derivatives by central
  // differences in the pre-activation gates and in cx.
  std::vector<double> a(B * 4 * H);
  for (int64_t e = 0; e < B * 4 * H; ++e) a[e] = xg.get(e) + hg.get(e);
  const std::vector<double> c0 = values(cx), wh = values(dhy), wc = values(dcy);
  auto loss = [&](const std::vector<double>& gates, const std::vector<double>& c) {
    const CellRef r = cellRef(B, H, gates, c);
    double L = 0;
    for (int64_t e = 0; e < B * H; ++e) L += wh[e] * r.hy[e] + wc[e] * r.cy[e];
    return L;
  };
  const double eps = 1e-5;
  std::vector<double> bias(4 * H, 0.0);
  for (int64_t e = 0; e < B * 4 * H; ++e) {
    std::vector<double> p = a, m = a;
    p[e] += eps;
    m[e] -= eps;
    const double fd = (loss(p, c0) - loss(m, c0)) / (2 * eps);
    EXPECT_NEAR(dg.get(e), fd, 1e-4) << "gate " << e;
    bias[e % (4 * H)] += fd;
  }
  for (int64_t k = 0; k < 4 * H; ++k) EXPECT_NEAR(db.get(k), bias[k], 1e-4) << "bias " << k;
  for (int64_t e = 0; e < B * H; ++e) {
    std::vector<double> p = c0, m = c0;
    p[e] += eps;
    m[e] -= eps;
    EXPECT_NEAR(dcx.get(e), (loss(a, p) - loss(a, m)) / (2 * eps), 1e-4) << "cx " << e;
  }
}

TEST(FusedLstmCellBackward, Fp16MatchesTheReferenceAndHasBiasFalseLeavesGradBias) {
  std::mt19937 gen(30);
  const int64_t B = 4, H = 6;
  const aclDataType dt = ACL_FLOAT16;
  HostTensorBuf dhy(dt, {B, H}), dcy(dt, {B, H}), cx(dt, {B, H}), cy(dt, {B, H}), st(dt, {B, 4 * H});
  for (HostTensorBuf* t : {&dhy, &dcy, &cx, &cy}) t->fillRandom(gen, -1, 1);
  st.fillRandom(gen, 0.05, 0.95);  // activations: sigmoid outputs (and tanh in its range)
  HostTensorBuf dg(dt, {B, 4 * H}), dcx(dt, {B, H}), db(dt, {4 * H});
  for (int64_t k = 0; k < 4 * H; ++k) db.set(k, 7.0);
  ASSERT_EQ(cellBackward(dhy, dcy, cx, cy, st, false, dg, dcx, db), 0);
  const CellGradRef r = cellGradRef(B, H, values(dhy), values(dcy), values(cx), values(cy), values(st));
  for (int64_t e = 0; e < B * 4 * H; ++e)
    expectNear(dg.get(e), r.dgates[e], dt, "dgates " + std::to_string(e));
  for (int64_t e = 0; e < B * H; ++e) expectNear(dcx.get(e), r.dcx[e], dt, "dcx " + std::to_string(e));
  for (int64_t k = 0; k < 4 * H; ++k) EXPECT_EQ(db.get(k), 7.0) << "gradBias untouched without hasBias";
}

TEST(FusedLstmCellBackward, RefusesBadArguments) {
  const int64_t B = 2, H = 3;
  HostTensorBuf dhy(ACL_FLOAT, {B, H}), dcy(ACL_FLOAT, {B, H}), cx(ACL_FLOAT, {B, H}), cy(ACL_FLOAT, {B, H}),
      st(ACL_FLOAT, {B, 4 * H}), dg(ACL_FLOAT, {B, 4 * H}), dcx(ACL_FLOAT, {B, H}), db(ACL_FLOAT, {4 * H});
  HostTensorBuf half(ACL_FLOAT16, {B, H}), badDb(ACL_FLOAT, {H});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto call = [&](const aclTensor* h, const aclTensor* s, bool bias, aclTensor* b) {
    return aclnnThnnFusedLstmCellBackwardGetWorkspaceSize(h, dcy.get(), cx.get(), cy.get(), s, bias, dg.get(),
                                                          dcx.get(), b, &ws, &ex);
  };
  EXPECT_EQ(call(nullptr, st.get(), true, db.get()), kNullptr);
  EXPECT_EQ(call(dhy.get(), nullptr, true, db.get()), kNullptr);
  EXPECT_EQ(call(dhy.get(), st.get(), true, nullptr), kNullptr);
  EXPECT_EQ(call(half.get(), st.get(), true, db.get()), kParamInvalid);    // mixed types
  EXPECT_EQ(call(dhy.get(), dhy.get(), true, db.get()), kParamInvalid);    // storage (B, H): not 4H
  EXPECT_EQ(call(dhy.get(), st.get(), true, badDb.get()), kParamInvalid);  // gradBias not (4H)
  EXPECT_EQ(call(dhy.get(), st.get(), false, badDb.get()), 0);             // unused without hasBias
  aclDestroyAclOpExecutor(ex);
}

}  // namespace

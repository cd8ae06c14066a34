// The RNN family (runtime/aclnn/ops/lstm_cell.cpp, lstm.cpp): aclnnLSTM, the fused LSTM cell and its
// backward against
// step-by-step definitions written here (gate blocks i, f, g, o), the backward also against
// central differences of the forward, the documented error codes and the bytes the cost model
// charges.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_gru.h"
#include "aclnnop/aclnn_lstm.h"
#include "aclnnop/aclnn_lstm_backward.h"
#include "aclnnop/aclnn_thnn_fused_lstm_cell.h"
#include "aclnnop/aclnn_thnn_fused_lstm_cell_backward.h"
#include "runtime/aclnn/base/executor.h"

namespace {

using aclnn_test::Charged;
using aclnn_test::chargedBytes;
using aclnn_test::DeviceBuf;
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

// ---- aclnnLSTM --------------------------------------------------------------------------

struct LstmCase {
  int64_t T = 3, B = 2, I = 3, H = 4, L = 1;
  bool bidir = false, bias = true, train = true, batchFirst = false, hx = true;
  aclDataType dt = ACL_FLOAT;
  std::vector<int64_t> batchSizes;  // packed when not empty
  bool gru = false;                 // aclnnGRU (gates r, z, n; state h only) instead of aclnnLSTM
  int64_t G() const { return gru ? 3 : 4; }
  int lists() const { return gru ? 5 : 7; }
};

// Tensors of one aclnnLSTM call, random inputs, and the call itself.
struct LstmCall {
  LstmCase c;
  int64_t D;
  std::unique_ptr<HostTensorBuf> input, output, hy, cy, sizes;
  std::vector<std::unique_ptr<HostTensorBuf>> params, hx, lists[7];
  aclTensorList *paramList = nullptr, *hxList = nullptr, *outLists[7] = {};

  explicit LstmCall(const LstmCase& cs, std::mt19937& gen) : c(cs), D(cs.bidir ? 2 : 1) {
    const bool packed = !c.batchSizes.empty();
    input = std::make_unique<HostTensorBuf>(c.dt, packed         ? std::vector<int64_t>{c.T * c.B, c.I}
                                                  : c.batchFirst ? std::vector<int64_t>{c.B, c.T, c.I}
                                                                 : std::vector<int64_t>{c.T, c.B, c.I});
    input->fillRandom(gen, -1, 1);
    std::vector<aclTensor*> ps;
    for (int64_t l = 0; l < c.L; ++l) {
      for (int64_t d = 0; d < D; ++d) {
        std::vector<std::vector<int64_t>> shapes{{c.G() * c.H, l == 0 ? c.I : D * c.H}, {c.G() * c.H, c.H}};
        if (c.bias) shapes.insert(shapes.end(), {{c.G() * c.H}, {c.G() * c.H}});
        for (const auto& sh : shapes) {
          params.push_back(std::make_unique<HostTensorBuf>(c.dt, sh));
          params.back()->fillRandom(gen, -0.6, 0.6);
          ps.push_back(aclnn_test::listHandle(*params.back()));
        }
      }
    }
    paramList = aclCreateTensorList(ps.data(), ps.size());
    const std::vector<int64_t> state{c.L * D, c.B, c.H}, step{c.T, c.B, c.H};
    if (c.hx) {
      std::vector<aclTensor*> hs;
      for (int k = 0; k < (c.gru ? 1 : 2); ++k) {
        hx.push_back(std::make_unique<HostTensorBuf>(c.dt, state));
        hx.back()->fillRandom(gen, -1, 1);
        hs.push_back(aclnn_test::listHandle(*hx.back()));
      }
      hxList = aclCreateTensorList(hs.data(), hs.size());
    }
    if (packed) {
      sizes = std::make_unique<HostTensorBuf>(ACL_INT64, std::vector<int64_t>{c.T});
      for (int64_t t = 0; t < c.T; ++t) sizes->set(t, static_cast<double>(c.batchSizes[t]));
    }
    output = std::make_unique<HostTensorBuf>(c.dt, c.batchFirst ? std::vector<int64_t>{c.B, c.T, D * c.H}
                                                                : std::vector<int64_t>{c.T, c.B, D * c.H});
    hy = std::make_unique<HostTensorBuf>(c.dt, state);
    cy = std::make_unique<HostTensorBuf>(c.dt, state);
    for (int k = 0; k < c.lists() && c.train; ++k) {
      std::vector<aclTensor*> ts;
      for (int64_t r = 0; r < c.L * D; ++r) {
        lists[k].push_back(std::make_unique<HostTensorBuf>(c.dt, step));
        ts.push_back(aclnn_test::listHandle(*lists[k].back()));
      }
      outLists[k] = aclCreateTensorList(ts.data(), ts.size());
    }
  }
  ~LstmCall() {
    aclDestroyTensorList(paramList);
    if (hxList) aclDestroyTensorList(hxList);
    for (aclTensorList* l : outLists)
      if (l) aclDestroyTensorList(l);
  }
  int phase1(uint64_t* ws, aclOpExecutor** ex, int64_t layers = -1, double dropout = 0) {
    if (c.gru) {
      return aclnnGRUGetWorkspaceSize(
          input->get(), paramList, c.hx ? hx[0]->get() : nullptr, sizes ? sizes->get() : nullptr, c.bias,
          layers < 0 ? c.L : layers, dropout, c.train, c.bidir, c.batchFirst, output->get(), hy->get(),
          outLists[0], outLists[1], outLists[2], outLists[3], outLists[4], ws, ex);
    }
    return aclnnLSTMGetWorkspaceSize(input->get(), paramList, hxList, sizes ? sizes->get() : nullptr, c.bias,
                                     layers < 0 ? c.L : layers, dropout, c.train, c.bidir, c.batchFirst,
                                     output->get(), hy->get(), cy->get(), outLists[0], outLists[1],
                                     outLists[2], outLists[3], outLists[4], outLists[5], outLists[6], ws, ex);
  }
};

// The reference: the network unrolled step by step in doubles, from the stored inputs.
struct LstmRef {
  std::vector<double> out;                // (T, B, D*H)
  std::vector<double> hy, cy;             // (L*D, B, H)
  std::vector<std::vector<double>> keep;  // list k, row r: (T, B, H), k in i j f o h c tanhc
};
LstmRef lstmRef(LstmCall& call) {
  const LstmCase& c = call.c;
  const int64_t D = call.D, T = c.T, B = c.B, H = c.H;
  std::vector<int64_t> len(B, T);
  for (int64_t b = 0; b < B && !c.batchSizes.empty(); ++b) {
    len[b] = 0;
    for (int64_t n : c.batchSizes) len[b] += n > b ? 1 : 0;
  }
  // layer input x[t][b] as vectors
  std::vector<std::vector<std::vector<double>>> x(T, std::vector<std::vector<double>>(B));
  for (int64_t t = 0; t < T; ++t)
    for (int64_t b = 0; b < B; ++b)
      for (int64_t k = 0; k < c.I; ++k)
        x[t][b].push_back(call.input->get(c.batchFirst ? (b * T + t) * c.I + k : (t * B + b) * c.I + k));
  LstmRef r;
  r.hy.assign(c.L * D * B * H, 0);
  r.cy = r.hy;
  r.keep.assign(c.lists() * c.L * D, std::vector<double>(T * B * H, 0.0));
  size_t p = 0;
  for (int64_t l = 0; l < c.L; ++l) {
    std::vector<std::vector<std::vector<double>>> y(
        T, std::vector<std::vector<double>>(B, std::vector<double>(D * H, 0)));
    for (int64_t d = 0; d < D; ++d) {
      HostTensorBuf &wi = *call.params[p], &wh = *call.params[p + 1];
      HostTensorBuf* bi = c.bias ? call.params[p + 2].get() : nullptr;
      HostTensorBuf* bh = c.bias ? call.params[p + 3].get() : nullptr;
      p += c.bias ? 4 : 2;
      const int64_t row = l * D + d, K = static_cast<int64_t>(x[0][0].size());
      for (int64_t b = 0; b < B; ++b) {
        std::vector<double> h(H, 0), cc(H, 0);
        for (int64_t j = 0; j < H && c.hx; ++j) {
          h[j] = call.hx[0]->get((row * B + b) * H + j);
          if (!c.gru) cc[j] = call.hx[1]->get((row * B + b) * H + j);
        }
        for (int64_t s = 0; s < len[b]; ++s) {
          const int64_t t = d == 0 ? s : len[b] - 1 - s;
          const int64_t GH = c.G() * H;
          std::vector<double> gi(GH), gh(GH);
          for (int64_t g = 0; g < GH; ++g) {
            gi[g] = c.bias ? bi->get(g) : 0;
            gh[g] = c.bias ? bh->get(g) : 0;
            for (int64_t k = 0; k < K; ++k) gi[g] += wi.get(g * K + k) * x[t][b][k];
            for (int64_t k = 0; k < H; ++k) gh[g] += wh.get(g * H + k) * h[k];
          }
          for (int64_t j = 0; j < H; ++j) {
            double v[7] = {};
            if (c.gru) {  // PyTorch's GRU: the reset gate scales the hidden part of n only
              const double rg = sigm(gi[j] + gh[j]), zg = sigm(gi[H + j] + gh[H + j]);
              const double n = std::tanh(gi[2 * H + j] + rg * gh[2 * H + j]);
              h[j] = (1 - zg) * n + zg * h[j];
              const double kept[5] = {rg, zg, n, gh[2 * H + j], h[j]};
              std::copy(kept, kept + 5, v);
            } else {
              const double ig = sigm(gi[j] + gh[j]), fg = sigm(gi[H + j] + gh[H + j]),
                           jg = std::tanh(gi[2 * H + j] + gh[2 * H + j]),
                           og = sigm(gi[3 * H + j] + gh[3 * H + j]);
              cc[j] = fg * cc[j] + ig * jg;
              h[j] = og * std::tanh(cc[j]);
              const double kept[7] = {ig, jg, fg, og, h[j], cc[j], std::tanh(cc[j])};
              std::copy(kept, kept + 7, v);
            }
            y[t][b][d * H + j] = h[j];
            for (int k = 0; k < c.lists(); ++k) r.keep[k * c.L * D + row][(t * B + b) * H + j] = v[k];
          }
        }
        for (int64_t j = 0; j < H; ++j) {
          r.hy[(row * B + b) * H + j] = h[j];
          r.cy[(row * B + b) * H + j] = cc[j];
        }
      }
    }
    x = y;
  }
  for (int64_t t = 0; t < T; ++t)
    for (int64_t b = 0; b < B; ++b)
      for (double v : x[t][b]) r.out.push_back(v);
  return r;
}

void expectLstm(const LstmCase& cs, uint32_t seed) {
  std::mt19937 gen(seed);
  LstmCall call(cs, gen);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return call.phase1(ws, ex); }), 0)
      << aclGetRecentErrMsg();
  const LstmRef r = lstmRef(call);
  const aclDataType dt = cs.dt;
  const double tolScale = dt == ACL_FLOAT16 ? 4 : 1;  // fp16 inputs and states rounded at every store
  const int64_t DH = call.D * cs.H;
  for (int64_t t = 0; t < cs.T; ++t) {
    for (int64_t b = 0; b < cs.B; ++b) {
      for (int64_t j = 0; j < DH; ++j) {
        const int64_t at = cs.batchFirst ? (b * cs.T + t) * DH + j : (t * cs.B + b) * DH + j;
        EXPECT_NEAR(call.output->get(at), r.out[(t * cs.B + b) * DH + j], tolScale * aclnn_test::tol(dt))
            << "output t=" << t << " b=" << b << " j=" << j;
      }
    }
  }
  for (size_t e = 0; e < r.hy.size(); ++e) {
    EXPECT_NEAR(call.hy->get(e), r.hy[e], tolScale * aclnn_test::tol(dt)) << "hy " << e;
    if (!cs.gru) {
      EXPECT_NEAR(call.cy->get(e), r.cy[e], tolScale * aclnn_test::tol(dt) * 4) << "cy " << e;
    }
  }
  for (int k = 0; k < cs.lists() && cs.train; ++k)
    for (size_t row = 0; row < call.lists[k].size(); ++row)
      for (int64_t e = 0; e < call.lists[k][row]->numel(); ++e)
        EXPECT_NEAR(call.lists[k][row]->get(e), r.keep[k * call.lists[k].size() + row][e],
                    tolScale * aclnn_test::tol(dt) * 4)
            << "list " << k << " row " << row << " e " << e;
}

TEST(Lstm, OneLayerWithInitialStatesAndTrainingLists) { expectLstm(LstmCase{}, 1); }

TEST(Lstm, TwoBidirectionalLayersWithoutBiasOrStates) {
  LstmCase c;
  c.L = 2, c.bidir = true, c.bias = false, c.hx = false, c.T = 4;
  expectLstm(c, 2);
}

TEST(Lstm, BatchFirstInferenceInFp16) {
  LstmCase c;
  c.batchFirst = true, c.train = false, c.dt = ACL_FLOAT16, c.B = 3;
  expectLstm(c, 3);
}

TEST(Lstm, PackedSequencesHoldFinishedRowsInBothDirections) {
  LstmCase c;
  c.T = 4, c.B = 3, c.bidir = true, c.batchSizes = {3, 2, 2, 1};
  expectLstm(c, 4);
}

TEST(Lstm, RefusesBadArguments) {
  std::mt19937 gen(5);
  LstmCall call(LstmCase{}, gen);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(call.phase1(&ws, &ex, 0), kParamInvalid);        // numLayers 0
  EXPECT_EQ(call.phase1(&ws, &ex, 2), kParamInvalid);        // params for one layer only
  EXPECT_EQ(call.phase1(&ws, &ex, -1, 0.5), kParamInvalid);  // dropout is not supported
  aclTensorList* keep = call.outLists[2];
  call.outLists[2] = nullptr;  // fOut missing while training
  EXPECT_EQ(call.phase1(&ws, &ex), kNullptr);
  call.outLists[2] = keep;
  HostTensorBuf half(ACL_FLOAT16, {3, 2, 4}), wrong(ACL_FLOAT, {3, 2, 5});
  EXPECT_EQ(
      aclnnLSTMGetWorkspaceSize(call.input->get(), call.paramList, call.hxList, nullptr, true, 1, 0, false,
                                false, false, half.get(), call.hy->get(), call.cy->get(), nullptr, nullptr,
                                nullptr, nullptr, nullptr, nullptr, nullptr, &ws, &ex),
      kParamInvalid);  // output of another type
  EXPECT_EQ(
      aclnnLSTMGetWorkspaceSize(call.input->get(), call.paramList, call.hxList, nullptr, true, 1, 0, false,
                                false, false, wrong.get(), call.hy->get(), call.cy->get(), nullptr, nullptr,
                                nullptr, nullptr, nullptr, nullptr, nullptr, &ws, &ex),
      kParamInvalid);  // output not (T, B, D*H)
  EXPECT_EQ(aclnnLSTMGetWorkspaceSize(nullptr, call.paramList, call.hxList, nullptr, true, 1, 0, false, false,
                                      false, call.output->get(), call.hy->get(), call.cy->get(), nullptr,
                                      nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, &ws, &ex),
            kNullptr);
  // Inference takes null training lists.
  EXPECT_EQ(
      aclnnLSTMGetWorkspaceSize(call.input->get(), call.paramList, call.hxList, nullptr, true, 1, 0, false,
                                false, false, call.output->get(), call.hy->get(), call.cy->get(), nullptr,
                                nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, &ws, &ex),
      0);
  aclDestroyAclOpExecutor(ex);
}

// The cost: every step's matmul [x_t, h] x W^T on the cube (B x (I+H) x 4H MACs, twice for fp32)
// and a vector tile for its gates; each step's matmul waits for the previous step's gates.
TEST(Lstm, CostIsOneMatmulAndOneGateTilePerStepInSequence) {
  std::mt19937 gen(6);
  LstmCase c;
  c.T = 5, c.B = 8, c.I = 16, c.H = 32, c.L = 2, c.train = false, c.hx = false;
  LstmCall call(c, gen);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(call.phase1(&ws, &ex), 0);
  const npusim::rt::OpWork w = npusim::aclnn::executorOp(ex)->work();
  aclDestroyAclOpExecutor(ex);
  uint64_t macs = 0;
  for (size_t i = 0; i < w.mixedCubeTiles; ++i) macs += w.tiles[i].cubeMacs;
  const uint64_t perStep0 = c.B * (c.I + c.H) * 4 * c.H, perStep1 = c.B * (c.H + c.H) * 4 * c.H;
  EXPECT_EQ(macs, 2 * c.T * (perStep0 + perStep1));  // fp32: two fp16-equivalent cycles per MAC
  const size_t steps = static_cast<size_t>(c.T * c.L);
  ASSERT_EQ(w.tiles.size() - w.mixedCubeTiles, steps);  // one gate tile per step
  const size_t perStep = w.mixedCubeTiles / steps;
  for (size_t s = 0; s < steps; ++s) {
    const size_t gate = w.mixedCubeTiles + s;
    EXPECT_EQ(w.tiles[gate].after, static_cast<int64_t>((s + 1) * perStep - 1))
        << "gates wait for the matmul";
    EXPECT_EQ(w.tiles[gate].vectorBytes, 5u * c.B * 4 * c.H * 4);
    for (size_t k = 0; k < perStep; ++k)
      EXPECT_EQ(w.tiles[s * perStep + k].after, s == 0 ? -1 : static_cast<int64_t>(gate - 1))
          << "the matmul waits for the previous step's gates";
  }
}

// ---- aclnnGRU ---------------------------------------------------------------------------

TEST(Gru, OneLayerWithInitialStateAndTrainingLists) {
  LstmCase c;
  c.gru = true;
  expectLstm(c, 11);
}

TEST(Gru, TwoBidirectionalLayersWithoutBiasOrState) {
  LstmCase c;
  c.gru = true, c.L = 2, c.bidir = true, c.bias = false, c.hx = false, c.T = 4;
  expectLstm(c, 12);
}

TEST(Gru, BatchFirstInferenceInFp16) {
  LstmCase c;
  c.gru = true, c.batchFirst = true, c.train = false, c.dt = ACL_FLOAT16, c.B = 3;
  expectLstm(c, 13);
}

TEST(Gru, RefusesBadArgumentsAndPackedSequences) {
  std::mt19937 gen(14);
  LstmCase cs;
  cs.gru = true;
  LstmCall call(cs, gen);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(call.phase1(&ws, &ex, 0), kParamInvalid);  // numLayers 0
  EXPECT_EQ(call.phase1(&ws, &ex, 2), kParamInvalid);  // params for one layer only
  aclTensorList* keep = call.outLists[3];
  call.outLists[3] = nullptr;  // hnOut missing while training
  EXPECT_EQ(call.phase1(&ws, &ex), kNullptr);
  call.outLists[3] = keep;
  HostTensorBuf sizes(ACL_INT64, {3});
  EXPECT_EQ(aclnnGRUGetWorkspaceSize(call.input->get(), call.paramList, nullptr, sizes.get(), true, 1, 0,
                                     false, false, false, call.output->get(), call.hy->get(), nullptr,
                                     nullptr, nullptr, nullptr, nullptr, &ws, &ex),
            kParamInvalid);  // packed mode: not supported (the doc)
  HostTensorBuf badHx(ACL_FLOAT, {2, 2, 4});
  EXPECT_EQ(aclnnGRUGetWorkspaceSize(call.input->get(), call.paramList, badHx.get(), nullptr, true, 1, 0,
                                     false, false, false, call.output->get(), call.hy->get(), nullptr,
                                     nullptr, nullptr, nullptr, nullptr, &ws, &ex),
            kParamInvalid);  // hx not (L*D, B, H)
  EXPECT_EQ(aclnnGRUGetWorkspaceSize(call.input->get(), call.paramList, nullptr, nullptr, true, 1, 0, false,
                                     false, false, call.output->get(), nullptr, nullptr, nullptr, nullptr,
                                     nullptr, nullptr, &ws, &ex),
            kNullptr);  // hy
  // dropout is ignored (the doc: not implemented); inference takes null lists.
  EXPECT_EQ(call.phase1(&ws, &ex, -1, 0.3), 0);
  aclDestroyAclOpExecutor(ex);
}

// ---- aclnnLstmBackward ------------------------------------------------------------------

// A forward aclnnLSTM in training mode, then its backward with random output gradients.
struct LstmGradCall {
  LstmCall fwd;
  int64_t LD;
  HostTensorBuf dy, dh, dc, dx, dhPrev, dcPrev;
  std::vector<std::unique_ptr<HostTensorBuf>> dparams;
  aclTensorList* dparamList = nullptr;

  LstmGradCall(const LstmCase& c, std::mt19937& gen)
      : fwd(c, gen),
        LD(c.L * fwd.D),
        dy(c.dt, c.batchFirst ? std::vector<int64_t>{c.B, c.T, fwd.D * c.H}
                              : std::vector<int64_t>{c.T, c.B, fwd.D * c.H}),
        dh(c.dt, {LD, c.B, c.H}),
        dc(c.dt, {LD, c.B, c.H}),
        dx(c.dt, fwd.input->shape()),
        dhPrev(c.dt, {LD, c.B, c.H}),
        dcPrev(c.dt, {LD, c.B, c.H}) {
    for (HostTensorBuf* t : {&dy, &dh, &dc}) t->fillRandom(gen, -1, 1);
    std::vector<aclTensor*> ts;
    for (const auto& p : fwd.params) {
      dparams.push_back(std::make_unique<HostTensorBuf>(c.dt, p->shape()));
      ts.push_back(aclnn_test::listHandle(*dparams.back()));
    }
    dparamList = aclCreateTensorList(ts.data(), ts.size());
  }
  ~LstmGradCall() { aclDestroyTensorList(dparamList); }
  int backward(uint64_t* ws, aclOpExecutor** ex, const aclTensor* sizes = nullptr) {
    aclTensorList* const* k = fwd.outLists;
    return aclnnLstmBackwardGetWorkspaceSize(
        fwd.input->get(), fwd.hxList, fwd.paramList, dy.get(), dh.get(), dc.get(), k[0], k[1], k[2], k[3],
        k[4], k[5], k[6], sizes, fwd.c.bias, fwd.c.L, 0, true, fwd.c.bidir, fwd.c.batchFirst, nullptr,
        dx.get(), dhPrev.get(), dcPrev.get(), dparamList, ws, ex);
  }
  // L = sum(dy * output) + sum(dh * hy) + sum(dc * cy) of the reference forward.
  double loss() {
    const LstmRef r = lstmRef(fwd);
    double L = 0;
    const int64_t T = fwd.c.T, B = fwd.c.B, DH = fwd.D * fwd.c.H;
    for (int64_t t = 0; t < T; ++t)
      for (int64_t b = 0; b < B; ++b)
        for (int64_t j = 0; j < DH; ++j)
          L += dy.get(fwd.c.batchFirst ? (b * T + t) * DH + j : (t * B + b) * DH + j) *
               r.out[(t * B + b) * DH + j];
    for (size_t e = 0; e < r.hy.size(); ++e) L += dh.get(e) * r.hy[e] + dc.get(e) * r.cy[e];
    return L;
  }
};

// The analytic gradient `got` of element e of `t` against a central difference of the loss.
void expectDerivative(LstmGradCall& g, HostTensorBuf& t, int64_t e, double got, const std::string& what) {
  const double x = t.get(e), eps = 1e-2;
  t.set(e, x + eps);
  const double up = g.loss(), xu = t.get(e);
  t.set(e, x - eps);
  const double down = g.loss(), xd = t.get(e);
  t.set(e, x);
  EXPECT_NEAR(got, (up - down) / (xu - xd), 2e-3) << what;
}

TEST(LstmBackward, MatchesFiniteDifferencesOfTheForwardThroughLayersAndDirections) {
  std::mt19937 gen(21);
  LstmCase c;
  c.T = 3, c.B = 2, c.I = 3, c.H = 3, c.L = 2, c.bidir = true;
  LstmGradCall g(c, gen);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return g.fwd.phase1(ws, ex); }), 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return g.backward(ws, ex); }), 0)
      << aclGetRecentErrMsg();
  for (int64_t e = 0; e < g.dx.numel(); ++e)
    expectDerivative(g, *g.fwd.input, e, g.dx.get(e), "dx " + std::to_string(e));
  for (int64_t e = 0; e < g.dhPrev.numel(); ++e) {
    expectDerivative(g, *g.fwd.hx[0], e, g.dhPrev.get(e), "dhPrev " + std::to_string(e));
    expectDerivative(g, *g.fwd.hx[1], e, g.dcPrev.get(e), "dcPrev " + std::to_string(e));
  }
  for (size_t p = 0; p < g.dparams.size(); ++p)
    for (int64_t e = 0; e < g.dparams[p]->numel(); e += 5)
      expectDerivative(g, *g.fwd.params[p], e, g.dparams[p]->get(e),
                       "dparams[" + std::to_string(p) + "][" + std::to_string(e) + "]");
}

TEST(LstmBackward, BatchFirstFp16MatchesFp32) {
  LstmCase c;
  c.batchFirst = true, c.bias = false;
  std::vector<double> result[2];
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16}) {
    std::mt19937 gen(22);  // the same draws for both types
    c.dt = dt;
    LstmGradCall g(c, gen);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return g.fwd.phase1(ws, ex); }), 0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return g.backward(ws, ex); }), 0);
    for (int64_t e = 0; e < g.dx.numel(); ++e) result[dt == ACL_FLOAT16].push_back(g.dx.get(e));
    for (int64_t e = 0; e < g.dparams[0]->numel(); ++e)
      result[dt == ACL_FLOAT16].push_back(g.dparams[0]->get(e));
  }
  ASSERT_EQ(result[0].size(), result[1].size());
  for (size_t e = 0; e < result[0].size(); ++e) EXPECT_NEAR(result[1][e], result[0][e], 2e-2) << e;
}

TEST(LstmBackward, RefusesBadArguments) {
  std::mt19937 gen(23);
  LstmGradCall g(LstmCase{}, gen);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  HostTensorBuf sizes(ACL_INT64, {3});
  EXPECT_EQ(g.backward(&ws, &ex, sizes.get()), kParamInvalid);  // packed: not supported here
  aclTensorList* keep = g.fwd.outLists[6];
  g.fwd.outLists[6] = nullptr;
  EXPECT_EQ(g.backward(&ws, &ex), kNullptr);  // tanhc
  g.fwd.outLists[6] = keep;
  aclTensorList* small = aclCreateTensorList(nullptr, 0);
  EXPECT_EQ(aclnnLstmBackwardGetWorkspaceSize(
                g.fwd.input->get(), g.fwd.hxList, g.fwd.paramList, g.dy.get(), g.dh.get(), g.dc.get(), small,
                small, small, small, small, small, small, nullptr, true, 1, 0, true, false, false, nullptr,
                g.dx.get(), g.dhPrev.get(), g.dcPrev.get(), g.dparamList, &ws, &ex),
            kParamInvalid);  // lists of the wrong length
  aclDestroyTensorList(small);
  HostTensorBuf badDy(ACL_FLOAT, {3, 2, 5});
  EXPECT_EQ(aclnnLstmBackwardGetWorkspaceSize(
                g.fwd.input->get(), g.fwd.hxList, g.fwd.paramList, badDy.get(), g.dh.get(), g.dc.get(),
                g.fwd.outLists[0], g.fwd.outLists[1], g.fwd.outLists[2], g.fwd.outLists[3], g.fwd.outLists[4],
                g.fwd.outLists[5], g.fwd.outLists[6], nullptr, true, 1, 0, true, false, false, nullptr,
                g.dx.get(), g.dhPrev.get(), g.dcPrev.get(), g.dparamList, &ws, &ex),
            kParamInvalid);  // dy not (T, B, D*H)
  EXPECT_EQ(aclnnLstmBackwardGetWorkspaceSize(
                g.fwd.input->get(), g.fwd.hxList, g.fwd.paramList, g.dy.get(), g.dh.get(), g.dc.get(),
                g.fwd.outLists[0], g.fwd.outLists[1], g.fwd.outLists[2], g.fwd.outLists[3], g.fwd.outLists[4],
                g.fwd.outLists[5], g.fwd.outLists[6], nullptr, true, 0, 0, true, false, false, nullptr,
                g.dx.get(), g.dhPrev.get(), g.dcPrev.get(), g.dparamList, &ws, &ex),
            kParamInvalid);  // numLayers 0
  EXPECT_EQ(g.backward(&ws, &ex), 0);
  // The cost: each step's matmul twice (dx/dh and the weight gradients).
  const npusim::rt::OpWork w = npusim::aclnn::executorOp(ex)->work();
  aclDestroyAclOpExecutor(ex);
  uint64_t macs = 0;
  for (size_t t = 0; t < w.mixedCubeTiles; ++t) macs += w.tiles[t].cubeMacs;
  const LstmCase c;
  EXPECT_EQ(macs, 2u * 2u * c.T * c.B * (c.I + c.H) * 4 * c.H);
}

// ---- simulated time --------------------------------------------------------------------

// Simulated milliseconds of one inference aclnnLSTM of T steps (one layer, fp16, no bias).
float lstmMs(aclrtStream stream, int64_t T, int64_t B, int64_t I, int64_t H) {
  DeviceBuf x(ACL_FLOAT16, {T, B, I}), wi(ACL_FLOAT16, {4 * H, I}), wh(ACL_FLOAT16, {4 * H, H}),
      out(ACL_FLOAT16, {T, B, H}), hy(ACL_FLOAT16, {1, B, H}), cy(ACL_FLOAT16, {1, B, H});
  // The list owns its tensors: give it handles of its own on the weights' memory.
  aclTensor* w[2] = {aclCreateTensor(std::vector<int64_t>{4 * H, I}.data(), 2, ACL_FLOAT16,
                                     std::vector<int64_t>{I, 1}.data(), 0, ACL_FORMAT_ND,
                                     std::vector<int64_t>{4 * H, I}.data(), 2, wi.dev),
                     aclCreateTensor(std::vector<int64_t>{4 * H, H}.data(), 2, ACL_FLOAT16,
                                     std::vector<int64_t>{H, 1}.data(), 0, ACL_FORMAT_ND,
                                     std::vector<int64_t>{4 * H, H}.data(), 2, wh.dev)};
  aclTensorList* params = aclCreateTensorList(w, 2);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnLSTMGetWorkspaceSize(x.t, params, nullptr, nullptr, false, 1, 0, false, false, false, out.t,
                                      hy.t, cy.t, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                      nullptr, &ws, &ex),
            0);
  const float ms = aclnn_test::simulatedMs(stream, [&] { return aclnnLSTM(nullptr, ws, ex, stream); });
  aclDestroyTensorList(params);
  return ms;
}

// The steps run one after another: the time grows linearly with T, and a step takes its
// matmul tile and then its gate tile, each moving its bytes through one core's MTE at 32 B/cycle
// and computing on its unit (cube 4096 MAC/cycle, vector 256 B/cycle) at 1.8 GHz
// (configs/910b.json), plus the HBM's access latencies (four accesses a step).
TEST(LstmTiming, StepsRunInSequenceAtTheCoresRates) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  const int64_t B = 16, I = 64, H = 128;
  const float t4 = lstmMs(stream, 4, B, I, H), t8 = lstmMs(stream, 8, B, I, H),
              t16 = lstmMs(stream, 16, B, I, H);
  const double perStep = (t16 - t8) / 8.0;
  EXPECT_NEAR((t8 - t4) / 4.0, perStep, 0.1 * perStep) << t4 << " " << t8 << " " << t16;
  // The step's last matmul tile (32 of the 4H = 512 columns over 24 cores): reads its weight
  // panel and [x_t, h] (K = I + H), writes fp32 gate sums. Then the gate tile: reads the fp32
  // sums and c, 5 vector passes over the sums, writes h and c.
  const double K = I + H, cols = 32;
  const double cubeCycles = (K * cols + B * K) * 2 / 32 + B * K * cols / 4096 + B * cols * 4 / 32;
  const double gateCycles =
      (B * 4 * H * 4 + B * H * 2) / 32.0 + 5.0 * B * 4 * H * 4 / 256 + B * H * 2 * 2 / 32.0;
  const double boundMs = (cubeCycles + gateCycles) / 1.8e9 * 1e3;
  EXPECT_GT(perStep, 0.95 * boundMs);
  EXPECT_LT(perStep, boundMs + 4 * 150e-6);  // at most 150 ns an HBM access beyond its bytes
  // Uneven column splits (64 blocks over 24 cores) and fp16 rows finish too.
  EXPECT_GT(lstmMs(stream, 3, 8, 32, 256), 0.0f);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
}

}  // namespace

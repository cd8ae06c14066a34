// The NSA operators on host memory against double-precision definitions written here: aclnnNsaCompress
// and its gradient (windows over packed sequences), aclnnNsaCompressWithCache (paged windows into
// slots), aclnnNsaSelectedAttention, its gradient (against finite differences of the definition) and
// its inference form over a paged cache; fp16/bf16, the documented limits, one simulated time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_nsa_compress.h"
#include "aclnnop/aclnn_nsa_compress_attention.h"
#include "aclnnop/aclnn_nsa_compress_attention_infer.h"
#include "aclnnop/aclnn_nsa_compress_grad.h"
#include "aclnnop/aclnn_nsa_compress_with_cache.h"
#include "aclnnop/aclnn_nsa_selected_attention.h"
#include "aclnnop/aclnn_nsa_selected_attention_grad.h"
#include "aclnnop/aclnn_nsa_selected_attention_infer.h"

using namespace aclnn_test;

namespace {

int compress(HostTensorBuf& x, HostTensorBuf& w, const std::vector<int64_t>& ends, int64_t block,
             int64_t stride, HostTensorBuf& out, const char* layout = "TND") {
  aclIntArray* lens = aclCreateIntArray(ends.data(), ends.size());
  std::string l = layout;
  const int st = run([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnNsaCompressGetWorkspaceSize(x.get(), w.get(), lens, l.data(), block, stride, 0, out.get(), ws,
                                            ex);
  });
  aclDestroyIntArray(lens);
  return st;
}

}  // namespace

TEST(NsaCompress, WeightedWindowsOverPackedSequences) {
  std::mt19937 g(41);
  const int64_t N = 3, D = 16, block = 32, stride = 16;
  const std::vector<int64_t> ends{40, 110};  // lengths 40 and 70
  // Windows: sequence 0 starts 0 (16 + 32 > 40); sequence 1 starts 40, 56, 72 (88 + 32 > 110).
  const std::vector<int64_t> starts{0, 40, 56, 72};
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf x(dt, {110, N, D}), w(dt, {block, N}), out(dt, {4, N, D});
    x.fillRandom(g, -1, 1);
    w.fillRandom(g, -1, 1);
    ASSERT_EQ(compress(x, w, ends, block, stride, out), 0) << aclGetRecentErrMsg();
    for (int64_t o = 0; o < 4; ++o)
      for (int64_t n = 0; n < N; ++n)
        for (int64_t d = 0; d < D; ++d) {
          double want = 0;
          for (int64_t j = 0; j < block; ++j)
            want += w.get(j * N + n) * x.get(((starts[o] + j) * N + n) * D + d);
          expectNear(out.get((o * N + n) * D + d), want, dt, "window " + std::to_string(o));
        }
  }
  // The public example: ones everywhere, block 32: every output is 32.
  HostTensorBuf x(ACL_FLOAT16, {64, 4, 32}), w(ACL_FLOAT16, {32, 4}), out(ACL_FLOAT16, {2, 4, 32});
  for (int64_t i = 0; i < x.numel(); ++i) x.set(i, 1);
  for (int64_t i = 0; i < w.numel(); ++i) w.set(i, 1);
  ASSERT_EQ(compress(x, w, {64}, 32, 32, out), 0) << aclGetRecentErrMsg();
  for (int64_t i = 0; i < out.numel(); ++i) EXPECT_EQ(out.get(i), 32.0) << i;
}

TEST(NsaCompress, DocumentedLimits) {
  HostTensorBuf x(ACL_FLOAT16, {64, 4, 32}), w(ACL_FLOAT16, {32, 4}), out(ACL_FLOAT16, {2, 4, 32}),
      out3(ACL_FLOAT16, {3, 4, 32}), x24(ACL_FLOAT16, {64, 4, 24}), o24(ACL_FLOAT16, {2, 4, 24}),
      x32(ACL_FLOAT, {64, 4, 32}), w32(ACL_FLOAT, {32, 4}), o32(ACL_FLOAT, {2, 4, 32});
  EXPECT_EQ(compress(x, w, {64}, 32, 48, out), 161002);    // stride > block
  EXPECT_EQ(compress(x, w, {60}, 32, 32, out), 161002);    // last length != T
  EXPECT_EQ(compress(x, w, {64}, 32, 32, out3), 161002);   // wrong number of windows
  EXPECT_EQ(compress(x24, w, {64}, 32, 32, o24), 161002);  // D not a multiple of 16
  EXPECT_EQ(compress(x, w, {64}, 32, 32, out, "BSND"), 161002);
  EXPECT_EQ(compress(x32, w32, {64}, 32, 32, o32), 161002);  // fp32
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  char l[] = "TND";
  EXPECT_EQ(aclnnNsaCompressGetWorkspaceSize(x.get(), w.get(), nullptr, l, 32, 32, 0, out.get(), &ws, &ex),
            161001);
}

TEST(NsaCompress, GradientsOfInputAndWeight) {
  std::mt19937 g(42);
  const int64_t N = 2, D = 16, block = 32, stride = 16;
  // Cumulative ends with a leading empty sequence, as the public example passes them.
  const std::vector<int64_t> ends{0, 48, 96};
  const std::vector<int64_t> starts{0, 16, 48, 64};  // 2 windows in each 48-token sequence
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf go(dt, {4, N, D}), x(dt, {96, N, D}), w(dt, {block, N}), dx(dt, {96, N, D}),
        dw(dt, {block, N});
    go.fillRandom(g, -1, 1);
    x.fillRandom(g, -1, 1);
    w.fillRandom(g, -1, 1);
    aclIntArray* lens = aclCreateIntArray(ends.data(), ends.size());
    char l[] = "TND";
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnNsaCompressGradGetWorkspaceSize(go.get(), x.get(), w.get(), lens, block, stride,
                                                            0, l, dx.get(), dw.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    aclDestroyIntArray(lens);
    std::vector<double> wantDx(static_cast<size_t>(96 * N * D), 0.0),
        wantDw(static_cast<size_t>(block * N), 0.0);
    for (size_t o = 0; o < starts.size(); ++o)
      for (int64_t j = 0; j < block; ++j)
        for (int64_t n = 0; n < N; ++n)
          for (int64_t d = 0; d < D; ++d) {
            const double gv = go.get((static_cast<int64_t>(o) * N + n) * D + d);
            const int64_t t = starts[o] + j;
            wantDx[static_cast<size_t>((t * N + n) * D + d)] += w.get(j * N + n) * gv;
            wantDw[static_cast<size_t>(j * N + n)] += gv * x.get((t * N + n) * D + d);
          }
    for (int64_t i = 0; i < dx.numel(); ++i) expectNear(dx.get(i), wantDx[static_cast<size_t>(i)], dt, "dx");
    // A sum of 4 windows x 16 dims of products: allow the input roundings to add up.
    for (int64_t i = 0; i < dw.numel(); ++i)
      EXPECT_NEAR(dw.get(i), wantDw[static_cast<size_t>(i)],
                  2 * tol(dt) * std::max(1.0, std::fabs(wantDw[i])))
          << i;
  }
  // Limits shared with the forward: stride above block.
  HostTensorBuf go(ACL_FLOAT16, {2, 2, 16}), x(ACL_FLOAT16, {64, 2, 16}), w(ACL_FLOAT16, {32, 2}),
      dx(ACL_FLOAT16, {64, 2, 16}), dw(ACL_FLOAT16, {32, 2});
  const std::vector<int64_t> one{64};
  aclIntArray* lens = aclCreateIntArray(one.data(), 1);
  char l[] = "TND";
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnNsaCompressGradGetWorkspaceSize(go.get(), x.get(), w.get(), lens, 32, 48, 0, l, dx.get(),
                                                 dw.get(), &ws, &ex),
            161002);
  EXPECT_EQ(aclnnNsaCompressGradGetWorkspaceSize(go.get(), x.get(), w.get(), lens, 32, 32, 0, l, dx.get(),
                                                 nullptr, &ws, &ex),
            161001);
  aclDestroyIntArray(lens);
}

// ---- aclnnNsaCompressWithCache ----

namespace {

int compressWithCache(HostTensorBuf& x, HostTensorBuf& w, HostTensorBuf& slots,
                      const std::vector<int64_t>& lens, HostTensorBuf* table, int64_t block, int64_t stride,
                      int64_t type, int64_t page, HostTensorBuf& cache) {
  aclIntArray* l = aclCreateIntArray(lens.data(), lens.size());
  char layout[] = "TND";
  const int st = run([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnNsaCompressWithCacheGetWorkspaceSize(x.get(), w.get(), slots.get(), l,
                                                     table != nullptr ? table->get() : nullptr, layout, block,
                                                     stride, type, page, cache.get(), ws, ex);
  });
  aclDestroyIntArray(l);
  return st;
}

}  // namespace

// Three batches of 48, 40 and 32 tokens in pages of 64 (l = 32, d = 16): batches 0 and 2 complete
// a window ((48 - 32) % 16 == 0, (32 - 32) % 16 == 0), batch 1 does not. Their last 32 tokens,
// fetched through the block table, are weighted into their slots; every other slot keeps its 7.
TEST(NsaCompressWithCache, CompressesCompletedWindowsIntoTheirSlots) {
  std::mt19937 g(43);
  const int64_t P = 64, N = 2, D = 16, block = 32, stride = 16;
  const std::vector<int64_t> lens{48, 40, 32};
  const std::vector<std::vector<int32_t>> pages{{3, 1}, {0, 2}, {4, 5}};
  const std::vector<int32_t> slotOf{2, 0, 4};
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf x(dt, {6, P, N, D}), w(dt, {block, N}), slots(ACL_INT32, {3}), table(ACL_INT32, {3, 2}),
        cache(dt, {5, N, D});
    x.fillRandom(g, -1, 1);
    w.fillRandom(g, -1, 1);
    for (int64_t b = 0; b < 3; ++b) {
      slots.set(b, slotOf[static_cast<size_t>(b)]);
      for (int64_t c = 0; c < 2; ++c)
        table.set(b * 2 + c, pages[static_cast<size_t>(b)][static_cast<size_t>(c)]);
    }
    for (int64_t i = 0; i < cache.numel(); ++i) cache.set(i, 7);
    ASSERT_EQ(compressWithCache(x, w, slots, lens, &table, block, stride, 1, P, cache), 0)
        << aclGetRecentErrMsg();
    for (int64_t b : {0, 2}) {
      const int64_t slot = slotOf[static_cast<size_t>(b)];
      for (int64_t n = 0; n < N; ++n)
        for (int64_t d = 0; d < D; ++d) {
          double want = 0;
          for (int64_t j = 0; j < block; ++j) {
            const int64_t t = lens[static_cast<size_t>(b)] - block + j;
            const int64_t page = pages[static_cast<size_t>(b)][static_cast<size_t>(t / P)];
            want += w.get(j * N + n) * x.get(((page * P + t % P) * N + n) * D + d);
          }
          expectNear(cache.get((slot * N + n) * D + d), want, dt, "slot " + std::to_string(slot));
        }
    }
    for (int64_t slot : {0, 1, 3})
      for (int64_t e = 0; e < N * D; ++e) EXPECT_EQ(cache.get(slot * N * D + e), 7.0) << slot;
  }
}

TEST(NsaCompressWithCache, RefusesWhatTheDocExcludes) {
  HostTensorBuf x(ACL_FLOAT16, {2, 64, 2, 16}), w(ACL_FLOAT16, {32, 2}), slots(ACL_INT32, {1}),
      table(ACL_INT32, {1, 2}), cache(ACL_FLOAT16, {4, 2, 16}), w80(ACL_FLOAT16, {80, 2});
  const std::vector<int64_t> lens{32};
  EXPECT_EQ(compressWithCache(x, w, slots, lens, nullptr, 32, 16, 1, 64, cache), 161002);  // TND, no pages
  EXPECT_EQ(compressWithCache(x, w, slots, lens, &table, 32, 16, 0, 64, cache),
            161002);  // cumulative lengths
  EXPECT_EQ(compressWithCache(x, w, slots, lens, &table, 32, 16, 1, 32, cache), 161002);    // page of 32
  EXPECT_EQ(compressWithCache(x, w, slots, lens, &table, 32, 24, 1, 64, cache), 161002);    // stride 24
  EXPECT_EQ(compressWithCache(x, w80, slots, lens, &table, 80, 16, 1, 64, cache), 161002);  // block > 64
  EXPECT_EQ(compressWithCache(x, w, slots, {200}, &table, 32, 16, 1, 64, cache), 161002);  // beyond its pages
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclIntArray* l = aclCreateIntArray(lens.data(), 1);
  char layout[] = "TND";
  EXPECT_EQ(aclnnNsaCompressWithCacheGetWorkspaceSize(x.get(), w.get(), nullptr, l, table.get(), layout, 32,
                                                      16, 1, 64, cache.get(), &ws, &ex),
            161001);
  aclDestroyIntArray(l);
}

// ---- aclnnNsaSelectedAttention, its gradient and its inference form ----

namespace {

// A selected-attention problem in double: q [rows, N1, D], k and v [keys, N2, D / Dv] (batch b's
// query rows from qFirst[b], keys from kvFirst[b]), indices [rows, N2, count].
struct Sparse {
  int64_t N1 = 0, N2 = 0, D = 0, Dv = 0, bs = 0, count = 0;
  double scale = 1;
  bool causal = false;
  std::vector<int64_t> qLen, kvLen;
  std::vector<double> q, k, v;
  std::vector<int32_t> idx;

  int64_t qFirst(int64_t b) const {
    int64_t f = 0;
    for (int64_t i = 0; i < b; ++i) f += qLen[static_cast<size_t>(i)];
    return f;
  }
  int64_t kvFirst(int64_t b) const {
    int64_t f = 0;
    for (int64_t i = 0; i < b; ++i) f += kvLen[static_cast<size_t>(i)];
    return f;
  }
  // Keys (packed rows) that query i of batch b, key head g sees.
  std::vector<int64_t> keys(int64_t b, int64_t i, int64_t g) const {
    std::vector<int64_t> out;
    const int64_t row = qFirst(b) + i;
    for (int64_t c = 0; c < count; ++c) {
      const int32_t blk = idx[static_cast<size_t>((row * N2 + g) * count + c)];
      for (int64_t o = 0; o < bs && blk >= 0; ++o) {
        const int64_t p = blk * bs + o;
        if (p < kvLen[static_cast<size_t>(b)] && (!causal || p <= i)) out.push_back(kvFirst(b) + p);
      }
    }
    return out;
  }
  // out [rows, N1, Dv], and each row's max and sum of exponentials.
  void forward(std::vector<double>* out, std::vector<double>* mx, std::vector<double>* sm) const {
    const int64_t rows = qFirst(static_cast<int64_t>(qLen.size())), G = N1 / N2;
    out->assign(static_cast<size_t>(rows * N1 * Dv), 0.0);
    mx->assign(static_cast<size_t>(rows * N1), 0.0);
    sm->assign(static_cast<size_t>(rows * N1), 0.0);
    for (size_t b = 0; b < qLen.size(); ++b)
      for (int64_t i = 0; i < qLen[b]; ++i)
        for (int64_t n = 0; n < N1; ++n) {
          const int64_t row = qFirst(static_cast<int64_t>(b)) + i, g = n / G;
          const std::vector<int64_t> ks = keys(static_cast<int64_t>(b), i, g);
          if (ks.empty()) continue;
          std::vector<double> s;
          for (int64_t key : ks) {
            double dot = 0;
            for (int64_t d = 0; d < D; ++d)
              dot += q[static_cast<size_t>((row * N1 + n) * D + d)] *
                     k[static_cast<size_t>((key * N2 + g) * D + d)];
            s.push_back(dot * scale);
          }
          const double m = *std::max_element(s.begin(), s.end());
          double sum = 0;
          for (double& x : s) sum += x = std::exp(x - m);
          for (size_t kk = 0; kk < ks.size(); ++kk)
            for (int64_t d = 0; d < Dv; ++d)
              (*out)[static_cast<size_t>((row * N1 + n) * Dv + d)] +=
                  s[kk] / sum * v[static_cast<size_t>((ks[kk] * N2 + g) * Dv + d)];
          (*mx)[static_cast<size_t>(row * N1 + n)] = m;
          (*sm)[static_cast<size_t>(row * N1 + n)] = sum;
        }
  }
};

std::vector<double> valuesOf(HostTensorBuf& t) {
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) v[static_cast<size_t>(i)] = t.get(i);
  return v;
}

// Random inputs of problem `p` stored in tensors of type dt (p takes the stored values), indices
// drawn from -1 .. blocks of the batch's keys (repeats allowed).
struct SparseTensors {
  HostTensorBuf q, k, v, idx;
  SparseTensors(Sparse& p, aclDataType dt, std::mt19937& g)
      : q(dt, {p.qFirst(static_cast<int64_t>(p.qLen.size())), p.N1, p.D}),
        k(dt, {p.kvFirst(static_cast<int64_t>(p.kvLen.size())), p.N2, p.D}),
        v(dt, {p.kvFirst(static_cast<int64_t>(p.kvLen.size())), p.N2, p.Dv}),
        idx(ACL_INT32, {p.qFirst(static_cast<int64_t>(p.qLen.size())), p.N2, p.count}) {
    q.fillRandom(g, -1, 1);
    k.fillRandom(g, -1, 1);
    v.fillRandom(g, -1, 1);
    p.q = valuesOf(q);
    p.k = valuesOf(k);
    p.v = valuesOf(v);
    p.idx.clear();
    for (size_t b = 0; b < p.qLen.size(); ++b) {
      std::uniform_int_distribution<int32_t> blk(-1, static_cast<int32_t>(p.kvLen[b] / p.bs) - 1);
      for (int64_t e = 0; e < p.qLen[b] * p.N2 * p.count; ++e) p.idx.push_back(blk(g));
    }
    for (int64_t i = 0; i < idx.numel(); ++i) idx.set(i, p.idx[static_cast<size_t>(i)]);
  }
};

int selectedForward(const Sparse& p, SparseTensors& t, HostTensorBuf* mask, int64_t sparseMode,
                    HostTensorBuf& mx, HostTensorBuf& sm, HostTensorBuf& out, const char* layout = "TND") {
  std::vector<int64_t> qe, kve;
  for (size_t b = 0; b < p.qLen.size(); ++b) {
    qe.push_back(p.qFirst(static_cast<int64_t>(b) + 1));
    kve.push_back(p.kvFirst(static_cast<int64_t>(b) + 1));
  }
  aclIntArray* sq = aclCreateIntArray(qe.data(), qe.size());
  aclIntArray* skv = aclCreateIntArray(kve.data(), kve.size());
  std::string l = layout;
  const int st = run([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnNsaSelectedAttentionGetWorkspaceSize(
        t.q.get(), t.k.get(), t.v.get(), t.idx.get(), mask != nullptr ? mask->get() : nullptr, sq, skv,
        p.scale, p.N1, l.data(), sparseMode, p.bs, p.count, mx.get(), sm.get(), out.get(), ws, ex);
  });
  aclDestroyIntArray(sq);
  aclDestroyIntArray(skv);
  return st;
}

// D = 192, Dv = 128 (the forward's only head sizes), blocks of 16.
Sparse problem(int64_t N1, int64_t N2, int64_t count, double scale, std::vector<int64_t> qLen,
               std::vector<int64_t> kvLen) {
  Sparse p;
  p.N1 = N1;
  p.N2 = N2;
  p.D = 192;
  p.Dv = 128;
  p.bs = 16;
  p.count = count;
  p.scale = scale;
  p.qLen = std::move(qLen);
  p.kvLen = std::move(kvLen);
  return p;
}

Sparse forwardProblem() { return problem(4, 2, 3, 1 / std::sqrt(192.0), {3, 5}, {64, 96}); }

}  // namespace

// Two packed sequences (3 and 5 queries over 64 and 96 keys), 4 query heads on 2 key heads, 3
// selected blocks of 16 with repeats and -1: the output and both statistics match the definition,
// without a mask and with the causal rule of sparse mode 2 (a row that sees no key gives 0).
TEST(NsaSelectedAttention, MatchesTheDefinitionOverTheSelectedBlocks) {
  std::mt19937 g(44);
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    for (bool causal : {false, true}) {
      Sparse p = forwardProblem();
      p.causal = causal;
      SparseTensors t(p, dt, g);
      HostTensorBuf mx(ACL_FLOAT, {8, 4, 8}), sm(ACL_FLOAT, {8, 4, 8}), out(dt, {8, 4, 128}),
          mask(ACL_BOOL, {128, 128});
      ASSERT_EQ(selectedForward(p, t, causal ? &mask : nullptr, 2, mx, sm, out), 0) << aclGetRecentErrMsg();
      std::vector<double> want, wantMx, wantSm;
      p.forward(&want, &wantMx, &wantSm);
      const double atol = dt == ACL_FLOAT16 ? 4e-3 : 3e-2;  // P rounded to dt before P V
      for (int64_t i = 0; i < out.numel(); ++i)
        EXPECT_NEAR(out.get(i), want[static_cast<size_t>(i)], atol) << i;
      for (int64_t r = 0; r < 8 * 4; ++r)
        for (int64_t e = 0; e < 8; ++e) {
          EXPECT_NEAR(mx.get(r * 8 + e), wantMx[static_cast<size_t>(r)], 1e-4) << r;
          EXPECT_NEAR(sm.get(r * 8 + e), wantSm[static_cast<size_t>(r)],
                      1e-4 * wantSm[static_cast<size_t>(r)])
              << r;
        }
    }
  }
  // Sparse mode 0 ignores the mask: the same as no mask.
  Sparse p = forwardProblem();
  SparseTensors t(p, ACL_FLOAT16, g);
  HostTensorBuf mx(ACL_FLOAT, {8, 4, 8}), sm(ACL_FLOAT, {8, 4, 8}), out(ACL_FLOAT16, {8, 4, 128}),
      mask(ACL_BOOL, {128, 128});
  ASSERT_EQ(selectedForward(p, t, &mask, 0, mx, sm, out), 0);
  std::vector<double> want, wantMx, wantSm;
  p.forward(&want, &wantMx, &wantSm);
  for (int64_t i = 0; i < out.numel(); ++i) EXPECT_NEAR(out.get(i), want[static_cast<size_t>(i)], 4e-3) << i;
}

TEST(NsaSelectedAttention, RefusesWhatTheDocExcludes) {
  std::mt19937 g(45);
  Sparse p = forwardProblem();
  SparseTensors t(p, ACL_FLOAT16, g);
  HostTensorBuf mx(ACL_FLOAT, {8, 4, 8}), sm(ACL_FLOAT, {8, 4, 8}), out(ACL_FLOAT16, {8, 4, 128}),
      out64(ACL_FLOAT16, {8, 4, 64});
  EXPECT_EQ(selectedForward(p, t, nullptr, 0, mx, sm, out, "BSND"), 161002);
  EXPECT_EQ(selectedForward(p, t, nullptr, 1, mx, sm, out), 161002);  // sparse mode 1
  EXPECT_EQ(selectedForward(p, t, nullptr, 0, mx, sm, out64), 161002);
  Sparse shortKeys = p;
  shortKeys.kvLen = {40, 120};  // 40 is not a multiple of 16
  EXPECT_EQ(selectedForward(shortKeys, t, nullptr, 0, mx, sm, out), 161002);
  Sparse many = p;
  many.count = 5;  // 5 blocks of 16 exceed the 64 keys of batch 0 (and the index shape)
  EXPECT_EQ(selectedForward(many, t, nullptr, 0, mx, sm, out), 161002);
  std::vector<int64_t> qe{3, 8}, kve{64, 160};
  aclIntArray* sq = aclCreateIntArray(qe.data(), 2);
  aclIntArray* skv = aclCreateIntArray(kve.data(), 2);
  char l[] = "TND";
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(
      aclnnNsaSelectedAttentionGetWorkspaceSize(t.q.get(), t.k.get(), t.v.get(), nullptr, nullptr, sq, skv,
                                                1.0, 4, l, 0, 16, 3, mx.get(), sm.get(), out.get(), &ws, &ex),
      161001);
  HostTensorBuf q32(ACL_FLOAT, {8, 4, 192});
  EXPECT_EQ(aclnnNsaSelectedAttentionGetWorkspaceSize(q32.get(), t.k.get(), t.v.get(), t.idx.get(), nullptr,
                                                      sq, skv, 1.0, 4, l, 0, 16, 3, mx.get(), sm.get(),
                                                      out.get(), &ws, &ex),
            161002);
  aclDestroyIntArray(sq);
  aclDestroyIntArray(skv);
}

// The gradient of L = sum(dy * out) against central differences of the definition, the forward's
// own output and statistics fed back (two sequences, 2 query heads on 1 key head, D = 192, Dv = 128,
// blocks selected twice), with and without the causal rule.
TEST(NsaSelectedAttentionGrad, MatchesFiniteDifferencesOfTheForward) {
  std::mt19937 g(46);
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    for (bool causal : {false, true}) {
      Sparse p = problem(2, 1, 2, 0.3, {2, 3}, {32, 48});
      p.causal = causal;
      SparseTensors t(p, dt, g);
      const std::vector<int64_t> rowsShape{5, 2, 128}, qShape{5, 2, 192}, kShape{80, 1, 192},
          vShape{80, 1, 128};
      HostTensorBuf mx(ACL_FLOAT, {5, 2, 8}), sm(ACL_FLOAT, {5, 2, 8}), out(dt, rowsShape), dy(dt, rowsShape),
          dq(dt, qShape), dk(dt, kShape), dv(dt, vShape), mask(ACL_BOOL, {128, 128});
      dy.fillRandom(g, -1, 1);
      HostTensorBuf* m = causal ? &mask : nullptr;
      ASSERT_EQ(selectedForward(p, t, m, 2, mx, sm, out), 0) << aclGetRecentErrMsg();
      std::vector<int64_t> qe{2, 5}, kve{32, 80};
      aclIntArray* sq = aclCreateIntArray(qe.data(), 2);
      aclIntArray* skv = aclCreateIntArray(kve.data(), 2);
      char l[] = "TND";
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnNsaSelectedAttentionGradGetWorkspaceSize(
                      t.q.get(), t.k.get(), t.v.get(), out.get(), dy.get(), mx.get(), sm.get(), t.idx.get(),
                      sq, skv, m != nullptr ? m->get() : nullptr, p.scale, p.bs, p.count, p.N1, l, 2,
                      dq.get(), dk.get(), dv.get(), ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      aclDestroyIntArray(sq);
      aclDestroyIntArray(skv);
      const std::vector<double> dys = valuesOf(dy);
      auto loss = [&](const Sparse& pp) {
        std::vector<double> o, a, b;
        pp.forward(&o, &a, &b);
        double s = 0;
        for (size_t i = 0; i < o.size(); ++i) s += o[i] * dys[i];
        return s;
      };
      // Every 7th element of q, every 13th of k and v (the keys no query selects have 0 gradients).
      for (auto [tensor, grad, step] :
           {std::tuple{&Sparse::q, &dq, 7}, {&Sparse::k, &dk, 13}, {&Sparse::v, &dv, 13}}) {
        double largest = 0;
        for (int64_t e = 0; e < grad->numel(); ++e) largest = std::max(largest, std::fabs(grad->get(e)));
        ASSERT_GT(largest, 0.0);
        const double atol = (dt == ACL_FLOAT16 ? 1e-2 : 5e-2) * largest;
        for (size_t e = 0; e < (p.*tensor).size(); e += static_cast<size_t>(step)) {
          Sparse hi = p, lo = p;
          (hi.*tensor)[e] += 1e-4;
          (lo.*tensor)[e] -= 1e-4;
          const double fd = (loss(hi) - loss(lo)) / 2e-4;
          EXPECT_NEAR(grad->get(static_cast<int64_t>(e)), fd, atol) << e << (causal ? " causal" : "");
        }
      }
    }
  }
}

TEST(NsaSelectedAttentionGrad, RefusesWhatTheDocExcludes) {
  std::mt19937 g(47);
  Sparse p = forwardProblem();
  SparseTensors t(p, ACL_FLOAT16, g);
  HostTensorBuf mx(ACL_FLOAT, {8, 4, 8}), sm(ACL_FLOAT, {8, 4, 8}), out(ACL_FLOAT16, {8, 4, 128}),
      dy(ACL_FLOAT16, {8, 4, 128}), dq(ACL_FLOAT16, {8, 4, 192}), dk(ACL_FLOAT16, {160, 2, 192}),
      dv(ACL_FLOAT16, {160, 2, 128}), dq64(ACL_FLOAT16, {8, 4, 64});
  std::vector<int64_t> qe{3, 8}, kve{64, 160};
  aclIntArray* sq = aclCreateIntArray(qe.data(), 2);
  aclIntArray* skv = aclCreateIntArray(kve.data(), 2);
  char tnd[] = "TND", bsnd[] = "BSND";
  auto call = [&](const aclTensor* topk, char* layout, int64_t mode, const aclTensor* dqOut,
                  const aclTensor* dkOut) {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    const int st = aclnnNsaSelectedAttentionGradGetWorkspaceSize(
        t.q.get(), t.k.get(), t.v.get(), out.get(), dy.get(), mx.get(), sm.get(), topk, sq, skv, nullptr, 0.1,
        16, 3, 4, layout, mode, dqOut, dkOut, dv.get(), &ws, &ex);
    if (st == 0) aclDestroyAclOpExecutor(ex);
    return st;
  };
  EXPECT_EQ(call(t.idx.get(), tnd, 0, dq.get(), dk.get()), 0) << aclGetRecentErrMsg();
  EXPECT_EQ(call(t.idx.get(), bsnd, 0, dq.get(), dk.get()), 161002);
  EXPECT_EQ(call(t.idx.get(), tnd, 3, dq.get(), dk.get()), 161002);
  EXPECT_EQ(call(t.idx.get(), tnd, 0, dq64.get(), dk.get()), 161002);
  EXPECT_EQ(call(nullptr, tnd, 0, dq.get(), dk.get()), 161001);
  EXPECT_EQ(call(t.idx.get(), tnd, 0, dq.get(), nullptr), 161001);
  aclDestroyIntArray(sq);
  aclDestroyIntArray(skv);
}

// Inference over a paged cache: 2 batches of 2 queries, 40 and 100 keys in pages of 64 (batch 0
// on page 1, batch 1 on pages 2 and 0), key pages as [blockNum, 64, N2 * 192] and value pages as
// [blockNum, 64, N2, 128]; block 2 of batch 0 holds keys 32..39 only; the 2 queries of a batch are
// its last 2 tokens (the first does not see the last key). The queries laid out as BSND, BSH and
// TND (actualQSeqLen 2, 2) hold the same rows in the same order.
TEST(NsaSelectedAttentionInfer, AttendsTheSelectedBlocksOfAPagedCache) {
  std::mt19937 g(48);
  const int64_t B = 2, S = 2, N1 = 4, N2 = 2, D = 192, Dv = 128, P = 64, bs = 16, count = 2;
  const std::vector<int64_t> kvLen{40, 100};
  const std::vector<std::vector<int32_t>> pages{{1, 0}, {2, 0}};
  for (auto [dt, layoutName] :
       {std::pair{ACL_FLOAT16, "BSND"}, {ACL_BF16, "BSND"}, {ACL_FLOAT16, "BSH"}, {ACL_BF16, "TND"}}) {
    const std::string layout = layoutName;
    auto shapeOf = [&](int64_t d, bool heads) {
      return layout == "TND" ? std::vector<int64_t>{B * S, heads ? N1 : N2, d}
             : layout == "BSH"
                 ? (heads ? std::vector<int64_t>{B, S, N1 * d} : std::vector<int64_t>{B, S, N2, d})
                 : std::vector<int64_t>{B, S, heads ? N1 : N2, d};
    };
    HostTensorBuf q(dt, shapeOf(D, true)), k(dt, {3, P, N2 * D}), v(dt, {3, P, N2, Dv}),
        idx(ACL_INT32, shapeOf(count, false)), table(ACL_INT32, {B, 2}), out(dt, shapeOf(Dv, true));
    q.fillRandom(g, -1, 1);
    k.fillRandom(g, -1, 1);
    v.fillRandom(g, -1, 1);
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t c = 0; c < 2; ++c)
        table.set(b * 2 + c, pages[static_cast<size_t>(b)][static_cast<size_t>(c)]);
      std::uniform_int_distribution<int32_t> blk(
          -1, static_cast<int32_t>((kvLen[static_cast<size_t>(b)] + bs - 1) / bs) - 1);
      for (int64_t e = 0; e < S * N2 * count; ++e) idx.set(b * S * N2 * count + e, blk(g));
    }
    const double scale = 1 / std::sqrt(192.0);
    const std::vector<int64_t> qCounts{S, S};  // per batch, as the kernel reads it
    aclIntArray* skv = aclCreateIntArray(kvLen.data(), 2);
    aclIntArray* sq = aclCreateIntArray(qCounts.data(), 2);
    std::string l = layout;
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnNsaSelectedAttentionInferGetWorkspaceSize(
                    q.get(), k.get(), v.get(), idx.get(), nullptr, table.get(),
                    layout == "TND" ? sq : nullptr, skv, l.data(), N1, N2, bs, count, P, scale, 0, out.get(),
                    ws, ex);
              }),
              0)
        << layout << ": " << aclGetRecentErrMsg();
    aclDestroyIntArray(skv);
    aclDestroyIntArray(sq);
    for (int64_t b = 0; b < B; ++b)
      for (int64_t i = 0; i < S; ++i)
        for (int64_t n = 0; n < N1; ++n) {
          const int64_t gk = n / (N1 / N2);
          std::vector<double> s;
          std::vector<int64_t> rows;  // page * P + p % P
          for (int64_t c = 0; c < count; ++c) {
            const auto blk = static_cast<int64_t>(idx.get(((b * S + i) * N2 + gk) * count + c));
            for (int64_t pos = blk * bs;
                 blk >= 0 && pos < std::min(kvLen[static_cast<size_t>(b)], (blk + 1) * bs); ++pos) {
              if (pos > kvLen[static_cast<size_t>(b)] - S + i) continue;  // the batch's later tokens
              const int64_t row = pages[static_cast<size_t>(b)][static_cast<size_t>(pos / P)] * P + pos % P;
              double dot = 0;
              for (int64_t d = 0; d < D; ++d)
                dot += q.get(((b * S + i) * N1 + n) * D + d) * k.get((row * N2 + gk) * D + d);
              s.push_back(dot * scale);
              rows.push_back(row);
            }
          }
          double m = -1e300, sum = 0;
          for (double x : s) m = std::max(m, x);
          for (double& x : s) sum += x = std::exp(x - m);
          for (int64_t d = 0; d < Dv; ++d) {
            double want = 0;
            for (size_t kk = 0; kk < s.size(); ++kk)
              want += s[kk] / sum * v.get((rows[kk] * N2 + gk) * Dv + d);
            EXPECT_NEAR(out.get(((b * S + i) * N1 + n) * Dv + d), want, dt == ACL_FLOAT16 ? 4e-3 : 3e-2)
                << layout << " " << b << " " << i << " " << n;
          }
        }
  }
}

TEST(NsaSelectedAttentionInfer, RefusesWhatTheDocExcludes) {
  HostTensorBuf q(ACL_FLOAT16, {1, 1, 2, 192}), k(ACL_FLOAT16, {1, 64, 1, 192}),
      v(ACL_FLOAT16, {1, 64, 1, 128}), idx(ACL_INT32, {1, 1, 1, 1}), table(ACL_INT32, {1, 1}),
      out(ACL_FLOAT16, {1, 1, 2, 128}), q5(ACL_FLOAT16, {1, 5, 2, 192}), out5(ACL_FLOAT16, {1, 5, 2, 128}),
      idx5(ACL_INT32, {1, 5, 1, 1});
  const std::vector<int64_t> lens{48};
  aclIntArray* skv = aclCreateIntArray(lens.data(), 1);
  auto call = [&](HostTensorBuf& qq, HostTensorBuf& ii, HostTensorBuf& oo, const aclTensor* tbl,
                  const char* layout, int64_t page, int64_t kvHeads) {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    std::string l = layout;
    const int st = aclnnNsaSelectedAttentionInferGetWorkspaceSize(
        qq.get(), k.get(), v.get(), ii.get(), nullptr, tbl, nullptr, skv, l.data(), 2, kvHeads, 64, 1, page,
        1.0, 0, oo.get(), &ws, &ex);
    if (st == 0) aclDestroyAclOpExecutor(ex);
    return st;
  };
  EXPECT_EQ(call(q, idx, out, table.get(), "BSND", 64, 1), 0) << aclGetRecentErrMsg();
  EXPECT_EQ(call(q, idx, out, nullptr, "BSND", 64, 1), 161001);         // paged cache only
  EXPECT_EQ(call(q, idx, out, table.get(), "SBH", 64, 1), 161002);      // layout
  EXPECT_EQ(call(q, idx, out, table.get(), "BSND", 32, 1), 161002);     // page size
  EXPECT_EQ(call(q, idx, out, table.get(), "BSND", 64, 2), 161002);     // key heads differ from key's
  EXPECT_EQ(call(q5, idx5, out5, table.get(), "BSND", 64, 1), 161002);  // more than 4 queries
  aclDestroyIntArray(skv);
}

namespace {

// Simulated microseconds of aclnnNsaSelectedAttention, fp16, one sequence of 384 queries over
// 2048 keys, 16 query heads on 1 key head, `count` blocks of 64 selected.
double selectedUs(aclrtStream stream, int64_t count) {
  const int64_t T1 = 384, T2 = 2048, N1 = 16;
  DeviceBuf q(ACL_FLOAT16, {T1, N1, 192}), k(ACL_FLOAT16, {T2, 1, 192}), v(ACL_FLOAT16, {T2, 1, 128}),
      idx(ACL_INT32, {T1, 1, count}), mx(ACL_FLOAT, {T1, N1, 8}), sm(ACL_FLOAT, {T1, N1, 8}),
      out(ACL_FLOAT16, {T1, N1, 128});
  const std::vector<int64_t> qe{T1}, kve{T2};
  aclIntArray* sq = aclCreateIntArray(qe.data(), 1);
  aclIntArray* skv = aclCreateIntArray(kve.data(), 1);
  char l[] = "TND";
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnNsaSelectedAttentionGetWorkspaceSize(q.t, k.t, v.t, idx.t, nullptr, sq, skv, 0.07, N1, l, 0,
                                                      64, count, mx.t, sm.t, out.t, &ws, &ex),
            0)
      << aclGetRecentErrMsg();
  const float ms = simulatedMs(stream, [&] { return aclnnNsaSelectedAttention(nullptr, ws, ex, stream); });
  aclDestroyIntArray(sq);
  aclDestroyIntArray(skv);
  return ms * 1e3;
}

}  // namespace

// 48 tiles of 8 query rows x 16 heads (two waves on the 24 cube cores, configs/910b.json: 4096
// fp16 MACs/cycle, 32 B/cycle through a core's MTE, 1.8 GHz). A tile reads its rows' gathered
// keys and values, 8 x keys x (192 + 128) x 2 B, and does 8 x 16 x keys x 320 MACs: from 8 to 16
// blocks of 64 (512 more keys) each wave grows by 81920 MTE cycles and 5120 cube cycles. The time
// grows by at least the two waves' extra bytes at the MTE rate and at most both works one after
// the other plus one tile (the launch's fixed costs cancel).
TEST(NsaSelectedAttentionTiming, GatheredKeysAtTheCoresMteRate) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  const double t8 = selectedUs(stream, 8), t16 = selectedUs(stream, 16);
  const double mteUs = 2 * 8.0 * 512 * 320 * 2 / 32 / 1.8e3;
  const double cubeUs = 2 * 8.0 * 16 * 512 * 320 / 4096 / 1.8e3;
  const double tileUs = (8.0 * 1024 * 320 * 2 / 32 + 8.0 * 16 * 1024 * 320 / 4096) / 1.8e3;
  std::printf(
      "NsaSelectedAttention: %.2f us (8 blocks), %.2f us (16 blocks); growth %.2f us, MTE %.2f us, "
      "MTE + cube + one tile %.2f us\n",
      t8, t16, t16 - t8, mteUs, mteUs + cubeUs + tileUs);
  EXPECT_GT(t16 - t8, mteUs);
  EXPECT_LT(t16 - t8, mteUs + cubeUs + tileUs);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
}

// ---- aclnnNsaCompressAttention ----

namespace {

struct Compressed {
  int64_t N1 = 4, N2 = 2, D = 32, Dv = 16, block = 32, stride = 16, sel = 64, count = 3;
  std::vector<int64_t> qLen{5, 3}, cmpLen{20, 13};
  double scale = 0.2;
  int64_t selBlocks(size_t b) const { return (cmpLen[b] + sel / stride - 1) / (sel / stride); }
};

int compressAttention(const Compressed& c, HostTensorBuf& q, HostTensorBuf& k, HostTensorBuf& v,
                      HostTensorBuf* mask, HostTensorBuf* topkMask, int64_t mode, HostTensorBuf& mx,
                      HostTensorBuf& sm, HostTensorBuf& out, HostTensorBuf& topk,
                      const char* layout = "TND") {
  std::vector<int64_t> qe, ce, se;
  int64_t a = 0, bb = 0, cc = 0;
  for (size_t b = 0; b < c.qLen.size(); ++b) {
    qe.push_back(a += c.qLen[b]);
    ce.push_back(bb += c.cmpLen[b]);
    se.push_back(cc += c.selBlocks(b));
  }
  aclIntArray* sq = aclCreateIntArray(qe.data(), qe.size());
  aclIntArray* sc = aclCreateIntArray(ce.data(), ce.size());
  aclIntArray* ss = aclCreateIntArray(se.data(), se.size());
  std::string l = layout;
  const int st = run([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnNsaCompressAttentionGetWorkspaceSize(
        q.get(), k.get(), v.get(), mask != nullptr ? mask->get() : nullptr,
        topkMask != nullptr ? topkMask->get() : nullptr, sq, sc, ss, c.scale, c.N1, l.data(), mode, c.block,
        c.stride, c.sel, c.count, mx.get(), sm.get(), out.get(), topk.get(), ws, ex);
  });
  aclDestroyIntArray(sq);
  aclDestroyIntArray(sc);
  aclDestroyIntArray(ss);
  return st;
}

}  // namespace

// Two packed sequences (5 and 3 queries over 20 and 13 compressed keys; l = 32, d = 16, l' = 64:
// 4 compressed keys per select block, 2 per window, 5 and 4 select blocks), 4 query heads on 2
// key heads, a random attention mask and a top-k mask forcing two blocks: the output and the
// statistics match the masked softmax attention, and every chosen block's importance (summed
// over the group's heads: P at (j + 1) * 4 - m - l, m < 4, l < 2) is the importance of that rank.
TEST(NsaCompressAttention, AttentionAndTheTopBlocksByImportance) {
  std::mt19937 g(49);
  const Compressed c;
  const int64_t T1 = 8, T2 = 33, G = c.N1 / c.N2, M = c.sel / c.stride, L = c.block / c.stride;
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf q(dt, {T1, c.N1, c.D}), k(dt, {T2, c.N2, c.D}), v(dt, {T2, c.N2, c.Dv}),
        mask(ACL_UINT8, {5, 20}), topkMask(ACL_BOOL, {5, 5}), mx(ACL_FLOAT, {T1, c.N1, 8}),
        sm(ACL_FLOAT, {T1, c.N1, 8}), out(dt, {T1, c.N1, c.Dv}), topk(ACL_INT32, {T1, c.N2, c.count});
    q.fillRandom(g, -1, 1);
    k.fillRandom(g, -1, 1);
    v.fillRandom(g, -1, 1);
    std::bernoulli_distribution hide(0.2);
    for (int64_t i = 0; i < mask.numel(); ++i) mask.set(i, hide(g) ? 1 : 0);
    for (int64_t i = 0; i < topkMask.numel(); ++i) topkMask.set(i, 0);
    topkMask.set(1 * 5 + 3, 1);  // query position 1 forces block 3
    topkMask.set(2 * 5 + 0, 1);  // query position 2 forces block 0
    ASSERT_EQ(compressAttention(c, q, k, v, &mask, &topkMask, 1, mx, sm, out, topk), 0)
        << aclGetRecentErrMsg();
    int64_t qFirst = 0, kFirst = 0;
    for (size_t b = 0; b < 2; ++b) {
      const int64_t S2 = c.cmpLen[b], sel = c.selBlocks(b);
      for (int64_t i = 0; i < c.qLen[b]; ++i) {
        const int64_t row = qFirst + i;
        for (int64_t gk = 0; gk < c.N2; ++gk) {
          std::vector<double> score(static_cast<size_t>(sel), 0.0);
          for (int64_t n = gk * G; n < (gk + 1) * G; ++n) {
            std::vector<double> p(static_cast<size_t>(S2));
            double m = -1e300, sum = 0;
            for (int64_t cc = 0; cc < S2; ++cc) {
              double dot = 0;
              for (int64_t d = 0; d < c.D; ++d)
                dot += q.get((row * c.N1 + n) * c.D + d) * k.get(((kFirst + cc) * c.N2 + gk) * c.D + d);
              p[static_cast<size_t>(cc)] = mask.get(i * 20 + cc) != 0 ? -1e300 : dot * c.scale;
              m = std::max(m, p[static_cast<size_t>(cc)]);
            }
            for (double& x : p) sum += x = x <= -1e299 ? 0.0 : std::exp(x - m);
            for (int64_t d = 0; d < c.Dv; ++d) {
              double want = 0;
              for (int64_t cc = 0; cc < S2; ++cc)
                want += p[static_cast<size_t>(cc)] / sum * v.get(((kFirst + cc) * c.N2 + gk) * c.Dv + d);
              EXPECT_NEAR(out.get((row * c.N1 + n) * c.Dv + d), want, dt == ACL_FLOAT16 ? 4e-3 : 3e-2)
                  << row << " " << n;
            }
            EXPECT_NEAR(mx.get((row * c.N1 + n) * 8 + 7), m, 1e-4);
            EXPECT_NEAR(sm.get((row * c.N1 + n) * 8), sum, 1e-4 * sum);
            for (int64_t j = 0; j < sel; ++j)
              for (int64_t mm = 0; mm < M; ++mm)
                for (int64_t l = 0; l < L; ++l) {
                  const int64_t cc = (j + 1) * M - mm - l;
                  if (cc >= 0 && cc < S2) score[static_cast<size_t>(j)] += p[static_cast<size_t>(cc)] / sum;
                }
          }
          for (int64_t j = 0; j < sel; ++j)
            if (topkMask.get(i * 5 + j) != 0) score[static_cast<size_t>(j)] = 1e30;
          std::vector<double> ranked = score;
          std::sort(ranked.rbegin(), ranked.rend());
          std::vector<int64_t> seen;
          for (int64_t r = 0; r < c.count; ++r) {
            const auto j = static_cast<int64_t>(topk.get((row * c.N2 + gk) * c.count + r));
            ASSERT_GE(j, 0);
            ASSERT_LT(j, sel);
            EXPECT_EQ(std::count(seen.begin(), seen.end(), j), 0) << "block " << j << " chosen twice";
            seen.push_back(j);
            EXPECT_NEAR(score[static_cast<size_t>(j)], ranked[static_cast<size_t>(r)],
                        1e-5 * std::max(1.0, ranked[0]))
                << "row " << row << " rank " << r;
          }
          if (row == 1) {
            EXPECT_EQ(topk.get((row * c.N2 + gk) * c.count), 3);  // the forced block first
          }
        }
      }
      qFirst += c.qLen[b];
      kFirst += S2;
    }
  }
}

// The public example's inputs (ones, 64 compressed keys, l = 32, d = 16, l' = 64, 16 blocks of
// 16 chosen): P = 1/64 everywhere, every block's importance 8/64 per head except the last one's,
// whose index 64 is past the keys (7/64): blocks 0..14 in order, then 15.
TEST(NsaCompressAttention, EqualScoresKeepTheLowerBlockFirst) {
  Compressed c;
  c.N1 = 4;
  c.N2 = 1;
  c.D = 16;
  c.Dv = 16;
  c.count = 16;
  c.qLen = {2};
  c.cmpLen = {64};
  c.scale = 1;
  HostTensorBuf q(ACL_FLOAT16, {2, 4, 16}), k(ACL_FLOAT16, {64, 1, 16}), v(ACL_FLOAT16, {64, 1, 16}),
      mx(ACL_FLOAT, {2, 4, 8}), sm(ACL_FLOAT, {2, 4, 8}), out(ACL_FLOAT16, {2, 4, 16}),
      topk(ACL_INT32, {2, 1, 16});
  for (HostTensorBuf* t : {&q, &k, &v})
    for (int64_t i = 0; i < t->numel(); ++i) t->set(i, 1);
  ASSERT_EQ(compressAttention(c, q, k, v, nullptr, nullptr, 1, mx, sm, out, topk), 0) << aclGetRecentErrMsg();
  for (int64_t i = 0; i < out.numel(); ++i) EXPECT_EQ(out.get(i), 1.0);
  for (int64_t i = 0; i < mx.numel(); ++i) {
    EXPECT_EQ(mx.get(i), 16.0);
    EXPECT_EQ(sm.get(i), 64.0);
  }
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t j = 0; j < 16; ++j) EXPECT_EQ(topk.get(r * 16 + j), j);
}

TEST(NsaCompressAttention, RefusesWhatTheDocExcludes) {
  const Compressed c;
  HostTensorBuf q(ACL_FLOAT16, {8, 4, 32}), k(ACL_FLOAT16, {33, 2, 32}), v(ACL_FLOAT16, {33, 2, 16}),
      mx(ACL_FLOAT, {8, 4, 8}), sm(ACL_FLOAT, {8, 4, 8}), out(ACL_FLOAT16, {8, 4, 16}),
      topk(ACL_INT32, {8, 2, 3}), topk5(ACL_INT32, {8, 2, 5}), smallMask(ACL_BOOL, {4, 20});
  EXPECT_EQ(compressAttention(c, q, k, v, nullptr, nullptr, 1, mx, sm, out, topk), 0) << aclGetRecentErrMsg();
  EXPECT_EQ(compressAttention(c, q, k, v, nullptr, nullptr, 2, mx, sm, out, topk), 161002);  // sparse mode 2
  EXPECT_EQ(compressAttention(c, q, k, v, nullptr, nullptr, 1, mx, sm, out, topk, "BSND"), 161002);
  EXPECT_EQ(compressAttention(c, q, k, v, &smallMask, nullptr, 1, mx, sm, out, topk),
            161002);  // 4 < max S1 5
  Compressed wide = c;
  wide.count = 5;  // more than the 4 select blocks of batch 1
  EXPECT_EQ(compressAttention(wide, q, k, v, nullptr, nullptr, 1, mx, sm, out, topk5), 161002);
  Compressed odd = c;
  odd.stride = 24;
  EXPECT_EQ(compressAttention(odd, q, k, v, nullptr, nullptr, 1, mx, sm, out, topk), 161002);
  HostTensorBuf q32(ACL_FLOAT, {8, 4, 32});
  EXPECT_EQ(compressAttention(c, q32, k, v, nullptr, nullptr, 1, mx, sm, out, topk), 161002);
  std::vector<int64_t> e{5, 8};
  aclIntArray* a = aclCreateIntArray(e.data(), 2);
  char l[] = "TND";
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnNsaCompressAttentionGetWorkspaceSize(q.get(), k.get(), v.get(), nullptr, nullptr, a, nullptr,
                                                      a, 0.2, 4, l, 1, 32, 16, 64, 3, mx.get(), sm.get(),
                                                      out.get(), topk.get(), &ws, &ex),
            161001);
  aclDestroyIntArray(a);
}

namespace {

// Copies packed compressed keys/values ([T2, N2, D]) of c's batches into pages of P rows
// ([blockNum, P, N2 * D] keys, [blockNum, P, N2, Dv] values) and fills the block table.
void pageKeys(const Compressed& c, int64_t P, const std::vector<std::vector<int32_t>>& pages,
              HostTensorBuf& k, HostTensorBuf& v, HostTensorBuf& kPages, HostTensorBuf& vPages,
              HostTensorBuf& table) {
  int64_t first = 0;
  const int64_t perBatch = table.shape()[1];
  for (size_t b = 0; b < c.cmpLen.size(); ++b) {
    for (int64_t cc = 0; cc < c.cmpLen[b]; ++cc) {
      const int64_t row = pages[b][static_cast<size_t>(cc / P)] * P + cc % P;
      for (int64_t e = 0; e < c.N2 * c.D; ++e)
        kPages.set(row * c.N2 * c.D + e, k.get((first + cc) * c.N2 * c.D + e));
      for (int64_t e = 0; e < c.N2 * c.Dv; ++e)
        vPages.set(row * c.N2 * c.Dv + e, v.get((first + cc) * c.N2 * c.Dv + e));
    }
    for (int64_t p = 0; p < perBatch; ++p)
      table.set(static_cast<int64_t>(b) * perBatch + p, pages[b][static_cast<size_t>(p)]);
    first += c.cmpLen[b];
  }
}

}  // namespace

// The inference form over a paged cache against the training form (checked above against the
// definition) on the same keys packed: 2 batches of one query over 40 and 30 compressed keys in
// pages of 16 (batch 0 on pages 3, 0, 5; batch 1 on pages 4, 1), TND and BSND queries, keys as
// [blockNum, 16, N2 * D] pages. The outputs are equal; the inference kernel scores
// CeilDiv((CmpSkv - 1) * 16 + 32, 64) = 11 and 8 select blocks and always chooses the first and
// the last two, then the best others: the training form's order without those.
TEST(NsaCompressAttentionInfer, PagedCacheAndTheForcedBlocks) {
  std::mt19937 g(50);
  Compressed c;
  c.qLen = {1, 1};
  c.cmpLen = {40, 30};
  c.count = 8;  // the training form ranks 8 of its 10 and 8 blocks
  const int64_t P = 16, T2 = 70, count = 5;
  const std::vector<int64_t> inferBlocks{11, 8};
  const std::vector<std::vector<int32_t>> pages{{3, 0, 5}, {4, 1, 2}};
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf q(dt, {2, c.N1, c.D}), k(dt, {T2, c.N2, c.D}), v(dt, {T2, c.N2, c.Dv}),
        mx(ACL_FLOAT, {2, c.N1, 8}), sm(ACL_FLOAT, {2, c.N1, 8}), out(dt, {2, c.N1, c.Dv}),
        topk(ACL_INT32, {2, c.N2, c.count}), kPages(dt, {6, P, c.N2 * c.D}), vPages(dt, {6, P, c.N2, c.Dv}),
        table(ACL_INT32, {2, 3});
    q.fillRandom(g, -1, 1);
    k.fillRandom(g, -1, 1);
    v.fillRandom(g, -1, 1);
    ASSERT_EQ(compressAttention(c, q, k, v, nullptr, nullptr, 1, mx, sm, out, topk), 0)
        << aclGetRecentErrMsg();
    pageKeys(c, P, pages, k, v, kPages, vPages, table);
    for (const char* layout : {"TND", "BSND"}) {
      const bool tnd = std::string(layout) == "TND";
      HostTensorBuf qi(dt, tnd ? std::vector<int64_t>{2, c.N1, c.D} : std::vector<int64_t>{2, 1, c.N1, c.D}),
          oi(dt, tnd ? std::vector<int64_t>{2, c.N1, c.Dv} : std::vector<int64_t>{2, 1, c.N1, c.Dv}),
          ti(ACL_INT32, tnd ? std::vector<int64_t>{2, c.N2, count} : std::vector<int64_t>{2, 1, c.N2, count});
      for (int64_t e = 0; e < q.numel(); ++e) qi.set(e, q.get(e));
      aclIntArray* cmp = aclCreateIntArray(c.cmpLen.data(), 2);
      std::string l = layout;
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnNsaCompressAttentionInferGetWorkspaceSize(
                      qi.get(), kPages.get(), vPages.get(), nullptr, table.get(), nullptr, cmp, nullptr,
                      nullptr, c.N1, c.N2, c.sel, count, c.block, c.stride, c.scale, l.data(), P, 0, oi.get(),
                      ti.get(), ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      aclDestroyIntArray(cmp);
      for (int64_t e = 0; e < out.numel(); ++e) EXPECT_EQ(oi.get(e), out.get(e)) << layout << " " << e;
      for (int64_t b = 0; b < 2; ++b)
        for (int64_t gk = 0; gk < c.N2; ++gk) {
          const int64_t last = inferBlocks[static_cast<size_t>(b)] - 1;
          std::vector<int64_t> want{0, last - 1, last};
          for (int64_t r = 0; r < c.count && static_cast<int64_t>(want.size()) < count; ++r) {
            const auto j = static_cast<int64_t>(topk.get((b * c.N2 + gk) * c.count + r));
            if (std::count(want.begin(), want.end(), j) == 0) want.push_back(j);
          }
          for (int64_t r = 0; r < count; ++r)
            EXPECT_EQ(ti.get((b * c.N2 + gk) * count + r), want[static_cast<size_t>(r)])
                << layout << " " << b << " " << r;
        }
    }
  }
}

TEST(NsaCompressAttentionInfer, RefusesWhatTheDocExcludes) {
  HostTensorBuf q(ACL_FLOAT16, {1, 4, 32}), k(ACL_FLOAT16, {2, 16, 64}), v(ACL_FLOAT16, {2, 16, 32}),
      table(ACL_INT32, {1, 2}), out(ACL_FLOAT16, {1, 4, 16}), topk(ACL_INT32, {1, 2, 3});
  auto call = [&](const aclTensor* tbl, std::vector<int64_t> cmpLen, const aclIntArray* seqQ, int64_t page,
                  int64_t stride) {
    aclIntArray* cmp = aclCreateIntArray(cmpLen.data(), cmpLen.size());
    char l[] = "TND";
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    const int st = aclnnNsaCompressAttentionInferGetWorkspaceSize(
        q.get(), k.get(), v.get(), nullptr, tbl, seqQ, cmp, nullptr, nullptr, 4, 2, 64, 3, 32, stride, 0.2, l,
        page, 0, out.get(), topk.get(), &ws, &ex);
    aclDestroyIntArray(cmp);
    if (st == 0) aclDestroyAclOpExecutor(ex);
    return st;
  };
  const std::vector<int64_t> two{2};
  aclIntArray* multi = aclCreateIntArray(two.data(), 1);
  EXPECT_EQ(call(table.get(), {20}, nullptr, 16, 16), 0) << aclGetRecentErrMsg();
  EXPECT_EQ(call(nullptr, {20}, nullptr, 16, 16), 161001);      // the paged cache only
  EXPECT_EQ(call(table.get(), {40}, nullptr, 16, 16), 161002);  // more keys than its 2 pages of 16
  EXPECT_EQ(call(table.get(), {8}, nullptr, 16, 16),
            161002);  // 8 keys cover 144 tokens: 2 whole blocks < count 3
  EXPECT_EQ(call(table.get(), {20}, multi, 16, 16), 161002);    // multi-token inference
  EXPECT_EQ(call(table.get(), {20}, nullptr, 32, 16), 161002);  // pages of 16, not 32
  EXPECT_EQ(call(table.get(), {20}, nullptr, 16, 24), 161002);  // stride 24
  aclDestroyIntArray(multi);
}

// No queries (one sequence of 0 queries over 64 keys): the forward writes nothing and succeeds,
// the backward gives dk = dv = 0 (no query selected any key).
TEST(NsaSelectedAttentionGrad, NoQueriesGiveZeroKeyGradients) {
  std::mt19937 g(51);
  Sparse p = problem(2, 1, 2, 0.3, {0}, {64});
  SparseTensors t(p, ACL_FLOAT16, g);
  HostTensorBuf mx(ACL_FLOAT, {0, 2, 8}), sm(ACL_FLOAT, {0, 2, 8}), out(ACL_FLOAT16, {0, 2, 128}),
      dy(ACL_FLOAT16, {0, 2, 128}), dq(ACL_FLOAT16, {0, 2, 192}), dk(ACL_FLOAT16, {64, 1, 192}),
      dv(ACL_FLOAT16, {64, 1, 128});
  ASSERT_EQ(selectedForward(p, t, nullptr, 0, mx, sm, out), 0) << aclGetRecentErrMsg();
  for (int64_t i = 0; i < dk.numel(); ++i) dk.set(i, 5);
  for (int64_t i = 0; i < dv.numel(); ++i) dv.set(i, 5);
  std::vector<int64_t> qe{0}, kve{64};
  aclIntArray* sq = aclCreateIntArray(qe.data(), 1);
  aclIntArray* skv = aclCreateIntArray(kve.data(), 1);
  char l[] = "TND";
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnNsaSelectedAttentionGradGetWorkspaceSize(
                  t.q.get(), t.k.get(), t.v.get(), out.get(), dy.get(), mx.get(), sm.get(), t.idx.get(), sq,
                  skv, nullptr, p.scale, p.bs, p.count, p.N1, l, 0, dq.get(), dk.get(), dv.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  aclDestroyIntArray(sq);
  aclDestroyIntArray(skv);
  for (int64_t i = 0; i < dk.numel(); ++i) EXPECT_EQ(dk.get(i), 0.0) << i;
  for (int64_t i = 0; i < dv.numel(); ++i) EXPECT_EQ(dv.get(i), 0.0) << i;
}

// Several queries per batch (3 and 1, TND): the mask's presence hides the last compressed key
// from the queries whose later tokens reach past the compressed windows, here the first two of
// batch 0 (its 20 keys cover all 336 tokens); the outputs equal the training form's with a mask
// hiding exactly those, and without a mask the training form's without one.
TEST(NsaCompressAttentionInfer, SeveralQueriesAndTheLastCompressedKey) {
  std::mt19937 g(52);
  Compressed c;
  c.qLen = {3, 1};
  const int64_t P = 16, T2 = 33;
  const std::vector<std::vector<int32_t>> pages{{3, 0}, {4, 1}};
  HostTensorBuf q(ACL_FLOAT16, {4, c.N1, c.D}), k(ACL_FLOAT16, {T2, c.N2, c.D}),
      v(ACL_FLOAT16, {T2, c.N2, c.Dv}), mx(ACL_FLOAT, {4, c.N1, 8}), sm(ACL_FLOAT, {4, c.N1, 8}),
      out(ACL_FLOAT16, {4, c.N1, c.Dv}), topk(ACL_INT32, {4, c.N2, c.count}),
      kPages(ACL_FLOAT16, {5, P, c.N2 * c.D}), vPages(ACL_FLOAT16, {5, P, c.N2, c.Dv}),
      table(ACL_INT32, {2, 2}), mask(ACL_BOOL, {3, 20}), oi(ACL_FLOAT16, {4, c.N1, c.Dv}),
      ti(ACL_INT32, {4, c.N2, 3}), anyMask(ACL_BOOL, {4, 4});
  q.fillRandom(g, -1, 1);
  k.fillRandom(g, -1, 1);
  v.fillRandom(g, -1, 1);
  pageKeys(c, P, pages, k, v, kPages, vPages, table);
  const std::vector<int64_t> qCounts{3, 1}, sel{(20 - 1) * 16 + 32, (13 - 1) * 16 + 32};
  aclIntArray* sq = aclCreateIntArray(qCounts.data(), 2);
  aclIntArray* scmp = aclCreateIntArray(c.cmpLen.data(), 2);
  aclIntArray* ssel = aclCreateIntArray(sel.data(), 2);
  for (bool masked : {true, false}) {
    for (int64_t i = 0; i < mask.numel(); ++i) mask.set(i, 0);
    if (masked) {
      mask.set(0 * 20 + 19, 1);
      mask.set(1 * 20 + 19, 1);
    }
    ASSERT_EQ(compressAttention(c, q, k, v, &mask, nullptr, 1, mx, sm, out, topk), 0) << aclGetRecentErrMsg();
    char l[] = "TND";
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnNsaCompressAttentionInferGetWorkspaceSize(
                    q.get(), kPages.get(), vPages.get(), masked ? anyMask.get() : nullptr, table.get(), sq,
                    scmp, ssel, nullptr, c.N1, c.N2, c.sel, 3, c.block, c.stride, c.scale, l, P, 0, oi.get(),
                    ti.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t e = 0; e < out.numel(); ++e)
      EXPECT_EQ(oi.get(e), out.get(e)) << (masked ? "masked " : "") << e;
  }
  aclDestroyIntArray(sq);
  aclDestroyIntArray(scmp);
  aclDestroyIntArray(ssel);
}

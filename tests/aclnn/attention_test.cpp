// The attention entry points built on the flash-attention engine (aclnnPromptFlashAttentionV3,
// aclnnIncreFlashAttentionV4, aclnnFusedInferAttentionScoreV4, aclnnFlashAttentionVarLenScoreV4),
// run on host memory against a double-precision definition written here: BNSD and BSH layouts,
// grouped key/value heads, no mask (preTokens/nextTokens ignored) and causal, fp16/bf16; the
// public example's values, the "not simulated" refusals and the work charged.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_flash_attention_score.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v4.h"
#include "aclnnop/aclnn_incre_flash_attention_v4.h"
#include "aclnnop/aclnn_prompt_flash_attention_v3.h"
#include "runtime/aclnn/ops/registry.h"

using namespace aclnn_test;

namespace {

// Element (b, n, s, d) of a BNSD tensor or of a BSH one (H = heads * D).
struct Layout {
  bool bnsd;
  int64_t S, N, D;
  int64_t at(int64_t b, int64_t n, int64_t s, int64_t d) const {
    return bnsd ? ((b * N + n) * S + s) * D + d : ((b * S + s) * N + n) * D + d;
  }
};

// softmax(scale q k^T) v for one (b, n); causal from the bottom right when `causal`.
std::vector<double> reference(HostTensorBuf& q, HostTensorBuf& k, HostTensorBuf& v, const Layout& lq,
                              const Layout& lk, int64_t B, double scale, bool causal) {
  std::vector<double> out(static_cast<size_t>(q.numel()));
  const int64_t group = lq.N / lk.N;
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t n = 0; n < lq.N; ++n) {
      for (int64_t i = 0; i < lq.S; ++i) {
        const int64_t last = causal ? i + (lk.S - lq.S) : lk.S - 1;
        std::vector<double> p(static_cast<size_t>(lk.S), 0.0);
        double mx = -1e300, sum = 0;
        for (int64_t j = 0; j <= last; ++j) {
          double s = 0;
          for (int64_t d = 0; d < lq.D; ++d) s += q.get(lq.at(b, n, i, d)) * k.get(lk.at(b, n / group, j, d));
          p[static_cast<size_t>(j)] = s * scale;
          mx = std::max(mx, s * scale);
        }
        for (int64_t j = 0; j <= last; ++j)
          sum += (p[static_cast<size_t>(j)] = std::exp(p[static_cast<size_t>(j)] - mx));
        for (int64_t d = 0; d < lq.D; ++d) {
          double o = 0;
          for (int64_t j = 0; j <= last; ++j)
            o += p[static_cast<size_t>(j)] / sum * v.get(lk.at(b, n / group, j, d));
          out[static_cast<size_t>(lq.at(b, n, i, d))] = o;
        }
      }
    }
  }
  return out;
}

int pfa(HostTensorBuf& q, HostTensorBuf& k, HostTensorBuf& v, aclTensor* mask, int64_t heads, int64_t kvHeads,
        double scale, const char* layout, int64_t sparse, HostTensorBuf& out,
        const aclIntArray* seqLens = nullptr, const aclTensor* quantScale = nullptr) {
  std::string l = layout;
  return run([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnPromptFlashAttentionV3GetWorkspaceSize(
        q.get(), k.get(), v.get(), nullptr, mask, seqLens, nullptr, nullptr, nullptr, nullptr, quantScale,
        nullptr, heads, scale, 0, 0, l.data(), kvHeads, sparse, 1, out.get(), ws, ex);
  });
}

double attnTol(aclDataType dt) { return dt == ACL_FLOAT16 ? 4e-3 : 3e-2; }

}  // namespace

TEST(Attention, PromptFlashAttentionBnsdGroupedNoMask) {
  std::mt19937 g(31);
  const int64_t B = 2, S1 = 7, S2 = 11, N = 4, Nkv = 2, D = 16;
  const double scale = 1 / std::sqrt(static_cast<double>(D));
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf q(dt, {B, N, S1, D}), k(dt, {B, Nkv, S2, D}), v(dt, {B, Nkv, S2, D}), o(dt, {B, N, S1, D});
    q.fillRandom(g, -1, 1);
    k.fillRandom(g, -1, 1);
    v.fillRandom(g, -1, 1);
    // preTokens = nextTokens = 0 are passed: sparse mode 0 without a mask ignores them.
    ASSERT_EQ(pfa(q, k, v, nullptr, N, Nkv, scale, "BNSD", 0, o), 0) << aclGetRecentErrMsg();
    const std::vector<double> want =
        reference(q, k, v, {true, S1, N, D}, {true, S2, Nkv, D}, B, scale, false);
    for (int64_t i = 0; i < o.numel(); ++i)
      EXPECT_NEAR(o.get(i), want[static_cast<size_t>(i)], attnTol(dt)) << i;
  }
}

TEST(Attention, PromptFlashAttentionBshCausal) {
  std::mt19937 g(32);
  const int64_t B = 1, S = 9, N = 2, D = 8;
  const double scale = 0.3;
  HostTensorBuf q(ACL_FLOAT16, {B, S, N * D}), k(ACL_FLOAT16, {B, S, N * D}), v(ACL_FLOAT16, {B, S, N * D}),
      o(ACL_FLOAT16, {B, S, N * D}), mask(ACL_BOOL, {2048, 2048});
  q.fillRandom(g, -1, 1);
  k.fillRandom(g, -1, 1);
  v.fillRandom(g, -1, 1);
  ASSERT_EQ(pfa(q, k, v, mask.get(), N, 0, scale, "BSH", 3, o), 0) << aclGetRecentErrMsg();
  const std::vector<double> want = reference(q, k, v, {false, S, N, D}, {false, S, N, D}, B, scale, true);
  for (int64_t i = 0; i < o.numel(); ++i) EXPECT_NEAR(o.get(i), want[static_cast<size_t>(i)], 4e-3) << i;
  // Row 0 sees key 0 only: its output is v's first row.
  for (int64_t d = 0; d < N * D; ++d) EXPECT_EQ(o.get(d), v.get(d));
}

TEST(Attention, PromptFlashAttentionPublicExampleValues) {
  // ops-transformer's example: ones in BNSD [1, 2, 1, 16] against 2 keys, scale 1/sqrt(2): ones out.
  HostTensorBuf q(ACL_FLOAT16, {1, 2, 1, 16}), k(ACL_FLOAT16, {1, 2, 2, 16}), v(ACL_FLOAT16, {1, 2, 2, 16}),
      o(ACL_FLOAT16, {1, 2, 1, 16});
  for (int64_t i = 0; i < 32; ++i) q.set(i, 1);
  for (int64_t i = 0; i < 64; ++i) k.set(i, 1), v.set(i, 1);
  ASSERT_EQ(pfa(q, k, v, nullptr, 2, 2, 1 / std::sqrt(2.0), "BNSD", 0, o), 0) << aclGetRecentErrMsg();
  for (int64_t i = 0; i < 32; ++i) EXPECT_EQ(o.get(i), 1.0) << i;
}

TEST(Attention, PromptFlashAttentionRefusesWhatIsNotSimulated) {
  HostTensorBuf q(ACL_FLOAT16, {1, 2, 4, 16}), k(ACL_FLOAT16, {1, 2, 4, 16}), v(ACL_FLOAT16, {1, 2, 4, 16}),
      o(ACL_FLOAT16, {1, 2, 4, 16}), q32(ACL_FLOAT, {1, 2, 4, 16}), k32(ACL_FLOAT, {1, 2, 4, 16}),
      v32(ACL_FLOAT, {1, 2, 4, 16}), o32(ACL_FLOAT, {1, 2, 4, 16}), scaleT(ACL_FLOAT, {1});
  const int64_t lens[] = {4};
  aclIntArray* seq = aclCreateIntArray(lens, 1);
  EXPECT_EQ(pfa(q, k, v, nullptr, 2, 2, 1.0, "BNSD", 0, o, seq), 161002);                    // actual lengths
  EXPECT_EQ(pfa(q, k, v, nullptr, 2, 2, 1.0, "BNSD", 0, o, nullptr, scaleT.get()), 161002);  // quantisation
  EXPECT_EQ(pfa(q32, k32, v32, nullptr, 2, 2, 1.0, "BNSD", 0, o32), 161002);                 // fp32
  EXPECT_EQ(pfa(q, k, v, nullptr, 2, 1, 1.0, "BNSD", 0, o), 161002);  // kv heads != key's 2
  EXPECT_EQ(pfa(q, k, v, nullptr, 2, 2, 1.0, "BNSD", 4, o), 161002);  // band mode 4
  EXPECT_EQ(pfa(q, k, v, nullptr, 2, 2, 1.0, "TND", 0, o), 161002);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              char l[] = "BNSD";
              return aclnnPromptFlashAttentionV3GetWorkspaceSize(
                  q.get(), k.get(), v.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                  nullptr, nullptr, 2, 1.0, 0, 0, l, 2, 0, 1, nullptr, ws, ex);
            }),
            161001);
  aclDestroyIntArray(seq);
}

// PromptFlashAttention charges what FlashAttentionScore charges for the same problem, less the
// softmax statistics it does not write.
TEST(Attention, PromptFlashAttentionCostMatchesTheEngine) {
  const int64_t B = 1, N = 8, S = 512, D = 128;
  HostTensorBuf q(ACL_FLOAT16, {B, N, S, D}), k(ACL_FLOAT16, {B, N, S, D}), v(ACL_FLOAT16, {B, N, S, D}),
      o(ACL_FLOAT16, {B, N, S, D}), mx(ACL_FLOAT, {B, N, S, 8}), sm(ACL_FLOAT, {B, N, S, 8});
  char l1[] = "BNSD", l2[] = "BNSD";
  uint64_t ws = 0;
  aclOpExecutor *ePfa = nullptr, *eFas = nullptr;
  ASSERT_EQ(aclnnPromptFlashAttentionV3GetWorkspaceSize(
                q.get(), k.get(), v.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                nullptr, nullptr, N, 0.1, INT_MAX, INT_MAX, l1, N, 0, 1, o.get(), &ws, &ePfa),
            0);
  ASSERT_EQ(aclnnFlashAttentionScoreGetWorkspaceSize(q.get(), k.get(), v.get(), nullptr, nullptr, nullptr,
                                                     nullptr, nullptr, 0.1, 1.0, INT_MAX, INT_MAX, N, l2, 0,
                                                     0, mx.get(), sm.get(), nullptr, o.get(), &ws, &eFas),
            0);
  const Charged p = chargedBytes(ePfa), f = chargedBytes(eFas);
  EXPECT_EQ(p.read, f.read);
  EXPECT_EQ(p.written, static_cast<uint64_t>(B * N * S * D * 2));
  EXPECT_EQ(f.written, p.written + static_cast<uint64_t>(2 * B * N * S * 8 * 4));
}

namespace {

// aclnnIncreFlashAttentionV4 with the cache as one-tensor lists; `lens` optional.
int ifa(HostTensorBuf& q, HostTensorBuf& k, HostTensorBuf& v, aclTensor* mask,
        const std::vector<int64_t>* lens, int64_t heads, int64_t kvHeads, double scale, const char* layout,
        HostTensorBuf& out, int listLength = 1) {
  std::vector<const aclTensor*> ks, vs;
  for (int i = 0; i < listLength; ++i) ks.push_back(listHandle(k)), vs.push_back(listHandle(v));
  aclTensorList* kl = aclCreateTensorList(ks.data(), ks.size());
  aclTensorList* vl = aclCreateTensorList(vs.data(), vs.size());
  aclIntArray* la = lens != nullptr ? aclCreateIntArray(lens->data(), lens->size()) : nullptr;
  std::string l = layout;
  const int st = run([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnIncreFlashAttentionV4GetWorkspaceSize(
        q.get(), kl, vl, nullptr, mask, la, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
        nullptr, nullptr, heads, scale, l.data(), kvHeads, 0, 1, out.get(), ws, ex);
  });
  aclDestroyTensorList(kl);
  aclDestroyTensorList(vl);
  if (la != nullptr) aclDestroyIntArray(la);
  return st;
}

}  // namespace

TEST(Attention, IncreFlashAttentionDecodesOverTheCache) {
  std::mt19937 g(33);
  const int64_t B = 2, S2 = 13, N = 4, Nkv = 1, D = 16;
  const double scale = 1 / std::sqrt(static_cast<double>(D));
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf q(dt, {B, 1, N * D}), k(dt, {B, S2, Nkv * D}), v(dt, {B, S2, Nkv * D}),
        o(dt, {B, 1, N * D});
    q.fillRandom(g, -1, 1);
    k.fillRandom(g, -1, 1);
    v.fillRandom(g, -1, 1);
    const std::vector<int64_t> lens{S2, S2};
    ASSERT_EQ(ifa(q, k, v, nullptr, &lens, N, Nkv, scale, "BSH", o), 0) << aclGetRecentErrMsg();
    const std::vector<double> want =
        reference(q, k, v, {false, 1, N, D}, {false, S2, Nkv, D}, B, scale, false);
    for (int64_t i = 0; i < o.numel(); ++i)
      EXPECT_NEAR(o.get(i), want[static_cast<size_t>(i)], attnTol(dt)) << i;
  }
  // An int8 mask [B, 1, 1, S2] hiding every key but the last: the output is the last value row.
  HostTensorBuf q(ACL_FLOAT16, {B, N, 1, D}), k(ACL_FLOAT16, {B, N, S2, D}), v(ACL_FLOAT16, {B, N, S2, D}),
      o(ACL_FLOAT16, {B, N, 1, D}), mask(ACL_INT8, {B, 1, 1, S2});
  q.fillRandom(g, -1, 1);
  k.fillRandom(g, -1, 1);
  v.fillRandom(g, -1, 1);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t j = 0; j < S2; ++j) mask.set(b * S2 + j, j + 1 < S2 ? 1 : 0);
  ASSERT_EQ(ifa(q, k, v, mask.get(), nullptr, N, N, scale, "BNSD", o), 0) << aclGetRecentErrMsg();
  for (int64_t b = 0; b < B; ++b)
    for (int64_t n = 0; n < N; ++n)
      for (int64_t d = 0; d < D; ++d)
        EXPECT_EQ(o.get((b * N + n) * D + d), v.get(((b * N + n) * S2 + S2 - 1) * D + d));
}

TEST(Attention, IncreFlashAttentionRefusesWhatIsNotSimulated) {
  HostTensorBuf q(ACL_FLOAT16, {1, 2, 1, 16}), k(ACL_FLOAT16, {1, 2, 4, 16}), v(ACL_FLOAT16, {1, 2, 4, 16}),
      o(ACL_FLOAT16, {1, 2, 1, 16});
  const std::vector<int64_t> shorter{3};
  EXPECT_EQ(ifa(q, k, v, nullptr, &shorter, 2, 2, 1.0, "BNSD", o), 161002);    // actual length < cache
  EXPECT_EQ(ifa(q, k, v, nullptr, nullptr, 2, 2, 1.0, "BNSD", o, 2), 161002);  // per-batch list
  EXPECT_EQ(ifa(q, k, v, nullptr, nullptr, 2, 1, 1.0, "BNSD", o), 161002);     // kv heads != key's 2
  char l[] = "BNSD";
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnIncreFlashAttentionV4GetWorkspaceSize(
                q.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                nullptr, nullptr, nullptr, nullptr, nullptr, 2, 1.0, l, 2, 0, 1, o.get(), &ws, &ex),
            161001);
}

namespace {

struct FiaOptions {
  aclTensor* mask = nullptr;
  const std::vector<int64_t>* qLens = nullptr;
  const aclTensor* learnableSink = nullptr;
  int64_t sparseMode = 0, preTokens = 0, nextTokens = 0, antiquantMode = 0;
  bool softmaxLseFlag = false;
};

int fia(HostTensorBuf& q, HostTensorBuf& k, HostTensorBuf& v, int64_t heads, int64_t kvHeads, double scale,
        const char* layout, HostTensorBuf& out, const FiaOptions& o = {}) {
  const aclTensor* ks[] = {listHandle(k)};
  const aclTensor* vs[] = {listHandle(v)};
  aclTensorList* kl = aclCreateTensorList(ks, 1);
  aclTensorList* vl = aclCreateTensorList(vs, 1);
  aclIntArray* ql = o.qLens != nullptr ? aclCreateIntArray(o.qLens->data(), o.qLens->size()) : nullptr;
  std::string l = layout;
  const int st = run([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnFusedInferAttentionScoreV4GetWorkspaceSize(
        q.get(), kl, vl, nullptr, o.mask, ql, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
        nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
        nullptr, nullptr, nullptr, nullptr, o.learnableSink, heads, scale, o.preTokens, o.nextTokens,
        l.data(), kvHeads, o.sparseMode, 1, 0, o.antiquantMode, o.softmaxLseFlag, 0, 0, 0, out.get(), nullptr,
        ws, ex);
  });
  aclDestroyTensorList(kl);
  aclDestroyTensorList(vl);
  if (ql != nullptr) aclDestroyIntArray(ql);
  return st;
}

}  // namespace

TEST(Attention, FusedInferAttentionScorePromptAndDecode) {
  std::mt19937 g(34);
  const int64_t B = 2, S = 6, N = 2, D = 16;
  const double scale = 0.25;
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    // Prompt, BSND, causal through sparse mode 3 and its compressed mask, actual lengths = S.
    HostTensorBuf q(dt, {B, S, N, D}), k(dt, {B, S, N, D}), v(dt, {B, S, N, D}), o(dt, {B, S, N, D}),
        mask(ACL_BOOL, {2048, 2048});
    q.fillRandom(g, -1, 1);
    k.fillRandom(g, -1, 1);
    v.fillRandom(g, -1, 1);
    const std::vector<int64_t> lens{S, S};
    FiaOptions opt;
    opt.mask = mask.get();
    opt.sparseMode = 3;
    opt.qLens = &lens;
    ASSERT_EQ(fia(q, k, v, N, N, scale, "BSND", o, opt), 0) << aclGetRecentErrMsg();
    std::vector<double> want = reference(q, k, v, {false, S, N, D}, {false, S, N, D}, B, scale, true);
    for (int64_t i = 0; i < o.numel(); ++i)
      EXPECT_NEAR(o.get(i), want[static_cast<size_t>(i)], attnTol(dt)) << i;
    // Decode, BNSD, one query token over the whole cache (no mask: pre/nextTokens 0 are ignored).
    HostTensorBuf q1(dt, {B, N, 1, D}), k1(dt, {B, N, S, D}), v1(dt, {B, N, S, D}), o1(dt, {B, N, 1, D});
    q1.fillRandom(g, -1, 1);
    k1.fillRandom(g, -1, 1);
    v1.fillRandom(g, -1, 1);
    ASSERT_EQ(fia(q1, k1, v1, N, N, scale, "BNSD", o1), 0) << aclGetRecentErrMsg();
    want = reference(q1, k1, v1, {true, 1, N, D}, {true, S, N, D}, B, scale, false);
    for (int64_t i = 0; i < o1.numel(); ++i)
      EXPECT_NEAR(o1.get(i), want[static_cast<size_t>(i)], attnTol(dt)) << i;
  }
}

TEST(Attention, FusedInferAttentionScoreRefusesWhatIsNotSimulated) {
  HostTensorBuf q(ACL_FLOAT16, {1, 2, 1, 16}), k(ACL_FLOAT16, {1, 2, 4, 16}), v(ACL_FLOAT16, {1, 2, 4, 16}),
      o(ACL_FLOAT16, {1, 2, 1, 16}), sink(ACL_FLOAT, {2});
  FiaOptions lse;
  lse.softmaxLseFlag = true;
  EXPECT_EQ(fia(q, k, v, 2, 2, 1.0, "BNSD", o, lse), 161002);
  FiaOptions anti;
  anti.antiquantMode = 1;
  EXPECT_EQ(fia(q, k, v, 2, 2, 1.0, "BNSD", o, anti), 161002);
  FiaOptions sinkOpt;
  sinkOpt.learnableSink = sink.get();
  EXPECT_EQ(fia(q, k, v, 2, 2, 1.0, "BNSD", o, sinkOpt), 161002);
  const std::vector<int64_t> longer{2};
  FiaOptions lens;
  lens.qLens = &longer;  // the query has 1 token
  EXPECT_EQ(fia(q, k, v, 2, 2, 1.0, "BNSD", o, lens), 161002);
  FiaOptions band;
  band.sparseMode = 4;
  EXPECT_EQ(fia(q, k, v, 2, 2, 1.0, "BNSD", o, band), 161002);
  // The public example: ones in BNSD [1, 2, 1, 16] over 2 keys: ones out.
  HostTensorBuf q1(ACL_FLOAT16, {1, 2, 1, 16}), k1(ACL_FLOAT16, {1, 2, 2, 16}),
      v1(ACL_FLOAT16, {1, 2, 2, 16}), o1(ACL_FLOAT16, {1, 2, 1, 16});
  for (int64_t i = 0; i < 32; ++i) q1.set(i, 1);
  for (int64_t i = 0; i < 64; ++i) k1.set(i, 1), v1.set(i, 1);
  ASSERT_EQ(fia(q1, k1, v1, 2, 2, 1 / std::sqrt(2.0), "BNSD", o1), 0) << aclGetRecentErrMsg();
  for (int64_t i = 0; i < 32; ++i) EXPECT_EQ(o1.get(i), 1.0) << i;
}

// One TND sequence through VarLenScoreV4 gives FlashAttentionScore's BSND results on the same
// bytes (B = 1), the statistics in the requested layout.
TEST(Attention, FlashAttentionVarLenOneSequenceIsBsnd) {
  std::mt19937 g(35);
  const int64_t T = 10, N = 2, D = 16;
  HostTensorBuf q(ACL_FLOAT16, {T, N, D}), k(ACL_FLOAT16, {T, N, D}), v(ACL_FLOAT16, {T, N, D}),
      o(ACL_FLOAT16, {T, N, D}), mx(ACL_FLOAT, {T, N, 8}), sm(ACL_FLOAT, {T, N, 8}),
      mxN(ACL_FLOAT, {N, T, 8}), smN(ACL_FLOAT, {N, T, 8}), mask(ACL_BOOL, {2048, 2048});
  q.fillRandom(g, -1, 1);
  k.fillRandom(g, -1, 1);
  v.fillRandom(g, -1, 1);
  HostTensorBuf q4(ACL_FLOAT16, {1, T, N, D}), k4(ACL_FLOAT16, {1, T, N, D}), v4(ACL_FLOAT16, {1, T, N, D}),
      o4(ACL_FLOAT16, {1, T, N, D}), mx4(ACL_FLOAT, {1, N, T, 8}), sm4(ACL_FLOAT, {1, N, T, 8});
  for (int64_t i = 0; i < q.numel(); ++i) q4.set(i, q.get(i)), k4.set(i, k.get(i)), v4.set(i, v.get(i));
  const std::vector<int64_t> lens{T};
  aclIntArray* sq = aclCreateIntArray(lens.data(), 1);
  aclIntArray* skv = aclCreateIntArray(lens.data(), 1);
  auto varlen = [&](const char* statLayout, HostTensorBuf& m, HostTensorBuf& s, const char* layout) {
    std::string l = layout, sl = statLayout;
    return run([&](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnFlashAttentionVarLenScoreV4GetWorkspaceSize(
          q.get(), k.get(), v.get(), nullptr, nullptr, nullptr, mask.get(), nullptr, sq, skv, 0.25, 1.0,
          INT_MAX, INT_MAX, N, l.data(), 0, 3, sl.data(), m.get(), s.get(), nullptr, o.get(), ws, ex);
    });
  };
  ASSERT_EQ(varlen("same_as_input", mx, sm, "TND"), 0) << aclGetRecentErrMsg();
  char bsnd[] = "BSND";
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFlashAttentionScoreGetWorkspaceSize(
                  q4.get(), k4.get(), v4.get(), nullptr, nullptr, nullptr, mask.get(), nullptr, 0.25, 1.0,
                  INT_MAX, INT_MAX, N, bsnd, 0, 3, mx4.get(), sm4.get(), nullptr, o4.get(), ws, ex);
            }),
            0);
  for (int64_t i = 0; i < o.numel(); ++i) EXPECT_EQ(o.get(i), o4.get(i)) << i;
  for (int64_t t = 0; t < T; ++t)
    for (int64_t n = 0; n < N; ++n)
      for (int64_t e = 0; e < 8; ++e) {
        EXPECT_EQ(mx.get((t * N + n) * 8 + e), mx4.get((n * T + t) * 8 + e));
        EXPECT_EQ(sm.get((t * N + n) * 8 + e), sm4.get((n * T + t) * 8 + e));
      }
  ASSERT_EQ(varlen("", mxN, smN, "TND"), 0) << aclGetRecentErrMsg();  // NTD statistics
  for (int64_t i = 0; i < mxN.numel(); ++i) EXPECT_EQ(mxN.get(i), mx4.get(i)) << i;
  // Two packed sequences, another layout, an unknown statistics layout: 161002.
  const int64_t two[] = {4, T};
  aclIntArray* sq2 = aclCreateIntArray(two, 2);
  std::swap(sq, sq2);
  EXPECT_EQ(varlen("same_as_input", mx, sm, "TND"), 161002);
  std::swap(sq, sq2);
  EXPECT_EQ(varlen("same_as_input", mx, sm, "BSH"), 161002);
  EXPECT_EQ(varlen("NTD", mx, sm, "TND"), 161002);
  aclDestroyIntArray(sq);
  aclDestroyIntArray(sq2);
  aclDestroyIntArray(skv);
}

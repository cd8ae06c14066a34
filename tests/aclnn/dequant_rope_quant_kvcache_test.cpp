// aclnnDequantRopeQuantKvcache (runtime/aclnn/ops/dequant_rope_quant_kvcache.cpp): dequant,
// split, rotate-half RoPE and static int8 quant into contiguous and paged caches, against a loop
// over the README's formulas written here; errors and bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_dequant_rope_quant_kvcache.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;
constexpr int64_t B = 2, S = 3, NQ = 2, NKV = 1, D = 8, H = (NQ + 2 * NKV) * D;

struct Case {
  HostTensorBuf x, cos, sin, kc, vc, indices, sk, sv, ok, ov, ws, as, bias, q, k, v;
  Case(aclDataType xt, aclDataType ot, std::vector<int64_t> cacheShape, int64_t nIdx)
      : x(xt, {B, S, H}),
        cos(ot, {B, S, 1, D}),
        sin(ot, {B, S, 1, D}),
        kc(ACL_INT8, cacheShape),
        vc(ACL_INT8, cacheShape),
        indices(ACL_INT32, {nIdx}),
        sk(ACL_FLOAT, {D}),
        sv(ACL_FLOAT, {D}),
        ok(ACL_FLOAT, {D}),
        ov(ACL_FLOAT, {D}),
        ws(ACL_FLOAT, {H}),
        as(ACL_FLOAT, {B * S}),
        bias(ACL_FLOAT, {H}),
        q(ot, {B, S, NQ, D}),
        k(ot, {B, S, NKV, D}),
        v(ot, {B, S, NKV, D}) {}
};

double rotated(const std::vector<double>& head, const double* c, const double* s, int64_t i) {
  const int64_t half = D / 2;
  return i < half ? head[i] * c[i] - head[i + half] * s[i] : head[i] * c[i] + head[i - half] * s[i];
}

int8_t quant(double x, double scale, double off) {
  return static_cast<int8_t>(std::clamp(std::nearbyint(x / scale + off), -128.0, 127.0));
}

// Checks outputs and the cache rows `rowOf(b, s)` (-1: not written, keeps 5) of a finished case.
template <typename RowOf>
void check(Case& c, bool dequant, RowOf rowOf) {
  const aclDataType ot = c.q.dtype();
  std::vector<std::vector<int8_t>> kRows(static_cast<size_t>(c.kc.numel() / D), std::vector<int8_t>(D, 5)),
      vRows = kRows;
  for (int64_t t = 0; t < B * S; ++t) {
    std::vector<double> y(H);
    for (int64_t col = 0; col < H; ++col) {
      double val = c.x.get(t * H + col);
      if (dequant) val = val * c.ws.get(col) * c.as.get(t) + c.bias.get(col);
      y[col] = roundTo(ot, val);
    }
    std::vector<double> cv(D), sv(D);
    for (int64_t i = 0; i < D; ++i) {
      cv[i] = c.cos.get(t * D + i);
      sv[i] = c.sin.get(t * D + i);
    }
    for (int64_t n = 0; n < NQ + NKV; ++n) {
      std::vector<double> head(y.begin() + n * D, y.begin() + (n + 1) * D);
      for (int64_t i = 0; i < D; ++i) {
        const double want = roundTo(ot, rotated(head, cv.data(), sv.data(), i));
        if (n < NQ) {
          expectNear(c.q.get((t * NQ + n) * D + i), want, ot, "q");
        } else {
          expectNear(c.k.get(t * D + i), want, ot, "k");
          const int64_t row = rowOf(t / S, t % S);
          if (row >= 0) kRows[row][i] = quant(c.k.get(t * D + i), c.sk.get(i), c.ok.get(i));
        }
      }
    }
    for (int64_t i = 0; i < D; ++i) {
      expectNear(c.v.get(t * D + i), y[(NQ + NKV) * D + i], ot, "v");
      const int64_t row = rowOf(t / S, t % S);
      if (row >= 0) vRows[row][i] = quant(c.v.get(t * D + i), c.sv.get(i), c.ov.get(i));
    }
  }
  for (size_t r = 0; r < kRows.size(); ++r)
    for (int64_t i = 0; i < D; ++i) {
      EXPECT_EQ(c.kc.get(static_cast<int64_t>(r) * D + i), kRows[r][i]) << "k row " << r;
      EXPECT_EQ(c.vc.get(static_cast<int64_t>(r) * D + i), vRows[r][i]) << "v row " << r;
    }
}

void fill(Case& c, std::mt19937& g, bool intX) {
  c.x.fillRandom(g, intX ? -3000 : -4, intX ? 3000 : 4);
  c.cos.fillRandom(g, -1, 1);
  c.sin.fillRandom(g, -1, 1);
  for (HostTensorBuf* cache : {&c.kc, &c.vc})
    for (int64_t i = 0; i < cache->numel(); ++i) cache->set(i, 5);
  c.sk.fillRandom(g, 0.02, 0.1);
  c.sv.fillRandom(g, 0.02, 0.1);
  c.ok.fillRandom(g, -2, 2);
  c.ov.fillRandom(g, -2, 2);
  c.ws.fillRandom(g, 0.0005, 0.002);
  c.as.fillRandom(g, 0.5, 2);
  c.bias.fillRandom(g, -1, 1);
}

}  // namespace

// int32 x with weight/activation scales and bias, contiguous caches [B, 6, NKV, D]: batch b's
// tokens at rows indices[b] .. indices[b] + 2.
TEST(DequantRopeQuantKvcache, ContiguousDequant) {
  std::mt19937 g(51);
  for (aclDataType ot : {ACL_FLOAT16, ACL_BF16}) {
    Case c(ACL_INT32, ot, {B, 6, NKV, D}, B);
    fill(c, g, true);
    c.indices.set(0, 2);
    c.indices.set(1, 0);
    aclIntArray* splits = aclCreateIntArray(std::vector<int64_t>{NQ * D, NKV * D, NKV * D}.data(), 3);
    char mode[] = "static", layout[] = "BSND", cache[] = "contiguous";
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnDequantRopeQuantKvcacheGetWorkspaceSize(
                    c.x.get(), c.cos.get(), c.sin.get(), c.kc.get(), c.vc.get(), c.indices.get(), c.sk.get(),
                    c.sv.get(), c.ok.get(), c.ov.get(), c.ws.get(), c.as.get(), c.bias.get(), splits, mode,
                    layout, true, cache, c.q.get(), c.k.get(), c.v.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    aclDestroyIntArray(splits);
    check(c, true, [](int64_t b, int64_t s) { return b * 6 + (b == 0 ? 2 : 0) + s; });
  }
}

// fp16 x (no dequant), paged caches [4 blocks, 2, NKV, D] viewed as 8 rows, one index per token,
// one of them negative (skipped).
TEST(DequantRopeQuantKvcache, PagedPerToken) {
  std::mt19937 g(52);
  Case c(ACL_FLOAT16, ACL_FLOAT16, {4, 2, NKV, D}, B * S);
  fill(c, g, false);
  const int rows[B * S] = {7, 0, 3, -1, 5, 2};
  for (int t = 0; t < B * S; ++t) c.indices.set(t, rows[t]);
  aclIntArray* splits = aclCreateIntArray(std::vector<int64_t>{NQ * D, NKV * D, NKV * D}.data(), 3);
  char cache[] = "page";
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnDequantRopeQuantKvcacheGetWorkspaceSize(
                  c.x.get(), c.cos.get(), c.sin.get(), c.kc.get(), c.vc.get(), c.indices.get(), c.sk.get(),
                  c.sv.get(), c.ok.get(), c.ov.get(), nullptr, nullptr, nullptr, splits, nullptr, nullptr,
                  true, cache, c.q.get(), c.k.get(), c.v.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  aclDestroyIntArray(splits);
  check(c, false, [&](int64_t b, int64_t s) { return static_cast<int64_t>(rows[b * S + s]); });
}

TEST(DequantRopeQuantKvcache, ErrorsAndBytes) {
  Case c(ACL_FLOAT16, ACL_FLOAT16, {B, 6, NKV, D}, B);
  HostTensorBuf x32(ACL_INT32, {B, S, H}), cos32(ACL_FLOAT, {B, S, 1, D});
  aclIntArray* splits = aclCreateIntArray(std::vector<int64_t>{NQ * D, NKV * D, NKV * D}.data(), 3);
  aclIntArray* badSplits = aclCreateIntArray(std::vector<int64_t>{NQ * D, NKV * D, 2 * NKV * D}.data(), 3);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  char nd[] = "BNSD", dyn[] = "dynamic", cont[] = "contiguous", other[] = "ring";
  auto p1 = [&](const aclTensor* x, const aclTensor* cos, const aclIntArray* sp, char* quantMode,
                char* layout, char* cacheMode) {
    return aclnnDequantRopeQuantKvcacheGetWorkspaceSize(
        x, cos, c.sin.get(), c.kc.get(), c.vc.get(), c.indices.get(), c.sk.get(), c.sv.get(), nullptr,
        nullptr, nullptr, nullptr, nullptr, sp, quantMode, layout, false, cacheMode, c.q.get(), c.k.get(),
        c.v.get(), &ws, &ex);
  };
  EXPECT_EQ(p1(nullptr, c.cos.get(), splits, nullptr, nullptr, cont), kParamNull);
  EXPECT_EQ(p1(c.x.get(), c.cos.get(), nullptr, nullptr, nullptr, cont), kParamNull);
  EXPECT_EQ(p1(x32.get(), c.cos.get(), splits, nullptr, nullptr, cont),
            kParamNull);  // int32 x needs weightScale
  EXPECT_EQ(p1(c.x.get(), cos32.get(), splits, nullptr, nullptr, cont), kParamInvalid);
  EXPECT_EQ(p1(c.x.get(), c.cos.get(), badSplits, nullptr, nullptr, cont), kParamInvalid);
  EXPECT_EQ(p1(c.x.get(), c.cos.get(), splits, dyn, nullptr, cont), kParamInvalid);
  EXPECT_EQ(p1(c.x.get(), c.cos.get(), splits, nullptr, nd, cont), kParamInvalid);
  EXPECT_EQ(p1(c.x.get(), c.cos.get(), splits, nullptr, nullptr, other), kParamInvalid);
  // Bytes (kvOutput false): x 192·2, cos and sin 48·2 each, indices 8, scales 32 each read; qOut
  // 96·2 and the cache rows 2 · 6 · 8 written.
  ASSERT_EQ(p1(c.x.get(), c.cos.get(), splits, nullptr, nullptr, cont), 0);
  const Charged ch = chargedBytes(ex);
  EXPECT_EQ(ch.read, 384u + 96u + 96u + 8u + 32u + 32u);
  EXPECT_EQ(ch.written, 192u + 96u);
  aclDestroyIntArray(splits);
  aclDestroyIntArray(badSplits);
}

// aclnnApplyRotaryPosEmb / V2 on host memory: query and key rotated in place against the
// definition written here (half, quarter and interleave rotations, cos/sin broadcast over the
// heads), and the refused layouts and modes; RotaryPositionEmbeddingGrad through the adjoint
// identities of the (bilinear) forward: <dy, f(x, cos, sin)> = <dx, x> = <dcos, cos> + <dsin, sin>.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb_v2.h"
#include "aclnnop/aclnn_rotary_position_embedding_grad.h"

using namespace aclnn_test;

namespace {

// The rotation partner of element i of a row of D, and its sign, by mode.
double rotated(const std::string& mode, HostTensorBuf& x, int64_t row, int64_t i, int64_t D) {
  auto at = [&](int64_t j) { return x.get(row * D + j); };
  if (mode == "interleave") return i % 2 == 0 ? -at(i + 1) : at(i - 1);
  const int64_t part = mode == "half" ? D / 2 : D / 4;
  return (i / part) % 2 == 0 ? -at(i + part) : at(i - part);
}

}  // namespace

TEST(ApplyRotaryPosEmb, RotatesQueryAndKeyInPlace) {
  for (const std::string mode : {"half", "quarter", "interleave"}) {
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      std::mt19937 g(31);
      const int64_t B = 2, S = 3, Nq = 4, Nk = 2, D = 8;
      HostTensorBuf q(dt, {B, S, Nq, D}), k(dt, {B, S, Nk, D}), c(dt, {B, S, 1, D}), s(dt, {B, S, 1, D});
      HostTensorBuf q0(dt, {B, S, Nq, D}), k0(dt, {B, S, Nk, D});
      for (HostTensorBuf* t : {&q, &k, &c, &s}) t->fillRandom(g, -1, 1);
      for (int64_t i = 0; i < q.numel(); ++i) q0.set(i, q.get(i));
      for (int64_t i = 0; i < k.numel(); ++i) k0.set(i, k.get(i));
      std::vector<char> m(mode.begin(), mode.end());
      m.push_back('\0');
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return mode == "half" && dt == ACL_FLOAT
                             ? aclnnApplyRotaryPosEmbGetWorkspaceSize(q.get(), k.get(), c.get(), s.get(), 1,
                                                                      ws, ex)
                             : aclnnApplyRotaryPosEmbV2GetWorkspaceSize(q.get(), k.get(), c.get(), s.get(), 1,
                                                                        m.data(), ws, ex);
                }),
                0);
      for (auto [x, x0, N] :
           {std::tuple<HostTensorBuf*, HostTensorBuf*, int64_t>{&q, &q0, Nq}, {&k, &k0, Nk}}) {
        for (int64_t row = 0; row < B * S * N; ++row) {
          const int64_t bs = row / N;  // the (b, s) row of cos and sin
          for (int64_t i = 0; i < D; ++i) {
            const double want =
                x0->get(row * D + i) * c.get(bs * D + i) + rotated(mode, *x0, row, i, D) * s.get(bs * D + i);
            expectNear(x->get(row * D + i), want, dt, mode);
          }
        }
      }
    }
  }
}

TEST(ApplyRotaryPosEmb, BadArgumentsAreRefused) {
  HostTensorBuf q(ACL_FLOAT, {1, 2, 2, 8}), k(ACL_FLOAT, {1, 2, 2, 8}), c(ACL_FLOAT, {1, 2, 1, 8}),
      s(ACL_FLOAT, {1, 2, 1, 8});
  HostTensorBuf cBad(ACL_FLOAT, {1, 3, 1, 8});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  char bad[] = "third";
  EXPECT_EQ(aclnnApplyRotaryPosEmbGetWorkspaceSize(q.get(), k.get(), c.get(), s.get(), 3, &ws, &ex), 161002);
  EXPECT_EQ(aclnnApplyRotaryPosEmbGetWorkspaceSize(q.get(), nullptr, c.get(), s.get(), 1, &ws, &ex), 161001);
  EXPECT_EQ(aclnnApplyRotaryPosEmbGetWorkspaceSize(q.get(), k.get(), cBad.get(), cBad.get(), 1, &ws, &ex),
            161002);
  EXPECT_EQ(aclnnApplyRotaryPosEmbV2GetWorkspaceSize(q.get(), k.get(), c.get(), s.get(), 1, bad, &ws, &ex),
            161002);
  EXPECT_EQ(
      aclnnApplyRotaryPosEmbV2GetWorkspaceSize(q.get(), k.get(), c.get(), s.get(), 1, nullptr, &ws, &ex),
      161001);
}

TEST(RotaryPositionEmbeddingGrad, GradientsSatisfyTheAdjointIdentities) {
  const char* modes[3] = {"half", "interleave", "quarter"};
  for (int64_t mode = 0; mode < 3; ++mode) {
    std::mt19937 g(51 + static_cast<unsigned>(mode));
    const int64_t B = 2, S = 3, N = 2, D = 8;
    HostTensorBuf dy(ACL_FLOAT, {B, S, N, D}), x(ACL_FLOAT, {B, S, N, D}), c(ACL_FLOAT, {1, S, 1, D}),
        sn(ACL_FLOAT, {1, S, 1, D});
    HostTensorBuf dx(ACL_FLOAT, {B, S, N, D}), dc(ACL_FLOAT, {1, S, 1, D}), ds(ACL_FLOAT, {1, S, 1, D});
    for (HostTensorBuf* t : {&dy, &x, &c, &sn}) t->fillRandom(g, -1, 1);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnRotaryPositionEmbeddingGradGetWorkspaceSize(
                    dy.get(), c.get(), sn.get(), x.get(), mode, dx.get(), dc.get(), ds.get(), ws, ex);
              }),
              0);
    // f(x) by its definition, and the three inner products.
    double fy = 0, xdx = 0, cs = 0;
    for (int64_t row = 0; row < B * S * N; ++row) {
      const int64_t srow = row / N % S;
      for (int64_t i = 0; i < D; ++i) {
        const double rot = rotated(modes[mode], x, row, i, D);
        const double f = x.get(row * D + i) * c.get(srow * D + i) + rot * sn.get(srow * D + i);
        fy += f * dy.get(row * D + i);
        xdx += x.get(row * D + i) * dx.get(row * D + i);
      }
    }
    for (int64_t i = 0; i < S * D; ++i) cs += dc.get(i) * c.get(i) + ds.get(i) * sn.get(i);
    EXPECT_NEAR(xdx, fy, 1e-4) << modes[mode];
    EXPECT_NEAR(cs, fy, 1e-4) << modes[mode];
  }
  HostTensorBuf dy(ACL_FLOAT, {1, 1, 1, 8}), c(ACL_FLOAT, {1, 1, 1, 8}), dx(ACL_FLOAT, {1, 1, 1, 8});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGradGetWorkspaceSize(dy.get(), c.get(), c.get(), nullptr, 3, dx.get(),
                                                             nullptr, nullptr, &ws, &ex),
            161002);
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGradGetWorkspaceSize(dy.get(), nullptr, c.get(), nullptr, 0, dx.get(),
                                                             nullptr, nullptr, &ws, &ex),
            161001);
}

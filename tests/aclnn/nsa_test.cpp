// aclnnNsaCompress and aclnnNsaCompressGrad on host memory against a double-precision definition written
// here: windows over two packed sequences, fp16/bf16, the public example's value, the documented limits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_nsa_compress.h"
#include "aclnnop/aclnn_nsa_compress_grad.h"

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

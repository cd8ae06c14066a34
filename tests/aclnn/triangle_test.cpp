// Tril and Triu (runtime/aclnn/ops/triangle.cpp): each element of a batch of matrices against
// the definition by row and column index, for several diagonals, types, a transposed view and
// the in-place forms; the doc's example; the error codes; the bytes charged.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

// Element `flat` of a [..., rows, cols] tensor is kept by tril(d) when its column is at most
// its row + d, by triu(d) when at least.
bool kept(bool lower, int64_t flat, int64_t rows, int64_t cols, int64_t d) {
  const int64_t col = flat % cols, row = (flat / cols) % rows;
  return lower ? col <= row + d : col >= row + d;
}

}  // namespace

TEST(Triangle, MatchesDefinition) {
  std::mt19937 g(28);
  for (bool lower : {true, false}) {
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT8, ACL_BOOL}) {
      for (int64_t d : {-2, -1, 0, 1, 3, 9}) {
        const std::string what = std::string(lower ? "tril" : "triu") + " dtype " +
                                 std::to_string(static_cast<int>(dt)) + " diagonal " + std::to_string(d);
        // self: a [2, 4, 5] view over a transposed buffer (strides {20, 1, 4}).
        HostTensorBuf x(dt, {2, 4, 5}, {20, 1, 4}, 0), y(dt, {2, 4, 5});
        x.fillRandom(g, dt == ACL_BOOL ? 0 : 1, dt == ACL_BOOL ? 1 : 9);
        for (int64_t i = 0; i < y.numel(); ++i) y.set(i, 7);
        ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                    return lower ? aclnnTrilGetWorkspaceSize(x.get(), d, y.get(), ws, ex)
                                 : aclnnTriuGetWorkspaceSize(x.get(), d, y.get(), ws, ex);
                  }),
                  0)
            << what << ": " << aclGetRecentErrMsg();
        for (int64_t i = 0; i < y.numel(); ++i) {
          EXPECT_EQ(y.get(i), kept(lower, i, 4, 5, d) ? x.get(i) : 0.0) << what << " at " << i;
        }
        // In place on a dense copy.
        HostTensorBuf z(dt, {2, 4, 5});
        for (int64_t i = 0; i < z.numel(); ++i) z.set(i, x.get(i));
        ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                    return lower ? aclnnInplaceTrilGetWorkspaceSize(z.get(), d, ws, ex)
                                 : aclnnInplaceTriuGetWorkspaceSize(z.get(), d, ws, ex);
                  }),
                  0)
            << what;
        for (int64_t i = 0; i < z.numel(); ++i) EXPECT_EQ(z.get(i), y.get(i)) << what << " in place at " << i;
      }
    }
  }
}

// The example of the Tril doc: [[9,6,3],[1,2,3],[3,4,1]] with diagonal 0, 1 and -1.
TEST(Triangle, DocExample) {
  const std::vector<double> self = {9, 6, 3, 1, 2, 3, 3, 4, 1};
  const std::vector<std::pair<int64_t, std::vector<double>>> want = {
      {0, {9, 0, 0, 1, 2, 0, 3, 4, 1}}, {1, {9, 6, 0, 1, 2, 3, 3, 4, 1}}, {-1, {0, 0, 0, 1, 0, 0, 3, 4, 0}}};
  for (const auto& [d, w] : want) {
    HostTensorBuf x(ACL_FLOAT, {3, 3}), y(ACL_FLOAT, {3, 3});
    for (int i = 0; i < 9; ++i) x.set(i, self[i]);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnTrilGetWorkspaceSize(x.get(), d, y.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 9; ++i) EXPECT_EQ(y.get(i), w[i]) << "diagonal " << d << " at " << i;
  }
}

TEST(Triangle, ErrorsEmptyAndCost) {
  HostTensorBuf x(ACL_FLOAT, {3, 4}), y(ACL_FLOAT, {3, 4}), v(ACL_FLOAT, {4}), h(ACL_FLOAT16, {3, 4}),
      wide(ACL_FLOAT, {4, 3}), c(ACL_COMPLEX64, {3, 4});
  auto tril = [](const aclTensor* s, aclTensor* o) {
    return run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnTrilGetWorkspaceSize(s, 0, o, ws, ex); });
  };
  EXPECT_EQ(tril(nullptr, y.get()), kParamNull);
  EXPECT_EQ(tril(x.get(), nullptr), kParamNull);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceTriuGetWorkspaceSize(nullptr, 0, ws, ex);
            }),
            kParamNull);
  EXPECT_EQ(tril(v.get(), v.get()), kParamInvalid);     // one dimension
  EXPECT_EQ(tril(x.get(), h.get()), kParamInvalid);     // out of another type
  EXPECT_EQ(tril(x.get(), wide.get()), kParamInvalid);  // out of another shape
  EXPECT_EQ(tril(c.get(), c.get()), kParamInvalid);     // complex
  HostTensorBuf e(ACL_FLOAT, {0, 4}), eo(ACL_FLOAT, {0, 4});
  EXPECT_EQ(tril(e.get(), eo.get()), 0);
  // One read of self and one write of out, 48 bytes each.
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnTriuGetWorkspaceSize(x.get(), 1, y.get(), &ws, &ex), 0);
  const Charged ch = chargedBytes(ex);
  EXPECT_EQ(ch.read, 48u);
  EXPECT_EQ(ch.written, 48u);
}

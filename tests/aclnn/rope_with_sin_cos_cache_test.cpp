// aclnnRopeWithSinCosCache (rope_with_sin_cos_cache.cpp) against the README's formulas evaluated
// in the test: GPT-NeoX (halves) and GPT-J (even/odd) rotation, a rotaryDim below headSize (the
// rest passes through), mrope sections picking cos/sin rows per section, fp32/fp16/bf16, errors.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

// The expected rotation of x [T, cols] (values as stored) with cos/sin [T, rd/2].
std::vector<double> expected(HostTensorBuf& x, int64_t T, int64_t cols, int64_t hs, int64_t rd, bool neox,
                             const std::vector<double>& c, const std::vector<double>& s) {
  std::vector<double> o(static_cast<size_t>(T * cols));
  const int64_t half = rd / 2;
  for (int64_t t = 0; t < T; ++t) {
    for (int64_t j = 0; j < cols; ++j) o[static_cast<size_t>(t * cols + j)] = x.get(t * cols + j);
    for (int64_t h = 0; h < cols / hs; ++h) {
      const int64_t base = t * cols + h * hs;
      for (int64_t i = 0; i < half; ++i) {
        const int64_t a = neox ? base + i : base + 2 * i, b = neox ? base + half + i : base + 2 * i + 1;
        const double x1 = x.get(a), x2 = x.get(b), ci = c[static_cast<size_t>(t * half + i)],
                     si = s[static_cast<size_t>(t * half + i)];
        o[static_cast<size_t>(a)] = x1 * ci - x2 * si;
        o[static_cast<size_t>(b)] = x2 * ci + x1 * si;
      }
    }
  }
  return o;
}

}  // namespace

TEST(RopeWithSinCosCache, NeoxAndInterleavedAgainstDefinition) {
  std::mt19937 g(9);
  const int64_t T = 3, hs = 64, rd = 32, qCols = 2 * hs, kCols = hs, maxPos = 5;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (bool neox : {true, false}) {
      HostTensorBuf pos(ACL_INT64, {T}), q(dt, {T, qCols}), k(dt, {T, kCols}), cache(dt, {maxPos, rd}),
          qo(dt, {T, qCols}), ko(dt, {T, kCols});
      const int64_t p[] = {4, 0, 2};
      for (int64_t t = 0; t < T; ++t) pos.set(t, static_cast<double>(p[t]));
      q.fillRandom(g, -2, 2);
      k.fillRandom(g, -2, 2);
      cache.fillRandom(g, -1, 1);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnRopeWithSinCosCacheGetWorkspaceSize(pos.get(), q.get(), k.get(), cache.get(),
                                                                  nullptr, hs, neox, qo.get(), ko.get(), ws,
                                                                  ex);
                }),
                0)
          << aclGetRecentErrMsg();
      std::vector<double> c(T * rd / 2), s(T * rd / 2);
      for (int64_t t = 0; t < T; ++t)
        for (int64_t i = 0; i < rd / 2; ++i) {
          c[static_cast<size_t>(t * rd / 2 + i)] = cache.get(p[t] * rd + i);
          s[static_cast<size_t>(t * rd / 2 + i)] = cache.get(p[t] * rd + rd / 2 + i);
        }
      const std::string what = "dtype " + std::to_string(dt) + (neox ? " neox" : " gptj");
      const std::vector<double> eq = expected(q, T, qCols, hs, rd, neox, c, s);
      const std::vector<double> ek = expected(k, T, kCols, hs, rd, neox, c, s);
      for (int64_t i = 0; i < T * qCols; ++i)
        expectNear(qo.get(i), qo.stored(eq[static_cast<size_t>(i)]), dt, what);
      for (int64_t i = 0; i < T * kCols; ++i)
        expectNear(ko.get(i), ko.stored(ek[static_cast<size_t>(i)]), dt, what);
      // Beyond rotaryDim each head passes through unchanged.
      EXPECT_EQ(qo.get(hs + rd), q.get(hs + rd)) << what;
    }
  }
}

TEST(RopeWithSinCosCache, MropeSectionsPickTheirPositionRow) {
  std::mt19937 g(10);
  const int64_t T = 2, hs = 32, rd = 32;
  HostTensorBuf pos(ACL_INT32, {3, T}), q(ACL_FLOAT, {T, hs}), k(ACL_FLOAT, {T, hs}),
      cache(ACL_FLOAT, {6, rd}), qo(ACL_FLOAT, {T, hs}), ko(ACL_FLOAT, {T, hs});
  const int64_t p[3][2] = {{0, 1}, {2, 3}, {4, 5}};
  for (int r = 0; r < 3; ++r)
    for (int t = 0; t < T; ++t) pos.set(r * T + t, static_cast<double>(p[r][t]));
  q.fillRandom(g, -2, 2);
  k.fillRandom(g, -2, 2);
  cache.fillRandom(g, -1, 1);
  const int64_t sec[] = {4, 6, 6};  // sums to rd / 2
  aclIntArray* sections = aclCreateIntArray(sec, 3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRopeWithSinCosCacheGetWorkspaceSize(pos.get(), q.get(), k.get(), cache.get(),
                                                              sections, hs, true, qo.get(), ko.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  std::vector<double> c(T * rd / 2), s(T * rd / 2);
  for (int64_t t = 0; t < T; ++t)
    for (int64_t i = 0; i < rd / 2; ++i) {
      const int row = i < 4 ? 0 : i < 10 ? 1 : 2;
      c[static_cast<size_t>(t * rd / 2 + i)] = cache.get(p[row][t] * rd + i);
      s[static_cast<size_t>(t * rd / 2 + i)] = cache.get(p[row][t] * rd + rd / 2 + i);
    }
  const std::vector<double> eq = expected(q, T, hs, hs, rd, true, c, s);
  for (int64_t i = 0; i < T * hs; ++i) expectNear(qo.get(i), eq[static_cast<size_t>(i)], ACL_FLOAT, "mrope");
  // Sections that do not add up to rotaryDim / 2 are refused.
  const int64_t bad[] = {4, 4, 4};
  aclIntArray* badSections = aclCreateIntArray(bad, 3);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRopeWithSinCosCacheGetWorkspaceSize(pos.get(), q.get(), k.get(), cache.get(),
                                                              badSections, hs, true, qo.get(), ko.get(), ws,
                                                              ex);
            }),
            kParamInvalid);
  aclDestroyIntArray(sections);
  aclDestroyIntArray(badSections);
}

TEST(RopeWithSinCosCache, Errors) {
  HostTensorBuf pos(ACL_INT64, {2}), q(ACL_FLOAT16, {2, 64}), k(ACL_FLOAT16, {2, 64}),
      cache(ACL_FLOAT16, {4, 32}), qo(ACL_FLOAT16, {2, 64}), ko(ACL_FLOAT16, {2, 64}), kf(ACL_FLOAT, {2, 64}),
      q3(ACL_FLOAT16, {2, 2, 32}), cacheBig(ACL_FLOAT16, {4, 64}), pf(ACL_FLOAT, {2});
  auto call = [&](const aclTensor* p, const aclTensor* qq, const aclTensor* kk, const aclTensor* cc,
                  int64_t hs) {
    return run([&](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnRopeWithSinCosCacheGetWorkspaceSize(p, qq, kk, cc, nullptr, hs, true, qo.get(), ko.get(),
                                                      ws, ex);
    });
  };
  EXPECT_EQ(call(pos.get(), q.get(), k.get(), cache.get(), 32), 0);
  EXPECT_EQ(call(nullptr, q.get(), k.get(), cache.get(), 32), kParamNull);
  EXPECT_EQ(call(pos.get(), q.get(), nullptr, cache.get(), 32), kParamNull);
  EXPECT_EQ(call(pf.get(), q.get(), k.get(), cache.get(), 32), kParamInvalid);      // positions type
  EXPECT_EQ(call(pos.get(), q.get(), kf.get(), cache.get(), 32), kParamInvalid);    // key type unlike query
  EXPECT_EQ(call(pos.get(), q3.get(), k.get(), cache.get(), 32), kParamInvalid);    // not 2-D
  EXPECT_EQ(call(pos.get(), q.get(), k.get(), cache.get(), 48), kParamInvalid);     // fp16 headSize % 32
  EXPECT_EQ(call(pos.get(), q.get(), k.get(), cacheBig.get(), 32), kParamInvalid);  // rotaryDim > headSize
}

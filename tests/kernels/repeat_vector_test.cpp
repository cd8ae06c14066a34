// Repeat-addressed vector instructions in custom kernels (docs/kernels.md, "Instructions by
// repeats"): Sort32, Copy, WholeReduceSum and GatherMask against host references written from
// the documentation (masks, repeats, block and repeat strides, the tie rule), what they cost on
// the vector unit, and misuse ending the kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_copy_repeat.h"
#include "aclrtlaunch_k_copy_repeat_half.h"
#include "aclrtlaunch_k_gather_mask.h"
#include "aclrtlaunch_k_gather_mask_half.h"
#include "aclrtlaunch_k_sort32_float.h"
#include "aclrtlaunch_k_sort32_half.h"
#include "aclrtlaunch_k_whole_reduce_sum.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/kernels/dev_buffer.h"

using aicore_test::Session;
using kernel_test::Dev;

namespace {

// Values from a few steps, so that ties are common.
std::vector<float> tied(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-5, 5);
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(d(rng)) * 0.25f;
  return v;
}
std::vector<float> distinct(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) + 0.5f;
  return v;
}

struct Pair {
  float score;
  uint32_t index;
};
// Sort32's documented order: larger score first; of equal scores, the lower position first.
std::vector<Pair> referenceSort32(const std::vector<float>& s, const std::vector<uint32_t>& idx, size_t r) {
  std::vector<Pair> v;
  for (size_t i = 0; i < 32; ++i) v.push_back({s[r * 32 + i], idx[r * 32 + i]});
  std::stable_sort(v.begin(), v.end(), [](const Pair& a, const Pair& b) { return a.score > b.score; });
  return v;
}

// The element offset of element e of repeat r (elements of `bytes` bytes; strides in 32-byte blocks).
size_t at(size_t r, size_t e, size_t blockStride, size_t repeatStride, size_t bytes) {
  const size_t perBlock = 32 / bytes;
  return r * repeatStride * perBlock + (e / perBlock) * blockStride * perBlock + e % perBlock;
}

double vectorPassNs() {
  const npusim::Config& cfg = aicore_test::config();
  return 256.0 / cfg.getFloat("aicore.vector_bytes_per_cycle") / cfg.getFloat("aicore.freq_ghz");
}

}  // namespace

namespace {
// Runs Sort32 over `repeats` x 32 scores (as S) with indices `idx`, and checks each 8-byte pair:
// the score in the lowest sizeof(S) bytes, the index in the high 4.
template <class S, class Launch>
void checkSort32(Session& s, const std::vector<float>& scores, const std::vector<uint32_t>& idx,
                 uint32_t repeats, Launch launch) {
  constexpr size_t perPair = 8 / sizeof(S), indexAt = 4 / sizeof(S);
  Dev<S> ds(std::vector<S>(scores.begin(), scores.end())), out(scores.size() * perPair);
  Dev<uint32_t> di(idx);
  ASSERT_EQ(launch(ds.dev, di.dev, out.dev), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  const std::vector<S>& o = out.read();
  for (size_t r = 0; r < repeats; ++r) {
    const std::vector<Pair> ref = referenceSort32(scores, idx, r);
    for (size_t i = 0; i < 32; ++i) {
      const size_t p = (r * 32 + i) * perPair;
      uint32_t index = 0;
      std::memcpy(&index, &o[p + indexAt], 4);
      ASSERT_EQ(static_cast<float>(o[p]), ref[i].score) << "repeat " << r << " rank " << i;
      ASSERT_EQ(index, ref[i].index) << "repeat " << r << " rank " << i;
    }
  }
}
}  // namespace

TEST(KernelRepeatVector, Sort32SortsEachRepeatOf32KeepingTiesInOrder) {
  Session s;
  const uint32_t repeats = 20;
  const std::vector<float> scores = tied(repeats * 32, 3);
  std::vector<uint32_t> idx(scores.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = 7000 + static_cast<uint32_t>(i) * 3;
  checkSort32<float>(s, scores, idx, repeats, [&](void* sc, void* ix, void* out) {
    return ACLRT_LAUNCH_KERNEL(k_sort32_float)(1, s.stream, sc, ix, out, repeats, 1);
  });
}

// Half scores: the score in the lowest 2 bytes, 2 reserved bytes, the index in the high 4.
TEST(KernelRepeatVector, Sort32OfHalfScoresPutsTheIndexInTheHighFourBytes) {
  Session s;
  const uint32_t repeats = 4;
  const std::vector<float> scores = tied(repeats * 32, 5);
  std::vector<uint32_t> idx(scores.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<uint32_t>(i) * 65537u;
  checkSort32<_Float16>(s, scores, idx, repeats, [&](void* sc, void* ix, void* out) {
    return ACLRT_LAUNCH_KERNEL(k_sort32_half)(1, s.stream, sc, ix, out, repeats, 1);
  });
}

// Each Sort32 repeat costs aicore.sort32_cycles_per_repeat of the vector unit.
TEST(KernelRepeatVector, Sort32CostsItsCyclesPerRepeat) {
  Session s;
  const uint32_t repeats = 64, calls = 200;
  const std::vector<float> scores = tied(repeats * 32, 9);
  std::vector<uint32_t> idx(scores.size(), 0);
  Dev<float> ds(scores), out(scores.size() * 2);
  Dev<uint32_t> di(idx);
  auto timed = [&](uint32_t c) {
    auto warm = [&] {
      ACLRT_LAUNCH_KERNEL(k_sort32_float)(1, s.stream, ds.dev, di.dev, out.dev, repeats, 1);
    };
    auto run = [&] { ACLRT_LAUNCH_KERNEL(k_sort32_float)(1, s.stream, ds.dev, di.dev, out.dev, repeats, c); };
    return aicore_test::deviceMs(s.stream, warm, run);
  };
  const double with = timed(calls + 1), without = timed(1);
  const npusim::Config& cfg = aicore_test::config();
  const double expectMs = calls * repeats * cfg.getFloat("aicore.sort32_cycles_per_repeat") /
                          cfg.getFloat("aicore.freq_ghz") * 1e-6;
  std::printf("%u Sort32 calls of %u repeats: %.4f ms more (expected %.4f)\n", calls, repeats, with - without,
              expectMs);
  EXPECT_NEAR(with - without, expectMs, 0.05 * expectMs);
}

// The MoE sample's use: 16-element rows copied into 32-element slots (mask 16, destination
// repeats of 4 blocks, source repeats of 2), leaving the rest of each slot as it was.
TEST(KernelRepeatVector, CopyWithContiguousMaskFollowsTheBlockAndRepeatStrides) {
  Session s;
  struct Case {
    uint32_t mask, repeats, dstStride, srcStride, dstRepeat, srcRepeat;
  };
  for (const Case c : {Case{16, 32, 1, 1, 4, 2}, Case{64, 10, 1, 1, 8, 8}, Case{20, 6, 2, 3, 16, 24},
                       Case{9, 3, 1, 1, 0, 2}}) {
    const uint32_t n = 4096;
    const std::vector<float> src = distinct(n);
    const std::vector<float> init(n, -1.0f);
    Dev<float> ds(src), out(init);
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_copy_repeat)(1, s.stream, ds.dev, out.dev, n, c.mask, 0, 0, c.repeats,
                                                 c.dstStride, c.srcStride, c.dstRepeat, c.srcRepeat, 1),
              0u);
    ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::vector<float> ref = init;
    for (size_t r = 0; r < c.repeats; ++r)
      for (size_t e = 0; e < c.mask; ++e)
        ref[at(r, e, c.dstStride, c.dstRepeat, 4)] = src[at(r, e, c.srcStride, c.srcRepeat, 4)];
    ASSERT_EQ(out.read(), ref) << "mask " << c.mask << " repeats " << c.repeats;
  }
}

TEST(KernelRepeatVector, CopyWithBitMaskCopiesTheSetBitsOnly) {
  Session s;
  const uint32_t n = 2048, repeats = 5;
  const uint64_t bits = 0x8000'0001'F0F0'0005ull;
  const std::vector<float> src = distinct(n);
  Dev<float> ds(src), out(std::vector<float>(n, -1.0f));
  ASSERT_EQ(
      ACLRT_LAUNCH_KERNEL(k_copy_repeat)(1, s.stream, ds.dev, out.dev, n, 0, bits, 0, repeats, 1, 1, 8, 8, 1),
      0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  std::vector<float> ref(n, -1.0f);
  for (size_t r = 0; r < repeats; ++r)
    for (size_t e = 0; e < 64; ++e)
      if ((bits >> e) & 1) ref[r * 64 + e] = src[r * 64 + e];
  ASSERT_EQ(out.read(), ref);

  // Half: 128 elements a repeat, the second word for elements 64..127.
  std::vector<_Float16> hs(n), init(n, static_cast<_Float16>(-1.0f));
  for (size_t i = 0; i < n; ++i) hs[i] = static_cast<_Float16>(static_cast<float>(i % 1000));
  Dev<_Float16> dh(hs), oh(init);
  const uint64_t hi = 0x0000'0000'0000'0300ull;
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_copy_repeat_half)(1, s.stream, dh.dev, oh.dev, n, bits, hi, 3), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  std::vector<_Float16> href = init;
  for (size_t r = 0; r < 3; ++r)
    for (size_t e = 0; e < 128; ++e)
      if (((e < 64 ? bits : hi) >> (e % 64)) & 1) href[r * 128 + e] = hs[r * 128 + e];
  const std::vector<_Float16>& got = oh.read();
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(static_cast<float>(got[i]), static_cast<float>(href[i])) << i;
}

TEST(KernelRepeatVector, WholeReduceSumSumsEachRepeatIntoItsDestinationStride) {
  Session s;
  struct Case {
    uint32_t mask;
    uint64_t bits;
    uint32_t repeats, dstRepStride, srcBlkStride, srcRepStride;
  };
  for (const Case c : {Case{16, 0, 32, 1, 1, 2}, Case{64, 0, 12, 1, 1, 8}, Case{40, 0, 7, 3, 2, 16},
                       Case{0, 0x00FF'0000'0000'F00Full, 9, 2, 1, 8}}) {
    const uint32_t n = 4096, outN = 64;
    // Small integers: every order of addition gives the exact sum.
    std::vector<float> src(n);
    for (size_t i = 0; i < n; ++i) src[i] = static_cast<float>(static_cast<int>(i * 37 % 23) - 11);
    Dev<float> ds(src), out(std::vector<float>(outN, -100.0f));
    ASSERT_EQ(
        ACLRT_LAUNCH_KERNEL(k_whole_reduce_sum)(1, s.stream, ds.dev, out.dev, n, outN, c.mask, c.bits,
                                                c.repeats, c.dstRepStride, c.srcBlkStride, c.srcRepStride),
        0u);
    ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::vector<float> ref(outN, -100.0f);
    for (size_t r = 0; r < c.repeats; ++r) {
      float sum = 0;
      for (size_t e = 0; e < 64; ++e) {
        const bool active = c.mask ? e < c.mask : ((c.bits >> e) & 1) != 0;
        if (active) sum += src[at(r, e, c.srcBlkStride, c.srcRepStride, 4)];
      }
      ref[r * c.dstRepStride] = sum;
    }
    ASSERT_EQ(out.read(), ref) << "mask " << c.mask << " repeats " << c.repeats;
  }
}

// The MoE sample's use: counter mode with mask 64, one pattern for every repeat (stride 0), picking
// the scores (even positions) of the top four (score, index) pairs of each sorted row.
TEST(KernelRepeatVector, GatherMaskWithAUserPatternPacksTheSelectedElements) {
  Session s;
  struct Case {
    uint32_t reduceMode, mask, repeats, blockStride, repeatStride, patternStride;
  };
  const uint32_t n = 4096, patternN = 64;
  std::vector<uint32_t> pattern(patternN);
  std::mt19937 rng(17);
  for (uint32_t& w : pattern) w = static_cast<uint32_t>(rng());
  pattern[0] = 0x55;  // the sample's score_sum for k = 4
  pattern[1] = 0;
  const std::vector<float> src = distinct(n);
  for (const Case c : {Case{1, 64, 32, 1, 8, 0}, Case{1, 40, 6, 1, 8, 1}, Case{0, 0, 5, 1, 8, 1},
                       Case{0, 0, 4, 2, 16, 0}, Case{1, 10, 3, 1, 2, 2}}) {
    Dev<float> ds(src), out(n);
    Dev<uint32_t> dp(pattern);
    Dev<uint64_t> count(1);
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_gather_mask)(1, s.stream, ds.dev, dp.dev, out.dev, count.dev, n, patternN,
                                                 0, c.reduceMode, c.mask, c.repeats, c.blockStride,
                                                 c.repeatStride, c.patternStride),
              0u);
    ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::vector<float> ref(n, 0.0f);
    size_t k = 0;
    const size_t perRepeat = c.reduceMode ? c.mask : 64;
    for (size_t r = 0; r < c.repeats; ++r)
      for (size_t e = 0; e < perRepeat; ++e) {
        const uint32_t word = pattern[r * c.patternStride * 8 + e / 32];
        if ((word >> (e % 32)) & 1) ref[k++] = src[at(r, e, c.blockStride, c.repeatStride, 4)];
      }
    EXPECT_EQ(count.read()[0], k) << "repeats " << c.repeats;
    ASSERT_EQ(out.read(), ref) << "mode " << c.reduceMode << " mask " << c.mask << " repeats " << c.repeats;
  }
}

TEST(KernelRepeatVector, GatherMaskBuiltInPatternsPickTheirPositions) {
  Session s;
  const uint32_t n = 2048, repeats = 6;
  const std::vector<float> src = distinct(n);
  Dev<float> ds(src);
  Dev<uint32_t> dp(std::vector<uint32_t>(8, 0));
  for (uint32_t pattern = 1; pattern <= 7; ++pattern) {
    Dev<float> out(n);
    Dev<uint64_t> count(1);
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_gather_mask)(1, s.stream, ds.dev, dp.dev, out.dev, count.dev, n, 8,
                                                 pattern, 0, 0, repeats, 1, 8, 0),
              0u);
    ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::vector<float> ref(n, 0.0f);
    size_t k = 0;
    for (size_t i = 0; i < repeats * 64; ++i) {
      const bool pick = pattern == 7 ? true : pattern <= 2 ? i % 2 == pattern - 1 : i % 4 == pattern - 3;
      if (pick) ref[k++] = src[i];
    }
    EXPECT_EQ(count.read()[0], k) << "pattern " << pattern;
    ASSERT_EQ(out.read(), ref) << "pattern " << pattern;
  }
}

TEST(KernelRepeatVector, GatherMaskOfHalfTakesAUint16Pattern) {
  Session s;
  const uint32_t n = 1024, repeats = 3;
  std::vector<_Float16> src(n);
  for (size_t i = 0; i < n; ++i) src[i] = static_cast<_Float16>(static_cast<float>(i));
  std::vector<uint16_t> pattern(16, 0);
  pattern[0] = 0x8001;  // elements 0 and 15
  pattern[7] = 0x0100;  // element 7 x 16 + 8 = 120
  Dev<_Float16> ds(src), out(n);
  Dev<uint16_t> dp(pattern);
  Dev<uint64_t> count(1);
  ASSERT_EQ(
      ACLRT_LAUNCH_KERNEL(k_gather_mask_half)(1, s.stream, ds.dev, dp.dev, out.dev, count.dev, n, repeats),
      0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(count.read()[0], 9u);
  const std::vector<_Float16>& o = out.read();
  const float want[] = {0, 15, 120, 128, 143, 248, 256, 271, 376};
  for (size_t i = 0; i < 9; ++i) EXPECT_EQ(static_cast<float>(o[i]), want[i]) << i;
  EXPECT_EQ(static_cast<float>(o[9]), 0.0f);
}

// A Copy costs one vector pass per repeat whatever its mask.
TEST(KernelRepeatVector, CopyCostsOneVectorPassPerRepeat) {
  Session s;
  const uint32_t n = 8192, kCalls = 1000;
  Dev<float> ds(distinct(n)), out(n);
  auto timed = [&](uint32_t mask, uint32_t repeats) {
    auto warm = [&] {
      ACLRT_LAUNCH_KERNEL(k_copy_repeat)(1, s.stream, ds.dev, out.dev, n, 64, 0, 0, 1, 1, 1, 8, 8, 1);
    };
    auto run = [&] {
      ACLRT_LAUNCH_KERNEL(k_copy_repeat)
      (1, s.stream, ds.dev, out.dev, n, mask, 0, 0, repeats, 1, 1, 8, 8, kCalls);
    };
    return aicore_test::deviceMs(s.stream, warm, run);
  };
  const double base = timed(64, 1), full = timed(64, 121), sparse = timed(1, 121);
  const double expectMs = 120.0 * kCalls * vectorPassNs() * 1e-6;
  std::printf("120 more repeats, %u times: %.5f ms (mask 64), %.5f ms (mask 1), expected %.5f\n", kCalls,
              full - base, sparse - base, expectMs);
  EXPECT_NEAR(full - base, expectMs, 0.05 * expectMs);
  EXPECT_NEAR(sparse - base, expectMs, 0.05 * expectMs);
}

// Misuse ends the kernel with a vector-core exception naming the call.
TEST(KernelRepeatVector, MisuseEndsTheKernel) {
  Session s;
  const uint32_t n = 1024;
  Dev<float> ds(distinct(n)), out(n);
  auto expectFault = [&](const char* what) {
    EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    const std::string why = aclGetRecentErrMsg();
    EXPECT_NE(why.find(what), std::string::npos) << why;
  };
  // 65 floats do not fit one repeat.
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_copy_repeat)(1, s.stream, ds.dev, out.dev, n, 65, 0, 0, 1, 1, 1, 8, 8, 1),
            0u);
  expectFault("Copy: mask outside");
  // 200 repeats of 256 bytes run past the 32 KiB tensors.
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_copy_repeat)(1, s.stream, ds.dev, out.dev, n, 64, 0, 0, 200, 1, 1, 8, 8, 1),
            0u);
  expectFault("Copy beyond the");
  Dev<uint32_t> dp(std::vector<uint32_t>(8, 0));
  Dev<uint64_t> count(1);
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_gather_mask)(1, s.stream, ds.dev, dp.dev, out.dev, count.dev, n, 8, 9, 0, 0,
                                               1, 1, 8, 0),
            0u);
  expectFault("built-in src1Pattern outside 1..7");
}

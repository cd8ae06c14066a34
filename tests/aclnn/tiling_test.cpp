// Tiling for the AI-core model: matmul blocks cover the output exactly once with the right
// MAC count; vector tiles respect the UB budget and account for every byte exactly once.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "aclnn_test_util.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "runtime/aclnn/ops/matmul_tiling.h"
#include "runtime/aclnn/ops/registry.h"
#include "runtime/aclnn/ops/vector_tiling.h"

using namespace npusim::aclnn;

// The 910b preset's aicore.cube_cores.
constexpr int kCores = 24;

namespace {

// A tensor descriptor at a fake device address (tiling never touches memory).
aclTensor* fakeTensor(aclDataType dt, std::vector<int64_t> shape, uint64_t addr) {
  return aclCreateTensor(shape.data(), shape.size(), dt, nullptr, 0, ACL_FORMAT_ND, shape.data(),
                         shape.size(), reinterpret_cast<void*>(addr));
}

}  // namespace

TEST(Tiling, MatmulBlocksCoverTheOutputExactlyOnce) {
  struct Case {
    int64_t batch, M, N, K;
  };
  for (Case c : {Case{1, 1024, 1024, 1024}, Case{1, 256, 256, 64}, Case{3, 100, 37, 9}, Case{1, 1, 1, 1},
                 Case{2, 129, 513, 70}, Case{1, 4096, 16, 16}}) {
    const MatmulTiling t = planMatmul(c.batch, c.M, c.N, c.K, 2, kCores);
    std::vector<int> hits(static_cast<size_t>(c.batch * c.M * c.N), 0);
    uint64_t macs = 0;
    for (const MatmulBlock& b : t.blocks) {
      ASSERT_LT(b.m0, b.m1);
      ASSERT_LT(b.n0, b.n1);
      ASSERT_LE(b.m1 - b.m0, t.baseM);
      ASSERT_LE(b.n1 - b.n0, t.baseN);
      for (int64_t m = b.m0; m < b.m1; ++m) {
        for (int64_t n = b.n0; n < b.n1; ++n) ++hits[static_cast<size_t>((b.batch * c.M + m) * c.N + n)];
      }
      macs += static_cast<uint64_t>((b.m1 - b.m0) * (b.n1 - b.n0) * c.K);
    }
    for (int h : hits) ASSERT_EQ(h, 1);
    EXPECT_EQ(macs, static_cast<uint64_t>(c.batch * c.M * c.N * c.K));
    // Blocks fit the cube buffers: a baseM x baseN fp32 accumulator in the 128 KiB L0C and
    // double-buffered baseK slices of A and B in the 64 KiB L0A/L0B.
    EXPECT_LE(t.baseM * t.baseN * 4, 128 * 1024);
    EXPECT_LE(2 * t.baseK * t.baseN * 2, 64 * 1024);
    EXPECT_LE(2 * t.baseM * t.baseK * 2, 64 * 1024);
    EXPECT_EQ(t.baseM % 16, 0);
    EXPECT_EQ(t.baseN % 16, 0);
  }
  // Large problems use full 128 x 256 blocks; small ones shrink them to feed all 24 cores.
  EXPECT_EQ(planMatmul(1, 2048, 4096, 4096, 2, kCores).baseM, 128);
  EXPECT_EQ(planMatmul(1, 2048, 4096, 4096, 2, kCores).baseN, 256);
  EXPECT_GE(planMatmul(1, 256, 256, 64, 2, kCores).blocks.size(), static_cast<size_t>(kCores));
}

// The blocks spread evenly over the cores: no wave is left mostly empty when narrower blocks
// fill the same number of waves, and the split follows the configured core count.
TEST(Tiling, MatmulBlocksFillTheirWaves) {
  auto waves = [](const MatmulTiling& t) { return (t.blocks.size() + t.cores - 1) / t.cores; };
  // A decode GEMV: 4096 columns over 24 cores in one wave of 176-column blocks (not 32 blocks of
  // 128 in two waves, the second a third full).
  const MatmulTiling gemv = planMatmul(1, 1, 4096, 4096, 2, kCores);
  EXPECT_EQ(gemv.blocks.size(), 24u);
  EXPECT_EQ(gemv.baseN, 176);
  // 1024 x 1024 needs two waves of 128 x 256 blocks (32 blocks); 48 blocks of 128 x 176 fill both.
  const MatmulTiling sq = planMatmul(1, 1024, 1024, 1024, 2, kCores);
  EXPECT_EQ(waves(sq), 2u);
  EXPECT_EQ(sq.blocks.size(), 48u);
  EXPECT_EQ(sq.baseM * sq.baseN, 128 * 176);
  // Twice the cores: half the waves for a large problem, and the GEMV spread over all of them.
  EXPECT_EQ(waves(planMatmul(1, 2048, 4096, 4096, 2, 48)),
            (waves(planMatmul(1, 2048, 4096, 4096, 2, kCores)) + 1) / 2);
  EXPECT_GE(planMatmul(1, 1, 4096, 4096, 2, 48).blocks.size(), 43u);
  // Whatever the cores, with a few waves (where an idle tail costs most) the last wave is more
  // than half full.
  for (int cores : {8, 20, 24, 30, 48}) {
    for (auto [M, N] :
         {std::pair<int64_t, int64_t>{1, 4096}, {1, 22016}, {1024, 1024}, {2048, 11008}, {300, 700}}) {
      const MatmulTiling t = planMatmul(1, M, N, 512, 2, cores);
      const size_t last = t.blocks.size() - (waves(t) - 1) * static_cast<size_t>(cores);
      if (waves(t) > 1 && waves(t) <= 4) {
        EXPECT_GT(2 * last, static_cast<size_t>(cores)) << M << "x" << N << " on " << cores;
      }
    }
  }
}

TEST(Tiling, MatmulOperatorWorkCountsMacsAndOutputBytes) {
  const int64_t B = 2, M = 300, K = 200, N = 150;
  for (aclDataType dt : {ACL_FLOAT16, ACL_FLOAT}) {
    aclTensor* a = fakeTensor(dt, {B, M, K}, 0x100000000ULL);
    aclTensor* b = fakeTensor(dt, {K, N}, 0x200000000ULL);
    aclTensor* o = fakeTensor(dt, {B, M, N}, 0x300000000ULL);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnMatmulGetWorkspaceSize(a, b, o, 0, &ws, &ex), 0);
    const npusim::rt::OpWork w = executorOp(ex)->work();
    EXPECT_TRUE(w.cube);
    uint64_t macs = 0, written = 0;
    std::set<uint64_t> writeAddrs;
    const uint64_t es = dt == ACL_FLOAT ? 4 : 2;
    for (const auto& t : w.tiles) {
      macs += t.cubeMacs;
      written += t.writeBytes;
      EXPECT_TRUE(writeAddrs.insert(t.writeAddr).second) << "two tiles write the same block";
      EXPECT_GE(t.writeAddr, 0x300000000ULL);
      EXPECT_LT(t.writeAddr, 0x300000000ULL + B * M * N * es);
      EXPECT_GE(t.readAddr, 0x100000000ULL);
      EXPECT_GT(t.readBytes, 0u);
    }
    // fp32 occupies two fp16 MAC slots of the cube per MAC (K step of 8 instead of 16).
    EXPECT_EQ(macs, static_cast<uint64_t>(B * M * N * K) * (dt == ACL_FLOAT ? 2 : 1));
    EXPECT_EQ(written, static_cast<uint64_t>(B * M * N) * es);
    EXPECT_EQ(aclDestroyAclOpExecutor(ex), 0);
    // HF32 runs at the fp16 rate.
    if (dt == ACL_FLOAT) {
      ASSERT_EQ(aclnnMatmulGetWorkspaceSize(a, b, o, 3, &ws, &ex), 0);
      uint64_t hf = 0;
      for (const auto& t : executorOp(ex)->work().tiles) hf += t.cubeMacs;
      EXPECT_EQ(hf, static_cast<uint64_t>(B * M * N * K));
      aclDestroyAclOpExecutor(ex);
    }
    aclDestroyTensor(a);
    aclDestroyTensor(b);
    aclDestroyTensor(o);
  }
}

TEST(Tiling, ElementwiseTilesFitTheUbAndCountEveryByteOnce) {
  const int64_t n = 1000003;  // not a multiple of the tile
  aclTensor* a = fakeTensor(ACL_FLOAT, {n}, 0x100000000ULL);
  aclTensor* b = fakeTensor(ACL_FLOAT, {1}, 0x200000000ULL);  // broadcast operand
  aclTensor* o = fakeTensor(ACL_FLOAT16, {n}, 0x300000000ULL);
  float one = 1;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(a, b, alpha, o, &ws, &ex), 0);
  const npusim::rt::OpWork w = executorOp(ex)->work();
  EXPECT_FALSE(w.cube);
  const uint64_t perTile = kUbTileBytes / 4;
  EXPECT_EQ(w.tiles.size(), (n + perTile - 1) / perTile);
  uint64_t read = 0, written = 0, prevWrite = 0;
  for (size_t i = 0; i < w.tiles.size(); ++i) {
    const auto& t = w.tiles[i];
    EXPECT_LE(t.readBytes, 2 * kUbTileBytes);
    EXPECT_LE(t.writeBytes, kUbTileBytes);
    EXPECT_GT(t.vectorBytes, 0u);
    EXPECT_EQ(t.cubeMacs, 0u);
    if (i > 0) {
      EXPECT_EQ(t.writeAddr, prevWrite);  // tiles write consecutive output ranges
    }
    prevWrite = t.writeAddr + t.writeBytes;
    read += t.readBytes;
    written += t.writeBytes;
  }
  EXPECT_EQ(read, static_cast<uint64_t>(n) * 4 + 4);
  EXPECT_EQ(written, static_cast<uint64_t>(n) * 2);
  EXPECT_EQ(w.tiles.front().writeAddr, 0x300000000ULL);
  aclDestroyAclOpExecutor(ex);

  // A reduction reads its input and writes only the (small) output.
  aclTensor* r = fakeTensor(ACL_FLOAT, {512, 1024}, 0x400000000ULL);
  aclTensor* ro = fakeTensor(ACL_FLOAT, {512}, 0x500000000ULL);
  int64_t dim = 1;
  aclIntArray* dims = aclCreateIntArray(&dim, 1);
  ASSERT_EQ(aclnnReduceSumGetWorkspaceSize(r, dims, false, ACL_FLOAT, ro, &ws, &ex), 0);
  read = written = 0;
  for (const auto& t : executorOp(ex)->work().tiles) {
    read += t.readBytes;
    written += t.writeBytes;
  }
  EXPECT_EQ(read, 512u * 1024 * 4);
  EXPECT_EQ(written, 512u * 4);
  aclDestroyAclOpExecutor(ex);
  for (aclTensor* t : {a, b, o, r, ro}) aclDestroyTensor(t);
  aclDestroyIntArray(dims);
  aclDestroyScalar(alpha);
}

TEST(Tiling, ShareOfSplitsExactly) {
  for (uint64_t total : {0ULL, 1ULL, 7ULL, 1000003ULL, (1ULL << 62) + 5}) {
    for (uint64_t n : {1ULL, 3ULL, 31ULL}) {
      uint64_t sum = 0;
      for (uint64_t i = 0; i < n; ++i) sum += shareOf(total, i, n);
      EXPECT_EQ(sum, total);
    }
  }
}

TEST(Registry, EveryOperatorIsRegisteredWithItsTypes) {
  std::map<std::string, ExecUnit> expect = {
      {"aclnnAdd", ExecUnit::kVector},       {"aclnnSub", ExecUnit::kVector},
      {"aclnnMul", ExecUnit::kVector},       {"aclnnRelu", ExecUnit::kVector},
      {"aclnnReduceSum", ExecUnit::kVector}, {"aclnnMatmul", ExecUnit::kCube}};
  for (const auto& [name, unit] : expect) {
    const OpInfo* info = OpRegistry::instance().find(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_EQ(info->unit, unit) << name;
    EXPECT_FALSE(info->formula.empty());
    EXPECT_TRUE(info->accepts(ACL_FLOAT)) << name;
    EXPECT_TRUE(info->accepts(ACL_FLOAT16)) << name;
    EXPECT_TRUE(info->accepts(ACL_BF16)) << name;
  }
  EXPECT_TRUE(OpRegistry::instance().find("aclnnAdd")->accepts(ACL_INT32));
  EXPECT_FALSE(OpRegistry::instance().find("aclnnMatmul")->accepts(ACL_INT32));
  // Every registered operator (not only those above) says where it runs and how it is costed.
  for (const OpInfo* info : OpRegistry::instance().all()) {
    EXPECT_FALSE(info->formula.empty()) << info->name;
    // floating types, or integers for the bitwise operators (aclnnInvertV2: 16-bit ones only)
    // and the serving bookkeeping (aclnnAdvanceStep: int64 only)
    EXPECT_TRUE(info->accepts(ACL_FLOAT) || info->accepts(ACL_FLOAT16) || info->accepts(ACL_INT32) ||
                info->accepts(ACL_INT16) || info->accepts(ACL_INT64))
        << info->name;
  }
  EXPECT_GE(OpRegistry::instance().all().size(), expect.size());
}

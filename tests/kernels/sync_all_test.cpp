// All-block barriers in custom kernels (SyncAll; docs/kernels.md, "Blocks that wait for each
// other"): every block reads what a later block wrote before the barrier, the barrier lasts until
// the last block arrives, and a barrier some block never reaches ends the kernel.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_sync_outsider.h"
#include "aclrtlaunch_k_sync_ring.h"
#include "aclrtlaunch_k_sync_some.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/kernels/dev_buffer.h"

using aicore_test::Session;
using kernel_test::Dev;

namespace {
constexpr uint32_t kNone = 0, kHard = 1, kSoft = 2;
constexpr uint32_t kBlocks = 8, kN = 8192;

std::vector<float> ringInput() {
  std::vector<float> x(kBlocks * kN);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 97) - 40.0f;
  return x;
}
// out[b] = x[b + 1] x 2^pre(b + 1) x 2^post(b) + 1, as k_sync_ring computes it with a barrier.
std::vector<float> ringExpected(const std::vector<float>& x, uint32_t passes) {
  std::vector<float> out(x.size());
  for (uint32_t b = 0; b < kBlocks; ++b) {
    const uint32_t nb = (b + 1) % kBlocks;
    const float scale = static_cast<float>(1u << ((nb == kBlocks - 1 ? passes : 0) + (b == 0 ? passes : 0)));
    for (uint32_t i = 0; i < kN; ++i) out[b * kN + i] = x[nb * kN + i] * scale + 1.0f;
  }
  return out;
}
}  // namespace

// Each block reads the chunk the next block wrote before the barrier; blocks run in order, so
// without the barrier block b reads mid[b + 1] before block b + 1 has written it.
TEST(KernelSyncAll, EveryBlockSeesWhatTheOthersWroteBeforeTheBarrier) {
  Session s;
  const std::vector<float> x = ringInput();
  for (uint32_t kind : {kHard, kSoft, kNone}) {
    Dev<float> dx(x), mid(std::vector<float>(x.size(), -7.0f)), out(x.size());
    Dev<int32_t> flags(std::vector<int32_t>(8 * kBlocks, 0));
    ASSERT_EQ(
        ACLRT_LAUNCH_KERNEL(k_sync_ring)(kBlocks, s.stream, dx.dev, mid.dev, out.dev, flags.dev, kN, 3, kind),
        0u);
    ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    if (kind == kNone) {
      EXPECT_NE(out.read(), ringExpected(x, 3)) << "the result depends on the barrier";
      continue;
    }
    EXPECT_EQ(out.read(), ringExpected(x, 3)) << "kind " << kind;
    // The software barrier leaves each block's flag set (one barrier reached); the hardware one
    // does not touch GM.
    for (uint32_t b = 0; b < kBlocks; ++b) EXPECT_EQ(flags.read()[b * 8], kind == kSoft ? 1 : 0) << b;
  }
}

// Before the barrier only the last block works (P vector passes), after it only block 0. Without
// the barrier the two run side by side on their cores: one stage's time; with it block 0's stage
// starts when the last block arrives: two stages.
TEST(KernelSyncAll, TheBarrierLastsUntilTheLastBlockArrives) {
  Session s;
  const std::vector<float> x = ringInput();
  Dev<float> dx(x), mid(x.size()), out(x.size());
  Dev<int32_t> flags(std::vector<int32_t>(8 * kBlocks, 0));
  const uint32_t passes = 60;
  auto timed = [&](uint32_t p, uint32_t kind) {
    auto warm = [&] {
      ACLRT_LAUNCH_KERNEL(k_sync_ring)(kBlocks, s.stream, dx.dev, mid.dev, out.dev, flags.dev, 64, 0, kNone);
    };
    auto run = [&] {
      ACLRT_LAUNCH_KERNEL(k_sync_ring)(kBlocks, s.stream, dx.dev, mid.dev, out.dev, flags.dev, kN, p, kind);
    };
    return aicore_test::deviceMs(s.stream, warm, run);
  };
  const npusim::Config& cfg = aicore_test::config();
  const double stageMs = passes * kN * 4.0 / cfg.getFloat("aicore.vector_bytes_per_cycle") /
                         (cfg.getFloat("aicore.freq_ghz") * 1e6);
  const double side = timed(passes, kNone) - timed(0, kNone);
  const double hard = timed(passes, kHard) - timed(0, kHard);
  const double soft = timed(passes, kSoft) - timed(0, kSoft);
  std::printf("P passes add %.4f ms without a barrier, %.4f (hard) / %.4f (soft) with; one stage %.4f ms\n",
              side, hard, soft, stageMs);
  EXPECT_NEAR(side, stageMs, 0.05 * stageMs);
  EXPECT_NEAR(hard, 2 * stageMs, 0.05 * 2 * stageMs);
  EXPECT_NEAR(soft, 2 * stageMs, 0.05 * 2 * stageMs);
  EXPECT_GT(timed(0, kSoft), timed(0, kNone));  // even with no passes, block 0 waits for the others' copies
}

// usedCores: the first `used` blocks meet; the others do not take part.
TEST(KernelSyncAll, UsedCoresMeetAndTheRestGoOn) {
  Session s;
  Dev<int32_t> flags(std::vector<int32_t>(8 * kBlocks, 0)), out(std::vector<int32_t>(kBlocks, -1));
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_sync_some)(kBlocks, s.stream, flags.dev, out.dev, 5, kBlocks), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  // Every participant saw all five flags set (it ran on only once the last had set its own).
  EXPECT_EQ(out.read(), (std::vector<int32_t>{5, 5, 5, 5, 5, -1, -1, -1}));
}

// Block 2 returns without reaching the barrier: the others would wait forever on hardware; the
// kernel ends with a vector-core exception naming the barrier. The stream keeps working.
TEST(KernelSyncAll, ABarrierABlockNeverReachesEndsTheKernel) {
  Session s;
  Dev<int32_t> flags(std::vector<int32_t>(8 * kBlocks, 0)), out(std::vector<int32_t>(kBlocks, -1));
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_sync_some)(kBlocks, s.stream, flags.dev, out.dev, 0, 2), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  const std::string why = aclGetRecentErrMsg();
  EXPECT_NE(why.find("k_sync_some"), std::string::npos) << why;
  EXPECT_NE(why.find("SyncAll waits for a block that never reaches it"), std::string::npos) << why;
  Dev<int32_t> f2(std::vector<int32_t>(8 * kBlocks, 0));
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_sync_some)(kBlocks, s.stream, f2.dev, out.dev, 0, kBlocks), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(out.read(), std::vector<int32_t>(kBlocks, kBlocks));
}

// A block outside the usedCores blocks that meet, and more blocks than vector cores, are refused.
TEST(KernelSyncAll, MisuseIsRefused) {
  Session s;
  const uint32_t cores = static_cast<uint32_t>(aicore_test::config().getInt("aicore.vector_cores"));
  Dev<int32_t> flags(std::vector<int32_t>(8 * (cores + 1), 0)), out(std::vector<int32_t>(cores + 1, -1));
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_sync_outsider)(4, s.stream, flags.dev, 3), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("outside the usedCores blocks"), std::string::npos)
      << aclGetRecentErrMsg();
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_sync_some)(cores + 1, s.stream, flags.dev, out.dev, 0, cores + 1), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("more blocks than vector cores"), std::string::npos)
      << aclGetRecentErrMsg();
}

// Blocks that wait for each other through GM flags (IBSet/IBWait; docs/kernels.md, "Blocks that
// wait for each other"): a block waiting for a later block's flag lets it run, the wait costs
// simulated time until the flag is set, and a wait nobody can satisfy ends the kernel.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_ib_chain.h"
#include "aclrtlaunch_k_ib_orphan.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/kernels/dev_buffer.h"

using aicore_test::Session;
using kernel_test::Dev;

namespace {
constexpr uint32_t kN = 16384, kPasses = 40;
}  // namespace

// Block 0 waits for block 1's flag; block 1 makes what block 0 reads, so block 0 sees block 1's
// data only if it really waited (block 0 starts first). Both flags are consumed: 0 again.
TEST(KernelBlockSync, WaitingBlockLetsTheSetterRunFirst) {
  Session s;
  std::vector<float> x(kN);
  for (uint32_t i = 0; i < kN; ++i) x[i] = static_cast<float>(i % 61) - 30.0f;
  Dev<float> dx(x), mid(std::vector<float>(kN, -1.0f)), out(kN);
  Dev<int32_t> sync(std::vector<int32_t>(64, 0));
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_ib_chain)(2, s.stream, dx.dev, mid.dev, out.dev, sync.dev, kN, 3, 1), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  const std::vector<float>& o = out.read();
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(o[i], x[i] * 64.0f) << i;  // x * 2^3 * 2^3
  for (int32_t f : sync.read()) EXPECT_EQ(f, 0);                         // set by block 1, taken by block 0
}

// Without the flags the two blocks run side by side on two cores; with them block 0's stage starts
// once block 1's flag is written. So kPasses more vector instructions in each block's stage make
// the side-by-side kernel one stage's vector time longer and the chained kernel two.
TEST(KernelBlockSync, TheWaitLastsUntilTheFlagIsSet) {
  Session s;
  Dev<float> dx(std::vector<float>(kN, 1.0f)), mid(kN), out(kN);
  Dev<int32_t> sync(std::vector<int32_t>(64, 0));
  auto timed = [&](uint32_t passes, uint32_t wait) {
    auto warm = [&] {
      ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_ib_chain)(2, s.stream, dx.dev, mid.dev, out.dev, sync.dev, 64, 1, 0),
                0u);
    };
    auto run = [&] {
      ASSERT_EQ(
          ACLRT_LAUNCH_KERNEL(k_ib_chain)(2, s.stream, dx.dev, mid.dev, out.dev, sync.dev, kN, passes, wait),
          0u);
    };
    return aicore_test::deviceMs(s.stream, warm, run);
  };
  const double side = timed(kPasses, 0), chained = timed(kPasses, 1);
  const double side0 = timed(0, 0), chained0 = timed(0, 1);
  const npusim::Config& cfg = aicore_test::config();
  const double vectorMs = kPasses * kN * 4.0 / cfg.getFloat("aicore.vector_bytes_per_cycle") /
                          (cfg.getFloat("aicore.freq_ghz") * 1e6);
  std::printf(
      "side by side %.4f ms (%.4f without the passes), chained %.4f ms (%.4f); one stage's passes %.4f ms\n",
      side, side0, chained, chained0, vectorMs);
  EXPECT_NEAR(side - side0, vectorMs, 0.05 * vectorMs);
  EXPECT_NEAR(chained - chained0, 2 * vectorMs, 0.05 * 2 * vectorMs);
  EXPECT_GT(chained0, side0);  // even with no passes, block 0 waits for block 1's copies
  // The same launch again takes the same time, within what the HBM's state at a later moment
  // (refresh windows, open rows) changes: it is not a replay of the first.
  EXPECT_NEAR(timed(kPasses, 1), chained, 0.01 * chained);
}

// Block 0 waits for block 1's flag, which block 1 never sets: the kernel ends with a vector-core
// exception naming the wait, instead of hanging. So does a block waiting for its own flag.
TEST(KernelBlockSync, AWaitNoBlockSatisfiesEndsTheKernel) {
  Session s;
  Dev<int32_t> sync(std::vector<int32_t>(64, 0));
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_ib_orphan)(2, s.stream, sync.dev, 1), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  const std::string why = aclGetRecentErrMsg();
  EXPECT_NE(why.find("k_ib_orphan (block 0)"), std::string::npos) << why;
  EXPECT_NE(why.find("waits for a flag no block will change"), std::string::npos) << why;
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_ib_orphan)(1, s.stream, sync.dev, 0), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  // The stream keeps working.
  Dev<float> dx(std::vector<float>(64, 1.0f)), mid(64), out(64);
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_ib_chain)(2, s.stream, dx.dev, mid.dev, out.dev, sync.dev, 64, 1, 1), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(out.read()[5], 4.0f);
}

// Blocks that wait for each other must all be resident: more blocks than vector cores is refused
// at the first IBWait, as the documentation's constraint says (hardware would hang).
TEST(KernelBlockSync, MoreBlocksThanVectorCoresIsRefused) {
  Session s;
  const uint32_t cores = static_cast<uint32_t>(aicore_test::config().getInt("aicore.vector_cores"));
  Dev<int32_t> sync(std::vector<int32_t>(8 * (cores + 1), 0));
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_ib_orphan)(cores + 1, s.stream, sync.dev, 1), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("more blocks than vector cores"), std::string::npos)
      << aclGetRecentErrMsg();
}

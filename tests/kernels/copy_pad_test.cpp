// DataCopyPad and PlatformAscendC, what hicann/cann-samples' vector examples use beside the
// Ascend C subset (docs/kernels.md): rows of any length copied in with padding and out again,
// timed as the bytes they move; the platform answers from the preset the runtime runs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_copy_pad.h"
#include "npusim/config.h"
#include "platform/platform_ascendc.h"
#include "tests/aicore/aicore_test_util.h"

using aicore_test::Session;

namespace {

struct Layout {
  uint32_t blocks, rows, len, gap, left, right, passes = 1;
  uint32_t width() const { return left + len + right; }
  size_t inFloats() const { return size_t{blocks} * rows * (len + gap); }
  size_t outFloats() const { return size_t{blocks} * rows * width(); }
};

// Runs k_copy_pad and checks every element of z; returns the kernel's device time in ms.
double runCopyPad(Session& s, const Layout& l) {
  std::vector<float> x(l.inFloats()), z(l.outFloats(), 0.0f);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 4093);
  void *dx = nullptr, *dz = nullptr;
  EXPECT_EQ(aclrtMalloc(&dx, x.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&dz, z.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(dx, x.size() * 4, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  auto k = [&] {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_copy_pad)(l.blocks, s.stream, dx, dz, l.rows, l.len, l.gap, l.left,
                                              l.right, l.passes),
              0u);
  };
  const double ms = aicore_test::deviceMs(s.stream, k, k);
  EXPECT_EQ(aclrtMemcpy(z.data(), z.size() * 4, dz, z.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  size_t wrong = 0;
  for (uint32_t r = 0; r < l.blocks * l.rows; ++r) {
    for (uint32_t j = 0; j < l.width(); ++j) {
      const float want =
          j < l.left || j >= l.left + l.len ? -1.0f : x[size_t{r} * (l.len + l.gap) + j - l.left];
      if (z[size_t{r} * l.width() + j] != want && wrong++ < 5)
        ADD_FAILURE() << "row " << r << " element " << j << ": " << z[size_t{r} * l.width() + j]
                      << ", expected " << want;
    }
  }
  EXPECT_EQ(wrong, 0u);
  aclrtFree(dx);
  aclrtFree(dz);
  return ms;
}

}  // namespace

// Rows whose length is not whole 32-byte blocks: the padding is -1 where the kernel asked for it
// (left, right, and to the end of each unified-buffer row, which the copy out carries).
TEST(KernelCopyPad, RowsOfAnyLengthArePaddedInTheUnifiedBuffer) {
  Session s;
  runCopyPad(s, {2, 5, 13, 3, 1, 2});  // 1 + 13 + 2 = 16 floats: the padding fills the row exactly
  runCopyPad(s, {3, 7, 21, 0, 2, 0});  // 23 floats, a 32-float row: right padding to the block
  runCopyPad(s, {1, 1, 1, 5, 0, 7});   // one element and its block
}

// A copy of any length costs the bytes it moves: four times the rows take longer by at least the
// extra bytes at the HBM's peak rate (1.6 TB/s). 16 passes keep the kernel longer than the host's
// launch interval, which the events would measure otherwise.
TEST(KernelCopyPad, TimedAsTheBytesMoved) {
  Session s;
  const double quarter = runCopyPad(s, {8, 8, 1000, 0, 0, 0, 16});
  const double full = runCopyPad(s, {8, 32, 1000, 0, 0, 0, 16});
  const double extraBytes = 16 * 8.0 * (32 - 8) * 1000 * 4 * 2;  // 16 passes, read and written
  std::printf("k_copy_pad: 8 rows %.2f us, 32 rows %.2f us\n", quarter * 1e3, full * 1e3);
  EXPECT_GT((full - quarter) * 1e-3, extraBytes / 1.6e12);
}

TEST(PlatformAscendC, AnswersFromThePresetTheRuntimeRuns) {
  Session s;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
  ASSERT_NE(platform, nullptr);
  EXPECT_EQ(platform, platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B2"));
  int64_t aiv = 0, aic = 0;
  ASSERT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &aiv), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &aic), ACL_SUCCESS);
  EXPECT_EQ(platform->GetCoreNumAiv(), aiv);
  EXPECT_EQ(platform->GetCoreNum(), aiv);
  EXPECT_EQ(platform->GetCoreNumAic(), aic);
  EXPECT_EQ(platform->GetCoreNumVector(), 0u);
  const npusim::Config cfg = npusim::Config::fromEnvironment();
  uint64_t ub = 0, l1 = 0, l0c = 0, hbm = 0;
  platform->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  platform->GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1);
  platform->GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c);
  platform->GetCoreMemSize(platform_ascendc::CoreMemType::HBM, hbm);
  EXPECT_EQ(ub, static_cast<uint64_t>(cfg.getInt("aicore.ub_bytes")));
  EXPECT_EQ(l1, 512u * 1024);
  EXPECT_EQ(l0c, 128u * 1024);
  EXPECT_EQ(hbm, static_cast<uint64_t>(cfg.getInt("hbm.capacity_bytes")));
  EXPECT_EQ(platform->GetSocVersion(), platform_ascendc::SocVersion::ASCEND910B);
  // A mixed kernel's 96 vector slices on 24 cube + 48 vector cores: 48 blocks of one cube core each.
  EXPECT_EQ(platform->CalcTschBlockDim(96, aic, aiv), 48u);
  EXPECT_EQ(platform->CalcTschBlockDim(96, 0, aiv), 96u);
}

// A configuration that cannot be read gives no platform, and says why (a fresh process: the
// platform is read once per process).
TEST(PlatformAscendCDeathTest, AnUnreadableConfigurationGivesNoPlatform) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("NPUSIM_SET", "aicore.vector_cores=0", 1);
        std::exit(platform_ascendc::PlatformAscendCManager::GetInstance() == nullptr ? 3 : 4);
      },
      ::testing::ExitedWithCode(3), "PlatformAscendC: .*aicore.vector_cores");
}

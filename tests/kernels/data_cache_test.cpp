// DataCachePreload and DataCacheCleanAndInvalid (docs/kernels.md, "Cube kernels"): the scalar
// unit's data cache is not modelled, so the calls change no data and cost no time beyond that of
// a call: a kernel with 20,000 preloads takes exactly the time of the same kernel calling an empty
// function in their place, and what the scalar unit wrote before a clean-and-invalidate is in GM.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_data_cache.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/kernels/dev_buffer.h"

using aicore_test::Session;
using kernel_test::Dev;

TEST(DataCache, PreloadsCostNoMoreThanACallAndChangeNoData) {
  Session s;
  Dev<uint64_t> flags(std::vector<uint64_t>(20000 * 8, 7));
  auto timed = [&](uint32_t preload) {
    auto launch = [&] {
      ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_data_cache)(1, s.stream, flags.dev, 20000, preload), 0u);
    };
    return aicore_test::deviceMs(s.stream, launch, launch);
  };
  const double preloads = timed(1), calls = timed(0);
  std::printf("k_data_cache: 20000 preloads %.3f us, 20000 empty calls %.3f us\n", preloads * 1e3,
              calls * 1e3);
  EXPECT_EQ(preloads, calls);
  EXPECT_GT(calls, 20000.0 / (aicore_test::config().getFloat("aicore.freq_ghz") * 1e9) *
                       1e3);  // the loop's own time
  const auto& f = flags.read();
  EXPECT_EQ(f[0], 20000u);  // written by the last launch (no preload), then cleaned and invalidated
  for (size_t i = 1; i < f.size(); ++i) ASSERT_EQ(f[i], 7u) << "element " << i;
}

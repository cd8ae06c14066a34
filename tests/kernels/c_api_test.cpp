// The Ascend C C API subset (c_api/asc_simd.h, docs/kernels.md): values as the definitions give
// them, and time for the bytes the copies move.
#include <gtest/gtest.h>

#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_c_api_add.h"
#include "tests/aicore/aicore_test_util.h"

using aicore_test::Session;

namespace {

// Runs k_c_api_add on `blocks` blocks of `share` floats each (the last tile partial when share is
// not a whole number of tiles), checks z = x + y and returns the device time in ms.
double runAdd(Session& s, uint32_t blocks, uint32_t share, uint32_t passes) {
  const size_t n = size_t{blocks} * share;
  std::vector<float> x(n), y(n), z(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1013) * 0.25f;
    y[i] = 3.0f - static_cast<float>(i % 7);
  }
  aicore_test::DevTensor dx({static_cast<int64_t>(n)}, ACL_FLOAT), dy({static_cast<int64_t>(n)}, ACL_FLOAT),
      dz({static_cast<int64_t>(n)}, ACL_FLOAT);
  EXPECT_EQ(aclrtMemcpy(dx.dev, dx.bytes, x.data(), dx.bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(dy.dev, dy.bytes, y.data(), dy.bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  auto k = [&] {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_c_api_add)(blocks, s.stream, dx.dev, dy.dev, dz.dev, share, passes), 0u);
  };
  const double ms = aicore_test::deviceMs(s.stream, k, k);
  EXPECT_EQ(aclrtMemcpy(z.data(), dz.bytes, dz.dev, dz.bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) wrong += z[i] != x[i] + y[i];
  EXPECT_EQ(wrong, 0u);
  return ms;
}

}  // namespace

TEST(KernelCApi, AddOverUnifiedBufferArrays) {
  Session s;
  runAdd(s, 3, 5000, 1);  // two whole tiles and a partial one per block
  runAdd(s, 1, 8, 1);
}

// Four times the elements take longer by at least the extra bytes (two loads and a store of each)
// at the HBM's peak rate (1.6 TB/s); 8 passes keep the kernel longer than the host's launch gap.
TEST(KernelCApi, TimedAsTheBytesMoved) {
  Session s;
  const double quarter = runAdd(s, 8, 8192, 8), full = runAdd(s, 8, 4 * 8192, 8);
  std::printf("k_c_api_add: %.2f us, four times the elements %.2f us\n", quarter * 1e3, full * 1e3);
  const double extraBytes = 8.0 * 8 * 3 * 8192 * 4 * 3;
  EXPECT_GT((full - quarter) * 1e-3, extraBytes / 1.6e12);
}

// SetAtomicAdd / SetAtomicNone (docs/kernels.md, "The Ascend C subset"): copies to GM add under the
// block's atomic mode, every block starts without one, a copy of another type is refused, and the
// add costs no more than the copy.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_atomic_float.h"
#include "aclrtlaunch_k_atomic_half.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/kernels/dev_buffer.h"

using aicore_test::Session;
using kernel_test::Dev;

namespace {

constexpr uint32_t kN = 4096;
constexpr uint32_t kBlocks = 4;

std::vector<float> ramp(float scale) {
  std::vector<float> v(kN);
  for (uint32_t i = 0; i < kN; ++i) v[i] = scale * static_cast<float>(i % 97) - 40;
  return v;
}

// y after kBlocks blocks each copied x into it with copy `how` under atomic mode `mode`.
std::vector<float> runFloat(Session& s, uint32_t how, uint32_t mode) {
  Dev<float> x(ramp(0.5f)), y(ramp(2.0f));
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(k_atomic_float)(kBlocks, s.stream, x.dev, y.dev, kN, how, mode), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  return y.read();
}

}  // namespace

// With SetAtomicAdd<float> each of the four blocks adds x to y (DataCopy by count, with
// DataCopyParams, DataCopyPad); without it, or after SetAtomicNone, y is x. A mode block 0 leaves
// set does not carry over to block 1, which overwrites.
TEST(KernelAtomic, CopiesToGmAddUnderSetAtomicAdd) {
  Session s;
  const auto x = ramp(0.5f), y0 = ramp(2.0f);
  for (uint32_t how : {0u, 1u, 2u}) {
    SCOPED_TRACE(::testing::Message() << "copy " << how);
    const auto added = runFloat(s, how, 1), plain = runFloat(s, how, 0), cleared = runFloat(s, how, 3),
               firstOnly = runFloat(s, how, 2);
    size_t bad = 0;
    for (uint32_t i = 0; i < kN; ++i) {
      bad += added[i] != y0[i] + kBlocks * x[i];
      bad += plain[i] != x[i];
      bad += cleared[i] != x[i];
      bad += firstOnly[i] != x[i];
    }
    EXPECT_EQ(bad, 0u) << "y[1] " << added[1] << " / " << plain[1] << " / " << cleared[1] << " / "
                       << firstOnly[1];
  }
}

// half adds in float and rounds once: 1.5 + 4 x 0.25 = 2.5 exactly; 2048 + 1 stays 2048 (the
// half spacing there is 2).
TEST(KernelAtomic, HalfAddsRoundToHalf) {
  Session s;
  std::vector<_Float16> x(kN, static_cast<_Float16>(0.25f)), y(kN, static_cast<_Float16>(1.5f));
  x[7] = static_cast<_Float16>(1.0f);
  y[7] = static_cast<_Float16>(2048.0f);
  Dev<_Float16> dx(x), dy(y);
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_atomic_half)(1, s.stream, dx.dev, dy.dev, kN, 0u, 1u), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  const auto& out = dy.read();
  EXPECT_EQ(static_cast<float>(out[0]), 1.75f);
  EXPECT_EQ(static_cast<float>(out[7]), 2048.0f);
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_atomic_half)(4, s.stream, dx.dev, dy.dev, kN, 0u, 1u), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  EXPECT_EQ(static_cast<float>(dy.read()[0]), 2.75f);
}

// A float copy while SetAtomicAdd<half> is set ends the kernel with the reason.
TEST(KernelAtomic, ACopyOfAnotherTypeEndsTheKernel) {
  Session s;
  Dev<float> x(ramp(1.0f)), y(kN);
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_atomic_float)(1, s.stream, x.dev, y.dev, kN, 0u, 4u), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("another type than the atomic add's"), std::string::npos)
      << aclGetRecentErrMsg();
}

// The add is done by the DMA as it writes: the same copies take the same time with and without
// it (within 1 %).
TEST(KernelAtomic, TheAddCostsNoMoreThanTheCopy) {
  Session s;
  Dev<float> x(ramp(1.0f)), y(kN);
  auto run = [&](uint32_t mode) {
    return [&, mode] {
      ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_atomic_float)(kBlocks, s.stream, x.dev, y.dev, kN, 0u, mode), 0u);
    };
  };
  const double plain = aicore_test::deviceMs(s.stream, run(0), run(0));
  const double added = aicore_test::deviceMs(s.stream, run(1), run(1));
  EXPECT_NEAR(added, plain, 0.01 * plain);
}

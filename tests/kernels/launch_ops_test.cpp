// The calls the KernelLaunch samples (LeakyRelu, PreLayerNorm) use beyond the Add samples':
// values of Maxs/Mins and of `dst = a op b`, the operator timed as the call it stands for, and
// GetTPipePtr without a pipe ending the kernel.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_add_forms.h"
#include "aclrtlaunch_k_launch_ops.h"
#include "aclrtlaunch_k_no_pipe.h"
#include "tests/aicore/aicore_test_util.h"

using aicore_test::Session;

namespace {
void* devCopy(const std::vector<float>& v) {
  void* d = nullptr;
  EXPECT_EQ(aclrtMalloc(&d, v.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(d, v.size() * 4, v.data(), v.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  return d;
}
std::vector<float> hostCopy(void* d, size_t n) {
  std::vector<float> v(n);
  EXPECT_EQ(aclrtMemcpy(v.data(), n * 4, d, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  return v;
}
}  // namespace

TEST(KernelLaunchOps, LeakyReluAndOperatorExpressionsGiveTheirValues) {
  Session s;
  const uint32_t blocks = 3, tile = 1024, n = blocks * tile;
  std::vector<float> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 201) * 0.25f - 25.0f;
    y[i] = static_cast<float>(i % 13) + 0.5f;
  }
  void *dx = devCopy(x), *dy = devCopy(y), *dz = devCopy(std::vector<float>(n)),
       *dw = devCopy(std::vector<float>(n));
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_launch_ops)(blocks, s.stream, dx, dy, dz, dw, tile, 0.125f), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  const std::vector<float> z = hostCopy(dz, n), w = hostCopy(dw, n);
  for (uint32_t i = 0; i < n; ++i) {
    const float leaky = (x[i] > 0 ? x[i] : 0.0f) + (x[i] < 0 ? x[i] : 0.0f) * 0.125f;
    ASSERT_EQ(z[i], leaky) << i;
    const float sum = x[i] + y[i], diff = x[i] - y[i], prod = sum * diff;
    ASSERT_EQ(w[i], prod / y[i]) << i;
  }
  for (void* p : {dx, dy, dz, dw}) aclrtFree(p);
}

// `t = a + b` is the Add instruction over t's elements: 1024 of them take the time of 1024 Add
// calls, and 768 more passes take longer by at least their vector work (16 KiB each, 256 B a cycle
// at 1.8 GHz on every block's core; enough to outlast the host's launch interval).
TEST(KernelLaunchOps, AnOperatorExpressionIsTimedAsItsInstruction) {
  Session s;
  const uint32_t blocks = 4, tile = 4096;
  std::vector<float> x(tile);
  for (uint32_t i = 0; i < tile; ++i) x[i] = static_cast<float>(i);
  void *dx = devCopy(x), *dz = devCopy(std::vector<float>(blocks * tile));
  auto timed = [&](uint32_t passes, uint32_t asOperator) {
    auto k = [&] {
      ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_add_forms)(blocks, s.stream, dx, dz, tile, passes, asOperator), 0u);
    };
    const double ms = aicore_test::deviceMs(s.stream, k, k);
    const std::vector<float> z = hostCopy(dz, blocks * tile);
    for (uint32_t i = 0; i < blocks * tile; ++i) EXPECT_EQ(z[i], 2.0f * x[i % tile]) << i;
    return ms;
  };
  const double op = timed(1024, 1), call = timed(1024, 0), fewer = timed(256, 1);
  std::printf("k_add_forms: 1024 operators %.3f us, 1024 calls %.3f us, 256 operators %.3f us\n", op * 1e3,
              call * 1e3, fewer * 1e3);
  EXPECT_NEAR(op, call, 0.01 * call);
  EXPECT_GT((op - fewer) * 1e-3, 768 * tile * 4.0 / (256 * 1.8e9));
  aclrtFree(dx);
  aclrtFree(dz);
}

TEST(KernelLaunchOps, GetTPipePtrWithoutAPipeEndsTheKernel) {
  Session s;
  void* dz = devCopy(std::vector<float>(8));
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_no_pipe)(1, s.stream, dz), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  const std::string why = aclGetRecentErrMsg();
  EXPECT_NE(why.find("GetTPipePtr: the kernel has constructed no TPipe"), std::string::npos) << why;
  aclrtFree(dz);
}

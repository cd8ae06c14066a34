// An operator's tensor may reach the rest of its allocation's last 4 KiB device page, as on
// hardware (docs/checks.md): the public softmax_cross_entropy_with_logits example describes a
// 32-byte allocation as 16 floats. Past the page the launch is refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_modulate.h"

namespace {

aclTensor* floats(void* dev, int64_t n) {
  const int64_t shape[] = {1, 1, n}, strides[] = {n, n, 1};
  return aclCreateTensor(shape, 3, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 3, dev);
}

// self + shift (scale absent) over n floats; out lives in `outDev`.
int launch(void* in, void* outDev, int64_t n, aclrtStream stream) {
  aclTensor *x = floats(in, n), *shift = floats(in, n), *out = floats(outDev, n);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  int st = aclnnModulateGetWorkspaceSize(x, nullptr, shift, out, &ws, &ex);
  if (st == 0) st = aclnnModulate(nullptr, 0, ex, stream);
  if (st == 0) st = aclrtSynchronizeStream(stream);
  aclDestroyTensor(x);
  aclDestroyTensor(shift);
  aclDestroyTensor(out);
  return st;
}

}  // namespace

TEST(AllocationPages, OperatorTensorsMayFillTheLastDevicePage) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  void *in = nullptr, *out = nullptr;
  ASSERT_EQ(aclrtMalloc(&in, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&out, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);  // 96 reserved, one page
  std::vector<float> h(1024);
  for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<float>(i);
  ASSERT_EQ(aclrtMemcpy(in, 4096, h.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  // 16 floats (64 bytes) in a 32-byte allocation: inside its page, computed.
  ASSERT_EQ(launch(in, out, 16, stream), 0) << aclGetRecentErrMsg();
  std::vector<float> back(16);
  ASSERT_EQ(aclrtMemcpy(back.data(), 64, out, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(back[i], 2.0f * i);
  // 1024 floats fill the page exactly; 1025 run past it.
  EXPECT_EQ(launch(in, out, 1024, stream), 0) << aclGetRecentErrMsg();
  EXPECT_EQ(launch(in, out, 1025, stream), 161002);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not inside one live device allocation"),
            std::string::npos)
      << aclGetRecentErrMsg();
  aclrtFree(in);
  aclrtFree(out);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
}

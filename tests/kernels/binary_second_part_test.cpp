// Kernel binaries and functions through the real header's second part: binaries made from data
// (aclrtCreateBinary, aclrtBinaryLoad), the image in device memory, function names, owners and
// addresses (and finding a function by its address), launches with a configuration
// (aclrtLaunchKernelV2) and with host arguments whose placeholders point at device copies.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <type_traits>
#include <vector>

#include "acl/acl.h"
#include "tests/aicore/aicore_test_util.h"

using aicore_test::Session;

// The real signatures (CANN acl_rt.h).
static_assert(std::is_same_v<decltype(aclrtCreateBinary), aclrtBinary(const void*, size_t)>);
static_assert(std::is_same_v<decltype(aclrtDestroyBinary), aclError(aclrtBinary)>);
static_assert(std::is_same_v<decltype(aclrtBinaryLoad), aclError(const aclrtBinary, aclrtBinHandle*)>);
static_assert(
    std::is_same_v<decltype(aclrtBinaryGetDevAddress), aclError(const aclrtBinHandle, void**, size_t*)>);
static_assert(std::is_same_v<decltype(aclrtBinaryGetFunctionByEntry),
                             aclError(aclrtBinHandle, uint64_t, aclrtFuncHandle*)>);
static_assert(std::is_same_v<decltype(aclrtGetFunctionAddr), aclError(aclrtFuncHandle, void**, void**)>);
static_assert(std::is_same_v<decltype(aclrtGetFunctionName), aclError(aclrtFuncHandle, uint32_t, char*)>);
static_assert(
    std::is_same_v<decltype(aclrtFunctionGetBinary), aclError(const aclrtFuncHandle, aclrtBinHandle*)>);
static_assert(
    std::is_same_v<decltype(aclrtLaunchKernelV2), aclError(aclrtFuncHandle, uint32_t, const void*, size_t,
                                                           aclrtLaunchKernelCfg*, aclrtStream)>);
static_assert(std::is_same_v<decltype(aclrtLaunchKernelWithHostArgs),
                             aclError(aclrtFuncHandle, uint32_t, aclrtStream, aclrtLaunchKernelCfg*, void*,
                                      size_t, aclrtPlaceHolderInfo*, size_t)>);
static_assert(
    std::is_same_v<decltype(aclrtLaunchSIMTKernelWithArgsArray),
                   aclError(void*, dim3, dim3, size_t, aclrtStream, aclrtLaunchKernelCfg*, void**)>);
static_assert(std::is_same_v<decltype(aclrtLaunchSIMTKernelWithHostArgs),
                             aclError(void*, dim3, dim3, size_t, aclrtStream, aclrtLaunchKernelCfg*, void*,
                                      size_t, aclrtPlaceHolderInfo*, size_t)>);

namespace {

std::vector<char> binaryBytes() {
  std::ifstream file(NPUSIM_TEST_KERNEL_BINARY, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST(KernelBinarySecondPart, BinariesFromDataNamesAddressesAndLaunches) {
  Session s;
  const std::vector<char> bytes = binaryBytes();
  ASSERT_GT(bytes.size(), 0u);
  EXPECT_EQ(aclrtCreateBinary(nullptr, 10), nullptr);
  aclrtBinary data = aclrtCreateBinary(bytes.data(), bytes.size());
  ASSERT_NE(data, nullptr);
  aclrtBinHandle bin = nullptr;
  ASSERT_EQ(aclrtBinaryLoad(data, &bin), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtDestroyBinary(data), ACL_SUCCESS);  // the loaded binary keeps its own copy
  EXPECT_EQ(aclrtDestroyBinary(data), ACL_ERROR_INVALID_PARAM);

  // The image in device memory: the same bytes.
  void* image = nullptr;
  size_t size = 0;
  ASSERT_EQ(aclrtBinaryGetDevAddress(bin, &image, &size), ACL_SUCCESS);
  EXPECT_EQ(size, bytes.size());
  std::vector<char> back(size);
  ASSERT_EQ(aclrtMemcpy(back.data(), size, image, size, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(back, bytes);

  aclrtFuncHandle fill = nullptr, scale = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(bin, "bin_fill", &fill), ACL_SUCCESS);
  ASSERT_EQ(aclrtBinaryGetFunction(bin, "bin_scale", &scale), ACL_SUCCESS);
  char name[32];
  ASSERT_EQ(aclrtGetFunctionName(fill, sizeof name, name), ACL_SUCCESS);
  EXPECT_STREQ(name, "bin_fill");
  char shortName[4];
  ASSERT_EQ(aclrtGetFunctionName(fill, sizeof shortName, shortName), ACL_SUCCESS);
  EXPECT_STREQ(shortName, "bin");
  aclrtBinHandle owner = nullptr;
  ASSERT_EQ(aclrtFunctionGetBinary(fill, &owner), ACL_SUCCESS);
  EXPECT_EQ(owner, bin);

  // Addresses: inside the image, distinct per kernel, vector only; each finds its function.
  void *aic = reinterpret_cast<void*>(1), *aivFill = nullptr, *aivScale = nullptr;
  ASSERT_EQ(aclrtGetFunctionAddr(fill, &aic, &aivFill), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetFunctionAddr(scale, &aic, &aivScale), ACL_SUCCESS);
  EXPECT_EQ(aic, nullptr);
  EXPECT_NE(aivFill, aivScale);
  EXPECT_GE(aivFill, image);
  EXPECT_LT(aivFill, static_cast<char*>(image) + size);
  aclrtFuncHandle found = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunctionByEntry(bin, reinterpret_cast<uintptr_t>(aivScale), &found), ACL_SUCCESS);
  EXPECT_EQ(found, scale);
  EXPECT_EQ(aclrtBinaryGetFunctionByEntry(bin, 12345, &found), ACL_ERROR_RT_SYMBOL_NOT_FOUND);

  // aclrtLaunchKernelV2: packed arguments and a configuration.
  const uint64_t n = 16;
  void* out = nullptr;
  ASSERT_EQ(aclrtMalloc(&out, 4 * n * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  struct {
    void* out;
    int32_t value;
    uint64_t n;
  } packed{out, 100, n};
  aclrtLaunchKernelAttr attr{};
  attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
  attr.value.engineType = ACL_RT_ENGINE_TYPE_AIV;
  aclrtLaunchKernelCfg cfg{&attr, 1};
  ASSERT_EQ(aclrtLaunchKernelV2(fill, 4, &packed, sizeof packed, &cfg, s.stream), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  std::vector<int32_t> ints(4 * n);
  ASSERT_EQ(aclrtMemcpy(ints.data(), ints.size() * 4, out, ints.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(ints[3 * n + 5], 103);
  attr.value.engineType = ACL_RT_ENGINE_TYPE_AIC;
  EXPECT_EQ(aclrtLaunchKernelV2(fill, 4, &packed, sizeof packed, &cfg, s.stream), ACL_ERROR_API_NOT_SUPPORT);

  // Host arguments with placeholders: factor and count sit after the pointers in the buffer.
  const uint32_t count = 1024;
  std::vector<float> x(count);
  for (uint32_t i = 0; i < count; ++i) x[i] = static_cast<float>(i);
  void *dx = nullptr, *dout = nullptr;
  ASSERT_EQ(aclrtMalloc(&dx, count * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dout, count * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(dx, count * 4, x.data(), count * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  struct {
    void* x;
    void* out;
    void* factor;  // placeholder -> data at offsetof(factorValue)
    void* count;   // placeholder -> data at offsetof(countValue)
    float factorValue;
    uint32_t countValue;
  } host{dx, dout, nullptr, nullptr, 2.5f, count};
  aclrtPlaceHolderInfo holders[2] = {{static_cast<uint32_t>(offsetof(decltype(host), factor)),
                                      static_cast<uint32_t>(offsetof(decltype(host), factorValue))},
                                     {static_cast<uint32_t>(offsetof(decltype(host), count)),
                                      static_cast<uint32_t>(offsetof(decltype(host), countValue))}};
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(scale, 4, s.stream, nullptr, &host, sizeof host, holders, 2),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  std::vector<float> y(count);
  ASSERT_EQ(aclrtMemcpy(y.data(), count * 4, dout, count * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(y[10], 25.0f);
  EXPECT_EQ(y[count - 1], 2.5f * static_cast<float>(count - 1));
  aclrtPlaceHolderInfo outside{static_cast<uint32_t>(sizeof host), 0};
  EXPECT_EQ(aclrtLaunchKernelWithHostArgs(scale, 4, s.stream, nullptr, &host, sizeof host, &outside, 1),
            ACL_ERROR_INVALID_PARAM);
  aclrtFree(dx);
  aclrtFree(dout);
  aclrtFree(out);
  EXPECT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
}

// Kernels and device variables named by their host symbols, kernel parameter queries, function
// attributes and sizes, launches from an argument array, binary globals and binary exception
// callbacks (the real acl_rt.h's second part, issue 16).
#include <gtest/gtest.h>

#include <cstring>
#include <type_traits>
#include <vector>

#include "acl/acl.h"
#include "tests/aicore/aicore_test_util.h"

using aicore_test::readFloats;
using aicore_test::Session;

// The kernels and variables of tests/kernels/device/symbol_kernels.cpp, as host symbols.
extern "C" void k_add_bias(uint8_t* x, uint32_t n);
extern "C" void k_mixed(uint8_t* out, uint8_t a, uint64_t b, uint16_t c);
extern float g_bias;
extern int32_t g_hits[8];

// The real signatures (CANN acl_rt.h).
static_assert(std::is_same_v<decltype(aclrtGetFuncBySymbol), aclError(const void*, aclrtFuncHandle*)>);
static_assert(std::is_same_v<decltype(aclrtLaunchKernelWithArgsArray),
                             aclError(void*, uint32_t, aclrtStream, aclrtLaunchKernelCfg*, void**)>);
static_assert(std::is_same_v<decltype(aclrtFunctionGetParamCount), aclError(const void*, size_t*)>);
static_assert(
    std::is_same_v<decltype(aclrtFunctionGetParamInfo), aclError(const void*, size_t, size_t*, size_t*)>);
static_assert(
    std::is_same_v<decltype(aclrtFunctionGetAvailDynUbufPerBlock), aclError(void*, uint32_t, size_t*)>);
static_assert(std::is_same_v<decltype(aclrtGetFunctionAttribute),
                             aclError(aclrtFuncHandle, aclrtFuncAttribute, int64_t*)>);
static_assert(std::is_same_v<decltype(aclrtGetFunctionSize), aclError(aclrtFuncHandle, size_t*, size_t*)>);
static_assert(
    std::is_same_v<decltype(aclrtBinaryGetGlobal), aclError(aclrtBinHandle, const char*, void**, size_t*)>);
static_assert(std::is_same_v<decltype(aclrtBinarySetExceptionCallback),
                             aclError(aclrtBinHandle, aclrtOpExceptionCallback, void*)>);
static_assert(std::is_same_v<decltype(aclrtRegisterCpuFunc),
                             aclError(const aclrtBinHandle, const char*, const char*, aclrtFuncHandle*)>);
static_assert(std::is_same_v<decltype(aclrtGetSymbolAddress), aclError(const void*, void**)>);
static_assert(std::is_same_v<decltype(aclrtGetSymbolSize), aclError(const void*, size_t*)>);
static_assert(std::is_same_v<decltype(aclrtMemcpyFromSymbol),
                             aclError(void*, size_t, const void*, size_t, size_t, aclrtMemcpyKind)>);
static_assert(
    std::is_same_v<decltype(aclrtMemcpyFromSymbolAsync),
                   aclError(void*, size_t, const void*, size_t, size_t, aclrtMemcpyKind, aclrtStream)>);
static_assert(std::is_same_v<decltype(aclrtMemcpyToSymbol),
                             aclError(const void*, const void*, size_t, size_t, aclrtMemcpyKind)>);
static_assert(
    std::is_same_v<decltype(aclrtMemcpyToSymbolAsync),
                   aclError(const void*, const void*, size_t, size_t, aclrtMemcpyKind, aclrtStream)>);
static_assert(ACL_KERNEL_TYPE_AICORE == 0 && ACL_KERNEL_TYPE_CUBE == 1 && ACL_KERNEL_TYPE_VECTOR == 2 &&
              ACL_KERNEL_TYPE_MIX == 3 && ACL_KERNEL_TYPE_AICPU == 100);

TEST(KernelSymbols, FunctionBySymbolParametersAndArgsArrayLaunch) {
  Session s;
  aclrtFuncHandle f = nullptr;
  ASSERT_EQ(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&k_mixed), &f), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  aclrtFuncHandle again = nullptr;
  ASSERT_EQ(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&k_mixed), &again), ACL_SUCCESS);
  EXPECT_EQ(again, f);
  char name[16];
  ASSERT_EQ(aclrtGetFunctionName(f, sizeof name, name), ACL_SUCCESS);
  EXPECT_STREQ(name, "k_mixed");
  int local = 0;
  EXPECT_EQ(aclrtGetFuncBySymbol(&local, &f), ACL_ERROR_RT_SYMBOL_NOT_FOUND);
  EXPECT_EQ(aclrtGetFuncBySymbol(nullptr, &f), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&k_mixed), &f), ACL_SUCCESS);

  // Parameters as packed: pointer at 0, uint8 at 8, uint64 at 16, uint16 at 24.
  size_t count = 0;
  ASSERT_EQ(aclrtFunctionGetParamCount(f, &count), ACL_SUCCESS);
  EXPECT_EQ(count, 4u);
  const size_t offsets[4] = {0, 8, 16, 24}, sizes[4] = {8, 1, 8, 2};
  for (size_t i = 0; i < 4; ++i) {
    size_t off = 99, size = 99;
    ASSERT_EQ(aclrtFunctionGetParamInfo(f, i, &off, &size), ACL_SUCCESS);
    EXPECT_EQ(off, offsets[i]) << i;
    EXPECT_EQ(size, sizes[i]) << i;
  }
  size_t off = 0, size = 0;
  EXPECT_EQ(aclrtFunctionGetParamInfo(f, 4, &off, &size), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFunctionGetParamCount(&local, &count), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFunctionGetParamCount(f, nullptr), ACL_ERROR_INVALID_PARAM);

  // Attributes: a vector kernel, normal scheduling, no dynamic unified buffer (not SIMT).
  int64_t value = -1;
  ASSERT_EQ(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_TYPE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, ACL_KERNEL_TYPE_VECTOR);
  ASSERT_EQ(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_SCHED_MODE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 0);
  ASSERT_EQ(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_RATIO, &value), ACL_SUCCESS);
  uint16_t ratio[4];
  std::memcpy(ratio, &value, sizeof ratio);
  EXPECT_EQ(ratio[0], 1);  // vector
  EXPECT_EQ(ratio[1], 0);  // cube
  EXPECT_EQ(aclrtGetFunctionAttribute(f, static_cast<aclrtFuncAttribute>(9), &value),
            ACL_ERROR_INVALID_PARAM);
  size_t ubuf = 99;
  ASSERT_EQ(aclrtFunctionGetAvailDynUbufPerBlock(f, 0, &ubuf), ACL_SUCCESS);
  EXPECT_EQ(ubuf, 0u);
  EXPECT_EQ(aclrtFunctionGetAvailDynUbufPerBlock(nullptr, 0, &ubuf), ACL_ERROR_INVALID_PARAM);

  // An argument array: each element points at one parameter's value.
  void* out = nullptr;
  ASSERT_EQ(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  uint8_t a = 200;
  uint64_t b = 0x123456789abcULL;
  uint16_t c = 65000;
  void* args[4] = {&out, &a, &b, &c};
  ASSERT_EQ(aclrtLaunchKernelWithArgsArray(f, 2, s.stream, nullptr, args), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  uint64_t got[3] = {};
  ASSERT_EQ(aclrtMemcpy(got, sizeof got, out, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(got[0], 200u);
  EXPECT_EQ(got[1], b);
  EXPECT_EQ(got[2], 65000u);
  // The kernel's own symbol works as `func` too.
  a = 7;
  ASSERT_EQ(aclrtLaunchKernelWithArgsArray(reinterpret_cast<void*>(&k_mixed), 1, s.stream, nullptr, args),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(got, sizeof got, out, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(got[0], 7u);
  args[2] = nullptr;
  EXPECT_EQ(aclrtLaunchKernelWithArgsArray(f, 1, s.stream, nullptr, args), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtLaunchKernelWithArgsArray(f, 1, s.stream, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtLaunchKernelWithArgsArray(&local, 1, s.stream, nullptr, args), ACL_ERROR_INVALID_PARAM);
  aclrtFree(out);
}

// The same kernel on the same data takes the same device time whether launched from an argument
// array or from a packed buffer (aclrtLaunchKernelV2).
TEST(KernelSymbols, ArgsArrayLaunchIsTimedLikeAPackedLaunch) {
  Session s;
  aclrtFuncHandle f = nullptr;
  ASSERT_EQ(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&k_add_bias), &f), ACL_SUCCESS);
  const uint32_t n = 1 << 16;
  void *x = nullptr, *warmBuf = nullptr;
  ASSERT_EQ(aclrtMalloc(&x, n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&warmBuf, 64 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  auto warm = [&] { ASSERT_EQ(aclrtMemsetAsync(warmBuf, 64 << 20, 0, 64 << 20, s.stream), ACL_SUCCESS); };
  uint32_t count = n;
  void* args[2] = {&x, &count};
  const double arrayMs = aicore_test::deviceMs(s.stream, warm, [&] {
    ASSERT_EQ(aclrtLaunchKernelWithArgsArray(f, 8, s.stream, nullptr, args), ACL_SUCCESS);
  });
  struct {
    void* x;
    uint32_t n;
  } packed{x, n};
  const double packedMs = aicore_test::deviceMs(s.stream, warm, [&] {
    ASSERT_EQ(aclrtLaunchKernelV2(f, 8, &packed, sizeof packed, nullptr, s.stream), ACL_SUCCESS);
  });
  EXPECT_GT(arrayMs, 0.0);
  EXPECT_NEAR(arrayMs, packedMs, packedMs * 0.02);
  aclrtFree(x);
  aclrtFree(warmBuf);
}

// A __gm__ variable: its device copy starts with the initial value, the symbol copies write and
// read it in stream order, kernels see it, and its address is ordinary device memory.
TEST(KernelSymbols, DeviceVariablesThroughTheirSymbols) {
  Session s;
  size_t size = 0;
  ASSERT_EQ(aclrtGetSymbolSize(&g_bias, &size), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(size, sizeof(float));
  ASSERT_EQ(aclrtGetSymbolSize(g_hits, &size), ACL_SUCCESS);
  EXPECT_EQ(size, sizeof g_hits);
  int local = 0;
  EXPECT_EQ(aclrtGetSymbolSize(&local, &size), ACL_ERROR_RT_INVALID_SYMBOL);
  EXPECT_EQ(aclrtGetSymbolSize(nullptr, &size), ACL_ERROR_INVALID_PARAM);

  void* dev = nullptr;
  ASSERT_EQ(aclrtGetSymbolAddress(&g_bias, &dev), ACL_SUCCESS);
  float initial = 0;
  ASSERT_EQ(aclrtMemcpy(&initial, 4, dev, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(initial, 1.5f);
  ASSERT_EQ(aclrtMemcpyFromSymbol(&initial, 4, &g_bias, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(initial, 1.5f);

  // The kernel adds the variable's device value; then the value is changed by a symbol copy.
  const uint32_t n = 64;
  void* x = nullptr;
  ASSERT_EQ(aclrtMalloc(&x, n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(x, n * 4, 0, n * 4), ACL_SUCCESS);
  aclrtFuncHandle f = nullptr;
  ASSERT_EQ(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&k_add_bias), &f), ACL_SUCCESS);
  uint32_t count = n;
  void* args[2] = {&x, &count};
  ASSERT_EQ(aclrtLaunchKernelWithArgsArray(f, 4, s.stream, nullptr, args), ACL_SUCCESS);
  const float ten = 10.0f;
  ASSERT_EQ(aclrtMemcpyToSymbolAsync(&g_bias, &ten, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE, s.stream), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtLaunchKernelWithArgsArray(f, 4, s.stream, nullptr, args), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  std::vector<float> v = readFloats(x, n);
  EXPECT_EQ(v[0], 11.5f);
  EXPECT_EQ(v[n - 1], 11.5f);

  // What the kernels wrote to a variable is on the device: two runs of four blocks.
  int32_t hits[8] = {};
  ASSERT_EQ(aclrtMemcpyFromSymbol(hits, sizeof hits, g_hits, sizeof hits, 0, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(hits[0], 2);
  EXPECT_EQ(hits[3], 2);
  EXPECT_EQ(hits[4], 0);
  // An offset into the array, asynchronously.
  int32_t two[2] = {};
  ASSERT_EQ(aclrtMemcpyFromSymbolAsync(two, sizeof two, g_hits, sizeof two, 2 * sizeof(int32_t),
                                       ACL_MEMCPY_DEFAULT, s.stream),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  EXPECT_EQ(two[0], 2);
  EXPECT_EQ(two[1], 2);
  // A plain aclrtMemcpy to the variable's address is seen by the next kernel.
  const float half = 0.5f;
  ASSERT_EQ(aclrtMemcpy(dev, 4, &half, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithArgsArray(f, 4, s.stream, nullptr, args), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  EXPECT_EQ(readFloats(x, n)[5], 12.0f);

  // Bad input: past the end, wrong kinds, short destination, NULL.
  EXPECT_EQ(aclrtMemcpyToSymbol(&g_bias, &ten, 4, 1, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpyToSymbol(&g_bias, &ten, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpyToSymbol(&g_bias, nullptr, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpyToSymbol(&local, &ten, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_INVALID_SYMBOL);
  EXPECT_EQ(aclrtMemcpyFromSymbol(hits, 4, g_hits, 8, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpyFromSymbol(hits, 32, g_hits, 8, 0, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetSymbolAddress(&g_bias, nullptr), ACL_ERROR_INVALID_PARAM);
  aclrtFree(x);
}

// A variable's device copy was memory of the simulation that made it: after aclFinalize and
// aclInit the variable gets a new copy from its initial bytes, not the old address, which a new
// allocation may now cover.
TEST(KernelSymbols, DeviceVariablesGetANewCopyInANewSimulation) {
  void* old = nullptr;
  {
    Session s;
    void* before = nullptr;  // so the copy is not the first allocation
    ASSERT_EQ(aclrtMalloc(&before, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetSymbolAddress(&g_bias, &old), ACL_SUCCESS);
    const float ten = 10.0f;
    ASSERT_EQ(aclrtMemcpyToSymbol(&g_bias, &ten, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  Session s;
  // Device memory is reserved at the same addresses in every simulation: this buffer covers
  // where the old copy was.
  const size_t big = 1u << 20;
  void* buffer = nullptr;
  ASSERT_EQ(aclrtMalloc(&buffer, big, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(buffer, big, 0x7f, big), ACL_SUCCESS);
  const auto inBuffer = [&](const void* p) {
    return static_cast<const uint8_t*>(p) >= static_cast<const uint8_t*>(buffer) &&
           static_cast<const uint8_t*>(p) < static_cast<const uint8_t*>(buffer) + big;
  };
  EXPECT_TRUE(inBuffer(old)) << "the layout this test relies on changed";
  void* dev = nullptr;
  ASSERT_EQ(aclrtGetSymbolAddress(&g_bias, &dev), ACL_SUCCESS);
  EXPECT_FALSE(inBuffer(dev));
  float value = 0;
  ASSERT_EQ(aclrtMemcpyFromSymbol(&value, 4, &g_bias, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(value, 1.5f);  // the initial value, as a fresh load would have it
  aclrtFree(buffer);
}

// A symbol copy costs what the same copy to a device buffer costs (it is one).
TEST(KernelSymbols, SymbolCopiesAreTimedAsCopies) {
  Session s;
  void *buf = nullptr, *pinned = nullptr, *warmBuf = nullptr;
  ASSERT_EQ(aclrtMalloc(&buf, sizeof g_hits, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&pinned, sizeof g_hits), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&warmBuf, 64 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  auto warm = [&] { ASSERT_EQ(aclrtMemsetAsync(warmBuf, 64 << 20, 0, 64 << 20, s.stream), ACL_SUCCESS); };
  const double symbolMs = aicore_test::deviceMs(s.stream, warm, [&] {
    ASSERT_EQ(aclrtMemcpyToSymbolAsync(g_hits, pinned, sizeof g_hits, 0, ACL_MEMCPY_HOST_TO_DEVICE, s.stream),
              ACL_SUCCESS);
  });
  const double plainMs = aicore_test::deviceMs(s.stream, warm, [&] {
    ASSERT_EQ(
        aclrtMemcpyAsync(buf, sizeof g_hits, pinned, sizeof g_hits, ACL_MEMCPY_HOST_TO_DEVICE, s.stream),
        ACL_SUCCESS);
  });
  EXPECT_GT(symbolMs, 0.0);
  EXPECT_NEAR(symbolMs, plainMs, plainMs * 0.02);
  aclrtFree(buf);
  aclrtFree(warmBuf);
  aclrtFreeHost(pinned);
}

namespace {
int gBinaryCallbacks = 0;
void* gBinaryUserData = nullptr;
uint32_t gBinaryError = 0;
void onBinaryException(aclrtExceptionInfo* info, void* userData) {
  ++gBinaryCallbacks;
  gBinaryUserData = userData;
  gBinaryError = aclrtGetErrorCodeFromExceptionInfo(info);
}
}  // namespace

// A loaded binary: its global by name, its kernels' code sizes, its exception callback, and no
// AI CPU functions.
TEST(KernelSymbols, BinaryGlobalsSizesCallbacksAndCpuFunctions) {
  Session s;
  aclrtBinHandle bin = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromFile(NPUSIM_TEST_KERNEL_BINARY, nullptr, &bin), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  void* dev = nullptr;
  size_t size = 0;
  ASSERT_EQ(aclrtBinaryGetGlobal(bin, "bin_offset", &dev, &size), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(size, sizeof(int32_t));
  int32_t offset = 0;
  ASSERT_EQ(aclrtMemcpy(&offset, 4, dev, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(offset, 7);
  offset = 40;
  ASSERT_EQ(aclrtMemcpy(dev, 4, &offset, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclrtFuncHandle add = nullptr, trap = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(bin, "bin_add_global", &add), ACL_SUCCESS);
  ASSERT_EQ(aclrtBinaryGetFunction(bin, "bin_trap", &trap), ACL_SUCCESS);
  void* out = nullptr;
  ASSERT_EQ(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  uint32_t n = 4;
  void* args[2] = {&out, &n};
  ASSERT_EQ(aclrtLaunchKernelWithArgsArray(add, 1, s.stream, nullptr, args), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS);
  int32_t got[4] = {};
  ASSERT_EQ(aclrtMemcpy(got, 16, out, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(got[0], 40);
  EXPECT_EQ(got[3], 43);
  size = 0;
  ASSERT_EQ(aclrtBinaryGetGlobal(bin, "bin_offset", nullptr, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 4u);
  EXPECT_EQ(aclrtBinaryGetGlobal(bin, "no_such_global", &dev, &size), ACL_ERROR_RT_SYMBOL_NOT_FOUND);
  EXPECT_EQ(aclrtBinaryGetGlobal(bin, "bin_offset", nullptr, nullptr), ACL_ERROR_INVALID_PARAM);

  // Code sizes: vector code only, and different kernels differ.
  size_t aic = 1, aivAdd = 0, aivTrap = 0;
  ASSERT_EQ(aclrtGetFunctionSize(add, &aic, &aivAdd), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtGetFunctionSize(trap, &aic, &aivTrap), ACL_SUCCESS);
  EXPECT_EQ(aic, 0u);
  EXPECT_GT(aivAdd, 0u);
  EXPECT_GT(aivTrap, 0u);
  EXPECT_NE(aivAdd, aivTrap);
  EXPECT_EQ(aclrtGetFunctionSize(add, nullptr, &aivAdd), ACL_ERROR_INVALID_PARAM);

  // The binary's exception callback, with its user data, when its kernel faults.
  int token = 0;
  EXPECT_EQ(aclrtBinarySetExceptionCallback(bin, nullptr, &token), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtBinarySetExceptionCallback(bin, onBinaryException, &token), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithArgsArray(trap, 1, s.stream, nullptr, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(gBinaryCallbacks, 1);
  EXPECT_EQ(gBinaryUserData, &token);
  EXPECT_EQ(gBinaryError, static_cast<uint32_t>(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION));

  // AI CPU registration: the binary holds AI-core kernels.
  aclrtFuncHandle cpu = nullptr;
  EXPECT_EQ(aclrtRegisterCpuFunc(bin, "RunCpuKernel", "Add", &cpu), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtRegisterCpuFunc(bin, nullptr, "Add", &cpu), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtRegisterCpuFunc(nullptr, "RunCpuKernel", "Add", &cpu), ACL_ERROR_INVALID_PARAM);
  aclrtFree(out);
  EXPECT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  EXPECT_EQ(aclrtBinaryGetGlobal(bin, "bin_offset", &dev, &size), ACL_ERROR_INVALID_PARAM);
}

// The simulated A2 device has no SIMT units: both SIMT launches are refused, saying why, even for a
// real kernel.
TEST(KernelSymbols, SimtLaunchesAreRefused) {
  Session s;
  aclrtFuncHandle f = nullptr;
  ASSERT_EQ(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&k_add_bias), &f), ACL_SUCCESS);
  void* x = nullptr;
  ASSERT_EQ(aclrtMalloc(&x, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  uint32_t n = 64;
  void* args[2] = {&x, &n};
  EXPECT_EQ(aclrtLaunchSIMTKernelWithArgsArray(f, dim3(1), dim3(32), 0, s.stream, nullptr, args),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_NE(std::strstr(aclGetRecentErrMsg(), "SIMT"), nullptr);
  struct {
    void* x;
    uint32_t n;
  } host{x, n};
  EXPECT_EQ(aclrtLaunchSIMTKernelWithHostArgs(f, dim3(1), dim3(32), 0, s.stream, nullptr, &host, sizeof host,
                                              nullptr, 0),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_NE(std::strstr(aclGetRecentErrMsg(), "SIMT"), nullptr);
  aclrtFree(x);
}

// The built-in random-number task (aclrtRandomNumAsync): every distribution the header names, in
// every data type it takes, checked for range and moments; the same seed and counter give the same
// numbers and the counter moves on; parameters read from device memory; the argument errors; and
// the task's time on its stream.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <vector>

#include "acl/acl.h"
#include "runtime/aclnn/base/float_bits.h"
#include "tests/runtime_surface/random_para_util.h"
#include "tests/runtime_surface/surface_test_util.h"

using npusim::test::configure;
using npusim::test::setValue;

namespace {

class RandomNum : public ::testing::Test {
 protected:
  void SetUp() override {
    configure("");
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&s_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&out_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&counter_, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(counter_, 16, 0, 16), ACL_SUCCESS);
  }
  void TearDown() override {
    aclrtFree(out_);
    aclrtFree(counter_);
    aclrtDestroyStream(s_);
  }
  aclrtRandomNumTaskInfo task(aclrtRandomNumFuncType f, aclDataType t, uint64_t n, uint64_t seed = 7) {
    aclrtRandomNumTaskInfo info;
    std::memset(&info, 0, sizeof info);
    info.dataType = t;
    info.randomNumFuncParaInfo.funcType = f;
    info.randomResultAddr = out_;
    info.randomCounterAddr = counter_;
    setValue(&info.randomSeed, seed);
    setValue(&info.randomNum, n);
    return info;
  }
  template <typename T>
  std::vector<T> run(const aclrtRandomNumTaskInfo& info, uint64_t n) {
    EXPECT_EQ(aclrtRandomNumAsync(&info, s_, nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtSynchronizeStream(s_), ACL_SUCCESS);
    std::vector<T> h(n);
    EXPECT_EQ(aclrtMemcpy(h.data(), n * sizeof(T), out_, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return h;
  }
  uint64_t counter() {
    uint64_t c = 0;
    EXPECT_EQ(aclrtMemcpy(&c, 8, counter_, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return c;
  }
  static constexpr size_t kBytes = 8u << 20;
  static constexpr uint64_t kN = 1u << 16;
  aclrtStream s_ = nullptr;
  void* out_ = nullptr;
  void* counter_ = nullptr;
};

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double stddev(const std::vector<double>& v) {
  const double m = mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size()));
}

}  // namespace

TEST_F(RandomNum, UniformFloatIsInRangeRepeatableAndAdvancesTheCounter) {
  auto info = task(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, ACL_FLOAT, kN);
  setValue(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, 1.0f);
  setValue(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, 2.0f);
  const auto a = run<float>(info, kN);
  std::vector<double> d(a.begin(), a.end());
  for (float x : a) ASSERT_TRUE(x >= 1.0f && x < 2.0f) << x;
  EXPECT_NEAR(mean(d), 1.5, 0.01);
  EXPECT_NEAR(stddev(d), 1.0 / std::sqrt(12.0), 0.01);
  EXPECT_EQ(counter(), kN);
  const auto b = run<float>(info, kN);  // the counter moved on: new numbers
  EXPECT_NE(a, b);
  EXPECT_EQ(counter(), 2 * kN);
  ASSERT_EQ(aclrtMemset(counter_, 16, 0, 16), ACL_SUCCESS);
  EXPECT_EQ(run<float>(info, kN), a);  // same seed and counter: the same numbers
  setValue(&info.randomSeed, uint64_t{8});
  ASSERT_EQ(aclrtMemset(counter_, 16, 0, 16), ACL_SUCCESS);
  EXPECT_NE(run<float>(info, kN), a);  // another seed
}

TEST_F(RandomNum, UniformIntegersCoverTheirHalfOpenRange) {
  auto info = task(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, ACL_INT32, kN);
  setValue(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, int32_t{-5});
  setValue(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, int32_t{95});
  const auto v = run<int32_t>(info, kN);
  std::set<int32_t> seen(v.begin(), v.end());
  EXPECT_EQ(*seen.begin(), -5);
  EXPECT_EQ(*seen.rbegin(), 94);
  EXPECT_EQ(seen.size(), 100u);
  auto info64 = task(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, ACL_UINT64, kN);
  setValue(&info64.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, uint64_t{1} << 40);
  setValue(&info64.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, (uint64_t{1} << 40) + 10);
  for (uint64_t x : run<uint64_t>(info64, kN))
    ASSERT_TRUE(x >= (uint64_t{1} << 40) && x < (uint64_t{1} << 40) + 10);
}

TEST_F(RandomNum, NormalAndTruncatedNormalHaveTheirMoments) {
  auto info = task(ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, ACL_FLOAT, kN);
  setValue(&info.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, 3.0f);
  setValue(&info.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, 2.0f);
  const auto f = run<float>(info, kN);
  std::vector<double> d(f.begin(), f.end());
  EXPECT_NEAR(mean(d), 3.0, 0.03);
  EXPECT_NEAR(stddev(d), 2.0, 0.03);
  // bf16, truncated at two standard deviations: every value inside, and the spread of a normal
  // cut at +/- 2 sigma (0.880 sigma).
  auto t = task(ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS, ACL_BF16, kN);
  setValue(&t.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, npusim::aclnn::floatToBf16(1.0f));
  setValue(&t.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, npusim::aclnn::floatToBf16(2.0f));
  std::vector<double> b;
  for (uint16_t x : run<uint16_t>(t, kN)) b.push_back(npusim::aclnn::bf16ToFloat(x));
  for (double x : b) ASSERT_TRUE(x >= -3.0 - 0.02 && x <= 5.0 + 0.04) << x;
  EXPECT_NEAR(mean(b), 1.0, 0.03);
  EXPECT_NEAR(stddev(b), 2.0 * 0.880, 0.03);
}

TEST_F(RandomNum, DropoutBitmaskKeepsOneMinusTheRatio) {
  auto info = task(ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, ACL_FLOAT, kN);
  setValue(&info.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation, 0.4f);
  const auto bytes = run<uint8_t>(info, kN / 8);
  uint64_t ones = 0;
  for (uint8_t b : bytes) ones += static_cast<uint64_t>(__builtin_popcount(b));
  EXPECT_NEAR(static_cast<double>(ones) / kN, 0.6, 0.01);
}

TEST_F(RandomNum, ParametersCanLiveInDeviceMemory) {
  float bounds[2] = {-1.0f, -0.5f};
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, sizeof bounds, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(dev, sizeof bounds, bounds, sizeof bounds, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  auto info = task(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, ACL_FLOAT, 1024);
  auto& u = info.randomNumFuncParaInfo.paramInfo.uniformDisInfo;
  u.min.isAddr = u.max.isAddr = 1;
  u.min.size = u.max.size = 4;
  void* maxAddr = static_cast<float*>(dev) + 1;
  std::memcpy(u.min.valueOrAddr, &dev, 8);
  std::memcpy(u.max.valueOrAddr, &maxAddr, 8);
  for (float x : run<float>(info, 1024)) ASSERT_TRUE(x >= -1.0f && x < -0.5f) << x;
  aclrtFree(dev);
}

TEST_F(RandomNum, BadArgumentsAreRefused) {
  auto good = task(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, ACL_FLOAT, 16);
  setValue(&good.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, 0.0f);
  setValue(&good.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, 1.0f);
  EXPECT_EQ(aclrtRandomNumAsync(nullptr, s_, nullptr), ACL_ERROR_INVALID_PARAM);
  int reserve = 0;
  EXPECT_EQ(aclrtRandomNumAsync(&good, s_, &reserve), ACL_ERROR_INVALID_PARAM);
  auto bad = good;
  bad.randomNumFuncParaInfo.funcType = static_cast<aclrtRandomNumFuncType>(9);
  EXPECT_EQ(aclrtRandomNumAsync(&bad, s_, nullptr), ACL_ERROR_INVALID_PARAM);
  bad = good;
  bad.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS;
  bad.dataType = ACL_INT32;  // normal numbers are floating
  EXPECT_EQ(aclrtRandomNumAsync(&bad, s_, nullptr), ACL_ERROR_INVALID_PARAM);
  bad = good;
  bad.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min.size = 2;  // a float takes 4 bytes
  EXPECT_EQ(aclrtRandomNumAsync(&bad, s_, nullptr), ACL_ERROR_INVALID_PARAM);
  bad = good;
  setValue(&bad.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, 2.0f);  // min >= max
  EXPECT_EQ(aclrtRandomNumAsync(&bad, s_, nullptr), ACL_ERROR_INVALID_PARAM);
  bad = good;
  setValue(&bad.randomNum, uint64_t{kBytes});  // 4 x 8 MiB of results in 8 MiB
  EXPECT_EQ(aclrtRandomNumAsync(&bad, s_, nullptr), ACL_ERROR_INVALID_PARAM);
  bad = good;
  uint64_t hostCounter[2] = {};
  bad.randomCounterAddr = hostCounter;  // host memory
  EXPECT_EQ(aclrtRandomNumAsync(&bad, s_, nullptr), ACL_ERROR_INVALID_PARAM);
  bad = good;
  bad.randomResultAddr = nullptr;
  EXPECT_EQ(aclrtRandomNumAsync(&bad, s_, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtRandomNumAsync(&good, s_, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s_), ACL_SUCCESS);
}

TEST_F(RandomNum, TakesItsResultBytesAtTheSdmaRateOnItsStream) {
  const uint64_t n = kBytes / 4;  // 8 MiB of floats: 83.9 us at 100 GB/s
  auto info = task(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, ACL_FLOAT, n);
  setValue(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, 0.0f);
  setValue(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, 1.0f);
  const double us = 1e3 * npusim::test::eventMs(
                              s_, [&] { ASSERT_EQ(aclrtRandomNumAsync(&info, s_, nullptr), ACL_SUCCESS); });
  const double expectUs = static_cast<double>(kBytes) / 100e9 * 1e6;
  EXPECT_GE(us, expectUs);
  EXPECT_LE(us, expectUs + 5.0);  // plus dispatch
}

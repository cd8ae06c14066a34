#pragma once
// Helpers for the AI-core model checks: device tensors, one-call operator launches and event
// timing. Every TEST runs in its own process, so a test configures NPUSIM_* before aclInit.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_matmul.h"
#include "npusim/config.h"
#include "tests/runtime/sim_test_util.h"

namespace aicore_test {

// `n` floats of device memory at `dev`, copied to the host.
inline std::vector<float> readFloats(const void* dev, size_t n) {
  std::vector<float> v(n);
  EXPECT_EQ(aclrtMemcpy(v.data(), n * 4, dev, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  return v;
}

inline uint64_t elemSize(aclDataType dt) { return dt == ACL_FLOAT || dt == ACL_INT32 ? 4 : 2; }

// A dense device tensor (contents left as allocated unless written by the test).
struct DevTensor {
  std::vector<int64_t> shape;
  aclDataType dtype;
  void* dev = nullptr;
  aclTensor* t = nullptr;
  uint64_t bytes = 0;

  DevTensor(std::vector<int64_t> s, aclDataType dt) : shape(std::move(s)), dtype(dt) {
    uint64_t n = 1;
    for (int64_t d : shape) n *= static_cast<uint64_t>(d);
    bytes = n * elemSize(dt);
    EXPECT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::vector<int64_t> strides(shape.size(), 1);
    for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
    t = aclCreateTensor(shape.data(), shape.size(), dt, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                        shape.size(), dev);
  }
  ~DevTensor() {
    aclDestroyTensor(t);
    aclrtFree(dev);
  }
  DevTensor(const DevTensor&) = delete;
  DevTensor& operator=(const DevTensor&) = delete;
};

// Both phases of aclnnMatmul / aclnnAdd; EXPECTs success.
inline void matmul(const DevTensor& a, const DevTensor& b, const DevTensor& c, aclrtStream s) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnMatmulGetWorkspaceSize(a.t, b.t, c.t, 0, &ws, &ex), 0) << aclGetRecentErrMsg();
  ASSERT_EQ(aclnnMatmul(nullptr, ws, ex, s), 0) << aclGetRecentErrMsg();
}

inline void add(const DevTensor& a, const DevTensor& b, const DevTensor& c, aclrtStream s) {
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(a.t, b.t, alpha, c.t, &ws, &ex), 0) << aclGetRecentErrMsg();
  ASSERT_EQ(aclnnAdd(nullptr, ws, ex, s), 0) << aclGetRecentErrMsg();
  aclDestroyScalar(alpha);
}

// An aclnn operator's two phases: GetWorkspaceSize bound to its arguments, and the launch.
using Phase1 = std::function<int(uint64_t*, aclOpExecutor**)>;
using Phase2 = int (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

// Both phases, without a workspace; ASSERTs success.
inline void launchOp(const Phase1& p1, Phase2 p2, aclrtStream s) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(p1(&ws, &ex), 0) << aclGetRecentErrMsg();
  ASSERT_EQ(p2(nullptr, ws, ex, s), 0) << aclGetRecentErrMsg();
}

// aclInit + device 0 + one stream; torn down in the destructor.
struct Session {
  aclrtStream stream = nullptr;
  Session() {
    EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  }
  ~Session() {
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
  }
};

// Device time of `op` alone, in ms: `warm` keeps the stream busy while the host launches `op`
// between two events, so the events bracket only `op`'s execution (dispatch, start, tiles) and
// none of the host's launch cost.
template <typename W, typename F>
double deviceMs(aclrtStream s, W&& warm, F&& op) {
  aclrtEvent a = nullptr, b = nullptr;
  EXPECT_EQ(aclrtCreateEvent(&a), ACL_SUCCESS);
  EXPECT_EQ(aclrtCreateEvent(&b), ACL_SUCCESS);
  warm();
  EXPECT_EQ(aclrtRecordEvent(a, s), ACL_SUCCESS);
  op();
  EXPECT_EQ(aclrtRecordEvent(b, s), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  float ms = -1;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_SUCCESS);
  aclrtDestroyEvent(a);
  aclrtDestroyEvent(b);
  return ms;
}

// An operator's device time (one launch after a warm-up launch) as a ratio to `boundSec`, its
// roofline bound; printed with the name, and returned.
inline double timedBoundRatio(const char* name, const Phase1& p1, Phase2 p2, aclrtStream s, double boundSec) {
  const double sec = 1e-3 * deviceMs(
                                s, [&] { launchOp(p1, p2, s); }, [&] { launchOp(p1, p2, s); });
  std::printf("%-36s %9.1f us, bound %9.1f us, ratio %.3f\n", name, sec * 1e6, boundSec * 1e6,
              sec / boundSec);
  return sec / boundSec;
}

// The configuration the simulator runs with (NPUSIM_CONFIG / NPUSIM_SET as set by the test).
inline const npusim::Config& config() {
  static const npusim::Config cfg = npusim::Config::fromEnvironment();
  return cfg;
}

}  // namespace aicore_test

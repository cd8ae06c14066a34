#pragma once
// Helpers for the capture tests: fp32 device vectors with their aclTensor, pinned host
// vectors, and aclnnAdd in one call (phase 1 + phase 2).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "npusim/npusim.h"

namespace capture_test {

// A dense fp32 device vector of n elements.
struct DevVec {
  int64_t n = 0;
  void* dev = nullptr;
  aclTensor* t = nullptr;
  size_t bytes() const { return static_cast<size_t>(n) * sizeof(float); }

  explicit DevVec(int64_t count, float init = 0.0f) : n(count) {
    EXPECT_EQ(aclrtMalloc(&dev, bytes(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::vector<float> h(static_cast<size_t>(n), init);
    EXPECT_EQ(aclrtMemcpy(dev, bytes(), h.data(), bytes(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    const int64_t stride = 1;
    t = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, dev);
  }
  ~DevVec() {
    aclDestroyTensor(t);
    aclrtFree(dev);
  }
  DevVec(const DevVec&) = delete;
  DevVec& operator=(const DevVec&) = delete;
  std::vector<float> read() const {
    std::vector<float> h(static_cast<size_t>(n));
    EXPECT_EQ(aclrtMemcpy(h.data(), bytes(), dev, bytes(), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return h;
  }
};

// Pinned (aclrtMallocHost) host vector: what captured async copies must use.
struct Pinned {
  float* p = nullptr;
  size_t n = 0;
  explicit Pinned(size_t count, float init = 0.0f) : n(count) {
    EXPECT_EQ(aclrtMallocHost(reinterpret_cast<void**>(&p), n * sizeof(float)), ACL_SUCCESS);
    for (size_t i = 0; i < n; ++i) p[i] = init;
  }
  ~Pinned() { aclrtFreeHost(p); }
  Pinned(const Pinned&) = delete;
  Pinned& operator=(const Pinned&) = delete;
  size_t bytes() const { return n * sizeof(float); }
  void fill(float v) {
    for (size_t i = 0; i < n; ++i) p[i] = v;
  }
};

// out = self + other * alpha on `stream` (both aclnn phases).
inline aclError add(const DevVec& self, const DevVec& other, float alpha, const DevVec& out,
                    aclrtStream stream) {
  aclScalar* a = aclCreateScalar(&alpha, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclError r = aclnnAddGetWorkspaceSize(self.t, other.t, a, out.t, &ws, &ex);
  if (r == ACL_SUCCESS) r = aclnnAdd(nullptr, ws, ex, stream);
  aclDestroyScalar(a);
  return r;
}

// The 64-bit word at a device address.
inline uint64_t readWord(void* dev) {
  uint64_t v = 0;
  EXPECT_EQ(aclrtMemcpy(&v, 8, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  return v;
}

inline aclError h2d(const DevVec& d, const Pinned& h, aclrtStream s) {
  return aclrtMemcpyAsync(d.dev, d.bytes(), h.p, h.bytes(), ACL_MEMCPY_HOST_TO_DEVICE, s);
}
inline aclError d2h(const Pinned& h, const DevVec& d, aclrtStream s) {
  return aclrtMemcpyAsync(h.p, h.bytes(), d.dev, d.bytes(), ACL_MEMCPY_DEVICE_TO_HOST, s);
}

// A device with three explicit streams and four events (aclrtCreateEvent, as seed 004 uses).
class CaptureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    for (auto& s : s_) ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    for (auto& e : e_) ASSERT_EQ(aclrtCreateEvent(&e), ACL_SUCCESS);
  }
  void TearDown() override {
    for (auto& e : e_) aclrtDestroyEvent(e);
    for (auto& s : s_) aclrtDestroyStream(s);
    aclrtResetDevice(0);
    aclFinalize();
  }
  // Records e on `from` and makes `to` wait for it.
  void link(aclrtStream from, aclrtEvent e, aclrtStream to) {
    ASSERT_EQ(aclrtRecordEvent(e, from), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtStreamWaitEvent(to, e), ACL_SUCCESS) << aclGetRecentErrMsg();
  }
  aclrtStream s_[3] = {};
  aclrtEvent e_[4] = {};
};

}  // namespace capture_test

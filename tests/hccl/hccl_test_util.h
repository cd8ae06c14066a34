#pragma once
// Helpers for HCCL tests: a communicator over the first n devices created from one thread
// (HcclCommInitAll), one stream per rank, and device buffers filled from and read back to host
// vectors. Every TEST runs in its own process, so it may set HCCL_* / NPUSIM_* variables first.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "tests/runtime/sim_test_util.h"

namespace npusim::test {

struct Ranks {
  uint32_t n = 0;
  std::vector<HcclComm> comms;
  std::vector<aclrtStream> streams;

  explicit Ranks(uint32_t count) : n(count), comms(count), streams(count) {
    std::vector<int32_t> devices(count);
    for (uint32_t i = 0; i < count; ++i) devices[i] = static_cast<int32_t>(i);
    EXPECT_EQ(HcclCommInitAll(count, devices.data(), comms.data()), HCCL_SUCCESS);
    for (uint32_t i = 0; i < count; ++i) {
      EXPECT_EQ(aclrtSetDevice(static_cast<int32_t>(i)), ACL_SUCCESS);
      EXPECT_EQ(aclrtCreateStream(&streams[i]), ACL_SUCCESS);
    }
  }
  // Device buffer of rank r with `bytes` (zero-filled, or from `init`).
  void* alloc(uint32_t r, size_t bytes, const void* init = nullptr) {
    EXPECT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, bytes ? bytes : 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::vector<uint8_t> zero;
    if (!init) zero.assign(bytes, 0), init = zero.data();
    if (bytes) {
      EXPECT_EQ(aclrtMemcpy(p, bytes, init, bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    }
    return p;
  }
  std::vector<uint8_t> read(uint32_t r, const void* p, size_t bytes) {
    EXPECT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
    std::vector<uint8_t> v(bytes);
    if (bytes) {
      EXPECT_EQ(aclrtMemcpy(v.data(), bytes, p, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    }
    return v;
  }
  void syncAll() {
    for (uint32_t r = 0; r < n; ++r) {
      EXPECT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
      EXPECT_EQ(aclrtSynchronizeStream(streams[r]), ACL_SUCCESS) << "rank " << r;
    }
  }
  void destroy() {
    for (uint32_t r = 0; r < n; ++r) EXPECT_EQ(HcclCommDestroy(comms[r]), HCCL_SUCCESS);
  }
};

}  // namespace npusim::test

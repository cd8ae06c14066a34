#pragma once
// A device buffer for the kernel tests, initialised from (and read back into) a host vector.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "acl/acl.h"

namespace kernel_test {

template <class T>
struct Dev {
  std::vector<T> host;
  void* dev = nullptr;
  explicit Dev(std::vector<T> h) : host(std::move(h)) {
    EXPECT_EQ(aclrtMalloc(&dev, bytes(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(dev, bytes(), host.data(), bytes(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  explicit Dev(size_t n) : Dev(std::vector<T>(n)) {}
  ~Dev() { aclrtFree(dev); }
  Dev(const Dev&) = delete;
  Dev& operator=(const Dev&) = delete;
  size_t bytes() const { return host.size() * sizeof(T); }
  std::vector<T>& read() {
    EXPECT_EQ(aclrtMemcpy(host.data(), bytes(), dev, bytes(), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return host;
  }
};

// n half values that are multiples of 1/8 in [-2, 2], from `seed`: the products of two and their
// sums stay exact in float, so a matmul can be compared with a reference exactly.
inline std::vector<_Float16> exactHalves(size_t n, uint32_t seed) {
  std::vector<_Float16> v(n);
  for (size_t i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    v[i] = static_cast<_Float16>(static_cast<int>((seed >> 16) % 33) - 16) / static_cast<_Float16>(8);
  }
  return v;
}

}  // namespace kernel_test

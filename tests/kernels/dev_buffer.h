#pragma once
// A device buffer for the kernel tests, initialised from (and read back into) a host vector.
#include <gtest/gtest.h>

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

}  // namespace kernel_test

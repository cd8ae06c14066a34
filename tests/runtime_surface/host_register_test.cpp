// Host memory registration, from the documented behaviour: registered memory is pinned, so an
// asynchronous copy DMAs it directly across PCIe at the pinned-memory rate; the device pointer
// is valid inside the range only; unregistering returns it to pageable memory.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "acl/acl.h"
#include "tests/runtime_surface/surface_test_util.h"

using npusim::test::configure;

namespace {
// Simulated time of one asynchronous H2D copy of `bytes` from `src`, measured with events.
float asyncCopyMs(void* dev, void* src, size_t bytes, aclrtStream s) {
  aclrtEvent a, b;
  EXPECT_EQ(aclrtCreateEvent(&a), ACL_SUCCESS);
  EXPECT_EQ(aclrtCreateEvent(&b), ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordEvent(a, s), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpyAsync(dev, bytes, src, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordEvent(b, s), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  float ms = 0;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_SUCCESS);
  return ms;
}
}  // namespace

TEST(HostRegister, RegisteredMemoryIsDmaedLikePinnedMemory) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  const size_t bytes = 32u << 20;
  void* user = std::aligned_alloc(4096, bytes);
  ASSERT_NE(user, nullptr);
  std::memset(user, 0x3C, bytes);
  void *dev, *pinned;
  ASSERT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&pinned, bytes), ACL_SUCCESS);

  void* devPtr = nullptr;
  EXPECT_EQ(aclrtHostGetDevicePointer(user, &devPtr, 0), ACL_ERROR_INVALID_PARAM);  // not registered yet
  EXPECT_EQ(aclrtHostRegister(dev, 4096, ACL_HOST_REGISTER_MAPPED, &devPtr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostRegister(user, bytes, static_cast<aclrtHostRegisterType>(1), &devPtr),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtHostRegister(user, bytes, ACL_HOST_REGISTER_MAPPED, &devPtr), ACL_SUCCESS);
  EXPECT_EQ(aclrtHostRegister(user, 4096, ACL_HOST_REGISTER_MAPPED, &devPtr),
            ACL_ERROR_INVALID_PARAM);  // twice
  void* inside = nullptr;
  ASSERT_EQ(aclrtHostGetDevicePointer(static_cast<char*>(user) + 100, &inside, 0), ACL_SUCCESS);
  EXPECT_EQ(static_cast<char*>(inside) - static_cast<char*>(devPtr), 100);

  float reg = asyncCopyMs(dev, devPtr, bytes, s);
  unsigned char back[16];
  ASSERT_EQ(aclrtMemcpy(back, 16, static_cast<char*>(dev) + bytes - 16, 16, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  for (unsigned char c : back) EXPECT_EQ(c, 0x3C);
  float pin = asyncCopyMs(dev, pinned, bytes, s);
  EXPECT_NEAR(reg, pin, 0.02 * pin);  // the same DMA over the same PCIe link
  EXPECT_GT(reg, 1.0f);               // 32 MiB at ~23.5 GB/s is ~1.4 ms

  EXPECT_EQ(aclrtFreeHost(user), ACL_ERROR_RT_PARAM_INVALID);  // not aclrtMallocHost memory
  ASSERT_EQ(aclrtHostUnregister(user), ACL_SUCCESS);
  EXPECT_EQ(aclrtHostUnregister(user), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostGetDevicePointer(user, &inside, 0), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtHostRegisterV2(user, bytes, ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED), ACL_SUCCESS);
  ASSERT_EQ(aclrtHostUnregister(user), ACL_SUCCESS);
  std::free(user);
}

// aclrtMallocHost memory is pinned already; registering a range of it maps it for the device
// (the CANN zero-copy sample registers its aclrtMallocHost buffers with ACL_HOST_REG_MAPPED).
TEST(HostRegister, MallocHostMemoryCanBeMappedForTheDevice) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const size_t bytes = 1u << 20;
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, bytes), ACL_SUCCESS);
  char* base = static_cast<char*>(pinned);
  void* devPtr = nullptr;
  EXPECT_EQ(aclrtHostGetDevicePointer(pinned, &devPtr, 0), ACL_ERROR_INVALID_PARAM);  // not mapped yet
  ASSERT_EQ(aclrtHostRegisterV2(pinned, bytes / 2, ACL_HOST_REG_MAPPED), ACL_SUCCESS);
  ASSERT_EQ(aclrtHostGetDevicePointer(base + 100, &devPtr, 0), ACL_SUCCESS);
  EXPECT_EQ(devPtr, base + 100);
  EXPECT_EQ(aclrtHostGetDevicePointer(base + bytes / 2, &devPtr, 0),
            ACL_ERROR_INVALID_PARAM);  // outside the range
  EXPECT_EQ(aclrtHostRegisterV2(base + 4096, 4096, ACL_HOST_REG_MAPPED),
            ACL_ERROR_INVALID_PARAM);  // overlaps
  EXPECT_EQ(aclrtHostRegisterV2(base + bytes / 2, bytes, ACL_HOST_REG_MAPPED),
            ACL_ERROR_INVALID_PARAM);  // runs past the block
  ASSERT_EQ(aclrtHostRegisterV2(base + bytes / 2, bytes / 2, ACL_HOST_REG_MAPPED), ACL_SUCCESS);
  // The device reads the mapped buffer across PCIe like any pinned memory.
  std::memset(pinned, 0x5A, bytes);
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(dev, bytes, devPtr, bytes / 2, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  unsigned char back = 0;
  ASSERT_EQ(aclrtMemcpy(&back, 1, static_cast<char*>(dev) + bytes / 2 - 1, 1, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(back, 0x5A);
  ASSERT_EQ(aclrtHostUnregister(pinned), ACL_SUCCESS);
  EXPECT_EQ(aclrtHostUnregister(pinned), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostGetDevicePointer(base + 100, &devPtr, 0), ACL_ERROR_INVALID_PARAM);
  // Freeing the block ends the mappings inside it.
  ASSERT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
  EXPECT_EQ(aclrtHostUnregister(base + bytes / 2), ACL_ERROR_INVALID_PARAM);
  aclrtFree(dev);
}

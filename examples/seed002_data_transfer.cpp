// Seed 002 "Data Transfer": every single-device snippet of the document, filled in and run
// in sequence: H2H sync, H2D sync and async, D2H sync and async, D2D sync and async, and the
// refused asynchronous H2H copy. ReadFile() stands for "load data into the memory": it fills
// the buffer with a known pattern so each copy's bytes can be checked.
#include <cstdio>
#include <cstring>

#include "acl/acl.h"

static int g_failures = 0;

#define CHECK(cond, what)                \
  do {                                   \
    if (!(cond)) {                       \
      std::printf("FAILED: %s\n", what); \
      ++g_failures;                      \
    } else {                             \
      std::printf("ok: %s\n", what);     \
    }                                    \
  } while (0)

// The document's user-defined ReadFile: writes a pattern derived from the name. Device memory
// cannot be written by the host directly, so the pattern goes through pinned memory and an
// ACL_MEMCPY_DEFAULT copy, which works for host and device destinations alike.
static void ReadFile(const char* fileName, void* ptr, uint64_t size) {
  unsigned seed = 0;
  for (const char* c = fileName; *c; ++c) seed = seed * 31 + static_cast<unsigned char>(*c);
  void* staging = nullptr;
  aclrtMallocHost(&staging, size);
  auto* s = static_cast<unsigned char*>(staging);
  for (uint64_t i = 0; i < size; ++i) s[i] = static_cast<unsigned char>((seed + i * 7) & 0xff);
  aclrtMemcpy(ptr, size, staging, size, ACL_MEMCPY_DEFAULT);
  aclrtFreeHost(staging);
}

static bool SameAs(const char* fileName, const void* hostPtr, uint64_t size) {
  unsigned seed = 0;
  for (const char* c = fileName; *c; ++c) seed = seed * 31 + static_cast<unsigned char>(*c);
  auto* p = static_cast<const unsigned char*>(hostPtr);
  for (uint64_t i = 0; i < size; ++i)
    if (p[i] != static_cast<unsigned char>((seed + i * 7) & 0xff)) return false;
  return true;
}

static void IntraHost() {
  const char* fileName = "h2h.bin";
  // 1. Allocate memory.
  uint64_t size = 1 * 1024 * 1024;
  void* hostPtrA = NULL;
  void* hostPtrB = NULL;
  aclrtMallocHost(&hostPtrA, size);
  aclrtMallocHost(&hostPtrB, size);
  // 2. After the memory is allocated, load data into the memory and implement the user-defined function
  // ReadFile.
  ReadFile(fileName, hostPtrA, size);
  // 3. Perform synchronous memory copy.
  aclrtMemcpy(hostPtrB, size, hostPtrA, size, ACL_MEMCPY_HOST_TO_HOST);
  CHECK(SameAs(fileName, hostPtrB, size), "H2H synchronous copy");
  // Asynchronous H2H is refused with ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
  aclrtStream stream = NULL;
  aclrtCreateStream(&stream);
  aclError ret = aclrtMemcpyAsync(hostPtrB, size, hostPtrA, size, ACL_MEMCPY_HOST_TO_HOST, stream);
  CHECK(ret == ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        "H2H asynchronous copy refused with ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
  aclrtDestroyStream(stream);
  // 4. Destroy allocations in a timely manner.
  aclrtFreeHost(hostPtrA);
  aclrtFreeHost(hostPtrB);
}

static void HostToDeviceSync() {
  const char* fileName = "h2d_sync.bin";
  // 1. Allocate memory.
  uint64_t size = 1 * 1024 * 1024;
  void* hostPtrA = NULL;
  void* devPtrB = NULL;
  aclrtMallocHost(&hostPtrA, size);
  aclrtMalloc(&devPtrB, size, ACL_MEM_MALLOC_HUGE_FIRST);
  // 2. After the memory is allocated, load data into the memory and implement the user-defined function
  // ReadFile.
  ReadFile(fileName, hostPtrA, size);
  // 3. Perform synchronous memory copy.
  aclrtMemcpy(devPtrB, size, hostPtrA, size, ACL_MEMCPY_HOST_TO_DEVICE);
  memset(hostPtrA, 0, size);
  aclrtMemcpy(hostPtrA, size, devPtrB, size, ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK(SameAs(fileName, hostPtrA, size), "H2D synchronous copy");
  // 4. Destroy allocations in a timely manner.
  aclrtFreeHost(hostPtrA);
  aclrtFree(devPtrB);
}

static void HostToDeviceAsync() {
  const char* fileName = "h2d_async.bin";
  // 1. Allocate memory.
  uint64_t size = 1 * 1024 * 1024;
  void* hostAddr = NULL;
  void* devAddr = NULL;
  aclrtMallocHost(&hostAddr, size);
  aclrtMalloc(&devAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
  // 2. Copy memory asynchronously.
  aclrtStream stream = NULL;
  aclrtCreateStream(&stream);
  // After the memory is allocated, load data into the memory and implement the user-defined function
  // ReadFile.
  ReadFile(fileName, hostAddr, size);
  aclrtMemcpyAsync(devAddr, size, hostAddr, size, ACL_MEMCPY_HOST_TO_DEVICE, stream);
  aclrtSynchronizeStream(stream);
  memset(hostAddr, 0, size);
  aclrtMemcpy(hostAddr, size, devAddr, size, ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK(SameAs(fileName, hostAddr, size), "H2D asynchronous copy");
  // 3. Destroy allocations.
  aclrtDestroyStream(stream);
  aclrtFreeHost(hostAddr);
  aclrtFree(devAddr);
}

static void DeviceToHostSync() {
  const char* fileName = "d2h_sync.bin";
  // 1. Allocate memory.
  uint64_t size = 1 * 1024 * 1024;
  void* devPtrA = NULL;
  void* hostPtrB = NULL;
  aclrtMalloc(&devPtrA, size, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMallocHost(&hostPtrB, size);
  // 2. After the memory is allocated, load data into the memory and implement the user-defined function
  // ReadFile.
  ReadFile(fileName, devPtrA, size);
  // 3. Perform synchronous memory copy.
  aclrtMemcpy(hostPtrB, size, devPtrA, size, ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK(SameAs(fileName, hostPtrB, size), "D2H synchronous copy");
  // 4. Destroy allocations in a timely manner.
  aclrtFree(devPtrA);
  aclrtFreeHost(hostPtrB);
}

static void DeviceToHostAsync() {
  const char* fileName = "d2h_async.bin";
  // 1. Allocate memory.
  uint64_t size = 1 * 1024 * 1024;
  void* hostAddr = NULL;
  void* devAddr = NULL;
  aclrtMallocHost(&hostAddr, size);
  aclrtMalloc(&devAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
  // 2. After the memory is allocated, load data into the memory and implement the user-defined function
  // ReadFile.
  ReadFile(fileName, devAddr, size);
  // 3. Copy memory asynchronously.
  aclrtStream stream = NULL;
  aclrtCreateStream(&stream);
  aclrtMemcpyAsync(hostAddr, size, devAddr, size, ACL_MEMCPY_DEVICE_TO_HOST, stream);
  aclrtSynchronizeStream(stream);
  CHECK(SameAs(fileName, hostAddr, size), "D2H asynchronous copy");
  // 4. Destroy allocations.
  aclrtDestroyStream(stream);
  aclrtFreeHost(hostAddr);
  aclrtFree(devAddr);
}

static void IntraDevice() {
  const char* fileName = "d2d.bin";
  // 1. Allocate memory.
  uint64_t size = 1 * 1024 * 1024;
  void* devPtrA = NULL;
  void* devPtrB = NULL;
  aclrtMalloc(&devPtrA, size, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&devPtrB, size, ACL_MEM_MALLOC_HUGE_FIRST);
  // 2. After the memory is allocated, load data into the memory and implement the user-defined function
  // ReadFile.
  ReadFile(fileName, devPtrA, size);
  // 3. Perform synchronous or asynchronous memory copy.
  // Copy memory synchronously.
  aclrtMemcpy(devPtrB, size, devPtrA, size, ACL_MEMCPY_DEVICE_TO_DEVICE);
  void* check = NULL;
  aclrtMallocHost(&check, size);
  aclrtMemcpy(check, size, devPtrB, size, ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK(SameAs(fileName, check, size), "D2D synchronous copy");
  // Copy memory asynchronously.
  // Explicitly create a stream.
  aclrtStream stream;
  aclrtCreateStream(&stream);
  aclrtMemset(devPtrB, size, 0, size);
  aclrtMemcpyAsync(devPtrB, size, devPtrA, size, ACL_MEMCPY_DEVICE_TO_DEVICE, stream);
  aclrtSynchronizeStream(stream);
  aclrtMemcpy(check, size, devPtrB, size, ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK(SameAs(fileName, check, size), "D2D asynchronous copy");
  // 4. Destroy allocations in a timely manner.
  aclrtFreeHost(check);
  aclrtDestroyStream(stream);
  aclrtFree(devPtrA);
  aclrtFree(devPtrB);
}

int main() {
  aclInit(NULL);
  aclrtSetDevice(0);
  IntraHost();
  HostToDeviceSync();
  HostToDeviceAsync();
  DeviceToHostSync();
  DeviceToHostAsync();
  IntraDevice();
  aclrtResetDevice(0);
  aclFinalize();
  std::printf("%s\n", g_failures == 0 ? "seed 002 data transfer: all copies correct"
                                      : "seed 002 data transfer: FAILURES");
  return g_failures == 0 ? 0 : 1;
}

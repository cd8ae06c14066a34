// Host program for scalar_kernel.cpp: launch, synchronise (the kernel's printf appears then),
// check the result.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "scalar_kernel.h"

int main() {
  const uint32_t blocks = 8, n = 8 * 1024;
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  aclrtStream stream = nullptr;
  aclrtCreateStream(&stream);
  std::vector<float> host(n);
  for (uint32_t i = 0; i < n; ++i) host[i] = static_cast<float>(i % 7) - 3.0f;  // -3 .. 3
  void *data = nullptr, *neg = nullptr;
  aclrtMalloc(&data, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&neg, blocks * sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpy(data, n * sizeof(float), host.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
  uint32_t r =
      ScaleAndCount(blocks, stream, static_cast<float*>(data), -2.0f, n, static_cast<uint32_t*>(neg));
  std::printf("launched: %u\n", r);
  aclError s = aclrtSynchronizeStream(stream);
  std::vector<uint32_t> counts(blocks);
  aclrtMemcpy(counts.data(), blocks * sizeof(uint32_t), neg, blocks * sizeof(uint32_t),
              ACL_MEMCPY_DEVICE_TO_HOST);
  uint32_t total = 0;
  for (uint32_t c : counts) total += c;
  // -2 x (i % 7 - 3) is negative for i % 7 in {4, 5, 6}.
  uint32_t want = 0;
  for (uint32_t i = 0; i < n; ++i) want += (i % 7) >= 4;
  std::printf("synchronize: %d, negatives %u (expected %u)\n", static_cast<int>(s), total, want);
  aclrtFree(data);
  aclrtFree(neg);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return s == ACL_SUCCESS && total == want ? 0 : 1;
}

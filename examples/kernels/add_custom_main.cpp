// Host program for add_custom_kernel.cpp, written as for CANN: the kernel is launched through
// the header ascendc_library generates (ACLRT_LAUNCH_KERNEL), the result checked on the host,
// and the kernel's time read from two events.
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_add_custom.h"

#define CHECK(call)                                                                           \
  do {                                                                                        \
    aclError e_ = (call);                                                                     \
    if (e_ != ACL_SUCCESS) {                                                                  \
      std::printf("%s failed: %d (%s)\n", #call, static_cast<int>(e_), aclGetRecentErrMsg()); \
      return 1;                                                                               \
    }                                                                                         \
  } while (0)

int main() {
  const uint32_t blocks = 48, tile = 4096, total = blocks * 16 * tile;  // 3 MiB of half per vector
  const size_t bytes = total * sizeof(uint16_t);
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));

  std::vector<aclFloat16> x(total), y(total), z(total);
  for (uint32_t i = 0; i < total; ++i) {
    x[i] = aclFloatToFloat16(static_cast<float>(i % 100) * 0.25f);
    y[i] = aclFloatToFloat16(1.5f);
  }
  void *dx = nullptr, *dy = nullptr, *dz = nullptr;
  CHECK(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(dy, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  aclrtEvent start = nullptr, stop = nullptr;
  CHECK(aclrtCreateEvent(&start));
  CHECK(aclrtCreateEvent(&stop));
  CHECK(aclrtRecordEvent(start, stream));
  CHECK(static_cast<aclError>(ACLRT_LAUNCH_KERNEL(add_custom)(blocks, stream, dx, dy, dz, total, tile)));
  CHECK(aclrtRecordEvent(stop, stream));
  CHECK(aclrtSynchronizeStream(stream));
  float ms = 0;
  CHECK(aclrtEventElapsedTime(&ms, start, stop));

  CHECK(aclrtMemcpy(z.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  uint32_t wrong = 0;
  for (uint32_t i = 0; i < total; ++i) {
    const float want = static_cast<float>(i % 100) * 0.25f + 1.5f;
    if (std::fabs(aclFloat16ToFloat(z[i]) - want) > 0.02f * std::fabs(want)) ++wrong;
  }
  std::printf("add_custom: %u blocks, %u half elements, %u wrong, kernel %.1f us (%.0f GB/s)\n", blocks,
              total, wrong, ms * 1e3, 3.0 * bytes / (ms * 1e-3) / 1e9);

  CHECK(aclrtDestroyEvent(start));
  CHECK(aclrtDestroyEvent(stop));
  CHECK(aclrtFree(dx));
  CHECK(aclrtFree(dy));
  CHECK(aclrtFree(dz));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return wrong == 0 ? 0 : 1;
}

// An operator example written as the operator repositories' experimental ones are: headers named
// without the aclnnop/ prefix (ops-math experimental), aclnn_log_softmax.h (ops-nn experimental).
// check_install.cmake builds it with each repository's example compile line and checks what it
// prints: log_softmax of {0, 1, 2} and a zeroed tensor.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#ifdef OPP_PREFIXED
#include "aclnnop/aclnn_log_softmax.h"
#include "aclnnop/aclnn_zero.h"
#else
#include "aclnn_log_softmax.h"
#include "aclnn_zero.h"
#endif

namespace {

aclTensor* deviceTensor(std::vector<float>& host, void** dev) {
  const int64_t n = static_cast<int64_t>(host.size()), stride = 1;
  if (aclrtMalloc(dev, host.size() * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return nullptr;
  aclrtMemcpy(*dev, host.size() * sizeof(float), host.data(), host.size() * sizeof(float),
              ACL_MEMCPY_HOST_TO_DEVICE);
  return aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, *dev);
}

// Phase 2 of an executor phase 1 built with no workspace, then a sync.
template <typename Run>
bool launch(uint64_t ws, aclOpExecutor* ex, aclrtStream stream, Run run) {
  return ws == 0 && run(nullptr, ws, ex, stream) == 0 && aclrtSynchronizeStream(stream) == 0;
}

}  // namespace

int main() {
  aclrtStream stream = nullptr;
  bool ok = aclInit(nullptr) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS &&
            aclrtCreateStream(&stream) == ACL_SUCCESS;
  std::vector<float> x = {0, 1, 2}, y(3), z = {5, 6, 7};
  void *dx = nullptr, *dy = nullptr, *dz = nullptr;
  aclTensor *tx = deviceTensor(x, &dx), *ty = deviceTensor(y, &dy), *tz = deviceTensor(z, &dz);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ok = ok && aclnnLogSoftmaxGetWorkspaceSize(tx, 0, ty, &ws, &ex) == 0 &&
       launch(ws, ex, stream, aclnnLogSoftmax);
  ok = ok && aclnnInplaceZeroGetWorkspaceSize(tz, &ws, &ex) == 0 && launch(ws, ex, stream, aclnnInplaceZero);
  aclrtMemcpy(y.data(), 12, dy, 12, ACL_MEMCPY_DEVICE_TO_HOST);
  aclrtMemcpy(z.data(), 12, dz, 12, ACL_MEMCPY_DEVICE_TO_HOST);
  std::printf("opp: %s %.6f %.6f %.6f zero %g %g %g\n", ok ? "ok" : "FAILED", y[0], y[1], y[2], z[0], z[1],
              z[2]);
  aclDestroyTensor(tx);
  aclDestroyTensor(ty);
  aclDestroyTensor(tz);
  aclrtFree(dx);
  aclrtFree(dy);
  aclrtFree(dz);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return ok ? 0 : 1;
}

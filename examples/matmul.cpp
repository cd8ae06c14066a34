// A single-operator ACL program: C = A @ B with aclnnMatmul in fp16 (1024 x 1024 x 1024 by
// default, or M N K from the command line). It checks a few elements of C against a host
// reference and reports the achieved TFLOPS measured with events around a run of launches,
// the way one times a kernel on the device. Exit code 1 on a wrong result.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_matmul.h"

#define CHECK_ACL(expr)                                                       \
  do {                                                                        \
    int err_ = static_cast<int>(expr);                                        \
    if (err_ != 0) {                                                          \
      std::printf("%s failed: %d (%s)\n", #expr, err_, aclGetRecentErrMsg()); \
      return 1;                                                               \
    }                                                                         \
  } while (0)

namespace {

aclTensor* matrix(int64_t rows, int64_t cols, void* dev) {
  int64_t shape[] = {rows, cols};
  int64_t strides[] = {cols, 1};
  return aclCreateTensor(shape, 2, ACL_FLOAT16, strides, 0, ACL_FORMAT_ND, shape, 2, dev);
}

// Deterministic inputs in [-1, 1), exactly representable in fp16.
float inputValue(int64_t i, int salt) { return static_cast<float>((i * 37 + salt * 11) % 64 - 32) / 32.0f; }

}  // namespace

int main(int argc, char** argv) {
  const int64_t M = argc > 3 ? std::atoll(argv[1]) : 1024;
  const int64_t N = argc > 3 ? std::atoll(argv[2]) : 1024;
  const int64_t K = argc > 3 ? std::atoll(argv[3]) : 1024;
  const int kRuns = 5;  // timed launches after one warm-up launch

  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));

  // Host inputs in fp16.
  std::vector<aclFloat16> a(static_cast<size_t>(M * K)), b(static_cast<size_t>(K * N)),
      c(static_cast<size_t>(M * N));
  for (size_t i = 0; i < a.size(); ++i) a[i] = aclFloatToFloat16(inputValue(static_cast<int64_t>(i), 1));
  for (size_t i = 0; i < b.size(); ++i) b[i] = aclFloatToFloat16(inputValue(static_cast<int64_t>(i), 2));

  void *dA = nullptr, *dB = nullptr, *dC = nullptr;
  const size_t bytesA = a.size() * 2, bytesB = b.size() * 2, bytesC = c.size() * 2;
  CHECK_ACL(aclrtMalloc(&dA, bytesA, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&dB, bytesB, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&dC, bytesC, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemcpy(dA, bytesA, a.data(), bytesA, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(dB, bytesB, b.data(), bytesB, ACL_MEMCPY_HOST_TO_DEVICE));
  aclTensor* tA = matrix(M, K, dA);
  aclTensor* tB = matrix(K, N, dB);
  aclTensor* tC = matrix(M, N, dC);

  // One executor, made repeatable so the same call can be launched again.
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_ACL(aclnnMatmulGetWorkspaceSize(tA, tB, tC, 0, &workspaceSize, &executor));
  CHECK_ACL(aclSetAclOpExecutorRepeatable(executor));
  void* workspace = nullptr;
  if (workspaceSize > 0) CHECK_ACL(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST));

  aclrtEvent start = nullptr, stop = nullptr;
  CHECK_ACL(aclrtCreateEvent(&start));
  CHECK_ACL(aclrtCreateEvent(&stop));
  CHECK_ACL(aclnnMatmul(workspace, workspaceSize, executor, stream));  // warm-up
  CHECK_ACL(aclrtRecordEvent(start, stream));
  for (int i = 0; i < kRuns; ++i) CHECK_ACL(aclnnMatmul(workspace, workspaceSize, executor, stream));
  CHECK_ACL(aclrtRecordEvent(stop, stream));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  float ms = 0;
  CHECK_ACL(aclrtEventElapsedTime(&ms, start, stop));
  CHECK_ACL(aclrtMemcpy(c.data(), bytesC, dC, bytesC, ACL_MEMCPY_DEVICE_TO_HOST));

  // A few elements against a host reference (fp32 accumulation, result rounded to fp16).
  int wrong = 0;
  const int64_t picks[][2] = {{0, 0}, {1, 7}, {M / 2, N / 3}, {M - 1, N - 1}, {M / 3, N - 2}};
  for (const auto& p : picks) {
    const int64_t i = p[0], j = p[1];
    double ref = 0;
    for (int64_t k = 0; k < K; ++k)
      ref += static_cast<double>(aclFloat16ToFloat(a[static_cast<size_t>(i * K + k)])) *
             static_cast<double>(aclFloat16ToFloat(b[static_cast<size_t>(k * N + j)]));
    const double got = aclFloat16ToFloat(c[static_cast<size_t>(i * N + j)]);
    const double tol = 2e-3 * std::fabs(ref) + 1e-2;  // fp16 has an 11-bit significand
    const bool ok = std::fabs(got - ref) <= tol;
    wrong += ok ? 0 : 1;
    std::printf("C[%lld][%lld] = %.4f (host reference %.4f) %s\n", static_cast<long long>(i),
                static_cast<long long>(j), got, ref, ok ? "ok" : "WRONG");
  }
  const double flops = 2.0 * static_cast<double>(M) * static_cast<double>(N) * static_cast<double>(K) * kRuns;
  std::printf("matmul fp16 %lldx%lldx%lld: %.3f ms for %d runs, %.1f TFLOPS\n", static_cast<long long>(M),
              static_cast<long long>(N), static_cast<long long>(K), ms, kRuns, flops / (ms * 1e-3) / 1e12);
  std::printf("matmul: %s\n", wrong == 0 ? "result correct" : "result WRONG");

  aclrtDestroyEvent(start);
  aclrtDestroyEvent(stop);
  aclDestroyAclOpExecutor(executor);
  aclDestroyTensor(tA);
  aclDestroyTensor(tB);
  aclDestroyTensor(tC);
  if (workspace) aclrtFree(workspace);
  aclrtFree(dA);
  aclrtFree(dB);
  aclrtFree(dC);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return wrong == 0 ? 0 : 1;
}

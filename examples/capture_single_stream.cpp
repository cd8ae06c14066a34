// Single-stream capture: a small pipeline (copy in, 16 element-wise operators, copy out) is
// captured once on one stream and replayed for every new input. The same pipeline launched
// operator by operator is timed with events for comparison: the replay skips the host launch
// cost of every task, which is what dominates small operators.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"

#define CHECK_ACL(call)                                                       \
  do {                                                                        \
    aclError err_ = (call);                                                   \
    if (err_ != ACL_SUCCESS) {                                                \
      std::printf("%s failed: %d (%s)\n", #call, err_, aclGetRecentErrMsg()); \
      return 1;                                                               \
    }                                                                         \
  } while (0)

namespace {

constexpr int64_t kN = 1024;
constexpr int kLayers = 8;  // each layer: x = x * scale; x = x + bias  (2 operators)

aclTensor* vectorTensor(void* dev) {
  const int64_t shape[] = {kN}, strides[] = {1};
  return aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, dev);
}

// The pipeline's operators on `stream`: both aclnn phases per operator.
int enqueueLayers(aclTensor* x, aclTensor* scale, aclTensor* bias, aclScalar* one, aclrtStream stream) {
  for (int l = 0; l < kLayers; ++l) {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    CHECK_ACL(aclnnInplaceMulGetWorkspaceSize(x, scale, &ws, &ex));
    CHECK_ACL(aclnnInplaceMul(nullptr, ws, ex, stream));
    CHECK_ACL(aclnnInplaceAddGetWorkspaceSize(x, bias, one, &ws, &ex));
    CHECK_ACL(aclnnInplaceAdd(nullptr, ws, ex, stream));
  }
  return 0;
}

// What the pipeline computes for one element.
float reference(float v) {
  for (int l = 0; l < kLayers; ++l) v = v * 0.5f + 1.0f;
  return v;
}

}  // namespace

int main() {
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));
  const size_t bytes = kN * sizeof(float);
  void *xDev = nullptr, *scaleDev = nullptr, *biasDev = nullptr;
  CHECK_ACL(aclrtMalloc(&xDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&scaleDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&biasDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<float> halves(kN, 0.5f), ones(kN, 1.0f);
  CHECK_ACL(aclrtMemcpy(scaleDev, bytes, halves.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(biasDev, bytes, ones.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  aclTensor *x = vectorTensor(xDev), *scale = vectorTensor(scaleDev), *bias = vectorTensor(biasDev);
  float oneValue = 1.0f;
  aclScalar* one = aclCreateScalar(&oneValue, ACL_FLOAT);
  // Captured copies must use pinned host memory.
  float *in = nullptr, *out = nullptr;
  CHECK_ACL(aclrtMallocHost(reinterpret_cast<void**>(&in), bytes));
  CHECK_ACL(aclrtMallocHost(reinterpret_cast<void**>(&out), bytes));
  aclrtEvent start = nullptr, stop = nullptr;
  CHECK_ACL(aclrtCreateEvent(&start));
  CHECK_ACL(aclrtCreateEvent(&stop));

  // Eager: the pipeline launched task by task.
  for (int64_t i = 0; i < kN; ++i) in[i] = static_cast<float>(i);
  CHECK_ACL(aclrtRecordEvent(start, stream));
  CHECK_ACL(aclrtMemcpyAsync(xDev, bytes, in, bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  if (enqueueLayers(x, scale, bias, one, stream)) return 1;
  CHECK_ACL(aclrtMemcpyAsync(out, bytes, xDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
  CHECK_ACL(aclrtRecordEvent(stop, stream));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  float eagerMs = 0;
  CHECK_ACL(aclrtEventElapsedTime(&eagerMs, start, stop));
  std::printf("eager : out[1] = %.6f (expected %.6f), %.1f us on the stream\n", out[1], reference(1.0f),
              eagerMs * 1000.0f);

  // Capture the same pipeline once.
  aclmdlRI model = nullptr;
  CHECK_ACL(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  CHECK_ACL(aclrtMemcpyAsync(xDev, bytes, in, bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  if (enqueueLayers(x, scale, bias, one, stream)) return 1;
  CHECK_ACL(aclrtMemcpyAsync(out, bytes, xDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
  CHECK_ACL(aclmdlRICaptureEnd(stream, &model));

  // Replay it for new inputs: each replay reads `in` as it is when the replay runs.
  int failures = 0;
  for (int rep = 0; rep < 4; ++rep) {
    for (int64_t i = 0; i < kN; ++i) in[i] = static_cast<float>(rep * 10 + i);
    CHECK_ACL(aclrtRecordEvent(start, stream));
    CHECK_ACL(aclmdlRIExecuteAsync(model, stream));
    CHECK_ACL(aclrtRecordEvent(stop, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    float ms = 0;
    CHECK_ACL(aclrtEventElapsedTime(&ms, start, stop));
    bool ok = true;
    for (int64_t i = 0; i < kN; ++i) ok = ok && out[i] == reference(static_cast<float>(rep * 10 + i));
    failures += ok ? 0 : 1;
    std::printf("replay %d: out[1] = %.6f (expected %.6f) %s, %.1f us on the stream\n", rep, out[1],
                reference(static_cast<float>(rep * 10 + 1)), ok ? "ok" : "MISMATCH", ms * 1000.0f);
  }

  CHECK_ACL(aclmdlRIDestroy(model));
  aclDestroyTensor(x);
  aclDestroyTensor(scale);
  aclDestroyTensor(bias);
  aclDestroyScalar(one);
  aclrtFreeHost(in);
  aclrtFreeHost(out);
  aclrtFree(xDev);
  aclrtFree(scaleDev);
  aclrtFree(biasDev);
  aclrtDestroyEvent(start);
  aclrtDestroyEvent(stop);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return failures == 0 ? 0 : 1;
}

// Replay throughput of the simulator: a 10 000-task captured model (tiny operators, small
// device copies and fork/join event edges over two streams) replayed 10 times. Prints the
// replayed tasks per wall-clock second, and the simulated time of one replay.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "npusim/npusim.h"

#define CHECK_ACL(call)                                                                \
  do {                                                                                 \
    aclError err_ = (call);                                                            \
    if (err_ != ACL_SUCCESS) {                                                         \
      std::fprintf(stderr, "%s failed: %d (%s)\n", #call, err_, aclGetRecentErrMsg()); \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

namespace {

constexpr int kTasks = 10000;
constexpr int kBlockTasks = 10;  // tasks per fork/join block (see captureBlock)
constexpr int kReplays = 10;
constexpr int64_t kN = 8;

struct Vec {
  void* dev = nullptr;
  aclTensor* t = nullptr;
};

Vec makeVec(float init) {
  Vec v;
  const size_t bytes = kN * sizeof(float);
  CHECK_ACL(aclrtMalloc(&v.dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<float> h(kN, init);
  CHECK_ACL(aclrtMemcpy(v.dev, bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  const int64_t shape[] = {kN}, strides[] = {1};
  v.t = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, v.dev);
  return v;
}

void add(const Vec& a, const Vec& b, const Vec& out, aclScalar* alpha, aclrtStream s) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  CHECK_ACL(aclnnAddGetWorkspaceSize(a.t, b.t, alpha, out.t, &ws, &ex));
  CHECK_ACL(aclnnAdd(nullptr, ws, ex, s));
}

// Ten tasks: origin records (1); side waits (2), adds three times (5), records (6); origin
// copies twice (8), waits for the side (9) and adds (10).
void captureBlock(aclrtStream origin, aclrtStream side, aclrtEvent fork, aclrtEvent join, const Vec& x,
                  const Vec& y, const Vec& z, aclScalar* alpha) {
  const size_t bytes = kN * sizeof(float);
  CHECK_ACL(aclrtRecordEvent(fork, origin));
  CHECK_ACL(aclrtStreamWaitEvent(side, fork));
  for (int i = 0; i < 3; ++i) add(x, y, x, alpha, side);
  CHECK_ACL(aclrtRecordEvent(join, side));
  CHECK_ACL(aclrtMemcpyAsync(z.dev, bytes, y.dev, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, origin));
  CHECK_ACL(aclrtMemcpyAsync(y.dev, bytes, z.dev, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, origin));
  CHECK_ACL(aclrtStreamWaitEvent(origin, join));
  add(z, y, z, alpha, origin);
}

double seconds(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

}  // namespace

int main() {
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream origin = nullptr, side = nullptr;
  CHECK_ACL(aclrtCreateStream(&origin));
  CHECK_ACL(aclrtCreateStream(&side));
  aclrtEvent fork = nullptr, join = nullptr;
  CHECK_ACL(aclrtCreateEvent(&fork));
  CHECK_ACL(aclrtCreateEvent(&join));
  Vec x = makeVec(0.0f), y = makeVec(1.0f), z = makeVec(0.0f);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);

  auto t0 = std::chrono::steady_clock::now();
  CHECK_ACL(aclmdlRICaptureBegin(origin, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  for (int b = 0; b < kTasks / kBlockTasks; ++b) captureBlock(origin, side, fork, join, x, y, z, alpha);
  aclmdlRI model = nullptr;
  CHECK_ACL(aclmdlRICaptureEnd(origin, &model));
  auto t1 = std::chrono::steady_clock::now();

  const double sim0 = npusimHostTimeNs();
  for (int r = 0; r < kReplays; ++r) CHECK_ACL(aclmdlRIExecuteAsync(model, origin));
  CHECK_ACL(aclrtSynchronizeStream(origin));
  const double sim1 = npusimHostTimeNs();
  auto t2 = std::chrono::steady_clock::now();

  // x gained 3 per block and replay.
  std::vector<float> h(kN);
  CHECK_ACL(aclrtMemcpy(h.data(), sizeof(float) * kN, x.dev, sizeof(float) * kN, ACL_MEMCPY_DEVICE_TO_HOST));
  const double expectX = 3.0 * (kTasks / kBlockTasks) * kReplays;
  const double replayWall = seconds(t1, t2);
  const double tasks = static_cast<double>(kTasks) * kReplays;
  std::printf("model: %d tasks on 2 streams, captured in %.3f s wall\n", kTasks, seconds(t0, t1));
  std::printf("replays: %d in %.3f s wall, simulated %.1f us per replay (%.0f ns per task)\n", kReplays,
              replayWall, (sim1 - sim0) / 1e3 / kReplays, (sim1 - sim0) / tasks);
  std::printf("replayed tasks per wall-second: %.0f\n", tasks / replayWall);
  std::printf("check: x = %.0f (expected %.0f) %s\n", h[0], expectX, h[0] == expectX ? "ok" : "MISMATCH");

  CHECK_ACL(aclmdlRIDestroy(model));
  aclDestroyScalar(alpha);
  for (Vec* v : {&x, &y, &z}) {
    aclDestroyTensor(v->t);
    aclrtFree(v->dev);
  }
  aclrtDestroyEvent(fork);
  aclrtDestroyEvent(join);
  aclrtDestroyStream(origin);
  aclrtDestroyStream(side);
  aclrtResetDevice(0);
  aclFinalize();
  return h[0] == expectX ? 0 : 1;
}

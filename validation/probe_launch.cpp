// Validation probe: host cost of launching a small operator (aclnnAdd on 1024 fp32 elements:
// GetWorkspaceSize + launch), and a chain of such operators run eagerly vs captured once and
// replayed (aclmdlRICaptureBegin/End + aclmdlRIExecuteAsync).
//
//   probe_launch [OPS [FRAMEWORK_OP_NS]]
//
// OPS operators per chain (default 200). The published eager-vs-graph gains were measured
// under a framework (torch_npu) whose eager per-op host cost is larger than the bare ACL calls;
// with FRAMEWORK_OP_NS > 0 the eager chain is also run with that total host cost per operator
// (the difference is spent with npusimHostWork), which replay does not pay.
#include <cstdlib>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "validation/probe_util.h"

namespace {

using probe::emit;
using probe::hostNs;

struct Tensor {
  void* dev = nullptr;
  aclTensor* t = nullptr;
  explicit Tensor(int64_t n) {
    dev = probe::device(static_cast<size_t>(n) * sizeof(float));
    std::vector<float> zeros(static_cast<size_t>(n), 0.0f);
    PROBE_CHECK(aclrtMemcpy(dev, zeros.size() * sizeof(float), zeros.data(), zeros.size() * sizeof(float),
                            ACL_MEMCPY_HOST_TO_DEVICE));
    int64_t stride = 1;
    t = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, dev);
  }
};

// out = a + alpha * b, prepared and launched as a program does for every eager call.
void addOp(const Tensor& a, const Tensor& b, const Tensor& out, const aclScalar* alpha, aclrtStream s) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  PROBE_CHECK(aclnnAddGetWorkspaceSize(a.t, b.t, alpha, out.t, &ws, &ex));
  PROBE_CHECK(aclnnAdd(nullptr, ws, ex, s));
}

int run(int ops, double frameworkOpNs) {
  PROBE_CHECK(aclInit(nullptr));
  PROBE_CHECK(aclrtSetDevice(0));
  aclrtStream s = nullptr;
  PROBE_CHECK(aclrtCreateStream(&s));
  const int64_t n = 1024;
  Tensor x(n), y(n), z(n);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  addOp(x, y, z, alpha, s);  // warm-up
  PROBE_CHECK(aclrtSynchronizeStream(s));

  // Host launch cost: the calls alone, before the device has finished anything.
  double launchNs = hostNs([&] {
    for (int i = 0; i < ops; ++i) addOp(i % 2 ? x : z, y, i % 2 ? z : x, alpha, s);
  });
  PROBE_CHECK(aclrtSynchronizeStream(s));
  // Eager chain end to end: launches, then wait for the last one.
  double eagerNs = hostNs([&] {
    for (int i = 0; i < ops; ++i) addOp(i % 2 ? x : z, y, i % 2 ? z : x, alpha, s);
    PROBE_CHECK(aclrtSynchronizeStream(s));
  });
  const double perOp = launchNs / ops;
  emit("launch", {{"ops", ops}, {"launch_ns_per_op", perOp}, {"eager_ns", eagerNs}});
  const double extra = frameworkOpNs > perOp ? frameworkOpNs - perOp : 0.0;
  double frameworkNs = hostNs([&] {
    for (int i = 0; i < ops; ++i) {
      npusimHostWork(extra);
      addOp(i % 2 ? x : z, y, i % 2 ? z : x, alpha, s);
    }
    PROBE_CHECK(aclrtSynchronizeStream(s));
  });

  // The same chain captured once and replayed.
  aclError begin = aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
  if (begin != ACL_SUCCESS) {
    emit("replay", {{"supported", 0}, {"error", begin}});
    return 0;
  }
  for (int i = 0; i < ops; ++i) addOp(i % 2 ? x : z, y, i % 2 ? z : x, alpha, s);
  aclmdlRI model = nullptr;
  aclError end = aclmdlRICaptureEnd(s, &model);
  if (end != ACL_SUCCESS) {
    emit("replay", {{"supported", 0}, {"error", end}});
    return 0;
  }
  PROBE_CHECK(aclmdlRIExecuteAsync(model, s));  // first replay: warm-up
  PROBE_CHECK(aclrtSynchronizeStream(s));
  double replayNs = hostNs([&] {
    PROBE_CHECK(aclmdlRIExecuteAsync(model, s));
    PROBE_CHECK(aclrtSynchronizeStream(s));
  });
  PROBE_CHECK(aclmdlRIDestroy(model));
  emit("replay", {{"supported", 1},
                  {"ops", ops},
                  {"eager_ns", eagerNs},
                  {"framework_op_ns", extra > 0 ? frameworkOpNs : perOp},
                  {"framework_eager_ns", frameworkNs},
                  {"replay_ns", replayNs},
                  {"gain", eagerNs / replayNs},
                  {"framework_gain", frameworkNs / replayNs}});
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return run(static_cast<int>(probe::argU64(argc, argv, 1, 200)), argc > 2 ? std::atof(argv[2]) : 0.0);
}

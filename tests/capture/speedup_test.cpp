// What capture is for: 200 small operators replayed from a model finish much sooner than the
// same operators launched one by one, because a replay pays no host cost per task (only the
// device's dispatch, sched.dispatch_ns, and operator start, aicore.task_start_ns). As the
// operators grow, their execution dominates both and the advantage shrinks toward 1.
//
// Eager, per operator, the host pays aclnnAddGetWorkspaceSize (api_call + op_prepare =
// 4.3 us) and aclnnAdd (api_call + op_launch = 5.3 us) in the default preset: 9.6 us, while
// the device needs dispatch + task start = 3.3 us plus the operator's work. So tiny operators
// are host-bound eagerly (~9.6 us each) and device-bound in a replay (~3.3-4 us each).
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "capture_test_util.h"
#include "tests/runtime/sim_test_util.h"

using capture_test::DevVec;

namespace {

constexpr int kOps = 200;

struct Ratio {
  double eagerNs, eagerLaunchOnlyNs, replayNs;
};

// Runs kOps chained adds on n-element vectors (a -> b -> a ...), eagerly and replayed.
Ratio measure(aclrtStream s, int64_t n) {
  DevVec a(n, 0.0f), b(n, 0.0f), one(n, 1.0f);
  auto chain = [&](int i) {
    return i % 2 == 0 ? capture_test::add(a, one, 1.0f, b, s) : capture_test::add(b, one, 1.0f, a, s);
  };
  Ratio r{};
  // Eager: each operator's two phases, then wait for the stream.
  r.eagerNs = npusim::test::hostNs([&] {
    for (int i = 0; i < kOps; ++i) EXPECT_EQ(chain(i), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  });
  EXPECT_EQ(a.read()[static_cast<size_t>(n - 1)], static_cast<float>(kOps));  // 200 increments
  // Eager with phase 1 done beforehand (repeatable executors): launches only. Skipped for
  // large operators, where launches do not matter (it would only cost wall time).
  float expect = kOps;
  if (n <= (1 << 16)) {
    float alpha = 1.0f;
    aclScalar* al = aclCreateScalar(&alpha, ACL_FLOAT);
    aclOpExecutor* ex[2] = {};
    uint64_t ws = 0;
    EXPECT_EQ(aclnnAddGetWorkspaceSize(a.t, one.t, al, b.t, &ws, &ex[0]), ACL_SUCCESS);
    EXPECT_EQ(aclnnAddGetWorkspaceSize(b.t, one.t, al, a.t, &ws, &ex[1]), ACL_SUCCESS);
    for (aclOpExecutor* e : ex) EXPECT_EQ(aclSetAclOpExecutorRepeatable(e), 0);
    r.eagerLaunchOnlyNs = npusim::test::hostNs([&] {
      for (int i = 0; i < kOps; ++i) EXPECT_EQ(aclnnAdd(nullptr, 0, ex[i % 2], s), ACL_SUCCESS);
      EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    });
    for (aclOpExecutor* e : ex) aclDestroyAclOpExecutor(e);
    aclDestroyScalar(al);
    expect += kOps;
    EXPECT_EQ(a.read()[static_cast<size_t>(n - 1)], expect);
  }
  // Captured once, replayed: one submission, device-side dispatch only.
  EXPECT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  for (int i = 0; i < kOps; ++i) EXPECT_EQ(chain(i), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(s, &model), ACL_SUCCESS);
  r.replayNs = npusim::test::hostNs([&] {
    EXPECT_EQ(aclmdlRIExecuteAsync(model, s), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  });
  EXPECT_EQ(a.read()[static_cast<size_t>(n - 1)], expect + kOps);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  return r;
}

}  // namespace

TEST(CaptureSpeedup, ReplayBeatsEagerLaunchesAndTheGainShrinksWithOperatorSize) {
  npusim::test::configure("");  // the default preset
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);

  const int64_t sizes[] = {8, 1 << 16, 1 << 20};  // 32 B, 256 KiB, 4 MiB per vector
  std::vector<double> ratios;
  for (int64_t n : sizes) {
    Ratio r = measure(s, n);
    const double ratio = r.eagerNs / r.replayNs;
    ratios.push_back(ratio);
    std::printf("%7lld elements: eager %8.1f us, replay %8.1f us -> %.2fx", static_cast<long long>(n),
                r.eagerNs / 1e3, r.replayNs / 1e3, ratio);
    if (r.eagerLaunchOnlyNs > 0)
      std::printf(" (launches only: %8.1f us -> %.2fx)", r.eagerLaunchOnlyNs / 1e3,
                  r.eagerLaunchOnlyNs / r.replayNs);
    std::printf("\n");
    if (n == sizes[0]) {
      // Tiny operators: eager is host-bound (~9.6 us per operator), the replay device-bound.
      EXPECT_GE(ratio, 1.5);
      EXPECT_NEAR(r.eagerNs / kOps, 9600.0, 1000.0);
      EXPECT_GE(r.eagerLaunchOnlyNs / r.replayNs, 1.5);  // 5.3 us vs ~3.4 us per operator
      EXPECT_LT(r.replayNs / kOps, 5300.0);              // below one host launch per operator
    }
  }
  EXPECT_GT(ratios[0], ratios[1]);
  EXPECT_GT(ratios[1], ratios[2]);
  EXPECT_LT(ratios[2], 1.15);  // large operators: execution dominates both ways
  EXPECT_GE(ratios[2], 0.95);  // and replay is never slower

  aclrtDestroyStream(s);
  aclrtResetDevice(0);
  aclFinalize();
}

// A tiny operator's time is launch and dispatch cost: the host's phase-1 and phase-2 calls,
// the doorbell, the stream scheduler's dispatch, the start of the task on the cores and the
// completion report, all parameters in configs/910b.json. The tile itself is a few ns.
#include <cstdio>

#include "tests/aicore/aicore_test_util.h"

using namespace aicore_test;

TEST(LaunchOverhead, TinyAddIsDominatedByLaunchAndDispatch) {
  npusim::test::configure("sim.functional=false");  // same times either way (FunctionalTiming)
  Session s;
  DevTensor a({16}, ACL_FLOAT), b({16}, ACL_FLOAT), c({16}, ACL_FLOAT);
  const npusim::Config& cfg = config();
  auto ns = [&cfg](const char* key) { return cfg.getFloat(key); };

  // End to end on the host: phase 1, phase 2, wait for the result.
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const double prepare =
      npusim::test::hostNs([&] { ASSERT_EQ(aclnnAddGetWorkspaceSize(a.t, b.t, alpha, c.t, &ws, &ex), 0); });
  const double launch = npusim::test::hostNs([&] { ASSERT_EQ(aclnnAdd(nullptr, ws, ex, s.stream), 0); });
  const double wait = npusim::test::hostNs([&] { ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS); });
  aclDestroyScalar(alpha);
  const double total = prepare + launch + wait;

  // On the device: the task alone, bracketed by events while a matmul keeps the stream busy.
  DevTensor wa({2048, 2048}, ACL_FLOAT16), wb({2048, 2048}, ACL_FLOAT16), wc({2048, 2048}, ACL_FLOAT16);
  const double device =
      1e6 * deviceMs(
                s.stream, [&] { matmul(wa, wb, wc, s.stream); }, [&] { add(a, b, c, s.stream); });
  const double dispatch = ns("sched.dispatch_ns"), start = ns("aicore.task_start_ns");
  const double work = device - dispatch - start;  // loading, adding and storing 3 x 64 B
  // Host bookkeeping of each ACL entry point; synchronize's overlaps the device's work.
  const double call = ns("host.api_call_ns");
  const double fixed = ns("host.op_prepare_ns") + ns("host.op_launch_ns") + 2 * call +
                       ns("host.doorbell_ns") + dispatch + start + ns("sched.completion_ns") +
                       ns("host.wakeup_ns");
  std::printf(
      "tiny Add (16 fp32): %.0f ns end to end = phase 1 %.0f + phase 2 %.0f + synchronize %.0f\n"
      "  device task %.0f ns = dispatch %.0f + task start %.0f + tiles %.0f\n"
      "  configured fixed costs %.0f ns (%.1f %% of the total); the operator's own work %.1f %%\n",
      total, prepare, launch, wait, device, dispatch, start, work, fixed, 100 * fixed / total,
      100 * work / total);
  EXPECT_NEAR(prepare, ns("host.op_prepare_ns") + call, 1);
  EXPECT_NEAR(launch, ns("host.op_launch_ns") + call, 1);
  EXPECT_GE(fixed / total, 0.9);  // launch and dispatch are (nearly) all of it
  EXPECT_LE(fixed / total, 1.05);
  EXPECT_LT(work / total, 0.05);
  EXPECT_GE(work, 0.0);
  EXPECT_LT(device, 1.1 * (dispatch + start) + 1000);  // the tile: one HBM round trip at most
}

// Temporal decoupling (issue 13): DMA channels and the AI cores' MTEs run up to sim.quantum_ns
// ahead of the SystemC kernel. Because every shared resource arbitrates by simulated time, a
// workload that contends on PCIe and HBM takes nearly the same simulated times with the default
// quantum as when every transaction synchronises (quantum 0). Not exactly: a transaction called
// after one timed later that overlaps where it would go starts after it (no preemption), and an
// HBM channel looks back only hbm.reorder_holes holes (docs/architecture.md, "Contention").
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "tests/runtime/sim_test_util.h"

namespace {

aclTensor* vector(void* dev, int64_t n) {
  const int64_t shape[] = {n}, strides[] = {1};
  return aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, dev);
}

// Runs the child test with `set` and returns its "RESULT name value" lines as a map.
std::map<std::string, double> runWorkload(const std::string& set) {
  const std::string cmd =
      "NPUSIM_SET=" + set + " " + testing::internal::GetArgvs()[0] + " --gtest_filter=Quantum.Workload 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::map<std::string, double> out;
  char line[512];
  while (p && fgets(line, sizeof line, p)) {
    char key[128];
    double v = 0;
    if (std::sscanf(line, "RESULT %127s %lf", key, &v) == 2) out[key] = v;
  }
  if (p) pclose(p);
  return out;
}

}  // namespace

// H2D and D2H copies on their own streams while an Add streams 3 x 32 MiB through HBM and a
// device-local copy runs: PCIe both ways, and DMA and MTE traffic in one HBM.
TEST(Quantum, Workload) {
  setenv("NPUSIM_CONFIG", "910b", 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const size_t copy = 16u << 20;
  const int64_t n = 8 << 20;  // floats per Add operand
  const size_t opBytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<aclrtStream> s(4);
  for (auto& st : s) ASSERT_EQ(aclrtCreateStream(&st), ACL_SUCCESS);
  void *h1, *h2, *d1, *d2, *d3, *d4, *x, *y, *z;
  ASSERT_EQ(aclrtMallocHost(&h1, copy), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&h2, copy), ACL_SUCCESS);
  for (void** d : {&d1, &d2, &d3, &d4})
    ASSERT_EQ(aclrtMalloc(d, copy, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  for (void** d : {&x, &y, &z}) ASSERT_EQ(aclrtMalloc(d, opBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclTensor *tx = vector(x, n), *ty = vector(y, n), *tz = vector(z, n);
  aclScalar* one = nullptr;
  float alpha = 1.0f;
  one = aclCreateScalar(&alpha, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(tx, ty, one, tz, &ws, &ex), ACL_SUCCESS);

  std::vector<aclrtEvent> begin(4), end(4);
  for (int i = 0; i < 4; ++i) {
    aclrtCreateEvent(&begin[i]);
    aclrtCreateEvent(&end[i]);
    aclrtRecordEvent(begin[i], s[i]);
  }
  ASSERT_EQ(aclrtMemcpyAsync(d1, copy, h1, copy, ACL_MEMCPY_HOST_TO_DEVICE, s[0]), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(h2, copy, d2, copy, ACL_MEMCPY_DEVICE_TO_HOST, s[1]), ACL_SUCCESS);
  ASSERT_EQ(aclnnAdd(nullptr, ws, ex, s[2]), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(d4, copy, d3, copy, ACL_MEMCPY_DEVICE_TO_DEVICE, s[3]), ACL_SUCCESS);
  for (int i = 0; i < 4; ++i) aclrtRecordEvent(end[i], s[i]);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  const char* names[] = {"h2d", "d2h", "add", "d2d"};
  for (int i = 0; i < 4; ++i) {
    float ms = 0;
    ASSERT_EQ(aclrtEventElapsedTime(&ms, begin[i], end[i]), ACL_SUCCESS);
    EXPECT_GT(ms, 0.0f);
    std::printf("RESULT %s_us %.4f\n", names[i], ms * 1000.0);
  }
  aclDestroyTensor(tx);
  aclDestroyTensor(ty);
  aclDestroyTensor(tz);
  aclDestroyScalar(one);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Quantum, DefaultQuantumGivesWithin2PercentTheTimesOfSynchronisingEveryTransaction) {
  const auto sync = runWorkload("sim.quantum_ns=0");
  const auto decoupled = runWorkload("sim.quantum_ns=250");
  for (const char* k : {"h2d_us", "d2h_us", "add_us", "d2d_us"}) {
    ASSERT_TRUE(sync.count(k) && decoupled.count(k)) << k << " missing";
    EXPECT_NEAR(decoupled.at(k), sync.at(k), sync.at(k) * 0.02) << k;
  }
  // The contention is real: the H2D copy alone would take 16 MiB / ~23.7 GB/s = 708 us; the
  // D2H writes ahead of its reads slow it down.
  EXPECT_GT(sync.at("h2d_us"), 708.0 * 1.1);
}

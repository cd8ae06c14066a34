#include <cstdio>
#include "tests/aicore/aicore_test_util.h"
using namespace aicore_test;
TEST(Explore, Matmul) {
  npusim::test::configure("sim.functional=false");
  Session s;
  for (int n : {1024, 2048, 4096}) {
    DevTensor a({n, n}, ACL_FLOAT16), b({n, n}, ACL_FLOAT16), c({n, n}, ACL_FLOAT16);
    double ms = npusim::test::eventMs(s.stream, [&] { matmul(a, b, c, s.stream); });
    double peak = kCubeCores * kFreqHz * kCubeMacsPerCycle;
    double macs = double(n) * n * n;
    std::printf("matmul %d: %.3f ms, %.1f %% of peak (ideal %.3f ms)\n", n, ms, 100 * macs / peak / (ms * 1e-3), macs / peak * 1e3);
  }
}
TEST(Explore, Add) {
  npusim::test::configure("sim.functional=false");
  Session s;
  for (int64_t n : {1 << 20, 16 << 20, 64 << 20}) {
    DevTensor a({n}, ACL_FLOAT), b({n}, ACL_FLOAT), c({n}, ACL_FLOAT);
    double ms = npusim::test::eventMs(s.stream, [&] { add(a, b, c, s.stream); });
    std::printf("add %ld: %.3f ms, %.1f GB/s\n", n, ms, 12.0 * n / (ms * 1e-3) / 1e9);
  }
}

#pragma once
// Simulated time of one operator (warmed up once) over the HBM model's streaming time for the
// bytes it reads and writes: the ratio the roofline tests of the operator families bound.
#include <cstdint>
#include <cstdio>

#include "tests/aicore/aicore_test_util.h"
#include "tests/aicore/roofline.h"

namespace aicore_test {

inline double hbmRatio(const char* name, const Phase1& p1, Phase2 p2, aclrtStream s, uint64_t readBytes,
                       uint64_t writeBytes) {
  const double sec = 1e-3 * deviceMs(
                                s, [&] { launchOp(p1, p2, s); }, [&] { launchOp(p1, p2, s); });
  const double bound = roofline::memorySec(config(), readBytes, writeBytes);
  std::printf("%-22s %9.1f us, HBM bound %9.1f us, ratio %.3f\n", name, sec * 1e6, bound * 1e6, sec / bound);
  return sec / bound;
}

}  // namespace aicore_test

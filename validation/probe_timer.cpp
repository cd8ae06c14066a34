// Validation probe: the resolution of aclrtEventElapsedTime. Event pairs are recorded around
// 1..N small memsets (steps of a few hundred ns of device time that do not fall on any clock
// grid); every elapsed time is a whole number of timestamp ticks, so the greatest common divisor
// of the readings, and the smallest step between distinct readings, reveal the tick.
//
//   probe_timer [PAIRS]
#include <cmath>
#include <cstdint>
#include <numeric>
#include <set>

#include "validation/probe_util.h"

namespace {

int run(int pairs) {
  PROBE_CHECK(aclInit(nullptr));
  PROBE_CHECK(aclrtSetDevice(0));
  aclrtStream s = nullptr;
  PROBE_CHECK(aclrtCreateStream(&s));
  void* d = probe::device(4096);
  void* scratch = probe::device(probe::kGateBytes);
  std::set<int64_t> readings;  // nanoseconds (a float of ms holds them to well under 1 ns)
  for (int k = 1; k <= pairs; ++k) {
    // k memsets of assorted sizes: device times that fall on no particular grid.
    double ns = k * probe::perTaskNs(s, scratch, k, [&](int i) {
                  PROBE_CHECK(aclrtMemsetAsync(d, 4096, 0, 64 + 1000 * static_cast<size_t>(i % 4), s));
                });
    readings.insert(static_cast<int64_t>(std::llround(ns)));
  }
  int64_t g = 0;
  for (int64_t r : readings) g = std::gcd(g, r);
  int64_t step = INT64_MAX, prev = -1;
  for (int64_t r : readings) {
    if (prev >= 0 && r - prev < step) step = r - prev;
    prev = r;
  }
  probe::emit("timer", {{"pairs", pairs},
                        {"distinct", static_cast<double>(readings.size())},
                        {"gcd_ns", static_cast<double>(g)},
                        {"min_step_ns", step == INT64_MAX ? 0.0 : static_cast<double>(step)}});
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return run(static_cast<int>(probe::argU64(argc, argv, 1, 64))); }

// A large Add is bound by HBM bandwidth: it moves its bytes at >= 75 % of the rate the HBM model
// itself streams the same read/write mix, measured here on a fresh HbmModel with the same
// parameters (no number assumed).
#include <algorithm>
#include <cstdio>

#include "models/hbm/hbm_params.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/aicore/roofline.h"

using namespace aicore_test;

namespace {

double hbmStreamingBytesPerSec(uint64_t bytes, double readFraction) {
  return roofline::hbmBytesPerSec(config(), bytes, readFraction);
}

// Runs a 3 x 256 MiB fp32 Add under `set` and checks it against the HBM model's streaming.
void checkAddIsHbmBound(const std::string& set) {
  npusim::test::configure(set);
  Session s;
  const int64_t n = 64ll << 20;  // 64 Mi fp32 per tensor: 768 MiB moved
  DevTensor a({n}, ACL_FLOAT), b({n}, ACL_FLOAT), c({n}, ACL_FLOAT);
  const double sec = 1e-3 * deviceMs(
                                s.stream, [&] { add(a, b, c, s.stream); }, [&] { add(a, b, c, s.stream); });
  const uint64_t moved = a.bytes + b.bytes + c.bytes;
  const double rate = static_cast<double>(moved) / sec;
  const double mixed = hbmStreamingBytesPerSec(moved, 2.0 / 3.0);  // the Add's mix: 2 reads, 1 write
  const double reads = hbmStreamingBytesPerSec(moved, 1.0);
  const double peak = npusim::HbmModel(npusim::hbmParamsFromConfig(config())).peakBytesPerSec();
  std::printf(
      "[%s] Add of 3 x 256 MiB: %.1f us, %.0f GB/s = %.1f %% of HBM streaming at 2:1 reads:writes "
      "(%.0f GB/s), %.1f %% of read-only streaming (%.0f GB/s), %.1f %% of the pin peak (%.0f GB/s)\n",
      set.c_str(), sec * 1e6, rate / 1e9, 100 * rate / mixed, mixed / 1e9, 100 * rate / reads, reads / 1e9,
      100 * rate / peak, peak / 1e9);
  EXPECT_GE(rate / mixed, 0.75);
  EXPECT_LE(rate / reads, 1.0);
  // The cores are not the limit: their MTE engines and vector units could go much faster.
  const npusim::Config& cfg = config();
  const double clock = cfg.getFloat("aicore.freq_ghz") * 1e9;
  const double cores = static_cast<double>(cfg.getInt("aicore.vector_cores"));
  EXPECT_GT(cores * cfg.getFloat("aicore.mte_bytes_per_cycle") * clock, 1.5 * rate);
  EXPECT_GT(cores * cfg.getFloat("aicore.vector_bytes_per_cycle") * clock, 3 * rate);
}

}  // namespace

TEST(HbmBound, LargeAddStreamsAtHbmBandwidth) { checkAddIsHbmBound("sim.functional=false"); }

// A slower memory (HBM2 at 2 Gb/s per pin): the Add slows down with it and stays HBM bound.
TEST(HbmBound, LargeAddFollowsASlowerHbm) { checkAddIsHbmBound("sim.functional=false,hbm.timing=hbm2-2000"); }

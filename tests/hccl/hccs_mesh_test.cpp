// Collectives on the 910b-hccs preset (issue 27, item 5): with every pair of devices linked by
// HCCS, HCCL picks the Mesh algorithm by itself; each rank's pushes take its 7 links, one per
// peer and direction; a large AllReduce takes the time those links need; the data is right.
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/hccl/hccl_test_util.h"

using nlohmann::json;
using npusim::test::Ranks;

namespace {

constexpr uint32_t kRanks = 8;
// The preset's link: hccs.link_gbps 56 GB/s per direction, hccs.efficiency 0.8 of it data.
constexpr double kLinkDataGBps = 56.0 * 0.8;

// Device buffer of rank r left as allocated (timing-only runs never look at it).
void* rawAlloc(uint32_t r, size_t bytes) {
  EXPECT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
  void* p = nullptr;
  EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  return p;
}

// Device milliseconds of `count` fp32 elements' SUM AllReduce over 8 ranks called from one
// thread: the longest of the ranks' spans between events recorded before and after their call.
double allReduceMs(Ranks& k, std::vector<void*>& in, std::vector<void*>& out, uint64_t count) {
  std::vector<aclrtEvent> before(kRanks), after(kRanks);
  for (uint32_t r = 0; r < kRanks; ++r) {
    EXPECT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
    EXPECT_EQ(aclrtCreateEvent(&before[r]), ACL_SUCCESS);
    EXPECT_EQ(aclrtCreateEvent(&after[r]), ACL_SUCCESS);
    EXPECT_EQ(aclrtRecordEvent(before[r], k.streams[r]), ACL_SUCCESS);
  }
  for (uint32_t r = 0; r < kRanks; ++r)
    EXPECT_EQ(
        HcclAllReduce(in[r], out[r], count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, k.comms[r], k.streams[r]),
        HCCL_SUCCESS);
  for (uint32_t r = 0; r < kRanks; ++r) {
    EXPECT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
    EXPECT_EQ(aclrtRecordEvent(after[r], k.streams[r]), ACL_SUCCESS);
  }
  k.syncAll();
  double longest = 0;
  for (uint32_t r = 0; r < kRanks; ++r) {
    float ms = 0;
    EXPECT_EQ(aclrtEventElapsedTime(&ms, before[r], after[r]), ACL_SUCCESS);
    longest = std::max(longest, static_cast<double>(ms));
  }
  return longest;
}

}  // namespace

TEST(HcclHccs, Workload) {
  if (!std::getenv("NPUSIM_STATS")) GTEST_SKIP() << "run by HcclHccs.MeshOverEverySevenLinksWithCorrectData";
  // An 8-rank AllReduce of 1 MiB + 4 KiB fp32 (above the 256 KB threshold, a size that does not
  // split evenly) with rank r holding i + r at element i: the sum is 8i + 28 everywhere.
  npusim::test::configure("", "910b-hccs");
  unsetenv("NPUSIM_HCCL_ALGO");
  const uint64_t count = (1u << 18) + 1024, bytes = count * 4;
  Ranks k(kRanks);
  std::vector<void*> in(kRanks), out(kRanks);
  for (uint32_t r = 0; r < kRanks; ++r) {
    std::vector<float> v(count);
    for (uint64_t i = 0; i < count; ++i) v[i] = static_cast<float>(i % 1000 + r);
    in[r] = k.alloc(r, bytes, v.data());
    out[r] = k.alloc(r, bytes);
  }
  for (uint32_t r = 0; r < kRanks; ++r)
    ASSERT_EQ(
        HcclAllReduce(in[r], out[r], count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, k.comms[r], k.streams[r]),
        HCCL_SUCCESS);
  k.syncAll();
  for (uint32_t r = 0; r < kRanks; ++r) {
    std::vector<uint8_t> b = k.read(r, out[r], bytes);
    const float* f = reinterpret_cast<const float*>(b.data());
    for (uint64_t i = 0; i < count; ++i)
      ASSERT_EQ(f[i], static_cast<float>(8 * (i % 1000) + 28)) << r << " " << i;
  }
  k.destroy();
}

TEST(HcclHccs, MeshOverEverySevenLinksWithCorrectData) {
  const std::string dir = testing::TempDir();
  const std::string stats = dir + "hccl_hccs_stats.json";
  std::remove(stats.c_str());
  std::string cmd = "NPUSIM_STATS=" + stats + " " + testing::internal::GetArgvs()[0] +
                    " --gtest_filter=HcclHccs.Workload > " + dir + "hccl_hccs.log 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;  // the workload checked the data itself
  json st;
  std::ifstream(stats) >> st;
  // Mesh, not ring: every rank sent to every peer over the direct link, S/8 of reduce-scatter
  // and S/8 of gather per direction (slices of S/8 rounded up to 16 KiB, the last one short).
  const uint64_t bytes = ((1u << 18) + 1024) * 4, slice = (bytes / 8 + 16383) / 16384 * 16384;
  auto len = [&](uint64_t p) { return std::min(bytes, (p + 1) * slice) - std::min(bytes, p * slice); };
  ASSERT_EQ(st["hccs"].size(), 56u);
  for (uint32_t r = 0; r < kRanks; ++r)
    for (uint32_t p = 0; p < kRanks; ++p)
      if (p != r) {
        const std::string name = "HCCS " + std::to_string(r) + "->" + std::to_string(p);
        EXPECT_EQ(st["hccs"][name]["payload_bytes"].get<uint64_t>(), len(p) + len(r)) << name;
        // Busy while carrying them at the link's data rate (two transfers, a latency each).
        const double busyUs = (len(p) + len(r)) / (kLinkDataGBps * 1e3);
        EXPECT_NEAR(st["hccs"][name]["busy_us"].get<double>(), busyUs, 0.01 * busyUs + 0.2) << name;
      }
}

TEST(HcclHccs, LargeAllReduceTimeFollowsFromTheLinkRate) {
  // Mesh AllReduce of S bytes: reduce-scatter then gather, each 7 concurrent pushes of S/8, one
  // per link: 2 * S/8 / B on the links (= 2(n-1)/n * S / (7 B)), plus a local copy of S/8 before
  // each phase (own slice into the CCL-out, reduced slice into the output), timed here too. HBM
  // refresh is off, as in the HCCS copy tests: with it on, the 14 streams crossing every device's
  // HBM are slowed further (docs/hccl.md, "Open"), which this test is not about.
  npusim::test::configure("sim.functional=false,hbm.refresh=false", "910b-hccs");
  unsetenv("NPUSIM_HCCL_ALGO");
  const uint64_t bytes = 128ull << 20, count = bytes / 4;
  Ranks k(kRanks);
  std::vector<void*> in(kRanks), out(kRanks);
  for (uint32_t r = 0; r < kRanks; ++r) in[r] = rawAlloc(r, bytes), out[r] = rawAlloc(r, bytes);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const double localMs = npusim::test::eventMs(k.streams[0], [&] {
    EXPECT_EQ(
        aclrtMemcpyAsync(out[0], bytes / 8, in[0], bytes / 8, ACL_MEMCPY_DEVICE_TO_DEVICE, k.streams[0]),
        ACL_SUCCESS);
  });
  const double linkMs = 2.0 * (bytes / 8) / (kLinkDataGBps * 1e9) * 1e3;
  const double bound = linkMs + 2 * localMs;
  const double ms = allReduceMs(k, in, out, count);
  // Never faster than the links and the copies allow. Slower by what 14 concurrent streams (7
  // pushes out, 7 in) cost every device's HBM in row conflicts — measured 22 % here — and the
  // notify round trips (tens of microseconds against 1.1 ms): at most 30 %.
  EXPECT_GE(ms, bound) << "links " << linkMs << " ms, local copies 2 x " << localMs << " ms";
  EXPECT_LE(ms, 1.3 * bound) << "links " << linkMs << " ms, local copies 2 x " << localMs << " ms";
  // Bus bandwidth, as hccl_test reports it, against the 7 links' data rate (313.6 GB/s).
  const double busGBps = 2.0 * 7 / 8 * bytes / (ms * 1e-3) / 1e9;
  EXPECT_GT(busGBps, 0.5 * 7 * kLinkDataGBps);
  EXPECT_LT(busGBps, 7 * kLinkDataGBps);
  k.destroy();
}

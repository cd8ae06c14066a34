// Validation probe: device-to-device copies between two NPUs, over their HCCS link when they have
// one and through the PCIe fabric otherwise
// (aclrtDeviceEnablePeerAccess + aclrtMemcpy DEVICE_TO_DEVICE). A cross-switch pair needs
// NPUSIM_SET=system.p2p_across_switches=true.
//
//   probe_p2p SRC DST BYTES   bandwidth of a large copy and the per-copy time of small ones
#include <string>

#include "validation/probe_util.h"

namespace {

using probe::emit;
using probe::eventMs;
using probe::gbps;
using probe::hostNs;

int run(int src, int dst, uint64_t n) {
  const uint64_t reps = 256;
  PROBE_CHECK(aclInit(nullptr));
  PROBE_CHECK(aclrtSetDevice(dst));
  void* to = probe::device(n);
  PROBE_CHECK(aclrtSetDevice(src));
  void* from = probe::device(n);
  PROBE_CHECK(aclrtDeviceEnablePeerAccess(dst, 0));
  aclrtStream s = nullptr;
  PROBE_CHECK(aclrtCreateStream(&s));
  // First touch of both simulated memories, outside the measurement.
  PROBE_CHECK(aclrtMemset(from, n, 1, n));
  PROBE_CHECK(aclrtMemcpy(to, n, from, n, ACL_MEMCPY_DEVICE_TO_DEVICE));

  const double bytes = static_cast<double>(n);
  double syncNs = hostNs([&] { PROBE_CHECK(aclrtMemcpy(to, n, from, n, ACL_MEMCPY_DEVICE_TO_DEVICE)); });
  double devMs =
      eventMs(s, [&] { PROBE_CHECK(aclrtMemcpyAsync(to, n, from, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s)); });
  // Back-to-back 64 B copies vs 64 B memsets on the same stream: the difference per task is the
  // latency of one small write across the fabric (dispatch and descriptor costs cancel).
  void* scratch = probe::device(probe::kGateBytes);
  double copy = probe::perTaskNs(s, scratch, static_cast<int>(reps), [&](int) {
    PROBE_CHECK(aclrtMemcpyAsync(to, n, from, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
  });
  double fill = probe::perTaskNs(s, scratch, static_cast<int>(reps),
                                 [&](int) { PROBE_CHECK(aclrtMemsetAsync(from, n, 0, 64, s)); });
  emit("p2p", {{"src", src},
               {"dst", dst},
               {"bytes", bytes},
               {"sync_gbps", gbps(bytes, syncNs)},
               {"device_gbps", gbps(bytes, devMs * 1e6)},
               {"small_copy_ns", copy},
               {"small_write_latency_ns", copy - fill}});
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s SRC DST [BYTES]\n", argv[0]);
    return 2;
  }
  return run(std::atoi(argv[1]), std::atoi(argv[2]), probe::argU64(argc, argv, 3, 256ull << 20));
}

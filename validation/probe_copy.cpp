// Validation probe: host <-> device copies on device 0 of the selected preset, timed as the
// published measurements were (host timer around synchronous copies; device events for
// concurrent streams). One SystemC simulation per process, so one experiment per run:
//
//   probe_copy sweep h2d|d2h MIN MAX   pinned copies of MIN, 2*MIN, ... MAX bytes
//   probe_copy bidir BYTES             H2D alone, D2H alone, both at once on two streams
//   probe_copy pageable BYTES          pinned vs pageable (malloc) host memory, both directions
//   probe_copy latency                 small-copy latency and the unloaded DMA read round trip
#include <cstring>
#include <string>
#include <vector>

#include "validation/probe_util.h"

namespace {

using probe::emit;
using probe::eventMs;
using probe::gbps;
using probe::hostNs;

struct Session {
  aclrtStream a = nullptr, b = nullptr;
  Session() {
    PROBE_CHECK(aclInit(nullptr));
    PROBE_CHECK(aclrtSetDevice(0));
    PROBE_CHECK(aclrtCreateStream(&a));
    PROBE_CHECK(aclrtCreateStream(&b));
  }
};

aclrtMemcpyKind kindOf(bool h2d) { return h2d ? ACL_MEMCPY_HOST_TO_DEVICE : ACL_MEMCPY_DEVICE_TO_HOST; }

// Bandwidth vs size: a host timer around each synchronous copy (what bandwidthTest-style tools
// and the DeepSpeed measurements read), and device events around an async copy (the link
// alone, without host overheads).
int sweep(bool h2d, uint64_t minBytes, uint64_t maxBytes) {
  Session s;
  void* h = probe::pinned(maxBytes);
  void* d = probe::device(maxBytes);
  std::memset(h, 1, maxBytes);
  void* dst = h2d ? d : h;
  const void* src = h2d ? h : d;
  // First touch of the simulated device memory, outside the measurement.
  PROBE_CHECK(aclrtMemcpy(d, maxBytes, h, maxBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  for (uint64_t n = minBytes; n <= maxBytes; n *= 2) {
    double syncNs = hostNs([&] { PROBE_CHECK(aclrtMemcpy(dst, maxBytes, src, n, kindOf(h2d))); });
    double asyncMs =
        eventMs(s.a, [&] { PROBE_CHECK(aclrtMemcpyAsync(dst, maxBytes, src, n, kindOf(h2d), s.a)); });
    emit(h2d ? "sweep_h2d" : "sweep_d2h", {{"bytes", static_cast<double>(n)},
                                           {"sync_ns", syncNs},
                                           {"sync_gbps", gbps(static_cast<double>(n), syncNs)},
                                           {"device_ns", asyncMs * 1e6},
                                           {"device_gbps", gbps(static_cast<double>(n), asyncMs * 1e6)}});
  }
  return 0;
}

// H2D and D2H at the same time on two streams, each direction timed by its own events.
int bidir(uint64_t n) {
  Session s;
  void* h1 = probe::pinned(n);
  void* h2 = probe::pinned(n);
  void* d1 = probe::device(n);
  void* d2 = probe::device(n);
  PROBE_CHECK(aclrtMemcpy(d1, n, h1, n, ACL_MEMCPY_HOST_TO_DEVICE));
  PROBE_CHECK(aclrtMemcpy(d2, n, h2, n, ACL_MEMCPY_HOST_TO_DEVICE));
  double h2dAlone = eventMs(s.a, [&] { PROBE_CHECK(aclrtMemcpyAsync(d1, n, h1, n, kindOf(true), s.a)); });
  double d2hAlone = eventMs(s.b, [&] { PROBE_CHECK(aclrtMemcpyAsync(h2, n, d2, n, kindOf(false), s.b)); });
  aclrtEvent a0, a1, b0, b1;
  for (aclrtEvent* e : {&a0, &a1, &b0, &b1}) PROBE_CHECK(aclrtCreateEvent(e));
  PROBE_CHECK(aclrtRecordEvent(a0, s.a));
  PROBE_CHECK(aclrtRecordEvent(b0, s.b));
  PROBE_CHECK(aclrtMemcpyAsync(d1, n, h1, n, kindOf(true), s.a));
  PROBE_CHECK(aclrtMemcpyAsync(h2, n, d2, n, kindOf(false), s.b));
  PROBE_CHECK(aclrtRecordEvent(a1, s.a));
  PROBE_CHECK(aclrtRecordEvent(b1, s.b));
  PROBE_CHECK(aclrtSynchronizeDevice());
  float h2dBoth = 0, d2hBoth = 0;
  PROBE_CHECK(aclrtEventElapsedTime(&h2dBoth, a0, a1));
  PROBE_CHECK(aclrtEventElapsedTime(&d2hBoth, b0, b1));
  const double bytes = static_cast<double>(n);
  const double slowest = std::max(h2dBoth, d2hBoth);
  emit("bidir", {{"bytes", bytes},
                 {"h2d_alone_gbps", gbps(bytes, h2dAlone * 1e6)},
                 {"d2h_alone_gbps", gbps(bytes, d2hAlone * 1e6)},
                 {"h2d_both_gbps", gbps(bytes, h2dBoth * 1e6)},
                 {"d2h_both_gbps", gbps(bytes, d2hBoth * 1e6)},
                 {"aggregate_gbps", gbps(2 * bytes, slowest * 1e6)}});
  return 0;
}

// Pinned vs pageable host memory with synchronous copies (a pageable async copy degrades to
// exactly this, acl-api.md).
int pageable(uint64_t n) {
  Session s;
  void* h = probe::pinned(n);
  void* d = probe::device(n);
  std::vector<char> pg(n, 1);
  std::memset(h, 1, n);
  PROBE_CHECK(aclrtMemcpy(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE));
  const double bytes = static_cast<double>(n);
  double pinH2d = hostNs([&] { PROBE_CHECK(aclrtMemcpy(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE)); });
  double pgH2d = hostNs([&] { PROBE_CHECK(aclrtMemcpy(d, n, pg.data(), n, ACL_MEMCPY_HOST_TO_DEVICE)); });
  double pinD2h = hostNs([&] { PROBE_CHECK(aclrtMemcpy(h, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST)); });
  double pgD2h = hostNs([&] { PROBE_CHECK(aclrtMemcpy(pg.data(), n, d, n, ACL_MEMCPY_DEVICE_TO_HOST)); });
  emit("pageable", {{"bytes", bytes},
                    {"pinned_h2d_gbps", gbps(bytes, pinH2d)},
                    {"pageable_h2d_gbps", gbps(bytes, pgH2d)},
                    {"pinned_d2h_gbps", gbps(bytes, pinD2h)},
                    {"pageable_d2h_gbps", gbps(bytes, pgD2h)}});
  return 0;
}

// Small copies. Host-observed latency of one synchronous copy; and, on the device, the time
// per copy of a long run of back-to-back small async H2D copies minus that of memsets (same
// dispatch and descriptor cost, no PCIe): the unloaded round trip of a DMA read of host memory.
int latency() {
  Session s;
  const uint64_t n = 4096;
  const int reps = 256;
  void* h = probe::pinned(n);
  void* d = probe::device(n);
  std::memset(h, 1, n);
  PROBE_CHECK(aclrtMemcpy(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE));
  for (uint64_t bytes : {64ull, 4096ull}) {
    double h2d = hostNs([&] { PROBE_CHECK(aclrtMemcpy(d, n, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE)); });
    double d2h = hostNs([&] { PROBE_CHECK(aclrtMemcpy(h, n, d, bytes, ACL_MEMCPY_DEVICE_TO_HOST)); });
    double async = hostNs([&] {
      PROBE_CHECK(aclrtMemcpyAsync(d, n, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s.a));
      PROBE_CHECK(aclrtSynchronizeStream(s.a));
    });
    emit("latency", {{"bytes", static_cast<double>(bytes)},
                     {"sync_h2d_ns", h2d},
                     {"sync_d2h_ns", d2h},
                     {"async_h2d_sync_ns", async}});
  }
  void* scratch = probe::device(probe::kGateBytes);
  double copy = probe::perTaskNs(s.a, scratch, reps, [&](int) {
    PROBE_CHECK(aclrtMemcpyAsync(d, n, h, 64, ACL_MEMCPY_HOST_TO_DEVICE, s.a));
  });
  double fill =
      probe::perTaskNs(s.a, scratch, reps, [&](int) { PROBE_CHECK(aclrtMemsetAsync(d, n, 0, 64, s.a)); });
  emit("read_rtt", {{"copy_ns", copy}, {"memset_ns", fill}, {"rtt_ns", copy - fill}});
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string what = argc > 1 ? argv[1] : "";
  if (what == "sweep" && argc > 2)
    return sweep(std::string(argv[2]) == "h2d", probe::argU64(argc, argv, 3, 4096),
                 probe::argU64(argc, argv, 4, 256ull << 20));
  if (what == "bidir") return bidir(probe::argU64(argc, argv, 2, 256ull << 20));
  if (what == "pageable") return pageable(probe::argU64(argc, argv, 2, 64ull << 20));
  if (what == "latency") return latency();
  std::fprintf(stderr, "usage: %s sweep h2d|d2h MIN MAX | bidir BYTES | pageable BYTES | latency\n", argv[0]);
  return 2;
}

#pragma once
// Shared helpers of the validation probes: ACL error checks, buffers, timing with the
// simulated host clock and with device events, and one-line JSON results on stdout that
// scripts/validate parses ({"probe": ..., "key": value, ...}).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "npusim/npusim.h"

namespace probe {

#define PROBE_CHECK(expr)                                                                   \
  do {                                                                                      \
    aclError e_ = (expr);                                                                   \
    if (e_ != ACL_SUCCESS) {                                                                \
      std::fprintf(stderr, "probe: %s failed: %d (%s)\n", #expr, e_, aclGetRecentErrMsg()); \
      std::exit(1);                                                                         \
    }                                                                                       \
  } while (0)

inline void* pinned(size_t n) {
  void* p = nullptr;
  PROBE_CHECK(aclrtMallocHost(&p, n));
  return p;
}

inline void* device(size_t n) {
  void* p = nullptr;
  PROBE_CHECK(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
  return p;
}

// Simulated host nanoseconds spent in `fn` (what a host timer around the calls would read).
template <typename F>
double hostNs(F&& fn) {
  double t0 = npusimHostTimeNs();
  fn();
  return npusimHostTimeNs() - t0;
}

// Device milliseconds between events recorded before and after `fn` on `stream`.
template <typename F>
double eventMs(aclrtStream stream, F&& fn) {
  aclrtEvent a = nullptr, b = nullptr;
  PROBE_CHECK(aclrtCreateEvent(&a));
  PROBE_CHECK(aclrtCreateEvent(&b));
  PROBE_CHECK(aclrtRecordEvent(a, stream));
  fn();
  PROBE_CHECK(aclrtRecordEvent(b, stream));
  PROBE_CHECK(aclrtSynchronizeStream(stream));
  float ms = 0;
  PROBE_CHECK(aclrtEventElapsedTime(&ms, a, b));
  PROBE_CHECK(aclrtDestroyEvent(a));
  PROBE_CHECK(aclrtDestroyEvent(b));
  return ms;
}

// Keeps `stream` busy (a large device memset into `scratch`) so that the tasks launched after it
// are all queued before the device reaches them: they then run back to back and their device
// time excludes the host's launch costs. 1 MiB of memset per queued task is ~10 us of device
// time (DMA fill rate ~100 GB/s) against ~3 us of host time to launch a task.
inline void gate(aclrtStream stream, void* scratch, size_t bytes) {
  PROBE_CHECK(aclrtMemsetAsync(scratch, bytes, 0, bytes, stream));
}
constexpr size_t kGatePerTask = 1u << 20;
constexpr int kMaxGatedTasks = 256;
constexpr size_t kGateBytes = kGatePerTask * kMaxGatedTasks;  // scratch size for perTaskNs

// Device time per task of `reps` (<= kMaxGatedTasks) back-to-back launches of `fn` on `stream`
// (gated, see gate()); `scratch` holds kGateBytes.
template <typename F>
double perTaskNs(aclrtStream stream, void* scratch, int reps, F&& fn) {
  aclrtEvent a = nullptr, b = nullptr;
  PROBE_CHECK(aclrtCreateEvent(&a));
  PROBE_CHECK(aclrtCreateEvent(&b));
  if (reps > kMaxGatedTasks) {
    std::fprintf(stderr, "probe: at most %d gated tasks\n", kMaxGatedTasks);
    std::exit(1);
  }
  gate(stream, scratch, kGatePerTask * static_cast<size_t>(reps));
  PROBE_CHECK(aclrtRecordEvent(a, stream));
  for (int i = 0; i < reps; ++i) fn(i);
  PROBE_CHECK(aclrtRecordEvent(b, stream));
  PROBE_CHECK(aclrtSynchronizeStream(stream));
  float ms = 0;
  PROBE_CHECK(aclrtEventElapsedTime(&ms, a, b));
  PROBE_CHECK(aclrtDestroyEvent(a));
  PROBE_CHECK(aclrtDestroyEvent(b));
  return ms * 1e6 / reps;
}

inline double gbps(double bytes, double ns) { return ns > 0 ? bytes / ns : 0.0; }

// One result line: {"probe":"<name>","k1":v1,...}.
inline void emit(const std::string& name, const std::vector<std::pair<std::string, double>>& values) {
  std::string line = "{\"probe\":\"" + name + "\"";
  char buf[64];
  for (const auto& [k, v] : values) {
    std::snprintf(buf, sizeof buf, "%.9g", v);
    line += ",\"" + k + "\":" + buf;
  }
  std::printf("%s}\n", line.c_str());
  std::fflush(stdout);
}

inline uint64_t argU64(int argc, char** argv, int i, uint64_t def) {
  return argc > i ? std::strtoull(argv[i], nullptr, 0) : def;
}

}  // namespace probe

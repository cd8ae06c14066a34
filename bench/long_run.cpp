// Long runs (issue 8): a million tasks across many streams, optionally with a trace of several
// hundred MB, must run in flat memory and at a steady pace. Prints, for every slice of 100k
// tasks, the wall-clock rate and the resident size, then the peak resident size (VmHWM) and
// the trace size. Not a test: run it by hand (docs/checks.md "Long runs").
//
//   long_run [--tasks N] [--streams S] [--slice K] [--trace PATH] [--level api|task|transaction]
//            [--sync R] [--churn 0|1]
//
// Each round puts on every stream a small pinned H2D copy, a D2D copy, a memset and an event
// record, and makes every stream wait for its neighbour's event of the previous round, so the
// streams stay coupled; the host synchronises the device every `sync` rounds, as a real
// pipelined program would, and reuses a fixed set of buffers. With --churn 1, every round also
// creates a short-lived stream, puts one copy on it and destroys it (a million streams over a
// long run), which must not grow memory either.
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace {

using Clock = std::chrono::steady_clock;

#define CHECK_ACL(expr)                                                                               \
  do {                                                                                                \
    aclError e_ = (expr);                                                                             \
    if (e_ != ACL_SUCCESS) {                                                                          \
      const char* m_ = aclGetRecentErrMsg();                                                          \
      std::fprintf(stderr, "%s:%d: %s failed: %d %s\n", __FILE__, __LINE__, #expr, e_, m_ ? m_ : ""); \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)

// A field of /proc/self/status in KiB ("VmRSS", "VmHWM").
long statusKiB(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  size_t n = std::strlen(field);
  while (std::getline(in, line))
    if (line.compare(0, n, field) == 0 && line.size() > n && line[n] == ':')
      return std::atol(line.c_str() + n + 1);
  return -1;
}

double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

}  // namespace

int main(int argc, char** argv) {
  long tasks = 1000000, streams = 16, slice = 100000, syncEvery = 64, churn = 0;
  std::string trace, level = "task";
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--tasks")
      tasks = std::atol(argv[i + 1]);
    else if (a == "--streams")
      streams = std::atol(argv[i + 1]);
    else if (a == "--slice")
      slice = std::atol(argv[i + 1]);
    else if (a == "--trace")
      trace = argv[i + 1];
    else if (a == "--level")
      level = argv[i + 1];
    else if (a == "--sync")
      syncEvery = std::atol(argv[i + 1]);
    else if (a == "--churn")
      churn = std::atol(argv[i + 1]);
    else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      return 2;
    }
  }
  if (!trace.empty()) {
    setenv("NPUSIM_TRACE", trace.c_str(), 1);
    std::string set = "trace.level=" + level;
    setenv("NPUSIM_SET", set.c_str(), 1);
  }
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);

  auto t0 = Clock::now();
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  const size_t bytes = 4096;
  std::vector<aclrtStream> s(static_cast<size_t>(streams));
  std::vector<aclrtEvent> ev(static_cast<size_t>(streams));
  std::vector<void*> a(s.size()), b(s.size());
  void* host = nullptr;
  CHECK_ACL(aclrtMallocHost(&host, bytes));
  std::memset(host, 1, bytes);
  for (size_t i = 0; i < s.size(); ++i) {
    CHECK_ACL(aclrtCreateStream(&s[i]));
    CHECK_ACL(aclrtCreateEvent(&ev[i]));
    CHECK_ACL(aclrtMalloc(&a[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&b[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  }
  std::printf("long_run: %ld tasks on %ld streams%s, trace %s (level %s)\n", tasks, streams,
              churn ? " + one short-lived stream per round" : "", trace.empty() ? "off" : trace.c_str(),
              level.c_str());
  std::printf("%10s %12s %12s %10s\n", "tasks", "tasks/s", "slice s", "VmRSS MiB");
  long issued = 0, nextReport = slice, round = 0;
  auto sliceStart = Clock::now();
  std::vector<double> rates;
  while (issued < tasks) {
    for (size_t i = 0; i < s.size(); ++i) {
      if (round > 0) {
        CHECK_ACL(aclrtStreamWaitEvent(s[i], ev[(i + 1) % s.size()]));  // neighbour, previous round
        issued++;
      }
      CHECK_ACL(aclrtMemcpyAsync(a[i], bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s[i]));
      CHECK_ACL(aclrtMemcpyAsync(b[i], bytes, a[i], bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s[i]));
      CHECK_ACL(aclrtMemsetAsync(a[i], bytes, static_cast<int32_t>(round & 0xff), bytes, s[i]));
      CHECK_ACL(aclrtRecordEvent(ev[i], s[i]));
      issued += 4;
    }
    if (churn) {
      aclrtStream t = nullptr;
      CHECK_ACL(aclrtCreateStream(&t));
      CHECK_ACL(aclrtMemcpyAsync(a[0], bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, t));
      CHECK_ACL(aclrtDestroyStream(t));  // waits for the copy, as the real runtime does
      issued++;
    }
    // A wait is satisfied by the record it names or any later one, so the rounds may overlap.
    if (++round % syncEvery == 0 || issued >= tasks) CHECK_ACL(aclrtSynchronizeDevice());
    if (issued >= nextReport || issued >= tasks) {
      auto now = Clock::now();
      double dt = seconds(sliceStart, now);
      double rate = static_cast<double>(issued - (nextReport - slice)) / dt;
      rates.push_back(rate);
      std::printf("%10ld %12.0f %12.2f %10.1f\n", issued, rate, dt,
                  static_cast<double>(statusKiB("VmRSS")) / 1024.0);
      std::fflush(stdout);
      sliceStart = now;
      nextReport += slice;
    }
  }
  for (size_t i = 0; i < s.size(); ++i) {
    CHECK_ACL(aclrtDestroyEvent(ev[i]));
    CHECK_ACL(aclrtDestroyStream(s[i]));
    CHECK_ACL(aclrtFree(a[i]));
    CHECK_ACL(aclrtFree(b[i]));
  }
  CHECK_ACL(aclrtFreeHost(host));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  double wall = seconds(t0, Clock::now());
  std::printf("done: %ld tasks in %.1f s wall (%.0f tasks/s); peak RSS (VmHWM) %.1f MiB\n", issued, wall,
              static_cast<double>(issued) / wall, static_cast<double>(statusKiB("VmHWM")) / 1024.0);
  if (rates.size() >= 2)
    std::printf("rate of the last slice / first slice: %.2f\n", rates.back() / rates.front());
  if (!trace.empty()) {
    struct stat st {};
    if (stat(trace.c_str(), &st) == 0)
      std::printf("trace: %s, %.1f MiB\n", trace.c_str(), static_cast<double>(st.st_size) / 1048576.0);
  }
  return 0;
}

// Simulator speed on the operator path (issue 4): operators per wall-second for a stream of
// 10000 small Adds, with and without host computation, against event-record tasks per
// wall-second measured in the same run (the cheapest task, a baseline for this machine); and
// the wall time of one large functional matmul (1024^3 fp32 on the host kernel).
//
// A SystemC simulation cannot be restarted in a process, so every measurement runs in a
// forked child that sends its figures back through a pipe.
//
//   ops_bench [--ops N]
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_matmul.h"
#include "npusim/npusim.h"

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

struct Figures {
  double wallSec = 0;  // wall time of the measured part
  double simNs = 0;    // simulated host time of the measured part
  double value = 0;    // a result element, to show the work was (or was not) done
};

// Runs `fn` in a child process with NPUSIM_SET=`set`.
Figures inChild(const char* set, const std::function<Figures()>& fn) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    setenv("NPUSIM_SET", set, 1);
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    const Figures f = fn();
    _exit(write(fds[1], &f, sizeof f) == static_cast<ssize_t>(sizeof f) ? 0 : 1);
  }
  close(fds[1]);
  Figures f;
  const ssize_t got = read(fds[0], &f, sizeof f);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (got != static_cast<ssize_t>(sizeof f) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "measurement under '%s' failed\n", set);
    std::exit(1);
  }
  return f;
}

aclTensor* tensor(std::vector<int64_t> shape, aclDataType dt, void* dev) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return aclCreateTensor(shape.data(), shape.size(), dt, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                         shape.size(), dev);
}

// `ops` Adds of 1024 fp32 (phase 1 + phase 2 each) on one stream, then one synchronize.
Figures smallAdds(int ops) {
  aclInit(nullptr);
  aclrtSetDevice(0);
  aclrtStream s = nullptr;
  aclrtCreateStream(&s);
  const int64_t n = 1024;
  void *a = nullptr, *b = nullptr, *c = nullptr;
  aclrtMalloc(&a, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&b, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&c, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
  std::vector<float> ones(n, 1.0f);
  aclrtMemcpy(a, n * 4, ones.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(b, n * 4, ones.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE);
  aclTensor* ta = tensor({n}, ACL_FLOAT, a);
  aclTensor* tb = tensor({n}, ACL_FLOAT, b);
  aclTensor* tc = tensor({n}, ACL_FLOAT, c);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  const double sim0 = npusimHostTimeNs();
  const auto t0 = Clock::now();
  for (int i = 0; i < ops; ++i) {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    if (aclnnAddGetWorkspaceSize(ta, tb, alpha, tc, &ws, &ex) != 0 || aclnnAdd(nullptr, ws, ex, s) != 0) {
      std::fprintf(stderr, "aclnnAdd failed: %s\n", aclGetRecentErrMsg());
      _exit(1);
    }
  }
  aclrtSynchronizeStream(s);
  Figures f{secondsSince(t0), npusimHostTimeNs() - sim0, 0};
  float out = 0;
  aclrtMemcpy(&out, 4, c, 4, ACL_MEMCPY_DEVICE_TO_HOST);
  f.value = out;
  aclDestroyScalar(alpha);
  aclDestroyTensor(ta);
  aclDestroyTensor(tb);
  aclDestroyTensor(tc);
  aclrtFree(a);
  aclrtFree(b);
  aclrtFree(c);
  aclrtDestroyStream(s);
  aclrtResetDevice(0);
  aclFinalize();
  return f;
}

// `ops` event records on one stream: the cheapest task, as a baseline.
Figures eventRecords(int ops) {
  aclInit(nullptr);
  aclrtSetDevice(0);
  aclrtStream s = nullptr;
  aclrtCreateStream(&s);
  aclrtEvent e = nullptr;
  aclrtCreateEvent(&e);
  const double sim0 = npusimHostTimeNs();
  const auto t0 = Clock::now();
  for (int i = 0; i < ops; ++i) aclrtRecordEvent(e, s);
  aclrtSynchronizeStream(s);
  Figures f{secondsSince(t0), npusimHostTimeNs() - sim0, 0};
  aclrtDestroyEvent(e);
  aclrtDestroyStream(s);
  aclrtResetDevice(0);
  aclFinalize();
  return f;
}

// One 1024^3 fp32 matmul with functional results: phase 1, phase 2, synchronize.
Figures largeMatmul() {
  aclInit(nullptr);
  aclrtSetDevice(0);
  aclrtStream s = nullptr;
  aclrtCreateStream(&s);
  const int64_t n = 1024;
  const size_t bytes = static_cast<size_t>(n * n) * 4;
  void *a = nullptr, *b = nullptr, *c = nullptr;
  aclrtMalloc(&a, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&b, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&c, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  std::vector<float> h(static_cast<size_t>(n * n), 0.5f);
  aclrtMemcpy(a, bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(b, bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclTensor* ta = tensor({n, n}, ACL_FLOAT, a);
  aclTensor* tb = tensor({n, n}, ACL_FLOAT, b);
  aclTensor* tc = tensor({n, n}, ACL_FLOAT, c);
  const double sim0 = npusimHostTimeNs();
  const auto t0 = Clock::now();
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  if (aclnnMatmulGetWorkspaceSize(ta, tb, tc, 0, &ws, &ex) != 0 || aclnnMatmul(nullptr, ws, ex, s) != 0) {
    std::fprintf(stderr, "aclnnMatmul failed: %s\n", aclGetRecentErrMsg());
    _exit(1);
  }
  aclrtSynchronizeStream(s);
  Figures f{secondsSince(t0), npusimHostTimeNs() - sim0, 0};
  float out = 0;
  aclrtMemcpy(&out, 4, c, 4, ACL_MEMCPY_DEVICE_TO_HOST);
  f.value = out;  // 1024 x 0.5 x 0.5 = 256
  aclDestroyTensor(ta);
  aclDestroyTensor(tb);
  aclDestroyTensor(tc);
  aclrtFree(a);
  aclrtFree(b);
  aclrtFree(c);
  aclrtDestroyStream(s);
  aclrtResetDevice(0);
  aclFinalize();
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  int ops = 10000;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--ops") == 0 && i + 1 < argc) {
      ops = std::atoi(argv[++i]);
    } else {
      std::printf("usage: %s [--ops N]\n", argv[0]);
      return std::strcmp(argv[i], "--help") == 0 ? 0 : 2;
    }
  }
  const Figures events = inChild("", [ops] { return eventRecords(ops); });
  const Figures addsOn = inChild("sim.functional=true", [ops] { return smallAdds(ops); });
  const Figures addsOff = inChild("sim.functional=false", [ops] { return smallAdds(ops); });
  const Figures mm = inChild("sim.functional=true", [] { return largeMatmul(); });

  auto perSec = [ops](const Figures& f) { return ops / f.wallSec; };
  std::printf("stream of %d small operators (aclnnAdd, 1024 fp32, phase 1 + phase 2 each) on one stream:\n",
              ops);
  std::printf("  baseline: event records        %9.0f tasks/wall-s (%.2f us wall per task)\n", perSec(events),
              1e6 * events.wallSec / ops);
  for (const auto& [label, f] :
       {std::make_pair("functional", addsOn), std::make_pair("timing only", addsOff)}) {
    std::printf(
        "  aclnnAdd, %-12s        %9.0f ops/wall-s (%.2f us wall per op) = %.2f x the event-record rate;\n"
        "      simulated %.2f us per op (%.0f ops/simulated-s): the simulation runs %.2f x real time "
        "(out[0] = %g)\n",
        label, perSec(f), 1e6 * f.wallSec / ops, perSec(f) / perSec(events), 1e-3 * f.simNs / ops,
        ops / (f.simNs * 1e-9), (f.simNs * 1e-9) / f.wallSec, f.value);
  }
  std::printf("one functional matmul 1024^3 fp32 (host kernel):\n");
  std::printf(
      "  %.3f s wall for phase 1 + phase 2 + synchronize (simulated %.1f us; out[0] = %g, expect 256)\n",
      mm.wallSec, 1e-3 * mm.simNs, mm.value);
  return 0;
}

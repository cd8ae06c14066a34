// Sleeps in the program's own code are simulated host time. The runtime interposes sleep,
// usleep, nanosleep and relative clock_nanosleep (CLOCK_REALTIME, CLOCK_MONOTONIC;
// std::this_thread::sleep_for goes through nanosleep): on a program thread the runtime knows,
// the thread's simulated clock advances by the requested time and the sleep returns when that
// thread's turn comes in the ordering of calls, after a wall-clock wait of at most 10 ms
// (docs/architecture.md "Host threads"). Elsewhere (before the first ACL call, threads made
// inside a runtime call, absolute or other clocks, bad arguments) the C library sleeps.
#include "runtime/host_sleep.h"

#include <dlfcn.h>
#include <sched.h>
#include <unistd.h>

#include "runtime/runtime.h"

using npusim::Tick;
using npusim::rt::HostState;
using npusim::rt::HostThread;
using npusim::rt::Runtime;

namespace {

using NanosleepFn = int (*)(const timespec*, timespec*);
using ClockNanosleepFn = int (*)(clockid_t, int, const timespec*, timespec*);
using SleepFn = unsigned (*)(unsigned);
using UsleepFn = int (*)(useconds_t);

template <typename Fn>
Fn nextSymbol(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

// Resolved when the library loads, so a signal handler can use it without dlsym.
const NanosleepFn gRealNanosleep = nextSymbol<NanosleepFn>("nanosleep");

bool validRelative(const timespec* t) {
  return t && t->tv_sec >= 0 && t->tv_nsec >= 0 && t->tv_nsec < 1000000000L;
}

// A duration in ticks, saturated far below kTickMax so a clock plus it cannot wrap (a sleep of
// more than about 100 days is taken as 100 days).
Tick durationTicks(uint64_t sec, uint64_t nsec) {
  constexpr uint64_t kMaxSec = 100ull * 24 * 3600;
  if (sec >= kMaxSec) return kMaxSec * 1000000000ull * npusim::kNs;
  return (sec * 1000000000ull + nsec) * npusim::kNs;
}

// Simulates the sleep when the caller is a program thread the runtime knows, outside any
// runtime call; false when the caller must sleep for real.
bool simulated(Tick duration) {
  Runtime& rt = Runtime::get();
  std::unique_lock<std::recursive_mutex> lock = rt.lockForCall();
  HostThread* th = rt.built() ? rt.currentThreadIfKnown() : nullptr;
  if (!th || th->depth != 0 || th->state == HostState::Done) return false;
  rt.sleepHost(*th, duration, lock);
  lock.unlock();
  // A bounded wall-clock wait: simulated seconds do not cost seconds, yet a loop that sleeps while
  // it waits for something outside the simulator (a file, another process) polls at most
  // 1 / kWallCap times a second instead of spinning and flooding its output.
  constexpr Tick kWallCap = 10 * npusim::kMs;
  const Tick wall = duration < kWallCap ? duration : kWallCap;
  const timespec ts{0, static_cast<long>(wall / npusim::kNs)};
  if (wall > 0)
    npusim::rt::realNanosleep(&ts, nullptr);
  else
    sched_yield();  // let the thread a polling loop waits for run
  return true;
}

}  // namespace

namespace npusim::rt {

int realNanosleep(const timespec* req, timespec* rem) {
  NanosleepFn real = gRealNanosleep ? gRealNanosleep : nextSymbol<NanosleepFn>("nanosleep");
  return real(req, rem);
}

}  // namespace npusim::rt

extern "C" int nanosleep(const timespec* req, timespec* rem) {
  if (validRelative(req) &&
      simulated(durationTicks(static_cast<uint64_t>(req->tv_sec), static_cast<uint64_t>(req->tv_nsec))))
    return 0;
  return npusim::rt::realNanosleep(req, rem);
}

extern "C" int clock_nanosleep(clockid_t clock, int flags, const timespec* req, timespec* rem) {
  static ClockNanosleepFn real = nextSymbol<ClockNanosleepFn>("clock_nanosleep");
  const bool relative = (flags & TIMER_ABSTIME) == 0 && (clock == CLOCK_REALTIME || clock == CLOCK_MONOTONIC);
  if (relative && validRelative(req) &&
      simulated(durationTicks(static_cast<uint64_t>(req->tv_sec), static_cast<uint64_t>(req->tv_nsec))))
    return 0;
  return real(clock, flags, req, rem);
}

extern "C" unsigned sleep(unsigned seconds) {
  static SleepFn real = nextSymbol<SleepFn>("sleep");
  if (simulated(durationTicks(seconds, 0))) return 0;
  return real(seconds);
}

extern "C" int usleep(useconds_t usec) {
  static UsleepFn real = nextSymbol<UsleepFn>("usleep");
  if (simulated(durationTicks(usec / 1000000u, (usec % 1000000u) * 1000ull))) return 0;
  return real(usec);
}

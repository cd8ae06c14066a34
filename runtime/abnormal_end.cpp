// A program that ends abnormally (abort, a crash, npusim run --timeout's SIGTERM, Ctrl-C) still
// leaves a trace that loads and the statistics so far, both saying how it ended. The handler
// takes the runtime lock (waiting briefly for a thread that is inside a call), writes and closes
// the outputs, then lets the signal do what it would have done, so the exit status is unchanged.
// Best effort: the outputs are written from a signal handler, which is not async-signal-safe;
// the trace writer only ever writes whole events, so even a failed attempt leaves them intact.
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cstring>

#include "runtime/host_sleep.h"
#include "runtime/runtime.h"

namespace npusim::rt {

namespace {

constexpr int kSignals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTERM, SIGINT, SIGHUP};
struct sigaction gOld[NSIG];
volatile sig_atomic_t gEntered = 0;

void say(const char* a, const char* b = "", const char* c = "") {
  for (const char* s : {a, b, c}) {
    ssize_t ignored = write(STDERR_FILENO, s, std::strlen(s));
    (void)ignored;
  }
}

void onSignal(int sig, siginfo_t* si, void* uc) {
  if (!gEntered) {
    gEntered = 1;
    Runtime& rt = Runtime::get();
    // A thread inside a runtime call holds the lock; calls are short, so wait up to 2 s for it.
    bool locked = false;
    for (int i = 0; i < 200 && !(locked = rt.mu.try_lock()); ++i) {
      timespec ts{0, 10 * 1000 * 1000};
      npusim::rt::realNanosleep(&ts, nullptr);
    }
    const char* abbrev = sigabbrev_np(sig);
    if (locked) {
      rt.recordAbnormalEnd(sig);
      if (rt.built()) {
        rt.dirty = true;
        rt.writeOutputs();
      }
      rt.trace().close();
      rt.mu.unlock();
      say("npusim: program ended by SIG", abbrev ? abbrev : "?",
          "; trace and statistics written up to now\n");
    } else {
      say("npusim: program ended by SIG", abbrev ? abbrev : "?",
          "; another thread held the simulator, trace and statistics not written\n");
    }
  }
  // What would have happened without us: the previous handler, or the default action.
  const struct sigaction& old = gOld[sig];
  if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction) {
    old.sa_sigaction(sig, si, uc);
    return;
  }
  if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
    old.sa_handler(sig);
    return;
  }
  signal(sig, SIG_DFL);
  // A fault re-executes the faulting instruction when the handler returns; a sent signal
  // (kill, raise, abort) is sent again and delivered once the handler returns.
  if (si == nullptr || si->si_code <= 0 ||
      (sig != SIGSEGV && sig != SIGBUS && sig != SIGFPE && sig != SIGILL))
    raise(sig);
}

}  // namespace

void installAbnormalEndHandlers() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  struct sigaction sa {};
  sa.sa_sigaction = onSignal;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  for (int sig : kSignals) {
    struct sigaction old {};
    sigaction(sig, nullptr, &old);
    // A program that ignores a signal (nohup, a shell's background job) keeps ignoring it.
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) continue;
    gOld[sig] = old;
    sigaction(sig, &sa, nullptr);
  }
}

}  // namespace npusim::rt

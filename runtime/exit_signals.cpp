// Termination signals (SIGINT, SIGTERM, SIGHUP) end a program without running atexit hooks, so the
// trace and statistics would be lost. The handler writes them, then restores the default action and
// re-raises, so the program still ends "killed by signal N" as its caller expects. A program that
// installed its own handler keeps it: we only take signals whose action is still the default.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "runtime/runtime.h"

namespace npusim::rt {

namespace {

volatile sig_atomic_t gHandling = 0;

void onTerminate(int sig) {
  if (!gHandling) {
    gHandling = 1;
    Runtime& rt = Runtime::get();
    // Another thread may be inside a call; give it a moment to leave, and never deadlock on it.
    bool locked = false;
    for (int i = 0; i < 200 && !(locked = rt.mu.try_lock()); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (locked) {
      if (rt.dirty) rt.writeOutputs();
      rt.trace().close();
      rt.mu.unlock();
    } else {
      static const char msg[] =
          "npusim: terminated while another thread held the runtime: outputs not written\n";
      (void)!write(2, msg, sizeof msg - 1);
    }
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

void installExitSignalHandlers() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) != 0) continue;
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL) {
      struct sigaction sa {};
      sa.sa_handler = onTerminate;
      sigemptyset(&sa.sa_mask);
      sigaction(sig, &sa, nullptr);
    }
  }
}

}  // namespace npusim::rt

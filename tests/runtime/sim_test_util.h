#pragma once
// Helpers for tests that drive the simulator through the ACL API. Every TEST runs in its own
// process (gtest_discover_tests), so a test may set NPUSIM_* variables before its first call.
#include <cstdlib>
#include <string>

#include "acl/acl.h"
#include "npusim/npusim.h"

namespace npusim::test {

inline void configure(const std::string& set, const std::string& preset = "910b") {
  setenv("NPUSIM_CONFIG", preset.c_str(), 1);
  if (set.empty())
    unsetenv("NPUSIM_SET");
  else
    setenv("NPUSIM_SET", set.c_str(), 1);
}

// Simulated duration of `fn`, measured with the thread's simulated host clock.
template <typename F>
double hostNs(F&& fn) {
  double t0 = npusimHostTimeNs();
  fn();
  return npusimHostTimeNs() - t0;
}

// Device-side duration between two events recorded around `fn` on `stream`.
template <typename F>
double eventMs(aclrtStream stream, F&& fn) {
  aclrtEvent a, b;
  aclrtCreateEvent(&a);
  aclrtCreateEvent(&b);
  aclrtRecordEvent(a, stream);
  fn();
  aclrtRecordEvent(b, stream);
  aclrtSynchronizeStream(stream);
  float ms = -1;
  aclrtEventElapsedTime(&ms, a, b);
  aclrtDestroyEvent(a);
  aclrtDestroyEvent(b);
  return ms;
}

}  // namespace npusim::test

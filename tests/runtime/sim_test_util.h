#pragma once
// Helpers for tests that drive the simulator through the ACL API. Every TEST runs in its own
// process (gtest_discover_tests), so a test may set NPUSIM_* variables before its first call.
#include <cstdlib>
#include <string>

#include "acl/acl.h"
#include "npusim/npusim.h"
#include "validation/probe_util.h"

namespace npusim::test {

inline void configure(const std::string& set, const std::string& preset = "910b") {
  setenv("NPUSIM_CONFIG", preset.c_str(), 1);
  if (set.empty())
    unsetenv("NPUSIM_SET");
  else
    setenv("NPUSIM_SET", set.c_str(), 1);
}

// Timing with the simulated host clock and with device events: the validation probes' helpers
// (a failing ACL call in them ends the test process with the call and its message).
using probe::eventMs;
using probe::hostNs;

}  // namespace npusim::test

// libFuzzer target: sequences of ACL calls with arbitrary arguments (fuzz/api_sequence.h).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "fuzz/api_sequence.h"

// LeakSanitizer cannot scan SystemC's coroutine stacks, so once the simulation has run it
// reports false leaks; memory growth is bounded by -rss_limit_mb instead (docs/fuzzing.md).
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Findings are expected by the thousand here: no source lookups, and the default checks.
  setenv("NPUSIM_CHECK_SYMBOLIZE", "0", 1);
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  npusim::fuzz::runApiSequence(data, size);
  return 0;
}

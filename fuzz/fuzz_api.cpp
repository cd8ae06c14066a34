// libFuzzer target: sequences of ACL calls with arbitrary arguments (fuzz/api_sequence.h).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "fuzz/api_sequence.h"

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

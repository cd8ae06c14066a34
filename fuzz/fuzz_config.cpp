// libFuzzer target: platform configuration parsing (Config::load) with overrides.
#include <cstddef>
#include <cstdint>

#include "fuzz/config_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  npusim::fuzz::runConfigInput(data, size);
  return 0;
}

// npusimPlatformParam (include/ascendc/npusim_kernel_abi.h): the simulated system's parameters for
// PlatformAscendC, which a kernel's host tiling code may query before aclInit; so the
// configuration is read from the environment here, as the runtime reads it when it starts.
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "ascendc/npusim_kernel_abi.h"
#include "npusim/config.h"

extern "C" int npusimPlatformParam(const char* key, int64_t* value) {
  static std::mutex mu;
  static std::unique_ptr<npusim::Config> cfg;
  static std::string loadError;
  std::lock_guard<std::mutex> lock(mu);
  if (!cfg && loadError.empty()) {
    try {
      cfg = std::make_unique<npusim::Config>(npusim::Config::fromEnvironment());
    } catch (const std::exception& e) {
      loadError = e.what();
    }
  }
  if (!key || !value) {
    std::fprintf(stderr, "npusim: PlatformAscendC: NULL key or value\n");
    return -1;
  }
  if (!cfg) {
    std::fprintf(stderr, "npusim: PlatformAscendC: %s\n", loadError.c_str());
    return -1;
  }
  try {
    *value = cfg->getInt(key);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "npusim: PlatformAscendC: %s\n", e.what());
    return -1;
  }
  return 0;
}

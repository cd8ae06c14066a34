// npusimPlatformParam (include/ascendc/npusim_kernel_abi.h): the simulated system's parameters for
// PlatformAscendC, which a kernel's host tiling code may query before aclInit; so the
// configuration is read from the environment here, as the runtime reads it when it starts. The same
// configuration gives aclrtGetSocName its part name.
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "acl/acl.h"
#include "ascendc/npusim_kernel_abi.h"
#include "npusim/config.h"

namespace {

// The configuration as the environment selects it (NPUSIM_CONFIG, NPUSIM_SET), read once; nullptr
// with the reason in *error when it cannot be read.
const npusim::Config* environmentConfig(std::string* error) {
  static std::once_flag once;
  static std::unique_ptr<npusim::Config> cfg;
  static std::string loadError;
  std::call_once(once, [] {
    try {
      cfg = std::make_unique<npusim::Config>(npusim::Config::fromEnvironment());
    } catch (const std::exception& e) {
      loadError = e.what();
    }
  });
  if (!cfg) *error = loadError;
  return cfg.get();
}

}  // namespace

extern "C" int npusimPlatformParam(const char* key, int64_t* value) {
  if (!key || !value) {
    std::fprintf(stderr, "npusim: PlatformAscendC: NULL key or value\n");
    return -1;
  }
  std::string error;
  const npusim::Config* cfg = environmentConfig(&error);
  if (!cfg) {
    std::fprintf(stderr, "npusim: PlatformAscendC: %s\n", error.c_str());
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

// aclrtGetSocName: the preset's part name (system.soc_name); nullptr, as CANN's on failure, with the
// reason on stderr when the configuration cannot be read.
extern "C" const char* aclrtGetSocName(void) {
  static std::once_flag once;
  static std::string name;
  std::string error;
  const npusim::Config* cfg = environmentConfig(&error);
  if (!cfg) {
    std::fprintf(stderr, "npusim: aclrtGetSocName: %s\n", error.c_str());
    return nullptr;
  }
  std::call_once(once, [cfg] { name = cfg->getString("system.soc_name"); });
  return name.c_str();
}

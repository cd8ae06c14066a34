#include "runtime/plugins.h"

#include <dlfcn.h>

#include <sstream>

#include "npusim/config.h"

namespace npusim::rt {

void loadPlugins(const std::string& paths) {
  std::stringstream in(paths);
  std::string path;
  while (std::getline(in, path, ':')) {
    if (path.empty()) continue;
    // Kept loaded to the end of the process: the modules it builds live as long as the platform.
    if (!dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
      const char* why = dlerror();
      throw ConfigError("NPUSIM_PLUGINS: cannot load '" + path + "': " + (why ? why : "unknown error"));
    }
  }
}

}  // namespace npusim::rt

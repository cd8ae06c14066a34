#pragma once
// NPUSIM_PLUGINS: shared libraries (colon-separated paths) loaded before the platform is built,
// so the memory models they register (include/npusim/tlm_plugin.h) can be chosen by hbm.model.
#include <string>

namespace npusim::rt {

// Loads every library listed in `paths` (empty entries are skipped). Throws ConfigError naming
// the library and dlerror()'s reason when one fails to load.
void loadPlugins(const std::string& paths);

}  // namespace npusim::rt

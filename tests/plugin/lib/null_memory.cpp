// A broken memory plug-in for the error-path test: its factory returns no socket.
#include <npusim/tlm_plugin.h>

namespace {
const bool registered = npusim::registerMemoryTarget(
    "null", [](const std::string&, int) -> tlm::tlm_target_socket<>* { return nullptr; });
}  // namespace

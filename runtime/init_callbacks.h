#pragma once
// Callbacks a library registers to run inside aclInit (given the configuration text) and
// aclFinalize (runtime/api_init_callbacks.cpp).
#include <string>

#include "acl/acl.h"

namespace npusim::rt {

// Runs the init callbacks in registration order; the first failure is returned.
aclError runInitCallbacks(const std::string& config);
// Runs the finalize callbacks in reverse registration order; the first failure is returned.
aclError runFinalizeCallbacks();

}  // namespace npusim::rt

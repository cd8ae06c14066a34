#pragma once
// The single place where aclnn reports a failure in words. The text becomes the process'
// "recent error" (aclGetRecentErrMsg) and is also kept per thread for tests.
#include <cstdint>
#include <string>

namespace npusim::aclnn {

// Records `msg` for API `api` and returns `code`, so checks can `return fail(...)`.
int32_t fail(const char* api, int32_t code, const std::string& msg);

// Reports a problem found while an operator executes on the device (no status to return).
void reportExecutionError(const char* api, const std::string& msg);

// Last message recorded by this thread (empty if none).
const std::string& lastErrorMessage();

}  // namespace npusim::aclnn

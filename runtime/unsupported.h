#pragma once
namespace npusim::rt {
// Records an unsupported API call: sets the thread's aclGetRecentErrMsg text (with `why`, when given)
// and adds the name to the end-of-run "unsupported calls" list. Implemented by the runtime.
void reportUnsupported(const char* apiName, const char* why = nullptr);
}  // namespace npusim::rt

#pragma once
namespace npusim::rt {
// Records an unsupported API call: sets the thread's aclGetRecentErrMsg text (with `why`, when given)
// and adds the name to the end-of-run "unsupported calls" list. Implemented by the runtime.
void reportUnsupported(const char* apiName, const char* why = nullptr);
// Refuses a call that shares memory, a notify or an event with another process: every such call
// answers the same way. Reports it as above with kCrossProcess (and `detail`, when given, after
// it), prints the reason on stderr the first time each call is refused, and returns
// ACL_ERROR_API_NOT_SUPPORT.
int refuseCrossProcess(const char* apiName, const char* detail = nullptr);
// Why: one process per simulated system.
inline constexpr const char* kCrossProcess =
    "sharing with another process: npusim simulates one process per system, so no other process can "
    "export to or import from this one";
}  // namespace npusim::rt

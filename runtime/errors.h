#pragma once
// Per-thread error reporting: the text aclGetRecentErrMsg returns, the code
// aclrtGetLastError returns, and the process-wide list of unsupported calls.
#include <map>
#include <string>

#include "acl/acl_base.h"
#include "runtime/unsupported.h"

namespace npusim::rt {

// Records `msg` (prefixed with the API name) as the thread's recent error and returns `code`.
aclError setRecentError(const char* api, const std::string& msg, aclError code = ACL_ERROR_INVALID_PARAM);
// aclGetRecentErrMsg: returns and clears the text; nullptr when there is none.
const char* takeRecentError();
// aclrtGetLastError / aclrtPeekAtLastError.
aclError lastError(bool clear);
void noteResult(aclError code);

// Unsupported API names and how often each was called.
std::map<std::string, uint64_t> unsupportedCalls();

}  // namespace npusim::rt

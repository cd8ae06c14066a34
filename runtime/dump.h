#pragma once
// Dump state shared by the acldump*/aclmdl*Dump/aclopStartDumpArgs entry points (runtime/api_dump.cpp),
// aclInit (whose JSON configuration may carry a "dump" section) and the runtime, which reports every
// completed device task so enabled dumps write the operator's data.
#include <string>

#include "acl/acl_base.h"

namespace npusim::sched {
struct Task;
}

namespace npusim::rt::dump {
// Applies the "dump" section of an aclInit / aclmdlSetDump JSON text (none: nothing changes).
// Returns ACL_SUCCESS or ACL_ERROR_INVALID_DUMP_CONFIG with the reason in *why.
aclError applyConfig(const std::string& jsonText, std::string* why);
// Called with the runtime lock held when a device task finishes.
void taskCompleted(const sched::Task& t);
}  // namespace npusim::rt::dump

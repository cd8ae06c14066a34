// Calls of the real CANN acl_rt.h that npusim declares but does not simulate yet: each reports
// itself (aclGetRecentErrMsg, the end-of-run list of unsupported calls) and returns
// ACL_ERROR_API_NOT_SUPPORT (NULL for the calls that return a handle), so that a program using
// one compiles, links and gets a clear answer. When you implement one, move it out of here.
#include "acl/acl.h"
#include "runtime/unsupported.h"

namespace {

constexpr const char* kNotYet = "not simulated by npusim yet (docs/runtime-surface.md lists what is)";

aclError notYet(const char* name) {
  npusim::rt::reportUnsupported(name, kNotYet);
  return ACL_ERROR_API_NOT_SUPPORT;
}

}  // namespace

extern "C" {

// clang-format off
aclError aclrtTaskUpdateAsync(aclrtStream, uint32_t, aclrtTaskUpdateInfo*, aclrtStream) { return notYet("aclrtTaskUpdateAsync"); }
// clang-format on

}  // extern "C"

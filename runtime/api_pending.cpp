// Entry points the runtime declares but does not simulate yet. Each reports itself through
// reportUnsupported (aclGetRecentErrMsg text + the end-of-run "unsupported calls" list) and
// returns ACL_ERROR_API_NOT_SUPPORT: never a silent success. Move a function out of this
// file when it is implemented.
#include "acl/acl.h"
#include "runtime/unsupported.h"

using npusim::rt::reportUnsupported;

extern "C" {

aclError aclrtLaunchCallback(aclrtCallback, void*, aclrtCallbackBlockType, aclrtStream) {
  reportUnsupported("aclrtLaunchCallback");
  return ACL_ERROR_API_NOT_SUPPORT;
}
aclError aclrtSubscribeReport(uint64_t, aclrtStream) {
  reportUnsupported("aclrtSubscribeReport");
  return ACL_ERROR_API_NOT_SUPPORT;
}
aclError aclrtProcessReport(int32_t) {
  reportUnsupported("aclrtProcessReport");
  return ACL_ERROR_API_NOT_SUPPORT;
}
aclError aclrtUnSubscribeReport(uint64_t, aclrtStream) {
  reportUnsupported("aclrtUnSubscribeReport");
  return ACL_ERROR_API_NOT_SUPPORT;
}
aclError aclrtLaunchHostFunc(aclrtStream, aclrtHostFunc, void*) {
  reportUnsupported("aclrtLaunchHostFunc");
  return ACL_ERROR_API_NOT_SUPPORT;
}

}  // extern "C"

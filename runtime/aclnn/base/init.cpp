// aclnnInit / aclnnFinalize. The simulated operator library needs no loading (no kernel
// packages, no JSON), so both only succeed; the ACL runtime owns the device state.
#include "aclnn/aclnn_base.h"

extern "C" {

aclnnStatus aclnnInit(const char* configPath) {
  (void)configPath;
  return OK;
}

aclnnStatus aclnnFinalize() { return OK; }

}  // extern "C"

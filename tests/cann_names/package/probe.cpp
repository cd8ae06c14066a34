#include <cstdio>

#include "acl/acl.h"
#include "securec.h"

int main() {
  char v[ACL_PKG_VERSION_MAX_SIZE] = {};
  char pkg[] = "runtime";
  bool ok = aclInit(nullptr) == ACL_SUCCESS && aclsysGetVersionStr(pkg, v) == ACL_SUCCESS && v[0] != '\0';
  char d[2];
  ok = ok && memcpy_s(d, sizeof d, "ab", 2) == EOK && aclFinalize() == ACL_SUCCESS;
  std::printf("package: %s (%s)\n", ok ? "ok" : "FAILED", v);
  return ok ? 0 : 1;
}

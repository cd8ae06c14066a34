// Versions and attributes: aclsysGetVersionStr/Num, aclsysGetCANNVersion, aclGetCannAttribute(List),
// aclrtCheckArchCompatibility. npusim presents itself as the CANN packages whose runtime headers it
// follows: ACL 1.17 from hicann/runtime @681ef76, whose version.cmake builds the runtime package 9.1.0.
// Every package name of a CANN install answers with that version.
#include <cstdio>
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "runtime/errors.h"

namespace {

constexpr int kMajor = 9, kMinor = 1, kPatch = 0;
// Package directory names of a CANN install (share/info/<name>) plus driver and firmware.
constexpr const char* kPackages[] = {"cann",       "runtime", "compiler", "hccl",   "toolkit", "opp",
                                     "opp_kernel", "opbase",  "ops-math", "ops-nn", "driver",  "firmware"};

bool knownPackage(const char* name) {
  for (const char* p : kPackages)
    if (std::strcmp(p, name) == 0) return true;
  return false;
}

aclError fail(const char* api, aclError code, const std::string& why) {
  return npusim::rt::setRecentError(api, why, code);
}

// CANN lists an attribute when the runtime is recent enough (swFeatureList.json: 7.1 for Inf/NaN and
// bf16, 6.4 for JIT_COMPILE) and, for the first two, the SoC has it (support_inf_nan, support_bf16:
// both true on the A2 generation). JIT_COMPILE is the "operator binary" feature (API reference,
// aclCannAttr): prebuilt operator binaries, as npusim's aclnn operators are; it depends on no SoC.
constexpr aclCannAttr kAttrs[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE};

}  // namespace

extern "C" {

aclError aclsysGetVersionStr(char* pkgName, char* versionStr) {
  if (!pkgName || !versionStr) return fail("aclsysGetVersionStr", ACL_ERROR_INVALID_PARAM, "null argument");
  if (!knownPackage(pkgName))
    return fail("aclsysGetVersionStr", ACL_ERROR_INVALID_FILE,
                std::string("no version.info for package '") + pkgName + "'");
  std::snprintf(versionStr, ACL_PKG_VERSION_MAX_SIZE, "%d.%d.%d", kMajor, kMinor, kPatch);
  return ACL_SUCCESS;
}

aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum) {
  if (!pkgName || !versionNum) return fail("aclsysGetVersionNum", ACL_ERROR_INVALID_PARAM, "null argument");
  if (!knownPackage(pkgName))
    return fail("aclsysGetVersionNum", ACL_ERROR_INVALID_FILE,
                std::string("no version.info for package '") + pkgName + "'");
  *versionNum = kMajor * 10000000 + kMinor * 100000 + kPatch * 1000;
  return ACL_SUCCESS;
}

aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion* version) {
  if (!version) return fail("aclsysGetCANNVersion", ACL_ERROR_INVALID_PARAM, "null version");
  if (name < ACL_PKG_NAME_CANN || name > ACL_PKG_NAME_DRIVER)
    return fail("aclsysGetCANNVersion", ACL_ERROR_INVALID_PARAM, "unknown package name");
  std::memset(version, 0, sizeof *version);
  std::snprintf(version->version, sizeof version->version, "%d.%d.%d", kMajor, kMinor, kPatch);
  std::snprintf(version->majorVersion, sizeof version->majorVersion, "%d", kMajor);
  std::snprintf(version->minorVersion, sizeof version->minorVersion, "%d", kMinor);
  std::snprintf(version->releaseVersion, sizeof version->releaseVersion, "%d", kPatch);
  return ACL_SUCCESS;
}

aclError aclGetCannAttributeList(const aclCannAttr** cannAttrList, size_t* num) {
  if (!cannAttrList || !num) return fail("aclGetCannAttributeList", ACL_ERROR_INVALID_PARAM, "null argument");
  *cannAttrList = kAttrs;
  *num = sizeof kAttrs / sizeof kAttrs[0];
  return ACL_SUCCESS;
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t* value) {
  if (!value) return fail("aclGetCannAttribute", ACL_ERROR_INVALID_PARAM, "null value");
  if (cannAttr < ACL_CANN_ATTR_INF_NAN || cannAttr > ACL_CANN_ATTR_JIT_COMPILE)
    return fail("aclGetCannAttribute", ACL_ERROR_INVALID_PARAM, "unknown attribute");
  *value = 0;
  for (aclCannAttr a : kAttrs)
    if (a == cannAttr) *value = 1;
  return ACL_SUCCESS;
}

// The simulated SoC (aclrtGetSocName: Ascend910B2) has the A2 AI-core architecture, which the whole
// Ascend910B family and the A3 parts (Ascend910_93*) share; code built for any of them runs.
aclError aclrtCheckArchCompatibility(const char* socVersion, int32_t* canCompatible) {
  if (!socVersion || !canCompatible)
    return fail("aclrtCheckArchCompatibility", ACL_ERROR_INVALID_PARAM, "null argument");
  *canCompatible =
      std::strncmp(socVersion, "Ascend910B", 10) == 0 || std::strncmp(socVersion, "Ascend910_93", 12) == 0;
  return ACL_SUCCESS;
}

}  // extern "C"

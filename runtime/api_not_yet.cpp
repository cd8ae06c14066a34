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
aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask, aclrtLaunchKernelAttrId, aclrtLaunchKernelAttrValue*) { return notYet("aclmdlRIKernelTaskGetAttribute"); }
aclError aclmdlRITaskGetParams(aclmdlRITask, aclmdlRITaskParams*) { return notYet("aclmdlRITaskGetParams"); }
aclError aclmdlRITaskSetParams(aclmdlRITask, aclmdlRITaskParams*) { return notYet("aclmdlRITaskSetParams"); }
aclError aclrtBinaryGetGlobal(aclrtBinHandle, const char*, void**, size_t*) { return notYet("aclrtBinaryGetGlobal"); }
aclError aclrtBinarySetExceptionCallback(aclrtBinHandle, aclrtOpExceptionCallback, void*) { return notYet("aclrtBinarySetExceptionCallback"); }
aclError aclrtFunctionGetAvailDynUbufPerBlock(void*, uint32_t, size_t*) { return notYet("aclrtFunctionGetAvailDynUbufPerBlock"); }
aclError aclrtFunctionGetParamCount(const void*, size_t*) { return notYet("aclrtFunctionGetParamCount"); }
aclError aclrtFunctionGetParamInfo(const void*, size_t, size_t*, size_t*) { return notYet("aclrtFunctionGetParamInfo"); }
aclError aclrtGetFuncBySymbol(const void*, aclrtFuncHandle*) { return notYet("aclrtGetFuncBySymbol"); }
aclError aclrtGetFunctionAttribute(aclrtFuncHandle, aclrtFuncAttribute, int64_t*) { return notYet("aclrtGetFunctionAttribute"); }
aclError aclrtGetFunctionSize(aclrtFuncHandle, size_t*, size_t*) { return notYet("aclrtGetFunctionSize"); }
aclError aclrtGetSymbolAddress(const void*, void**) { return notYet("aclrtGetSymbolAddress"); }
aclError aclrtGetSymbolSize(const void*, size_t*) { return notYet("aclrtGetSymbolSize"); }
aclError aclrtLaunchKernelWithArgsArray(void*, uint32_t, aclrtStream, aclrtLaunchKernelCfg*, void**) { return notYet("aclrtLaunchKernelWithArgsArray"); }
aclError aclrtMemcpyFromSymbol(void*, size_t, const void*, size_t, size_t, aclrtMemcpyKind) { return notYet("aclrtMemcpyFromSymbol"); }
aclError aclrtMemcpyFromSymbolAsync(void*, size_t, const void*, size_t, size_t, aclrtMemcpyKind, aclrtStream) { return notYet("aclrtMemcpyFromSymbolAsync"); }
aclError aclrtMemcpyToSymbol(const void*, const void*, size_t, size_t, aclrtMemcpyKind) { return notYet("aclrtMemcpyToSymbol"); }
aclError aclrtMemcpyToSymbolAsync(const void*, const void*, size_t, size_t, aclrtMemcpyKind, aclrtStream) { return notYet("aclrtMemcpyToSymbolAsync"); }
aclError aclrtRegisterCpuFunc(const aclrtBinHandle, const char*, const char*, aclrtFuncHandle*) { return notYet("aclrtRegisterCpuFunc"); }
aclError aclrtTaskUpdateAsync(aclrtStream, uint32_t, aclrtTaskUpdateInfo*, aclrtStream) { return notYet("aclrtTaskUpdateAsync"); }
// clang-format on

}  // extern "C"

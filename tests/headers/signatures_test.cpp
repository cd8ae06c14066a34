// Every declared ACL function has exactly the CANN signature (acl-api.md section 2), checked at compile
// time, and every function the seed programs call links against libascendcl with that exact type.

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <type_traits>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

// Exact function type of `fn`, e.g. NPUSIM_SIGNATURE(aclInit, aclError(const char*)).
#define NPUSIM_SIGNATURE(fn, ...) \
  static_assert(std::is_same_v<decltype(fn), __VA_ARGS__>, #fn " does not have the CANN signature")

// Init, errors, version.
NPUSIM_SIGNATURE(aclInit, aclError(const char*));
NPUSIM_SIGNATURE(aclFinalize, aclError());
NPUSIM_SIGNATURE(aclFinalizeReference, aclError(uint64_t*));
NPUSIM_SIGNATURE(aclrtGetVersion, aclError(int32_t*, int32_t*, int32_t*));
NPUSIM_SIGNATURE(aclGetRecentErrMsg, const char*());
NPUSIM_SIGNATURE(aclsysGetCANNVersion, aclError(aclCANNPackageName, aclCANNPackageVersion*));
NPUSIM_SIGNATURE(aclrtGetLastError, aclError(aclrtLastErrLevel));
NPUSIM_SIGNATURE(aclrtPeekAtLastError, aclError(aclrtLastErrLevel));
NPUSIM_SIGNATURE(aclrtGetSocName, const char*());
NPUSIM_SIGNATURE(aclsysGetVersionStr, aclError(char*, char*));
NPUSIM_SIGNATURE(aclsysGetVersionNum, aclError(char*, int32_t*));
NPUSIM_SIGNATURE(aclGetCannAttributeList, aclError(const aclCannAttr**, size_t*));
NPUSIM_SIGNATURE(aclGetCannAttribute, aclError(aclCannAttr, int32_t*));
NPUSIM_SIGNATURE(aclrtCheckArchCompatibility, aclError(const char*, int32_t*));
NPUSIM_SIGNATURE(aclrtIpcMemGetExportKey, aclError(void*, size_t, char*, size_t, uint64_t));
NPUSIM_SIGNATURE(aclrtIpcMemImportByKey, aclError(void**, const char*, uint64_t));
NPUSIM_SIGNATURE(aclrtIpcGetEventHandle, aclError(aclrtEvent, aclrtIpcEventHandle*));
NPUSIM_SIGNATURE(aclrtIpcOpenEventHandle, aclError(aclrtIpcEventHandle, aclrtEvent*));
NPUSIM_SIGNATURE(aclmdlSetDump, aclError(const char*));
// Devices.
NPUSIM_SIGNATURE(aclrtSetDevice, aclError(int32_t));
NPUSIM_SIGNATURE(aclrtResetDevice, aclError(int32_t));
NPUSIM_SIGNATURE(aclrtResetDeviceForce, aclError(int32_t));
NPUSIM_SIGNATURE(aclrtGetDevice, aclError(int32_t*));
NPUSIM_SIGNATURE(aclrtGetDeviceCount, aclError(uint32_t*));
NPUSIM_SIGNATURE(aclrtGetRunMode, aclError(aclrtRunMode*));
NPUSIM_SIGNATURE(aclrtSynchronizeDevice, aclError());
NPUSIM_SIGNATURE(aclrtSynchronizeDeviceWithTimeout, aclError(int32_t));
NPUSIM_SIGNATURE(aclrtDeviceCanAccessPeer, aclError(int32_t*, int32_t, int32_t));
NPUSIM_SIGNATURE(aclrtDeviceEnablePeerAccess, aclError(int32_t, uint32_t));
NPUSIM_SIGNATURE(aclrtDeviceDisablePeerAccess, aclError(int32_t));
// Contexts.
NPUSIM_SIGNATURE(aclrtCreateContext, aclError(aclrtContext*, int32_t));
NPUSIM_SIGNATURE(aclrtDestroyContext, aclError(aclrtContext));
NPUSIM_SIGNATURE(aclrtSetCurrentContext, aclError(aclrtContext));
NPUSIM_SIGNATURE(aclrtGetCurrentContext, aclError(aclrtContext*));
NPUSIM_SIGNATURE(aclrtCtxGetCurrentDefaultStream, aclError(aclrtStream*));
// Streams.
NPUSIM_SIGNATURE(aclrtCreateStream, aclError(aclrtStream*));
NPUSIM_SIGNATURE(aclrtCreateStreamWithConfig, aclError(aclrtStream*, uint32_t, uint32_t));
NPUSIM_SIGNATURE(aclrtDestroyStream, aclError(aclrtStream));
NPUSIM_SIGNATURE(aclrtDestroyStreamForce, aclError(aclrtStream));
NPUSIM_SIGNATURE(aclrtSynchronizeStream, aclError(aclrtStream));
NPUSIM_SIGNATURE(aclrtSynchronizeStreamWithTimeout, aclError(aclrtStream, int32_t));
NPUSIM_SIGNATURE(aclrtStreamQuery, aclError(aclrtStream, aclrtStreamStatus*));
NPUSIM_SIGNATURE(aclrtStreamWaitEvent, aclError(aclrtStream, aclrtEvent));
NPUSIM_SIGNATURE(aclrtStreamWaitEventWithTimeout, aclError(aclrtStream, aclrtEvent, int32_t));
// Memory.
NPUSIM_SIGNATURE(aclrtMalloc, aclError(void**, size_t, aclrtMemMallocPolicy));
NPUSIM_SIGNATURE(aclrtMallocAlign32, aclError(void**, size_t, aclrtMemMallocPolicy));
NPUSIM_SIGNATURE(aclrtMallocCached, aclError(void**, size_t, aclrtMemMallocPolicy));
NPUSIM_SIGNATURE(aclrtFree, aclError(void*));
NPUSIM_SIGNATURE(aclrtMallocHost, aclError(void**, size_t));
NPUSIM_SIGNATURE(aclrtFreeHost, aclError(void*));
NPUSIM_SIGNATURE(aclrtGetMemInfo, aclError(aclrtMemAttr, size_t*, size_t*));
NPUSIM_SIGNATURE(aclrtMemset, aclError(void*, size_t, int32_t, size_t));
NPUSIM_SIGNATURE(aclrtMemsetAsync, aclError(void*, size_t, int32_t, size_t, aclrtStream));
NPUSIM_SIGNATURE(aclrtMemcpy, aclError(void*, size_t, const void*, size_t, aclrtMemcpyKind));
NPUSIM_SIGNATURE(aclrtMemcpyAsync,
                 aclError(void*, size_t, const void*, size_t, aclrtMemcpyKind, aclrtStream));
NPUSIM_SIGNATURE(aclrtMemcpyAsyncWithCondition,
                 aclError(void*, size_t, const void*, size_t, aclrtMemcpyKind, aclrtStream));
NPUSIM_SIGNATURE(aclrtMemcpy2d,
                 aclError(void*, size_t, const void*, size_t, size_t, size_t, aclrtMemcpyKind));
NPUSIM_SIGNATURE(aclrtMemcpy2dAsync,
                 aclError(void*, size_t, const void*, size_t, size_t, size_t, aclrtMemcpyKind, aclrtStream));
NPUSIM_SIGNATURE(acldvppMalloc, aclError(void**, size_t));
NPUSIM_SIGNATURE(acldvppFree, aclError(void*));
// Events.
NPUSIM_SIGNATURE(aclrtCreateEvent, aclError(aclrtEvent*));
NPUSIM_SIGNATURE(aclrtCreateEventWithFlag, aclError(aclrtEvent*, uint32_t));
NPUSIM_SIGNATURE(aclrtCreateEventExWithFlag, aclError(aclrtEvent*, uint32_t));
NPUSIM_SIGNATURE(aclrtDestroyEvent, aclError(aclrtEvent));
NPUSIM_SIGNATURE(aclrtRecordEvent, aclError(aclrtEvent, aclrtStream));
NPUSIM_SIGNATURE(aclrtResetEvent, aclError(aclrtEvent, aclrtStream));
NPUSIM_SIGNATURE(aclrtQueryEventStatus, aclError(aclrtEvent, aclrtEventRecordedStatus*));
NPUSIM_SIGNATURE(aclrtQueryEventWaitStatus, aclError(aclrtEvent, aclrtEventWaitStatus*));
NPUSIM_SIGNATURE(aclrtSynchronizeEvent, aclError(aclrtEvent));
NPUSIM_SIGNATURE(aclrtSynchronizeEventWithTimeout, aclError(aclrtEvent, int32_t));
NPUSIM_SIGNATURE(aclrtEventElapsedTime, aclError(float*, aclrtEvent, aclrtEvent));
// Callbacks.
NPUSIM_SIGNATURE(aclrtLaunchCallback, aclError(aclrtCallback, void*, aclrtCallbackBlockType, aclrtStream));
NPUSIM_SIGNATURE(aclrtSubscribeReport, aclError(uint64_t, aclrtStream));
NPUSIM_SIGNATURE(aclrtProcessReport, aclError(int32_t));
NPUSIM_SIGNATURE(aclrtUnSubscribeReport, aclError(uint64_t, aclrtStream));
NPUSIM_SIGNATURE(aclrtLaunchHostFunc, aclError(aclrtStream, aclrtHostFunc, void*));
// Captured models.
NPUSIM_SIGNATURE(aclmdlRICaptureBegin, aclError(aclrtStream, aclmdlRICaptureMode));
NPUSIM_SIGNATURE(aclmdlRICaptureGetInfo, aclError(aclrtStream, aclmdlRICaptureStatus*, aclmdlRI*));
NPUSIM_SIGNATURE(aclmdlRICaptureEnd, aclError(aclrtStream, aclmdlRI*));
NPUSIM_SIGNATURE(aclmdlRICaptureThreadExchangeMode, aclError(aclmdlRICaptureMode*));
NPUSIM_SIGNATURE(aclmdlRIExecuteAsync, aclError(aclmdlRI, aclrtStream));
NPUSIM_SIGNATURE(aclmdlRIExecute, aclError(aclmdlRI, int32_t));
NPUSIM_SIGNATURE(aclmdlRIDestroy, aclError(aclmdlRI));
NPUSIM_SIGNATURE(aclmdlRIDebugJsonPrint, aclError(aclmdlRI, const char*, uint32_t));
// Base helpers.
NPUSIM_SIGNATURE(aclFloat16ToFloat, float(aclFloat16));
NPUSIM_SIGNATURE(aclFloatToFloat16, aclFloat16(float));
NPUSIM_SIGNATURE(aclCreateDataBuffer, aclDataBuffer*(void*, size_t));
NPUSIM_SIGNATURE(aclDestroyDataBuffer, aclError(const aclDataBuffer*));
NPUSIM_SIGNATURE(aclUpdateDataBuffer, aclError(aclDataBuffer*, void*, size_t));
NPUSIM_SIGNATURE(aclGetDataBufferAddr, void*(const aclDataBuffer*));
NPUSIM_SIGNATURE(aclGetDataBufferSizeV2, size_t(const aclDataBuffer*));
NPUSIM_SIGNATURE(aclDataTypeSize, size_t(aclDataType));
// Allocator registration.
NPUSIM_SIGNATURE(aclrtAllocatorCreateDesc, aclrtAllocatorDesc());
NPUSIM_SIGNATURE(aclrtAllocatorRegister, aclError(aclrtStream, aclrtAllocatorDesc));
NPUSIM_SIGNATURE(aclrtAllocatorUnregister, aclError(aclrtStream));

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
NPUSIM_SIGNATURE(aclrtQueryEvent, aclError(aclrtEvent, aclrtEventStatus*));
NPUSIM_SIGNATURE(aclmdlRIDebugPrint, aclError(aclmdlRI));
NPUSIM_SIGNATURE(aclGetDataBufferSize, uint32_t(const aclDataBuffer*));
#pragma GCC diagnostic pop

#undef NPUSIM_SIGNATURE

namespace {

struct Linked {
  const char* name;
  const void* address;
};

// Binds `fn` to a pointer of the exact expected type: no conversion exists between function-pointer
// types, so a differing declaration fails to compile and a missing definition fails to link.
#define NPUSIM_LINKED(fn, ...)                                \
  [] {                                                        \
    using Expected = __VA_ARGS__;                             \
    Expected* const typed = &fn;                              \
    return Linked{#fn, reinterpret_cast<const void*>(typed)}; \
  }()

}  // namespace

// Every ACL function used by the seed programs (000-004 in the shared seeds), with its exact type. Each
// must be exported from libascendcl under its plain C name.
TEST(HeaderSignatures, SeedFunctionsLinkWithExactTypes) {
  const Linked functions[] = {
      NPUSIM_LINKED(aclInit, aclError(const char*)),
      NPUSIM_LINKED(aclFinalize, aclError()),
      NPUSIM_LINKED(aclrtSetDevice, aclError(int32_t)),
      NPUSIM_LINKED(aclrtResetDevice, aclError(int32_t)),
      NPUSIM_LINKED(aclrtGetRunMode, aclError(aclrtRunMode*)),
      NPUSIM_LINKED(aclrtDestroyContext, aclError(aclrtContext)),
      NPUSIM_LINKED(aclrtCreateStream, aclError(aclrtStream*)),
      NPUSIM_LINKED(aclrtDestroyStream, aclError(aclrtStream)),
      NPUSIM_LINKED(aclrtSynchronizeStream, aclError(aclrtStream)),
      NPUSIM_LINKED(aclrtMallocHost, aclError(void**, size_t)),
      NPUSIM_LINKED(aclrtFreeHost, aclError(void*)),
      NPUSIM_LINKED(aclrtMalloc, aclError(void**, size_t, aclrtMemMallocPolicy)),
      NPUSIM_LINKED(aclrtMallocAlign32, aclError(void**, size_t, aclrtMemMallocPolicy)),
      NPUSIM_LINKED(aclrtMallocCached, aclError(void**, size_t, aclrtMemMallocPolicy)),
      NPUSIM_LINKED(acldvppMalloc, aclError(void**, size_t)),
      NPUSIM_LINKED(acldvppFree, aclError(void*)),
      NPUSIM_LINKED(aclrtFree, aclError(void*)),
      NPUSIM_LINKED(aclrtMemset, aclError(void*, size_t, int32_t, size_t)),
      NPUSIM_LINKED(aclrtMemcpy, aclError(void*, size_t, const void*, size_t, aclrtMemcpyKind)),
      NPUSIM_LINKED(aclrtMemcpyAsync,
                    aclError(void*, size_t, const void*, size_t, aclrtMemcpyKind, aclrtStream)),
      NPUSIM_LINKED(aclrtMemcpyAsyncWithCondition,
                    aclError(void*, size_t, const void*, size_t, aclrtMemcpyKind, aclrtStream)),
      NPUSIM_LINKED(aclrtDeviceCanAccessPeer, aclError(int32_t*, int32_t, int32_t)),
      NPUSIM_LINKED(aclrtDeviceEnablePeerAccess, aclError(int32_t, uint32_t)),
      NPUSIM_LINKED(aclrtCreateEvent, aclError(aclrtEvent*)),
      NPUSIM_LINKED(aclrtDestroyEvent, aclError(aclrtEvent)),
      NPUSIM_LINKED(aclrtRecordEvent, aclError(aclrtEvent, aclrtStream)),
      NPUSIM_LINKED(aclrtStreamWaitEvent, aclError(aclrtStream, aclrtEvent)),
      NPUSIM_LINKED(aclmdlRICaptureBegin, aclError(aclrtStream, aclmdlRICaptureMode)),
      NPUSIM_LINKED(aclmdlRICaptureThreadExchangeMode, aclError(aclmdlRICaptureMode*)),
      NPUSIM_LINKED(aclmdlRICaptureEnd, aclError(aclrtStream, aclmdlRI*)),
      NPUSIM_LINKED(aclmdlRIExecuteAsync, aclError(aclmdlRI, aclrtStream)),
      NPUSIM_LINKED(aclmdlRIDestroy, aclError(aclmdlRI)),
  };
  for (const Linked& f : functions) {
    Dl_info info{};
    ASSERT_NE(dladdr(f.address, &info), 0) << f.name;
    ASSERT_NE(info.dli_sname, nullptr) << f.name;
    EXPECT_STREQ(info.dli_sname, f.name) << "not exported under its C name";
    EXPECT_NE(std::string(info.dli_fname).find("libascendcl"), std::string::npos)
        << f.name << " resolved to " << info.dli_fname;
  }
}

#undef NPUSIM_LINKED

namespace {

// Names of all functions declared with ACL_FUNC_VISIBILITY in include/acl/**, read from the headers.
std::vector<std::string> declaredFunctions() {
  std::vector<std::string> names;
  const std::regex declaration(R"(ACL_FUNC_VISIBILITY[^;(]*?(\w+)\s*\()");
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::string(NPUSIM_SOURCE_DIR) + "/include/acl")) {
    if (entry.path().extension() != ".h") continue;
    std::ifstream in(entry.path());
    std::string text;
    for (std::string line; std::getline(in, line);) {
      const size_t first = line.find_first_not_of(" \t");
      if (first != std::string::npos && line[first] == '#') continue;  // skips the macro's own definition
      text += line + "\n";
    }
    for (std::sregex_iterator it(text.begin(), text.end(), declaration), end; it != end; ++it) {
      names.push_back((*it)[1]);
    }
  }
  return names;
}

}  // namespace

// Implemented, stubbed or helper: every declared function must be exported by libascendcl, otherwise a
// user program calling it fails to link.
TEST(HeaderSignatures, EveryDeclaredFunctionIsExported) {
  const std::vector<std::string> names = declaredFunctions();
  EXPECT_GE(names.size(), 90U) << "header parsing found too few declarations";
  for (const std::string& name : names) {
    void* symbol = dlsym(RTLD_DEFAULT, name.c_str());
    ASSERT_NE(symbol, nullptr) << name << " is declared but not defined";
    Dl_info info{};
    ASSERT_NE(dladdr(symbol, &info), 0) << name;
    EXPECT_NE(std::string(info.dli_fname).find("libascendcl"), std::string::npos)
        << name << " resolved to " << info.dli_fname;
  }
}

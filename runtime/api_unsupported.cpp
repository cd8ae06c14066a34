// "Not supported" definitions for every function declared in include/acl/** that npusim does not
// implement, so that programs using them still link and get a clean error at run time.
//
// Each stub calls npusim::rt::reportUnsupported(name) (error text + end-of-run list) and returns
// ACL_ERROR_API_NOT_SUPPORT, or NULL for handle-returning functions.
//
// When you implement one of these, DELETE its stub here and add its name to the list below.
//
// Implemented elsewhere in runtime/ (must NOT be defined here):
//   aclInit aclFinalize aclFinalizeReference aclGetRecentErrMsg
//   aclrtGetRunMode aclrtSetDevice aclrtResetDevice aclrtResetDeviceForce aclrtGetDevice aclrtGetDeviceCount
//   aclrtCreateContext aclrtDestroyContext aclrtSetCurrentContext aclrtGetCurrentContext
//   aclrtCtxGetCurrentDefaultStream
//   aclrtCreateStream aclrtCreateStreamWithConfig aclrtDestroyStream aclrtDestroyStreamForce
//   aclrtSynchronizeStream aclrtSynchronizeStreamWithTimeout aclrtStreamQuery
//   aclrtSynchronizeDevice aclrtSynchronizeDeviceWithTimeout
//   aclrtMalloc aclrtMallocAlign32 aclrtMallocCached aclrtFree aclrtMallocHost aclrtFreeHost
//   acldvppMalloc acldvppFree aclrtGetMemInfo
//   aclrtMemcpy aclrtMemcpyAsync aclrtMemcpyAsyncWithCondition aclrtMemcpy2d aclrtMemcpy2dAsync
//   aclrtMemset aclrtMemsetAsync
//   aclrtCreateEvent aclrtCreateEventWithFlag aclrtCreateEventExWithFlag aclrtDestroyEvent
//   aclrtRecordEvent aclrtResetEvent aclrtQueryEvent aclrtQueryEventStatus aclrtQueryEventWaitStatus
//   aclrtSynchronizeEvent aclrtSynchronizeEventWithTimeout aclrtEventElapsedTime
//   aclrtStreamWaitEvent aclrtStreamWaitEventWithTimeout
//   aclrtDeviceCanAccessPeer aclrtDeviceEnablePeerAccess aclrtDeviceDisablePeerAccess
//   aclrtGetLastError aclrtPeekAtLastError
//   aclrtLaunchCallback aclrtSubscribeReport aclrtProcessReport aclrtUnSubscribeReport aclrtLaunchHostFunc
//   (api_callback.cpp) aclmdlRICaptureBegin aclmdlRICaptureEnd aclmdlRICaptureGetInfo
//   aclmdlRICaptureThreadExchangeMode aclmdlRIExecuteAsync aclmdlRIExecute aclmdlRIDestroy
//   aclmdlRIDebugJsonPrint aclmdlRIDebugPrint aclrtAllocator* (api_allocator.cpp); notifies, value
//   write/wait, event flags (api_sync.cpp); exception callbacks and accessors (api_exception.cpp);
//   stream/device properties (api_stream_props.cpp); virtual memory and shareable handles (api_vmm.cpp); host
//   registration (api_host_register.cpp); host callbacks and host functions with their subscriptions
//   (api_callback.cpp); stream configuration handles, aclrtReduceAsync, aclrtGetThreadLastTaskId,
//   aclrtDeviceGetBareTgid (api_builtin.cpp)
// Pure helpers, implemented in runtime/api_misc.cpp:
//   aclDataTypeSize aclFloat16ToFloat aclFloatToFloat16 aclCreateDataBuffer aclDestroyDataBuffer
//   aclUpdateDataBuffer aclGetDataBufferAddr aclGetDataBufferSize aclGetDataBufferSizeV2
//   aclrtGetVersion aclrtGetSocName
// What Atlas A2 devices lack, with the real argument checks first: runtime/api_not_on_a2.cpp.

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "runtime/unsupported.h"

namespace {

// Why each family below cannot be simulated (shown by aclGetRecentErrMsg and the end-of-run list).
constexpr const char* kNoSimt =
    "SIMT/SIMD stack and printf limits: the simulated A2 device has no SIMT units and kernels run on the "
    "host";

constexpr const char* kNoFaults = "hardware error repair: the simulated hardware makes no faults to repair";

constexpr const char* kNoSnapshot =
    "process snapshots (backup and restore of a running process's device state): not modelled by npusim";

constexpr const char* kNotOnA2 =
    "not supported on Atlas A2 training/inference products (the 910B class npusim simulates), as the CANN API "
    "reference says";

constexpr const char* kReserved = "reserved in CANN: the real runtime does not support it yet either";

aclError notSimulated(const char* name, const char* why) {
  npusim::rt::reportUnsupported(name, why);
  return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

}  // namespace

extern "C" {

// --- Refusals: what a simulator of one process cannot do. One line per function. ---------------------
// clang-format off
aclError aclrtIpcMemGetExportKey(void*, size_t, char*, size_t, uint64_t) { return npusim::rt::refuseCrossProcess("aclrtIpcMemGetExportKey"); }
aclError aclrtIpcMemClose(const char*) { return npusim::rt::refuseCrossProcess("aclrtIpcMemClose"); }
aclError aclrtIpcMemImportByKey(void**, const char*, uint64_t) { return npusim::rt::refuseCrossProcess("aclrtIpcMemImportByKey"); }
aclError aclrtIpcMemSetImportPid(const char*, int32_t*, size_t) { return npusim::rt::refuseCrossProcess("aclrtIpcMemSetImportPid"); }
aclError aclrtIpcGetEventHandle(aclrtEvent, aclrtIpcEventHandle*) { return npusim::rt::refuseCrossProcess("aclrtIpcGetEventHandle"); }
aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle, aclrtEvent*) { return npusim::rt::refuseCrossProcess("aclrtIpcOpenEventHandle"); }
aclError aclrtNotifyGetExportKey(aclrtNotify, char*, size_t, uint64_t) { return npusim::rt::refuseCrossProcess("aclrtNotifyGetExportKey"); }
aclError aclrtNotifyImportByKey(aclrtNotify*, const char*, uint64_t) { return npusim::rt::refuseCrossProcess("aclrtNotifyImportByKey"); }
aclError aclrtNotifySetImportPid(aclrtNotify, int32_t*, size_t) { return npusim::rt::refuseCrossProcess("aclrtNotifySetImportPid"); }
aclError aclrtNotifySetImportPidInterServer(aclrtNotify, aclrtServerPid*, size_t) { return npusim::rt::refuseCrossProcess("aclrtNotifySetImportPidInterServer"); }
aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle, uint64_t, aclrtMemSharedHandleType, void*) { return npusim::rt::refuseCrossProcess("aclrtMemExportToShareableHandleV2"); }
aclError aclrtMemImportFromShareableHandleV2(void*, aclrtMemSharedHandleType, uint64_t, aclrtDrvMemHandle*) { return npusim::rt::refuseCrossProcess("aclrtMemImportFromShareableHandleV2"); }
aclError aclrtMemSetPidToShareableHandleV2(void*, aclrtMemSharedHandleType, int32_t*, size_t) { return npusim::rt::refuseCrossProcess("aclrtMemSetPidToShareableHandleV2"); }
// A feature of the real device that the simulated one lacks: ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
aclError aclrtDeviceSetLimit(aclrtDeviceLimit, size_t) { return notSimulated("aclrtDeviceSetLimit", kNoSimt); }
aclError aclrtLaunchSIMTKernelWithArgsArray(void*, dim3, dim3, size_t, aclrtStream, aclrtLaunchKernelCfg*, void**) { return notSimulated("aclrtLaunchSIMTKernelWithArgsArray", kNoSimt); }
aclError aclrtLaunchSIMTKernelWithHostArgs(void*, dim3, dim3, size_t, aclrtStream, aclrtLaunchKernelCfg*, void*, size_t, aclrtPlaceHolderInfo*, size_t) { return notSimulated("aclrtLaunchSIMTKernelWithHostArgs", kNoSimt); }
aclError aclrtRepairError(int32_t, const aclrtErrorInfo*) { return notSimulated("aclrtRepairError", kNoFaults); }
aclError aclrtSnapShotCallbackRegister(aclrtSnapShotStage, aclrtSnapShotCallBack, void*) { return notSimulated("aclrtSnapShotCallbackRegister", kNoSnapshot); }
aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage, aclrtSnapShotCallBack) { return notSimulated("aclrtSnapShotCallbackUnregister", kNoSnapshot); }
aclError aclrtSnapShotProcessBackup(int, aclrtSnapShotBackupArgs*) { return notSimulated("aclrtSnapShotProcessBackup", kNoSnapshot); }
aclError aclrtSnapShotProcessLock(int, void*) { return notSimulated("aclrtSnapShotProcessLock", kNoSnapshot); }
aclError aclrtSnapShotProcessRestore(int, aclrtSnapShotRestoreArgs*) { return notSimulated("aclrtSnapShotProcessRestore", kNoSnapshot); }
aclError aclrtSnapShotProcessUnlock(int, void*) { return notSimulated("aclrtSnapShotProcessUnlock", kNoSnapshot); }
// What the CANN API reference says Atlas A2 devices (or every device, for the reserved buffers) do not support.
aclError aclrtAllocBuf(aclrtMbuf*, size_t) { return notSimulated("aclrtAllocBuf", kReserved); }
aclError aclrtAppendBufChain(aclrtMbuf, aclrtMbuf) { return notSimulated("aclrtAppendBufChain", kReserved); }
aclError aclrtCntNotifyCreate(aclrtCntNotify*, uint64_t) { return notSimulated("aclrtCntNotifyCreate", kNotOnA2); }
aclError aclrtCntNotifyDestroy(aclrtCntNotify) { return notSimulated("aclrtCntNotifyDestroy", kNotOnA2); }
aclError aclrtCntNotifyGetId(aclrtCntNotify, uint32_t*) { return notSimulated("aclrtCntNotifyGetId", kNotOnA2); }
aclError aclrtCntNotifyRecord(aclrtCntNotify, aclrtStream, aclrtCntNotifyRecordInfo*) { return notSimulated("aclrtCntNotifyRecord", kNotOnA2); }
aclError aclrtCntNotifyReset(aclrtCntNotify, aclrtStream) { return notSimulated("aclrtCntNotifyReset", kNotOnA2); }
aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify, aclrtStream, aclrtCntNotifyWaitInfo*) { return notSimulated("aclrtCntNotifyWaitWithTimeout", kNotOnA2); }
aclError aclrtCopyBufRef(const aclrtMbuf, aclrtMbuf*) { return notSimulated("aclrtCopyBufRef", kReserved); }
aclrtGroupInfo* aclrtCreateGroupInfo(void) { npusim::rt::reportUnsupported("aclrtCreateGroupInfo", kNotOnA2); return nullptr; }
aclError aclrtDestroyGroupInfo(aclrtGroupInfo*) { return notSimulated("aclrtDestroyGroupInfo", kNotOnA2); }
aclError aclrtFreeBuf(aclrtMbuf) { return notSimulated("aclrtFreeBuf", kReserved); }
aclError aclrtGetAllGroupInfo(aclrtGroupInfo*) { return notSimulated("aclrtGetAllGroupInfo", kNotOnA2); }
aclError aclrtGetBufChainNum(aclrtMbuf, uint32_t*) { return notSimulated("aclrtGetBufChainNum", kReserved); }
aclError aclrtGetBufData(const aclrtMbuf, void**, size_t*) { return notSimulated("aclrtGetBufData", kReserved); }
aclError aclrtGetBufDataLen(aclrtMbuf, size_t*) { return notSimulated("aclrtGetBufDataLen", kReserved); }
aclError aclrtGetBufFromChain(aclrtMbuf, uint32_t, aclrtMbuf*) { return notSimulated("aclrtGetBufFromChain", kReserved); }
aclError aclrtGetBufUserData(const aclrtMbuf, void*, size_t, size_t) { return notSimulated("aclrtGetBufUserData", kReserved); }
aclError aclrtGetGroupCount(uint32_t*) { return notSimulated("aclrtGetGroupCount", kNotOnA2); }
aclError aclrtGetGroupInfoDetail(const aclrtGroupInfo*, int32_t, aclrtGroupAttr, void*, size_t, size_t*) { return notSimulated("aclrtGetGroupInfoDetail", kNotOnA2); }
aclError aclrtSetBufDataLen(aclrtMbuf, size_t) { return notSimulated("aclrtSetBufDataLen", kReserved); }
aclError aclrtSetBufUserData(aclrtMbuf, const void*, size_t, size_t) { return notSimulated("aclrtSetBufUserData", kReserved); }
aclError aclrtSetGroup(int32_t) { return notSimulated("aclrtSetGroup", kNotOnA2); }
aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t) { return notSimulated("aclrtSetOpExecuteTimeOutWithMs", kNotOnA2); }
aclError aclrtDeviceGetLimit(aclrtDeviceLimit, size_t*) { return notSimulated("aclrtDeviceGetLimit", kNoSimt); }
// clang-format on

}  // extern "C"

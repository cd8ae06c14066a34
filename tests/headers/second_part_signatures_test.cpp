// The calls added from the second part of the real acl_rt.h (issue 16) have exactly its
// signatures: a program written against CANN compiles against npusim unchanged.
#include <gtest/gtest.h>

#include <type_traits>

#include "acl/acl.h"

#define NPUSIM_SIGNATURE(fn, ...) \
  static_assert(std::is_same_v<decltype(fn), __VA_ARGS__>, #fn " does not have the CANN signature")

// clang-format off
NPUSIM_SIGNATURE(aclFinalizeCallbackRegister, aclError(aclRegisterCallbackType, aclFinalizeCallbackFunc, void*));
NPUSIM_SIGNATURE(aclFinalizeCallbackUnRegister, aclError(aclRegisterCallbackType, aclFinalizeCallbackFunc));
NPUSIM_SIGNATURE(aclInitCallbackRegister, aclError(aclRegisterCallbackType, aclInitCallbackFunc, void*));
NPUSIM_SIGNATURE(aclInitCallbackUnRegister, aclError(aclRegisterCallbackType, aclInitCallbackFunc));
NPUSIM_SIGNATURE(aclmdlRIAbort, aclError(aclmdlRI));
NPUSIM_SIGNATURE(aclmdlRIDestroyRegisterCallback, aclError(aclmdlRI, aclrtCallback, void*));
NPUSIM_SIGNATURE(aclmdlRIDestroyUnregisterCallback, aclError(aclmdlRI, aclrtCallback));
NPUSIM_SIGNATURE(aclmdlRIGetId, aclError(aclmdlRI, uint32_t*));
NPUSIM_SIGNATURE(aclmdlRIGetName, aclError(aclmdlRI, uint32_t, char*));
NPUSIM_SIGNATURE(aclmdlRIKernelTaskGetAttribute, aclError(aclmdlRITask, aclrtLaunchKernelAttrId, aclrtLaunchKernelAttrValue*));
NPUSIM_SIGNATURE(aclmdlRISetName, aclError(aclmdlRI, const char*));
NPUSIM_SIGNATURE(aclmdlRITaskDisable, aclError(aclmdlRITask));
NPUSIM_SIGNATURE(aclmdlRITaskGetParams, aclError(aclmdlRITask, aclmdlRITaskParams*));
NPUSIM_SIGNATURE(aclmdlRITaskSetParams, aclError(aclmdlRITask, aclmdlRITaskParams*));
NPUSIM_SIGNATURE(aclmdlRIUpdate, aclError(aclmdlRI));
NPUSIM_SIGNATURE(aclrtAllocBuf, aclError(aclrtMbuf*, size_t));
NPUSIM_SIGNATURE(aclrtAppendBufChain, aclError(aclrtMbuf, aclrtMbuf));
NPUSIM_SIGNATURE(aclrtBinaryGetDevAddress, aclError(const aclrtBinHandle, void**, size_t*));
NPUSIM_SIGNATURE(aclrtBinaryGetFunctionByEntry, aclError(aclrtBinHandle, uint64_t, aclrtFuncHandle*));
NPUSIM_SIGNATURE(aclrtBinaryGetGlobal, aclError(aclrtBinHandle, const char*, void**, size_t*));
NPUSIM_SIGNATURE(aclrtBinaryLoad, aclError(const aclrtBinary, aclrtBinHandle*));
NPUSIM_SIGNATURE(aclrtBinarySetExceptionCallback, aclError(aclrtBinHandle, aclrtOpExceptionCallback, void*));
NPUSIM_SIGNATURE(aclrtCacheLastTaskExtendInfo, aclError(const char* const, const size_t));
NPUSIM_SIGNATURE(aclrtCacheLastTaskOpInfo, aclError(const void* const, const size_t));
NPUSIM_SIGNATURE(aclrtCheckMemType, aclError(void**, uint32_t, uint32_t, uint32_t*, uint32_t));
NPUSIM_SIGNATURE(aclrtCmoAsyncWithBarrier, aclError(void*, size_t, aclrtCmoType, uint32_t, aclrtStream));
NPUSIM_SIGNATURE(aclrtCmoAsyncWithDesc, aclError(void*, aclrtCmoType, aclrtStream, const void*));
NPUSIM_SIGNATURE(aclrtCmoGetDescSize, aclError(size_t*));
NPUSIM_SIGNATURE(aclrtCmoSetDesc, aclError(void*, void*, size_t));
NPUSIM_SIGNATURE(aclrtCmoWaitBarrier, aclError(aclrtBarrierTaskInfo*, aclrtStream, uint32_t));
NPUSIM_SIGNATURE(aclrtCntNotifyCreate, aclError(aclrtCntNotify*, uint64_t));
NPUSIM_SIGNATURE(aclrtCntNotifyDestroy, aclError(aclrtCntNotify));
NPUSIM_SIGNATURE(aclrtCntNotifyGetId, aclError(aclrtCntNotify, uint32_t*));
NPUSIM_SIGNATURE(aclrtCntNotifyRecord, aclError(aclrtCntNotify, aclrtStream, aclrtCntNotifyRecordInfo*));
NPUSIM_SIGNATURE(aclrtCntNotifyReset, aclError(aclrtCntNotify, aclrtStream));
NPUSIM_SIGNATURE(aclrtCntNotifyWaitWithTimeout, aclError(aclrtCntNotify, aclrtStream, aclrtCntNotifyWaitInfo*));
NPUSIM_SIGNATURE(aclrtCopyBufRef, aclError(const aclrtMbuf, aclrtMbuf*));
NPUSIM_SIGNATURE(aclrtCreateBinary, aclrtBinary(const void*, size_t));
NPUSIM_SIGNATURE(aclrtCreateGroupInfo, aclrtGroupInfo*());
NPUSIM_SIGNATURE(aclrtCtxGetFloatOverflowAddr, aclError(void**));
NPUSIM_SIGNATURE(aclrtCtxGetSysParamOpt, aclError(aclSysParamOpt, int64_t*));
NPUSIM_SIGNATURE(aclrtCtxSetSysParamOpt, aclError(aclSysParamOpt, int64_t));
NPUSIM_SIGNATURE(aclrtDestroyBinary, aclError(aclrtBinary));
NPUSIM_SIGNATURE(aclrtDestroyGroupInfo, aclError(aclrtGroupInfo*));
NPUSIM_SIGNATURE(aclrtDeviceGetByPCIBusId, aclError(const char *, int32_t *));
NPUSIM_SIGNATURE(aclrtDeviceGetHostAtomicCapabilities, aclError(uint32_t*, const aclrtAtomicOperation*, const uint32_t, int32_t));
NPUSIM_SIGNATURE(aclrtDeviceGetP2PAtomicCapabilities, aclError(uint32_t*, const aclrtAtomicOperation*, const uint32_t, int32_t, int32_t));
NPUSIM_SIGNATURE(aclrtDeviceGetPCIBusId, aclError(int32_t, char *, int32_t));
NPUSIM_SIGNATURE(aclrtDeviceL2CacheFlush, aclError(void*));
NPUSIM_SIGNATURE(aclrtDevicePeerAccessStatus, aclError(int32_t, int32_t, int32_t*));
NPUSIM_SIGNATURE(aclrtDeviceTaskAbort, aclError(int32_t, uint32_t));
NPUSIM_SIGNATURE(aclrtFreeBuf, aclError(aclrtMbuf));
NPUSIM_SIGNATURE(aclrtFreeHostWithDevSync, aclError(void*));
NPUSIM_SIGNATURE(aclrtFreeWithDevSync, aclError(void*));
NPUSIM_SIGNATURE(aclrtFunctionGetAvailDynUbufPerBlock, aclError(void*, uint32_t, size_t*));
NPUSIM_SIGNATURE(aclrtFunctionGetBinary, aclError(const aclrtFuncHandle, aclrtBinHandle*));
NPUSIM_SIGNATURE(aclrtFunctionGetParamCount, aclError(const void*, size_t*));
NPUSIM_SIGNATURE(aclrtFunctionGetParamInfo, aclError(const void*, size_t, size_t*, size_t*));
NPUSIM_SIGNATURE(aclrtGetAllGroupInfo, aclError(aclrtGroupInfo*));
NPUSIM_SIGNATURE(aclrtGetBufChainNum, aclError(aclrtMbuf, uint32_t*));
NPUSIM_SIGNATURE(aclrtGetBufData, aclError(const aclrtMbuf, void**, size_t*));
NPUSIM_SIGNATURE(aclrtGetBufDataLen, aclError(aclrtMbuf, size_t*));
NPUSIM_SIGNATURE(aclrtGetBufFromChain, aclError(aclrtMbuf, uint32_t, aclrtMbuf*));
NPUSIM_SIGNATURE(aclrtGetBufUserData, aclError(const aclrtMbuf, void*, size_t, size_t));
NPUSIM_SIGNATURE(aclrtGetDevicesTopo, aclError(uint32_t, uint32_t, uint64_t*));
NPUSIM_SIGNATURE(aclrtGetFloatOverflowStatus, aclError(void*, uint64_t, aclrtStream));
NPUSIM_SIGNATURE(aclrtGetFuncBySymbol, aclError(const void*, aclrtFuncHandle*));
NPUSIM_SIGNATURE(aclrtGetFunctionAddr, aclError(aclrtFuncHandle, void**, void**));
NPUSIM_SIGNATURE(aclrtGetFunctionAttribute, aclError(aclrtFuncHandle, aclrtFuncAttribute, int64_t*));
NPUSIM_SIGNATURE(aclrtGetFunctionName, aclError(aclrtFuncHandle, uint32_t, char*));
NPUSIM_SIGNATURE(aclrtGetFunctionSize, aclError(aclrtFuncHandle, size_t*, size_t*));
NPUSIM_SIGNATURE(aclrtGetGroupCount, aclError(uint32_t*));
NPUSIM_SIGNATURE(aclrtGetGroupInfoDetail, aclError(const aclrtGroupInfo*, int32_t, aclrtGroupAttr, void*, size_t, size_t*));
NPUSIM_SIGNATURE(aclrtGetHardwareSyncAddr, aclError(void**));
NPUSIM_SIGNATURE(aclrtGetLogicDevIdByPhyDevId, aclError(const int32_t, int32_t* const));
NPUSIM_SIGNATURE(aclrtGetLogicDevIdByUserDevId, aclError(const int32_t, int32_t* const));
NPUSIM_SIGNATURE(aclrtGetMemUceInfo, aclError(int32_t, aclrtMemUceInfo*, size_t, size_t*));
NPUSIM_SIGNATURE(aclrtGetMemUsageInfo, aclError(int32_t, aclrtMemUsageInfo*, size_t, size_t*));
NPUSIM_SIGNATURE(aclrtGetMemcpyDescSize, aclError(aclrtMemcpyKind, size_t*));
NPUSIM_SIGNATURE(aclrtGetOpExecuteTimeout, aclError(uint32_t* const));
NPUSIM_SIGNATURE(aclrtGetOpTimeOutInterval, aclError(uint64_t*));
NPUSIM_SIGNATURE(aclrtGetPhyDevIdByLogicDevId, aclError(const int32_t, int32_t* const));
NPUSIM_SIGNATURE(aclrtGetPhyDevIdByUserDevId, aclError(const int32_t, int32_t* const));
NPUSIM_SIGNATURE(aclrtGetPrimaryCtxState, aclError(int32_t, uint32_t*, int32_t*));
NPUSIM_SIGNATURE(aclrtGetStreamAttribute, aclError(aclrtStream, aclrtStreamAttr, aclrtStreamAttrValue*));
NPUSIM_SIGNATURE(aclrtGetSymbolAddress, aclError(const void*, void**));
NPUSIM_SIGNATURE(aclrtGetSymbolSize, aclError(const void*, size_t*));
NPUSIM_SIGNATURE(aclrtGetSysParamOpt, aclError(aclSysParamOpt, int64_t*));
NPUSIM_SIGNATURE(aclrtGetUserDevIdByLogicDevId, aclError(const int32_t, int32_t* const));
NPUSIM_SIGNATURE(aclrtGetUserDevIdByPhyDevId, aclError(const int32_t, int32_t* const));
NPUSIM_SIGNATURE(aclrtHostMemMapCapabilities, aclError(uint32_t, aclrtHacType, aclrtHostMemMapCapability*));
NPUSIM_SIGNATURE(aclrtIpcMemImportPidInterServer, aclError(const char*, aclrtServerPid*, size_t));
NPUSIM_SIGNATURE(aclrtIpcMemSetAttr, aclError(const char*, aclrtIpcMemAttrType, uint64_t));
NPUSIM_SIGNATURE(aclrtLaunchKernelV2, aclError(aclrtFuncHandle, uint32_t, const void*, size_t, aclrtLaunchKernelCfg*, aclrtStream));
NPUSIM_SIGNATURE(aclrtLaunchKernelWithArgsArray, aclError(void*, uint32_t, aclrtStream, aclrtLaunchKernelCfg*, void**));
NPUSIM_SIGNATURE(aclrtLaunchKernelWithHostArgs, aclError(aclrtFuncHandle, uint32_t, aclrtStream, aclrtLaunchKernelCfg*, void*, size_t, aclrtPlaceHolderInfo*, size_t));
NPUSIM_SIGNATURE(aclrtLaunchSIMTKernelWithArgsArray, aclError(void*, dim3, dim3, size_t, aclrtStream, aclrtLaunchKernelCfg*, void**));
NPUSIM_SIGNATURE(aclrtLaunchSIMTKernelWithHostArgs, aclError(void*, dim3, dim3, size_t, aclrtStream, aclrtLaunchKernelCfg*, void*, size_t, aclrtPlaceHolderInfo*, size_t));
NPUSIM_SIGNATURE(aclrtMallocForTaskScheduler, aclError(void**, size_t, aclrtMemMallocPolicy, aclrtMallocConfig*));
NPUSIM_SIGNATURE(aclrtMallocHostWithCfg, aclError(void**, uint64_t, aclrtMallocConfig*));
NPUSIM_SIGNATURE(aclrtMallocWithCfg, aclError(void**, size_t, aclrtMemMallocPolicy, aclrtMallocConfig*));
NPUSIM_SIGNATURE(aclrtMemFlush, aclError(void*, size_t));
NPUSIM_SIGNATURE(aclrtMemGetAccess, aclError(void*, aclrtMemLocation*, uint64_t*));
NPUSIM_SIGNATURE(aclrtMemGetAddressRange, aclError(void*, void**, size_t*));
NPUSIM_SIGNATURE(aclrtMemInvalidate, aclError(void*, size_t));
NPUSIM_SIGNATURE(aclrtMemManagedAdvise, aclError(const void* const, uint64_t, aclrtMemManagedAdviseType, aclrtMemManagedLocation));
NPUSIM_SIGNATURE(aclrtMemManagedGetAttr, aclError(aclrtMemManagedRangeAttribute, const void*, size_t, void*, size_t));
NPUSIM_SIGNATURE(aclrtMemManagedGetAttrs, aclError(aclrtMemManagedRangeAttribute*, size_t, const void*, size_t, void**, size_t*));
NPUSIM_SIGNATURE(aclrtMemManagedPrefetchAsync, aclError(const void*, size_t, aclrtMemManagedLocation, uint32_t, aclrtStream));
NPUSIM_SIGNATURE(aclrtMemManagedPrefetchBatchAsync, aclError(const void**, size_t*, size_t, aclrtMemManagedLocation*, size_t*, size_t, uint64_t, aclrtStream));
NPUSIM_SIGNATURE(aclrtMemMapNoAccess, aclError(void*, size_t, size_t, aclrtDrvMemHandle, uint64_t));
NPUSIM_SIGNATURE(aclrtMemMapSelectedLink, aclError(void*, size_t, void*, uint32_t));
NPUSIM_SIGNATURE(aclrtMemMapSetLink, aclError(aclrtDrvMemHandle, aclrtMemLinkType));
NPUSIM_SIGNATURE(aclrtMemP2PMap, aclError(void*, size_t, int32_t, uint64_t));
NPUSIM_SIGNATURE(aclrtMemUceRepair, aclError(int32_t, aclrtMemUceInfo*, size_t));
NPUSIM_SIGNATURE(aclrtMemcpyAsyncWithDesc, aclError(void*, aclrtMemcpyKind, aclrtStream));
NPUSIM_SIGNATURE(aclrtMemcpyAsyncWithOffset, aclError(void**, size_t, size_t, const void**, size_t, size_t, aclrtMemcpyKind, aclrtStream));
NPUSIM_SIGNATURE(aclrtMemcpyBatchAsyncV2, aclError(void**, size_t*, void**, size_t*, size_t, aclrtMemcpyBatchAttr*, size_t*, size_t, aclrtStream));
NPUSIM_SIGNATURE(aclrtMemcpyBatchV2, aclError(void**, size_t*, void**, size_t*, size_t, aclrtMemcpyBatchAttr*, size_t*, size_t));
NPUSIM_SIGNATURE(aclrtMemcpyFromSymbol, aclError(void*, size_t, const void*, size_t, size_t, aclrtMemcpyKind));
NPUSIM_SIGNATURE(aclrtMemcpyFromSymbolAsync, aclError(void*, size_t, const void*, size_t, size_t, aclrtMemcpyKind, aclrtStream));
NPUSIM_SIGNATURE(aclrtMemcpyToSymbol, aclError(const void*, const void*, size_t, size_t, aclrtMemcpyKind));
NPUSIM_SIGNATURE(aclrtMemcpyToSymbolAsync, aclError(const void*, const void*, size_t, size_t, aclrtMemcpyKind, aclrtStream));
NPUSIM_SIGNATURE(aclrtMemsetD32, aclError(void*, size_t, uint32_t, size_t));
NPUSIM_SIGNATURE(aclrtMemsetD32Async, aclError(void*, size_t, uint32_t, size_t, aclrtStream));
NPUSIM_SIGNATURE(aclrtNpuClearFloatOverFlowStatus, aclError(uint32_t, aclrtStream));
NPUSIM_SIGNATURE(aclrtNpuGetFloatOverFlowStatus, aclError(void*, uint64_t, uint32_t, aclrtStream));
NPUSIM_SIGNATURE(aclrtPersistentTaskClean, aclError(aclrtStream));
NPUSIM_SIGNATURE(aclrtPointerGetAttributes, aclError(const void*, aclrtPtrAttributes*));
NPUSIM_SIGNATURE(aclrtProfTrace, aclError(void*, int32_t, aclrtStream));
NPUSIM_SIGNATURE(aclrtRegisterCpuFunc, aclError(const aclrtBinHandle, const char*, const char*, aclrtFuncHandle*));
NPUSIM_SIGNATURE(aclrtRepairError, aclError(int32_t, const aclrtErrorInfo*));
NPUSIM_SIGNATURE(aclrtReserveMemAddressNoUCMemory, aclError(void**, size_t, size_t, void*, uint64_t));
NPUSIM_SIGNATURE(aclrtResetFloatOverflowStatus, aclError(aclrtStream));
NPUSIM_SIGNATURE(aclrtSetBufDataLen, aclError(aclrtMbuf, size_t));
NPUSIM_SIGNATURE(aclrtSetBufUserData, aclError(aclrtMbuf, const void*, size_t, size_t));
NPUSIM_SIGNATURE(aclrtSetDeviceTaskAbortCallback, aclError(const char*, aclrtDeviceTaskAbortCallback, void*));
NPUSIM_SIGNATURE(aclrtSetGroup, aclError(int32_t));
NPUSIM_SIGNATURE(aclrtSetMemcpyDesc, aclError(void*, aclrtMemcpyKind, void*, void*, size_t, void*));
NPUSIM_SIGNATURE(aclrtSetOpExecuteTimeOut, aclError(uint32_t));
NPUSIM_SIGNATURE(aclrtSetOpExecuteTimeOutV2, aclError(uint64_t, uint64_t*));
NPUSIM_SIGNATURE(aclrtSetOpExecuteTimeOutWithMs, aclError(uint32_t));
NPUSIM_SIGNATURE(aclrtSetOpWaitTimeout, aclError(uint32_t));
NPUSIM_SIGNATURE(aclrtSetStreamAttribute, aclError(aclrtStream, aclrtStreamAttr, aclrtStreamAttrValue*));
NPUSIM_SIGNATURE(aclrtSetSysParamOpt, aclError(aclSysParamOpt, int64_t));
NPUSIM_SIGNATURE(aclrtSetTsDevice, aclError(aclrtTsId));
NPUSIM_SIGNATURE(aclrtSnapShotCallbackRegister, aclError(aclrtSnapShotStage, aclrtSnapShotCallBack, void*));
NPUSIM_SIGNATURE(aclrtSnapShotCallbackUnregister, aclError(aclrtSnapShotStage, aclrtSnapShotCallBack));
NPUSIM_SIGNATURE(aclrtSnapShotProcessBackup, aclError(int, aclrtSnapShotBackupArgs*));
NPUSIM_SIGNATURE(aclrtSnapShotProcessLock, aclError(int, void*));
NPUSIM_SIGNATURE(aclrtSnapShotProcessRestore, aclError(int, aclrtSnapShotRestoreArgs*));
NPUSIM_SIGNATURE(aclrtSnapShotProcessUnlock, aclError(int, void*));
NPUSIM_SIGNATURE(aclrtTaskUpdateAsync, aclError(aclrtStream, uint32_t, aclrtTaskUpdateInfo*, aclrtStream));
// clang-format on

TEST(HeaderSignatures, SecondPartOfTheRealHeaderIsDeclared) {
  // Taking each address proves the call is declared and exported (the static_asserts above check
  // the types); a few spot checks of values the real header fixes.
  EXPECT_NE(reinterpret_cast<void*>(&aclrtMemsetD32), nullptr);
  EXPECT_EQ(ACL_RT_CMO_MAX_BARRIER_NUM, 6U);
  EXPECT_EQ(ACL_RT_DEVS_TOPOLOGY_PIX, 0x02ULL);
  EXPECT_EQ(static_cast<int>(ACL_REG_TYPE_OTHER), 0xFFFF);
  EXPECT_EQ(static_cast<int>(ACL_STREAM_ATTR_PRIORITY), 5);
  EXPECT_EQ(static_cast<int>(ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE), 4);
  EXPECT_EQ(sizeof(aclrtSnapShotBackupArgs), 64u);
}

// ACL entry points that the CANN API reference lists as not supported on Atlas A2 training/inference
// products (the 910B class npusim simulates): HCCS/SIO link selection between the two dies of an A3
// device, IPC attributes and whitelists of A3 super-nodes, address reservations outside the UC memory
// (A3), and cache operations with barriers (Atlas 200I/500 A2 only). Each checks its arguments as the
// real runtime does before it reaches the device, so a wrong call fails with
// ACL_ERROR_INVALID_PARAM as on hardware, and a well-formed one gets what an A2 device answers:
// ACL_ERROR_RT_FEATURE_NOT_SUPPORT, with the reason in aclGetRecentErrMsg and the end-of-run list.
#include "acl/acl.h"
#include "runtime/runtime.h"
#include "runtime/unsupported.h"

using npusim::rt::ApiCall;

namespace {

constexpr const char* kDieLinks =
    "HCCS/SIO link selection between the two dies of an Atlas A3 device: Atlas A2 devices (the 910B npusim "
    "simulates) have no such links, as the CANN API reference says";
constexpr const char* kSuperNode =
    "IPC attributes and whitelists of Atlas A3 super-nodes: not supported on Atlas A2 devices (the 910B "
    "npusim "
    "simulates), as the CANN API reference says; npusim also simulates one process, so no other process "
    "could "
    "import the memory";
constexpr const char* kNoUc =
    "reservations kept out of UC (uncached) memory: an Atlas A3 feature, not supported on Atlas A2 devices "
    "(the "
    "910B npusim simulates), as the CANN API reference says";
constexpr const char* kCmoBarrier =
    "cache operations with barriers: only Atlas 200I/500 A2 inference products have them, not Atlas A2 "
    "training/inference devices (the 910B npusim simulates), as the CANN API reference says";

// What the device answers once the arguments have passed: the feature is absent.
aclError refuse(ApiCall& api, const char* why) {
  npusim::rt::reportUnsupported(api.name(), why);
  return api.fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "{}", why);
}

bool isCmoType(aclrtCmoType t) { return t >= ACL_RT_CMO_TYPE_PREFETCH && t <= ACL_RT_CMO_TYPE_FLUSH; }

}  // namespace

extern "C" {

aclError aclrtMemMapSelectedLink(void* virPtrDst, size_t size, void* virPtrSrc, uint32_t linkIdx) {
  ApiCall api("aclrtMemMapSelectedLink");
  if (!api.ok()) return api.notReady();
  if (!virPtrDst || !virPtrSrc) return api.fail(ACL_ERROR_INVALID_PARAM, "virPtrDst or virPtrSrc is NULL");
  if (size == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "size is 0");
  if (linkIdx > ACL_RT_MEM_LINK_IDX_1)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "linkIdx {} is neither ACL_RT_MEM_LINK_IDX_0 (SIO) nor _1 (HCCS)", linkIdx);
  return refuse(api, kDieLinks);
}

aclError aclrtMemMapSetLink(aclrtDrvMemHandle handle, aclrtMemLinkType adviceLink) {
  ApiCall api("aclrtMemMapSetLink");
  if (!api.ok()) return api.notReady();
  if (!handle) return api.fail(ACL_ERROR_INVALID_PARAM, "handle is NULL");
  if (adviceLink < ACL_RT_MEM_ACCESS_LINK_SIO || adviceLink > ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH)
    return api.fail(ACL_ERROR_INVALID_PARAM, "adviceLink {} is not an aclrtMemLinkType",
                    static_cast<int>(adviceLink));
  return refuse(api, kDieLinks);
}

aclError aclrtReserveMemAddressNoUCMemory(void** virPtr, size_t size, size_t alignment, void* expectPtr,
                                          uint64_t flags) {
  ApiCall api("aclrtReserveMemAddressNoUCMemory");
  if (!api.ok()) return api.notReady();
  constexpr size_t kGiB = size_t{1} << 30;
  if (!virPtr) return api.fail(ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
  if (size == 0 || size % kGiB != 0)
    return api.fail(ACL_ERROR_INVALID_PARAM, "size {} is not a positive multiple of 1 GiB", size);
  if (alignment != 0) return api.fail(ACL_ERROR_INVALID_PARAM, "alignment must be 0 (got {})", alignment);
  if (!expectPtr)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "expectPtr is NULL: this reservation starts where the caller says");
  if (flags > 1) return api.fail(ACL_ERROR_INVALID_PARAM, "flags must be 0 (got {})", flags);
  return refuse(api, kNoUc);
}

aclError aclrtIpcMemImportPidInterServer(const char* key, aclrtServerPid* serverPids, size_t num) {
  ApiCall api("aclrtIpcMemImportPidInterServer");
  if (!api.ok()) return api.notReady();
  if (!key || !serverPids) return api.fail(ACL_ERROR_INVALID_PARAM, "key or serverPids is NULL");
  if (num == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "num is 0");
  for (size_t i = 0; i < num; ++i)
    if (!serverPids[i].pid || serverPids[i].num == 0)
      return api.fail(ACL_ERROR_INVALID_PARAM, "serverPids[{}] has no pid array or a num of 0", i);
  return refuse(api, kSuperNode);
}

aclError aclrtIpcMemSetAttr(const char* key, aclrtIpcMemAttrType type, uint64_t attr) {
  ApiCall api("aclrtIpcMemSetAttr");
  if (!api.ok()) return api.notReady();
  if (!key) return api.fail(ACL_ERROR_INVALID_PARAM, "key is NULL");
  if (type != ACL_RT_IPC_MEM_ATTR_ACCESS_LINK)
    return api.fail(ACL_ERROR_INVALID_PARAM, "type {} is not ACL_RT_IPC_MEM_ATTR_ACCESS_LINK",
                    static_cast<int>(type));
  if (attr > ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH)
    return api.fail(ACL_ERROR_INVALID_PARAM, "attr {} is not an ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_* value",
                    attr);
  return refuse(api, kSuperNode);
}

aclError aclrtCmoAsyncWithBarrier(void* src, size_t size, aclrtCmoType cmoType, uint32_t barrierId,
                                  aclrtStream stream) {
  ApiCall api("aclrtCmoAsyncWithBarrier");
  if (!api.ok()) return api.notReady();
  if (!src) return api.fail(ACL_ERROR_INVALID_PARAM, "src is NULL");
  if (size == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "size is 0");
  if (!isCmoType(cmoType))
    return api.fail(ACL_ERROR_INVALID_PARAM, "cmoType {} is not an aclrtCmoType", static_cast<int>(cmoType));
  // Only an invalidate carries a barrier (id > 0) that aclrtCmoWaitBarrier can wait for.
  if (cmoType == ACL_RT_CMO_TYPE_INVALID ? barrierId == 0 : barrierId != 0)
    return api.fail(ACL_ERROR_INVALID_PARAM, "barrierId {} must be > 0 for ACL_RT_CMO_TYPE_INVALID, else 0",
                    barrierId);
  aclError err;
  if (!api.stream(stream, &err)) return err;
  return refuse(api, kCmoBarrier);
}

aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo* taskInfo, aclrtStream stream, uint32_t flag) {
  ApiCall api("aclrtCmoWaitBarrier");
  if (!api.ok()) return api.notReady();
  if (!taskInfo) return api.fail(ACL_ERROR_INVALID_PARAM, "taskInfo is NULL");
  if (taskInfo->barrierNum == 0 || taskInfo->barrierNum > ACL_RT_CMO_MAX_BARRIER_NUM)
    return api.fail(ACL_ERROR_INVALID_PARAM, "taskInfo->barrierNum {} is not in 1..{}", taskInfo->barrierNum,
                    ACL_RT_CMO_MAX_BARRIER_NUM);
  for (size_t i = 0; i < taskInfo->barrierNum; ++i)
    if (taskInfo->cmoInfo[i].cmoType != ACL_RT_CMO_TYPE_INVALID)
      return api.fail(ACL_ERROR_INVALID_PARAM,
                      "taskInfo->cmoInfo[{}].cmoType must be ACL_RT_CMO_TYPE_INVALID", i);
  if (flag != 0) return api.fail(ACL_ERROR_INVALID_PARAM, "flag must be 0 (got {})", flag);
  aclError err;
  if (!api.stream(stream, &err)) return err;
  return refuse(api, kCmoBarrier);
}

}  // extern "C"

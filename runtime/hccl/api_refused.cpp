// HCCL calls one simulated process on one server cannot serve, or that npusim does not model:
// each records why (aclGetRecentErrMsg, stderr, the end-of-run list of unsupported calls) and
// returns HCCL_E_NOT_SUPPORT.
#include <cstdio>

#include "hccl/hccl.h"
#include "runtime/unsupported.h"

namespace {

HcclResult refuse(const char* name, const char* why) {
  npusim::rt::reportUnsupported(name, why);
  std::fprintf(stderr, "[npusim] %s: not supported: %s (HcclResult %d)\n", name, why, HCCL_E_NOT_SUPPORT);
  return HCCL_E_NOT_SUPPORT;
}

constexpr const char* kRankTable =
    "rank tables describe ranks in several processes or hosts; npusim simulates one process on one server: "
    "use HcclGetRootInfo + HcclCommInitRootInfo (one thread per device) or HcclCommInitAll";
constexpr const char* kRecovery = "communicator suspend/resume and fault callbacks are not simulated";
constexpr const char* kMemory =
    "communicator memory ranges and symmetric windows (A3/950 features) are not simulated";

}  // namespace

extern "C" {

HcclResult HcclCommInitClusterInfo(const char*, uint32_t, HcclComm*) {
  return refuse("HcclCommInitClusterInfo", kRankTable);
}
HcclResult HcclCommInitClusterInfoConfig(const char*, uint32_t, HcclCommConfig*, HcclComm*) {
  return refuse("HcclCommInitClusterInfoConfig", kRankTable);
}
HcclResult HcclCreateSubCommConfig(HcclComm*, uint32_t, uint32_t*, uint64_t, uint32_t, HcclCommConfig*,
                                   HcclComm*) {
  return refuse("HcclCreateSubCommConfig",
                "sub-communicators are not simulated yet: create a communicator per group "
                "with HcclCommInitRootInfo");
}
HcclResult HcclCommSuspend(HcclComm) { return refuse("HcclCommSuspend", kRecovery); }
HcclResult HcclCommResume(HcclComm) { return refuse("HcclCommResume", kRecovery); }
HcclResult HcclCommRegCommStateCallback(const char*, HcclCommStateCallback, void*) {
  return refuse("HcclCommRegCommStateCallback", kRecovery);
}
HcclResult HcclCommSetMemoryRange(HcclComm, void*, size_t, size_t, uint64_t) {
  return refuse("HcclCommSetMemoryRange", kMemory);
}
HcclResult HcclCommUnsetMemoryRange(HcclComm, void*) { return refuse("HcclCommUnsetMemoryRange", kMemory); }
HcclResult HcclCommActivateCommMemory(HcclComm, void*, size_t, size_t, aclrtDrvMemHandle, uint64_t) {
  return refuse("HcclCommActivateCommMemory", kMemory);
}
HcclResult HcclCommDeactivateCommMemory(HcclComm, void*) {
  return refuse("HcclCommDeactivateCommMemory", kMemory);
}
HcclResult HcclCommWorkingDevNicSet(HcclComm, uint32_t*, bool*, uint32_t) {
  return refuse("HcclCommWorkingDevNicSet", "NICs (RoCE between servers) are not simulated");
}
HcclResult HcclGroupStart(void) {
  return refuse("HcclGroupStart",
                "grouped calls (experimental in CANN) are not simulated; use HcclBatchSendRecv");
}
HcclResult HcclGroupEnd(void) {
  return refuse("HcclGroupEnd",
                "grouped calls (experimental in CANN) are not simulated; use HcclBatchSendRecv");
}
HcclResult HcclGroupStatusGet(bool* isGroupEnabled) {
  if (!isGroupEnabled) return HCCL_E_PTR;
  *isGroupEnabled = false;  // no group is ever open (HcclGroupStart is refused)
  return HCCL_SUCCESS;
}
HcclResult HcclCommSymWinRegister(HcclComm, void*, uint64_t, HcclCommSymWindow*, uint32_t) {
  return refuse("HcclCommSymWinRegister", kMemory);
}
HcclResult HcclCommSymWinDeregister(HcclCommSymWindow) { return refuse("HcclCommSymWinDeregister", kMemory); }
HcclResult HcclCommSymWinGet(HcclComm, void*, size_t, HcclCommSymWindow*, size_t*) {
  return refuse("HcclCommSymWinGet", kMemory);
}

}  // extern "C"

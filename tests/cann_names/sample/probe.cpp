// One call family per build (PROBE_*), linked against only that family's CANN library name.
#include <cstdio>

#include "acl/acl.h"

#if defined(PROBE_MSPROFILER)
#include "acl/acl_prof.h"
#elif defined(PROBE_PROFAPI)
extern "C" int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId);
#elif defined(PROBE_MS_TOOLS_EXT)
#include "mstx/ms_tools_ext.h"
#elif defined(PROBE_ASCEND_DUMP)
#include "acl/acl_dump.h"
#elif defined(PROBE_ACL_TDT_CHANNEL)
#include "acl/acl_tdt.h"
#elif defined(PROBE_ACL_TDT_QUEUE)
#include "acl/acl_tdt_queue.h"
#elif defined(PROBE_C_SEC)
#include "securec.h"
#elif defined(PROBE_OPAPI_MATH)
#include "aclnnop/aclnn_add.h"
#endif

int main() {
  bool ok = aclInit(nullptr) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS;
#if defined(PROBE_MSPROFILER)
  void* stamp = aclprofCreateStamp();
  ok = ok && stamp && aclprofSetStampTraceMessage(stamp, "m", 1) == ACL_SUCCESS &&
       aclprofMark(stamp) == ACL_SUCCESS;
  aclprofDestroyStamp(stamp);
#elif defined(PROBE_PROFAPI)
  ok = ok && MsprofSetDeviceIdByGeModelIdx(1, 0) == 0;
#elif defined(PROBE_MS_TOOLS_EXT)
  mstxRangeId id = mstxRangeStartA("r", nullptr);
  mstxRangeEnd(id);
  ok = ok && id != MSTX_INVALID_ID;
#elif defined(PROBE_ASCEND_DUMP)
  ok = ok && acldumpGetPath(DATA_DUMP) == nullptr;
#elif defined(PROBE_ACL_TDT_CHANNEL)
  acltdtChannelHandle* ch = acltdtCreateChannel(0, "c");
  size_t n = 1;
  ok = ok && ch && acltdtQueryChannelSize(ch, &n) == ACL_SUCCESS && n == 0 &&
       acltdtDestroyChannel(ch) == ACL_SUCCESS;
#elif defined(PROBE_ACL_TDT_QUEUE)
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  uint32_t qid = 0;
  ok = ok && acltdtCreateQueue(attr, &qid) == ACL_SUCCESS && acltdtDestroyQueue(qid) == ACL_SUCCESS;
  acltdtDestroyQueueAttr(attr);
#elif defined(PROBE_C_SEC)
  char d[4];
  ok = ok && strcpy_s(d, sizeof d, "abc") == EOK && strcpy_s(d, sizeof d, "abcd") == ERANGE_AND_RESET;
#elif defined(PROBE_OPAPI_MATH)
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ok = ok && aclnnInit(nullptr) == 0 &&
       aclnnAddGetWorkspaceSize(nullptr, nullptr, nullptr, nullptr, &ws, &ex) != 0;
#endif
  ok = ok && aclrtResetDevice(0) == ACL_SUCCESS && aclFinalize() == ACL_SUCCESS;
  std::printf("%s: %s\n", PROBE_NAME, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}

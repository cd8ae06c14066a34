// Every call that shares memory, a notify, an event or a queue with another process refuses the
// same way (one process per simulated system): ACL_ERROR_API_NOT_SUPPORT, a recent-error message
// naming the call and saying why, and the call in the end-of-run list of refused calls.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"
#include "tests/runtime_surface/surface_test_util.h"

using npusim::test::DeviceSession;

namespace {
void expectRefused(const char* name, aclError got) {
  EXPECT_EQ(got, ACL_ERROR_API_NOT_SUPPORT) << name;
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(msg, nullptr) << name;
  const std::string text(msg);
  EXPECT_EQ(text.rfind(name, 0), 0u) << text;  // the message starts with the call's name
  EXPECT_NE(text.find("one process per system"), std::string::npos) << text;
}
}  // namespace

TEST(CrossProcess, EveryCallRefusesTheSameWay) {
  DeviceSession session;
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtNotify notify = nullptr;
  ASSERT_EQ(aclrtCreateNotify(&notify, 0), ACL_SUCCESS);
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEventExWithFlag(&event, ACL_EVENT_IPC), ACL_SUCCESS);
  char key[64] = {};
  int32_t other = static_cast<int32_t>(getpid()) + 1;
  aclrtServerPid server{};
  aclrtIpcEventHandle ipcHandle{};
  aclrtDrvMemHandle handle = nullptr;
  aclrtPhysicalMemProp prop{};
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  ASSERT_EQ(aclrtMallocPhysical(&handle, 2u << 20, &prop, 0), ACL_SUCCESS);
  uint64_t shareable = 0;
  ASSERT_EQ(aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable), ACL_SUCCESS);
  uint8_t v2[64] = {};
  void* ptr = nullptr;
  aclrtNotify imported = nullptr;
  aclrtEvent openedEvent = nullptr;
  aclrtDrvMemHandle importedHandle = nullptr;
  uint32_t qid = 0;
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  ASSERT_EQ(acltdtCreateQueue(attr, &qid), ACL_SUCCESS);

  const std::vector<std::pair<const char*, std::function<aclError()>>> calls = {
      {"aclrtIpcMemGetExportKey", [&] { return aclrtIpcMemGetExportKey(dev, 4096, key, sizeof key, 0); }},
      {"aclrtIpcMemImportByKey", [&] { return aclrtIpcMemImportByKey(&ptr, "key", 0); }},
      {"aclrtIpcMemSetImportPid", [&] { return aclrtIpcMemSetImportPid("key", &other, 1); }},
      {"aclrtIpcMemClose", [&] { return aclrtIpcMemClose("key"); }},
      {"aclrtIpcGetEventHandle", [&] { return aclrtIpcGetEventHandle(event, &ipcHandle); }},
      {"aclrtIpcOpenEventHandle", [&] { return aclrtIpcOpenEventHandle(ipcHandle, &openedEvent); }},
      {"aclrtNotifyGetExportKey", [&] { return aclrtNotifyGetExportKey(notify, key, sizeof key, 0); }},
      {"aclrtNotifyImportByKey", [&] { return aclrtNotifyImportByKey(&imported, "key", 0); }},
      {"aclrtNotifySetImportPid", [&] { return aclrtNotifySetImportPid(notify, &other, 1); }},
      {"aclrtNotifySetImportPidInterServer",
       [&] { return aclrtNotifySetImportPidInterServer(notify, &server, 1); }},
      {"aclrtMemExportToShareableHandleV2",
       [&] { return aclrtMemExportToShareableHandleV2(handle, 0, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, v2); }},
      {"aclrtMemImportFromShareableHandleV2",
       [&] {
         return aclrtMemImportFromShareableHandleV2(v2, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0,
                                                    &importedHandle);
       }},
      {"aclrtMemSetPidToShareableHandleV2",
       [&] { return aclrtMemSetPidToShareableHandleV2(v2, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &other, 1); }},
      // A handle this process did not export came from another one (the importing process of the
      // physical-memory sharing samples).
      {"aclrtMemImportFromShareableHandle",
       [&] { return aclrtMemImportFromShareableHandle(shareable + 1000, 0, &importedHandle); }},
      {"aclrtMemSetPidToShareableHandle",
       [&] { return aclrtMemSetPidToShareableHandle(shareable, &other, 1); }},
      {"acltdtGrantQueue", [&] { return acltdtGrantQueue(qid, other, ACL_TDT_QUEUE_PERMISSION_ENQUEUE, 0); }},
  };
  for (const auto& [name, call] : calls) expectRefused(name, call());
  // The importing process is told which handle it was given that no process here exported.
  ASSERT_EQ(aclrtMemImportFromShareableHandle(shareable + 1000, 0, &importedHandle),
            ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_NE(
      std::string(aclGetRecentErrMsg())
          .find("shareable handle " + std::to_string(shareable + 1000) + " was not exported by this process"),
      std::string::npos)
      << aclGetRecentErrMsg();

  // Within the process the same handles work.
  ASSERT_EQ(aclrtMemImportFromShareableHandle(shareable, 0, &importedHandle), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreePhysical(importedHandle), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreePhysical(handle), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueue(qid), ACL_SUCCESS);
  acltdtDestroyQueueAttr(attr);
  aclrtDestroyEvent(event);
  aclrtDestroyNotify(notify);
  aclrtFree(dev);
}

// Seed 002 "Inter-Device Data Transfer": the document's P2P program, with its "......"
// parts filled in: device 0's buffer is filled with 1s, device 1's with 0s, the copy moves
// device 0's bytes to device 1 through their shared PCIe switch, and the program checks them.
#include <stdio.h>

#include "acl/acl.h"

int main(int argc, const char* argv[]) {
  (void)argc;
  (void)argv;
  // Initialize AscendCL.
  auto ret = aclInit(NULL);
  int32_t canAccessPeer = 0;
  int failures = 0;
  // Query whether memory copy is supported between device 0 and device 1.
  ret = aclrtDeviceCanAccessPeer(&canAccessPeer, 0, 1);
  // 1 indicates that memory copy is supported.
  if (canAccessPeer == 1) {
    // ************************************************************
    // Operations on device 0.
    ret = aclrtSetDevice(0);
    ret = aclrtDeviceEnablePeerAccess(1, 0);
    void* dev0;
    ret = aclrtMalloc(&dev0, 10, ACL_MEM_MALLOC_HUGE_FIRST_P2P);
    ret = aclrtMemset(dev0, 10, 1, 10);
    if (ret != ACL_SUCCESS) ++failures;
    // ************************************************************
    // Copy memory from device 1 to device 0. The device 1 is set through aclrtSetDevice, while device 0 is
    // specified by the first parameter of aclrtDeviceEnablePeerAccess.
    ret = aclrtSetDevice(1);
    ret = aclrtDeviceEnablePeerAccess(0, 0);
    void* dev1;
    ret = aclrtMalloc(&dev1, 10, ACL_MEM_MALLOC_HUGE_FIRST_P2P);
    ret = aclrtMemset(dev1, 10, 0, 10);
    // Perform memory copy to transfer data from device 0 to device 1.
    ret = aclrtMemcpy(dev1, 10, dev0, 10, ACL_MEMCPY_DEVICE_TO_DEVICE);
    if (ret != ACL_SUCCESS) ++failures;
    // Check the bytes on device 1 (filled-in part).
    unsigned char host[10] = {0};
    ret = aclrtMemcpy(host, 10, dev1, 10, ACL_MEMCPY_DEVICE_TO_HOST);
    for (int i = 0; i < 10; ++i)
      if (host[i] != 1) ++failures;
    aclrtFree(dev1);
    ret = aclrtResetDevice(1);
    // ************************************************************
    // ************************************************************
    // Call aclrtResetDevice to release the resources of device 0.
    ret = aclrtSetDevice(0);
    aclrtFree(dev0);
    ret = aclrtResetDevice(0);
    // ************************************************************
    if (failures == 0)
      printf("P2P copy success\n");
    else
      printf("P2P copy FAILED (%d errors)\n", failures);
  } else {
    printf("current device doesn't support p2p feature\n");
  }
  // Deinitialize AscendCL.
  aclFinalize();
  return failures == 0 ? 0 : 1;
}

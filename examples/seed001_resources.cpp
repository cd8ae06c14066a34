// Seed 001 "Runtime resource allocation and release": device -> stream, run mode query,
// then release in reverse order. The elided "......" parts are filled with a copy on the
// explicit stream and on the default (NULL) stream, which aclrtSetDevice created implicitly.
#include <cstdio>

#include "acl/acl.h"

bool g_isDevice = false;

int main() {
  aclInit(NULL);
  // 初始化变量
  int32_t deviceId = 0;
  aclrtStream stream;

  // =====运行管理资源申请=====
  // 指定运算的Device
  aclError ret = aclrtSetDevice(deviceId);
  if (ret != ACL_SUCCESS) return 1;

  // 显式创建一个Stream
  ret = aclrtCreateStream(&stream);
  if (ret != ACL_SUCCESS) return 1;

  // 获取当前AI软件栈的运行模式
  aclrtRunMode runMode;
  ret = aclrtGetRunMode(&runMode);
  g_isDevice = (runMode == ACL_DEVICE);
  // =====运行管理资源申请=====

  // ...... work on the explicit stream and on the default stream (NULL)
  void* host = nullptr;
  void* dev = nullptr;
  aclrtMallocHost(&host, 4096);
  aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
  aclError a = aclrtMemcpyAsync(dev, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE, stream);
  aclError b = aclrtMemcpyAsync(host, 4096, dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST, NULL);
  aclError c = aclrtSynchronizeStream(stream);
  aclError d = aclrtSynchronizeStream(NULL);
  aclrtFree(dev);
  aclrtFreeHost(host);

  // =====运行管理资源释放=====
  ret = aclrtDestroyStream(stream);
  aclError e = aclrtResetDevice(deviceId);
  // =====运行管理资源释放=====
  aclFinalize();

  bool ok = !g_isDevice && runMode == ACL_HOST && ret == ACL_SUCCESS && a == ACL_SUCCESS &&
            b == ACL_SUCCESS && c == ACL_SUCCESS && d == ACL_SUCCESS && e == ACL_SUCCESS;
  std::printf("seed 001: run mode %s, resources %s\n", runMode == ACL_HOST ? "ACL_HOST" : "ACL_DEVICE",
              ok ? "allocated and released in order" : "FAILED");
  return ok ? 0 : 1;
}

// Seed 000 "Device内存使用" (device memory use): two tensors are copied from host memory to
// device memory, added on the device, and the result is copied back. The elided parts are
// filled in: STEP 2 initialises the inputs, STEP 5 runs aclnnAdd (out = A + alpha * B), STEP 7
// checks the result against the host's own sum and prints it (exit code 1 on a mismatch).
#include <cstdio>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

int main(void) {
  int32_t deviceId = 0;
  int64_t N = 16;
  const size_t bytes = static_cast<size_t>(N) * sizeof(float);
  aclrtStream stream = nullptr;

  // STEP 1: 初始化、Stream创建
  aclInit(nullptr);
  aclrtSetDevice(deviceId);
  aclrtCreateStream(&stream);

  // STEP 2: 申请Host内存
  void* hostA = nullptr;
  void* hostB = nullptr;
  void* hostOut = nullptr;

  aclrtMallocHost(&hostA, bytes);
  aclrtMallocHost(&hostB, bytes);
  aclrtMallocHost(&hostOut, bytes);

  // 输入数据初始化 (initialise the inputs): A = 0, 1, 2, ...; B = 0.5, 1.5, 2.5, ...
  float* a = static_cast<float*>(hostA);
  float* b = static_cast<float*>(hostB);
  for (int64_t i = 0; i < N; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>(i) + 0.5f;
  }

  // STEP 3: 申请Device内存
  void* deviceA = nullptr;
  void* deviceB = nullptr;
  void* deviceOut = nullptr;

  // 第三个参数aclrtMemMallocPolicy表示申请内存时的内存页分配策略
  // ACL_MEM_MALLOC_HUGE_FIRST 表示大页内存优先,其余定义参考API文档
  aclrtMalloc(&deviceA, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&deviceB, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&deviceOut, bytes, ACL_MEM_MALLOC_HUGE_FIRST);

  // STEP 4: 将输入数据从Host内存传输到Device内存
  aclrtMemcpy(deviceA, bytes, hostA, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(deviceB, bytes, hostB, bytes, ACL_MEMCPY_HOST_TO_DEVICE);

  // STEP 5: 执行计算操作,比如aclnnAdd,将计算结果保存在Device内存
  // Tensors over the device buffers, phase 1 (workspace size + executor), phase 2 (launch).
  const float alphaValue = 2.0f;
  int64_t shape[] = {N};
  int64_t strides[] = {1};
  aclTensor* tA = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, deviceA);
  aclTensor* tB = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, deviceB);
  aclTensor* tOut = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, deviceOut);
  aclScalar* alpha = aclCreateScalar(const_cast<float*>(&alphaValue), ACL_FLOAT);
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  aclnnStatus st = aclnnAddGetWorkspaceSize(tA, tB, alpha, tOut, &workspaceSize, &executor);
  void* workspace = nullptr;
  if (st == 0 && workspaceSize > 0) aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
  if (st == 0) st = aclnnAdd(workspace, workspaceSize, executor, stream);
  if (st == 0) st = aclrtSynchronizeStream(stream);
  if (st != 0) std::printf("aclnnAdd failed: %d %s\n", static_cast<int>(st), aclGetRecentErrMsg());

  // STEP 6: 将计算结果从Device内存传输到Host内存
  aclrtMemcpy(hostOut, bytes, deviceOut, bytes, ACL_MEMCPY_DEVICE_TO_HOST);

  // STEP 7: 在Host侧处理计算结果 (check against the host's own A + alpha * B and print)
  const float* out = static_cast<const float*>(hostOut);
  int mismatches = 0;
  std::printf("out = A + %.1f * B:", alphaValue);
  for (int64_t i = 0; i < N; ++i) {
    const float expect = a[i] + alphaValue * b[i];
    if (out[i] != expect) ++mismatches;
    std::printf(" %g", out[i]);
  }
  std::printf("\nseed 000: %s\n", st == 0 && mismatches == 0 ? "result correct" : "result WRONG");

  // STEP 8: 资源清理
  aclDestroyTensor(tA);
  aclDestroyTensor(tB);
  aclDestroyTensor(tOut);
  aclDestroyScalar(alpha);
  if (workspace) (void)aclrtFree(workspace);
  // STEP 8.1: 释放Host和Device内存
  if (deviceA) (void)aclrtFree(deviceA);
  if (deviceB) (void)aclrtFree(deviceB);
  if (deviceOut) (void)aclrtFree(deviceOut);
  if (hostA) (void)aclrtFreeHost(hostA);
  if (hostB) (void)aclrtFreeHost(hostB);
  if (hostOut) (void)aclrtFreeHost(hostOut);

  // STEP 8.2: 清理设备和进程资源
  if (stream) (void)aclrtDestroyStream(stream);
  (void)aclrtResetDevice(deviceId);
  (void)aclFinalize();

  return st == 0 && mismatches == 0 ? 0 : 1;
}

#pragma once
// Custom Ascend C kernels on the simulated device (docs/kernels.md). A launch becomes an
// operator task on its stream; when the task starts, the kernel's blocks run one after another
// on a worker thread with the device's allocations reachable at their device addresses, and
// what each block copied and computed becomes the tiles the AI-core model times. A block that
// faults (a bad address, a trap, a failed check) ends the kernel and fails its task (the stream's
// failure mode applies); the error and the exception callbacks reach the host as for any failed
// task (runtime/exceptions.h), the printf output at the next synchronisation.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "ascendc/npusim_kernel_abi.h"

namespace npusim::rt {
class ApiCall;
}
namespace npusim::sched {
struct OperatorTask;
}

namespace npusim::rt::kernels {

struct Launch {
  std::string name;
  uint32_t blockDim = 0;
  npusimKernelBody run = nullptr;
  void* bound = nullptr;  // owned: released with `release` whatever happens
  npusimKernelFree release = nullptr;
  const void* funcHandle = nullptr;  // aclrtFuncHandle for exception info (binary launches)
  std::string argsSummary;
  std::vector<void*> scratch;  // device memory the launch made for it (placeholders), freed after it ran
  // Binary launches: the packed arguments and the configuration's attributes, as a captured
  // kernel task reports them (aclmdlRITaskGetParams, aclmdlRIKernelTaskGetAttribute).
  bool packed = false;
  std::vector<uint8_t> args;
  std::vector<aclrtLaunchKernelAttr> attrs;
};

// The custom kernel launch an operator task carries (nullptr when it carries none: an aclnn
// operator). Runtime lock held.
const Launch* launchOf(const sched::OperatorTask& op);
// Makes the task run `k` instead from its next execution on (aclmdlRITaskSetParams + Update);
// false when the task carries no kernel launch.
bool replaceLaunch(sched::OperatorTask& op, Launch&& k);
// A binary function's launch from packed arguments (api_kernel.cpp): checks the arguments'
// size and the configuration, and binds them. Fails `api` otherwise.
aclError bindPacked(ApiCall& api, aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* args,
                    size_t size, const aclrtLaunchKernelCfg* cfg, Launch* out);

// The kernels of a loaded binary that the program has looked up, by entry address (the address
// aclrtGetFunctionAddr gives): what a task update that reads an entry from device memory can switch
// a kernel task to (aclrtTaskUpdateAsync). Fails `api` with ACL_ERROR_RT_PARAM_INVALID when
// `binHandle` is not a loaded binary.
aclError entriesOf(ApiCall& api, aclrtBinHandle binHandle, std::map<uint64_t, aclrtFuncHandle>* out);
// `old`'s packed arguments and attributes bound to another kernel and block count, on the device
// (no API call to fail): empty on success, otherwise why not.
std::string rebound(const Launch& old, aclrtFuncHandle funcHandle, uint32_t numBlocks, Launch* out);

// Enqueues the kernel on `stream` (nullptr: default stream). Returns an aclError.
aclError launch(aclrtStream stream, Launch&& k);

// The fault of the kernel `op` carries, from its last execution (which failed the task with
// ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, or ACL_ERROR_RT_AICORE_EXCEPTION for a cube kernel): what happened and
// the function handle; clears it. False when it did not fault. Runtime lock held.
bool takeFault(const sched::OperatorTask& op, std::string* why, const void** funcHandle);

// Prints the output of the kernels that ran on `device` (all devices when -1): at every
// synchronisation, when a stream is destroyed and at aclFinalize.
void flushOutput(int device);

// Exception callbacks (aclrtSetExceptionInfoCallback and aclrtExceptionInfoCallbackRegister).
aclError setCallback(aclrtExceptionInfoCallback cb);
aclError registerCallback(aclrtExceptionInfoCallback cb, bool add);
// Runs the exception callbacks for `info` (also for runtime-task failures, runtime/exceptions.h).
void runCallbacks(aclrtExceptionInfo& info);
// The callback of the binary whose kernel faulted (aclrtBinarySetExceptionCallback), if any.
void runBinaryCallback(aclrtExceptionInfo& info);

}  // namespace npusim::rt::kernels

// What an exception callback receives.
struct rtExceptionInfo {
  uint32_t taskId = 0;
  uint32_t streamId = 0;
  uint32_t threadId = 0;
  uint32_t deviceId = 0;
  uint32_t errorCode = 0;
  const void* funcHandle = nullptr;
};

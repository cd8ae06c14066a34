// ACL entry point: managed (unified) memory. One allocation that host code and device work both
// address with the same pointer, as on an A2 device with UVM. npusim's model (docs/runtime-surface.md,
// "Managed memory"): the block is pinned host memory mapped for the device, like a zero-copy
// registration. Host code reads and writes it directly; copies to and from it move over PCIe as
// for aclrtMallocHost memory; kernels and operators that use it are timed as if its pages had
// migrated to HBM. The page migration itself (faults, transfers) is not timed. It is freed with
// aclrtFree.
#include "acl/acl.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;

extern "C" {

aclError aclrtMemAllocManaged(void** ptr, uint64_t size, uint32_t flag) {
  ApiCall api("aclrtMemAllocManaged");
  if (!api.ok()) return api.notReady();
  if (!ptr) return api.fail(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
  if (size == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "size is 0");
  if (flag != ACL_RT_MEM_ATTACH_GLOBAL)
    return api.fail(ACL_ERROR_INVALID_PARAM, "flag must be ACL_RT_MEM_ATTACH_GLOBAL (0x1), not 0x{:x}", flag);
  api.charge(api.rt.costs().alloc);
  void* p = api.rt.memory().allocManaged(size);
  if (!p) return api.fail(ACL_ERROR_BAD_ALLOC, "cannot allocate {} bytes of managed memory", size);
  api.args.add("bytes", size);
  *ptr = p;
  return api.done();
}

}  // extern "C"

// Trace size and cost on a big study (issue 17 item 2): N copies of B bytes host to device, on one
// stream, the host synchronising every 64 copies as a pipelined program would. Run it with and
// without NPUSIM_TRACE and compare wall time and trace size; bench/trace_size.sh does that.
//
//   trace_size [--copies N] [--bytes B]      (defaults: 100000 copies of 1 MiB)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "acl/acl.h"

#define CHECK_ACL(expr)                                                                          \
  do {                                                                                           \
    aclError e_ = (expr);                                                                        \
    if (e_ != ACL_SUCCESS) {                                                                     \
      std::fprintf(stderr, "trace_size: %s failed: %d (%s)\n", #expr, e_, aclGetRecentErrMsg()); \
      return 1;                                                                                  \
    }                                                                                            \
  } while (0)

int main(int argc, char** argv) {
  long copies = 100000;
  size_t bytes = 1u << 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--copies")) copies = std::atol(argv[i + 1]);
    if (!std::strcmp(argv[i], "--bytes")) bytes = std::strtoull(argv[i + 1], nullptr, 0);
  }
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream s;
  CHECK_ACL(aclrtCreateStream(&s));
  void *h, *d;
  CHECK_ACL(aclrtMallocHost(&h, bytes));
  CHECK_ACL(aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  for (long c = 0; c < copies; ++c) {
    CHECK_ACL(aclrtMemcpyAsync(d, bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s));
    if (c % 64 == 63) CHECK_ACL(aclrtSynchronizeStream(s));
  }
  CHECK_ACL(aclrtSynchronizeStream(s));
  CHECK_ACL(aclrtFree(d));
  CHECK_ACL(aclrtFreeHost(h));
  CHECK_ACL(aclrtDestroyStream(s));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  std::printf("copies=%ld bytes=%zu\n", copies, bytes);
  return 0;
}

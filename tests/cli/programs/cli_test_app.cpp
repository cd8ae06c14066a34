// A small ACL program for the npusim command tests: H2D copies on a stream, timed with events,
// then one D2H copy. Options make it fail on purpose so the tests can check how npusim reports
// a crash or a non-zero exit, and how a sweep keeps the other points.
//
//   cli_test_app [--bytes N] [--copies K] [--touch FILE] [--exit CODE] [--abort] [--abort-if KEY=VALUE]
//                [--segv] [--forever] [--metric NAME=VALUE]
//
// --segv writes through a null pointer after the copies; --forever keeps copying until killed;
// --metric prints an NPUSIM_METRIC line (a column in npusim sweep's results); repeatable.
// --abort-if aborts when NPUSIM_SET contains that item (one failing point of a sweep).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"

#define CHECK(call)                                                                                       \
  do {                                                                                                    \
    aclError e_ = (call);                                                                                 \
    if (e_ != ACL_SUCCESS) {                                                                              \
      std::fprintf(stderr, "%s failed with %d: %s\n", #call, static_cast<int>(e_), aclGetRecentErrMsg()); \
      return 1;                                                                                           \
    }                                                                                                     \
  } while (0)

static bool setContains(const std::string& item) {
  const char* set = std::getenv("NPUSIM_SET");
  std::string s = std::string(",") + (set ? set : "") + ",";
  return s.find("," + item + ",") != std::string::npos;
}

int main(int argc, char** argv) {
  size_t bytes = 4u << 20;
  int copies = 2, exitCode = 0;
  bool abortNow = false, segv = false, forever = false, part = false;
  std::vector<std::string> metrics;
  std::string abortIf;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    const char* next = i + 1 < argc ? argv[i + 1] : "";
    if (a == "--bytes")
      bytes = std::strtoull(next, nullptr, 0), ++i;
    else if (a == "--copies")
      copies = std::atoi(next), ++i;
    else if (a == "--exit")
      exitCode = std::atoi(next), ++i;
    else if (a == "--abort")
      abortNow = true;
    else if (a == "--segv")
      segv = true;
    else if (a == "--forever")
      forever = true;
    else if (a == "--part")
      part = true;
    else if (a == "--metric")
      metrics.emplace_back(next), ++i;
    else if (a == "--abort-if")
      abortIf = next, ++i;
    else if (a == "--touch") {
      if (FILE* f = std::fopen(next, "w")) std::fclose(f);
      ++i;
    } else {
      std::fprintf(stderr, "cli_test_app: unknown argument %s\n", a.c_str());
      return 64;
    }
  }

  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  if (part) {  // the simulated part as the runtime reports it
    int64_t aic = 0, aiv = 0, mem = 0;
    CHECK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &aic));
    CHECK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &aiv));
    CHECK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &mem));
    const char* soc = aclrtGetSocName();
    std::printf("soc=%s aic=%lld aiv=%lld mem=%lld\n", soc ? soc : "(null)", static_cast<long long>(aic),
                static_cast<long long>(aiv), static_cast<long long>(mem));
  }
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));
  void *host = nullptr, *dev = nullptr;
  CHECK(aclrtMallocHost(&host, bytes));
  CHECK(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  std::memset(host, 0x5a, bytes);
  aclrtEvent start = nullptr, stop = nullptr;
  CHECK(aclrtCreateEvent(&start));
  CHECK(aclrtCreateEvent(&stop));
  CHECK(aclrtRecordEvent(start, stream));
  for (int c = 0; c < copies; ++c)
    CHECK(aclrtMemcpyAsync(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  CHECK(aclrtRecordEvent(stop, stream));
  CHECK(aclrtSynchronizeStream(stream));
  float ms = 0;
  CHECK(aclrtEventElapsedTime(&ms, start, stop));
  std::printf("h2d_ms=%.6f bytes=%zu copies=%d\n", static_cast<double>(ms), bytes, copies);
  for (const std::string& m : metrics) std::printf("NPUSIM_METRIC %s\n", m.c_str());
  std::fflush(stdout);
  if (segv) *static_cast<volatile int*>(nullptr) = 1;
  while (forever) {
    CHECK(aclrtMemcpyAsync(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    CHECK(aclrtSynchronizeStream(stream));
  }
  if (abortNow || (!abortIf.empty() && setContains(abortIf))) std::abort();
  CHECK(aclrtMemcpy(host, bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));

  CHECK(aclrtDestroyEvent(start));
  CHECK(aclrtDestroyEvent(stop));
  CHECK(aclrtFree(dev));
  CHECK(aclrtFreeHost(host));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return exitCode;
}

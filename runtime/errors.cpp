#include "runtime/errors.h"

#include <fmt/format.h>

#include <cstdio>
#include <mutex>

namespace npusim::rt {

namespace {
struct ThreadErrors {
  std::string pending;   // not yet taken by aclGetRecentErrMsg
  std::string returned;  // storage of the pointer last returned
  bool has = false;
  aclError last = ACL_SUCCESS;
};
thread_local ThreadErrors tErrors;
// Both live for the whole process (never destroyed): the end-of-run report reads them from an
// atexit hook, which may run after function-local statics constructed later have been destroyed.
std::mutex& unsupportedMutex() {
  static auto* mu = new std::mutex;
  return *mu;
}
std::map<std::string, uint64_t>& unsupportedMap() {
  static auto* m = new std::map<std::string, uint64_t>;
  return *m;
}
}  // namespace

aclError setRecentError(const char* api, const std::string& msg, aclError code) {
  tErrors.pending = fmt::format("{}: {} (error {})", api, msg, code);
  tErrors.has = true;
  tErrors.last = code;
  return code;
}

const char* takeRecentError() {
  if (!tErrors.has) return nullptr;
  tErrors.returned = std::move(tErrors.pending);
  tErrors.pending.clear();
  tErrors.has = false;
  return tErrors.returned.c_str();
}

aclError lastError(bool clear) {
  aclError e = tErrors.last;
  if (clear) tErrors.last = ACL_SUCCESS;
  return e;
}

void noteResult(aclError code) {
  if (code != ACL_SUCCESS) tErrors.last = code;
}

void reportUnsupported(const char* apiName, const char* why) {
  {
    std::lock_guard<std::mutex> lock(unsupportedMutex());
    unsupportedMap()[apiName]++;
  }
  setRecentError(apiName, why ? why : "not supported by npusim yet", ACL_ERROR_API_NOT_SUPPORT);
}

int refuseCrossProcess(const char* apiName, const char* detail) {
  const std::string why = detail ? fmt::format("{} ({})", kCrossProcess, detail) : std::string(kCrossProcess);
  bool first = false;
  {
    std::lock_guard<std::mutex> lock(unsupportedMutex());
    first = unsupportedMap().count(apiName) == 0;
  }
  reportUnsupported(apiName, why.c_str());
  if (first) std::fprintf(stderr, "npusim: %s refused: %s\n", apiName, why.c_str());
  return ACL_ERROR_API_NOT_SUPPORT;
}

std::map<std::string, uint64_t> unsupportedCalls() {
  std::lock_guard<std::mutex> lock(unsupportedMutex());
  return unsupportedMap();
}

}  // namespace npusim::rt

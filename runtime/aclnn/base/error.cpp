#include "runtime/aclnn/base/error.h"

#include <fmt/format.h>

#include "runtime/aclnn/base/status.h"
#include "runtime/errors.h"

namespace npusim::aclnn {

namespace {

thread_local std::string tLastError;

void publish(const char* api, const std::string& text, int32_t code) {
  tLastError = fmt::format("{}: {} (error {})", api, text, code);
  npusim::rt::setRecentError(api, text, code);
}

}  // namespace

int32_t fail(const char* api, int32_t code, const std::string& msg) {
  // CANN tags parameter errors "AclNN_Parameter_Error(EZ1001)" (null pointers).
  const char* tag = code == kErrParamNullptr   ? "AclNN_Parameter_Error(EZ1001)"
                    : code == kErrParamInvalid ? "AclNN_Parameter_Error"
                    : code == kErrRuntimeError ? "AclNN_Runtime_Error"
                                               : "AclNN_Inner_Error";
  publish(api, fmt::format("{}: {}", tag, msg), code);
  return code;
}

void reportExecutionError(const char* api, const std::string& msg) {
  publish(api, "AclNN_Runtime_Error: " + msg, kErrRuntimeError);
}

const std::string& lastErrorMessage() { return tLastError; }

}  // namespace npusim::aclnn

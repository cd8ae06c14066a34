#include "runtime/aclnn/base/live_handles.h"

#include <fmt/format.h>

#include <cstdio>

#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"

namespace npusim::aclnn {

LiveHandles& liveTensors() {
  static auto* h = new LiveHandles;
  return *h;
}

LiveHandles& liveTensorLists() {
  static auto* h = new LiveHandles;
  return *h;
}

LiveHandles& liveArrays() {
  static auto* h = new LiveHandles;
  return *h;
}

int32_t refuseDeadHandle(const char* api, const char* what, const void* p) {
  const std::string why =
      std::string(what) == "aclTensor"
          ? " (aclDestroyTensorList destroys the tensors it holds: they need no aclDestroyTensor)"
          : "";
  const std::string msg =
      fmt::format("{} {} was already destroyed or was not made by aclCreate{}{}; nothing destroyed", what, p,
                  what + 3, why);
  std::fprintf(stderr, "npusim: warning: %s: %s\n", api, msg.c_str());
  return fail(api, kErrParamInvalid, msg);
}

}  // namespace npusim::aclnn

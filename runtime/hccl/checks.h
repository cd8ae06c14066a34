#pragma once
// Argument checks shared by the HCCL entry points: each failure records the reason (shown by
// aclGetRecentErrMsg and on stderr) and gives the HcclResult CANN documents for it.
#include <fmt/format.h>

#include <cstdio>

#include "hccl/hccl_types.h"
#include "runtime/hccl/communicator.h"
#include "runtime/runtime.h"

namespace npusim::hccl {

template <typename... A>
HcclResult fail(rt::ApiCall& api, HcclResult code, fmt::format_string<A...> f, A&&... a) {
  std::string msg = fmt::format(f, std::forward<A>(a)...);
  api.fail(ACL_ERROR_INVALID_PARAM, "{}", msg);
  std::fprintf(stderr, "[npusim] %s: %s (HcclResult %d)\n", api.name(), msg.c_str(), static_cast<int>(code));
  return code;
}

// The live communicator a handle names, or nullptr with *err set.
Comm* commArg(rt::ApiCall& api, HcclComm comm, HcclResult* err);
// The stream a collective runs on: on the communicator's device (nullptr = default stream).
rt::Stream* streamArg(rt::ApiCall& api, const Comm& c, aclrtStream stream, HcclResult* err);
// [p, p + bytes) inside one device allocation of the communicator's device.
HcclResult bufferArg(rt::ApiCall& api, const Comm& c, const void* p, uint64_t bytes, const char* name);
// A data type npusim moves (0-11); `reduce` also checks the op.
HcclResult typeArg(rt::ApiCall& api, HcclDataType type, const char* name);
HcclResult opArg(rt::ApiCall& api, HcclReduceOp op);
HcclResult rankArg(rt::ApiCall& api, const Comm& c, uint32_t rank, const char* name);

}  // namespace npusim::hccl

// ACL entry points: device variables named by their host symbol (aclrtGetSymbolAddress/Size,
// aclrtMemcpyTo/FromSymbol[Async]). A file-scope __gm__ variable of a custom kernel has a copy in
// device memory of each device it is used on (runtime/device_vars.h); the address these calls
// give is that copy on the current device, and the copies are ordinary copies to and from it,
// timed and ordered like aclrtMemcpy / aclrtMemcpyAsync of the same bytes.
#include "acl/acl.h"
#include "runtime/device_vars.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;
using npusim::rt::Context;
namespace devvars = npusim::rt::devvars;

namespace {

// The variable behind `symbol` and its copy on the current device, or the call's error.
aclError resolve(ApiCall& api, const void* symbol, devvars::Info* info, void** dev) {
  if (!symbol) return api.fail(ACL_ERROR_INVALID_PARAM, "symbol is NULL");
  if (!devvars::find(symbol, info))
    return api.fail(ACL_ERROR_RT_INVALID_SYMBOL,
                    "{} is not a device variable (a file-scope __gm__ variable of a kernel source built by "
                    "ascendc_library)",
                    symbol);
  if (!dev) return ACL_SUCCESS;
  aclError err;
  Context* ctx = api.context(&err);
  if (!ctx) return err;
  *dev = devvars::deviceCopy(symbol, ctx->device);
  if (!*dev)
    return api.fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "device {} has no memory left for device variable {}",
                    ctx->device, info->name);
  api.args.add("symbol", info->name);
  return ACL_SUCCESS;
}

aclError checkRange(ApiCall& api, const devvars::Info& v, size_t count, size_t offset) {
  if (count == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "count is 0");
  if (offset > v.size || count > v.size - offset)
    return api.fail(ACL_ERROR_INVALID_PARAM, "offset {} + count {} is past the end of {} ({} bytes)", offset,
                    count, v.name, v.size);
  return ACL_SUCCESS;
}

// Copies into a variable: host (or device) bytes to its device copy.
aclError toSymbol(ApiCall& api, const void* symbol, const void* src, size_t count, size_t offset,
                  aclrtMemcpyKind kind, aclrtStream stream, bool async) {
  devvars::Info v;
  void* dev = nullptr;
  if (aclError e = resolve(api, symbol, &v, &dev)) return e;
  if (!src) return api.fail(ACL_ERROR_INVALID_PARAM, "src is NULL");
  if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEFAULT)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "kind {} is not ACL_MEMCPY_HOST_TO_DEVICE or ACL_MEMCPY_DEFAULT (copies into a variable)",
                    static_cast<int>(kind));
  if (aclError e = checkRange(api, v, count, offset)) return e;
  void* dst = static_cast<uint8_t*>(dev) + offset;
  return api.done(async ? aclrtMemcpyAsync(dst, count, src, count, kind, stream)
                        : aclrtMemcpy(dst, count, src, count, kind));
}

aclError fromSymbol(ApiCall& api, void* dst, size_t dstMax, const void* symbol, size_t count, size_t offset,
                    aclrtMemcpyKind kind, aclrtStream stream, bool async) {
  devvars::Info v;
  void* dev = nullptr;
  if (aclError e = resolve(api, symbol, &v, &dev)) return e;
  if (!dst) return api.fail(ACL_ERROR_INVALID_PARAM, "dst is NULL");
  if (kind != ACL_MEMCPY_DEVICE_TO_HOST && kind != ACL_MEMCPY_DEFAULT)
    return api.fail(
        ACL_ERROR_INVALID_PARAM,
        "kind {} is not ACL_MEMCPY_DEVICE_TO_HOST or ACL_MEMCPY_DEFAULT (copies out of a variable)",
        static_cast<int>(kind));
  if (aclError e = checkRange(api, v, count, offset)) return e;
  if (dstMax < count)
    return api.fail(ACL_ERROR_INVALID_PARAM, "dstMax {} is less than count {}", dstMax, count);
  const void* src = static_cast<uint8_t*>(dev) + offset;
  return api.done(async ? aclrtMemcpyAsync(dst, dstMax, src, count, kind, stream)
                        : aclrtMemcpy(dst, dstMax, src, count, kind));
}

}  // namespace

extern "C" {

aclError aclrtGetSymbolAddress(const void* symbol, void** devPtr) {
  ApiCall api("aclrtGetSymbolAddress");
  if (!api.ok()) return api.notReady();
  if (!devPtr) return api.fail(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
  devvars::Info v;
  void* dev = nullptr;
  if (aclError e = resolve(api, symbol, &v, &dev)) return e;
  *devPtr = dev;
  return api.done();
}

aclError aclrtGetSymbolSize(const void* symbol, size_t* size) {
  ApiCall api("aclrtGetSymbolSize");
  if (!api.ok()) return api.notReady();
  if (!size) return api.fail(ACL_ERROR_INVALID_PARAM, "size is NULL");
  devvars::Info v;
  if (aclError e = resolve(api, symbol, &v, nullptr)) return e;
  *size = v.size;
  return api.done();
}

aclError aclrtMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                             aclrtMemcpyKind kind) {
  ApiCall api("aclrtMemcpyToSymbol");
  if (!api.ok()) return api.notReady();
  return toSymbol(api, symbol, src, count, offset, kind, nullptr, false);
}

aclError aclrtMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                                  aclrtMemcpyKind kind, aclrtStream stream) {
  ApiCall api("aclrtMemcpyToSymbolAsync");
  if (!api.ok()) return api.notReady();
  return toSymbol(api, symbol, src, count, offset, kind, stream, true);
}

aclError aclrtMemcpyFromSymbol(void* dst, size_t dstMax, const void* symbol, size_t count, size_t offset,
                               aclrtMemcpyKind kind) {
  ApiCall api("aclrtMemcpyFromSymbol");
  if (!api.ok()) return api.notReady();
  return fromSymbol(api, dst, dstMax, symbol, count, offset, kind, nullptr, false);
}

aclError aclrtMemcpyFromSymbolAsync(void* dst, size_t dstMax, const void* symbol, size_t count, size_t offset,
                                    aclrtMemcpyKind kind, aclrtStream stream) {
  ApiCall api("aclrtMemcpyFromSymbolAsync");
  if (!api.ok()) return api.notReady();
  return fromSymbol(api, dst, dstMax, symbol, count, offset, kind, stream, true);
}

}  // extern "C"

// ACL entry points: copies and memsets, synchronous and asynchronous, 1D and 2D.
#include "acl/acl.h"
#include "runtime/capture.h"
#include "runtime/checks.h"
#include "runtime/copy_plan.h"

using npusim::rt::ApiCall;
using npusim::rt::CopyPlan;
using npusim::rt::Runtime;
using npusim::rt::Stream;
using npusim::rt::checks::CallArgs;

namespace {

// Async copy from pageable host memory: the runtime synchronises the stream and copies
// synchronously (acl-api.md §5.2).
aclError pageableFallback(ApiCall& api, Stream* s, const CopyPlan& plan) {
  // A model being built records the copy as it is (the device reads the pageable memory when the
  // model runs, as it would pinned memory); capture cannot record a synchronous copy (§5.1).
  if (s->capture && s->capture->built) return npusim::rt::launchAsync(api, s, plan);
  if (s->capture)
    return api.fail(ACL_ERROR_RT_PARAM_INVALID,
                    "pageable memory copy task does not support graph capture (stream {} is capturing): use "
                    "aclrtMallocHost memory",
                    s->hw->id);
  if (aclError e = npusim::rt::checkUnsafeCall(api, ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC)) return e;
  if (aclError e = npusim::rt::checks::pageableAsync(api, plan)) return e;
  if (api.rt.drain(*api.th, s->hw) != Runtime::Wait::Done)
    return api.fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "the stream cannot drain before a pageable copy");
  api.args.add("pageable", 1);
  return npusim::rt::runSync(api, plan);
}

aclError memcpyAsync(const char* name, void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind, aclrtStream stream) {
  ApiCall api(name);
  CallArgs checkArgs{{"dst", dst},     {"destMax", destMax}, {"src", src},
                     {"count", count}, {"kind", kind},       {"stream", stream}};
  if (!api.ok()) return api.notReady();
  if (count == 0) return api.done();
  if (count > destMax)
    return api.fail(ACL_ERROR_RT_PARAM_INVALID, "count {} exceeds destMax {}", count, destMax);
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  CopyPlan plan;
  if (aclError e = npusim::rt::planCopy(api, dst, src, count, 1, count, count, kind, &plan)) return e;
  if (plan.hostOnly)
    return api.fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "asynchronous host-to-host copies are not supported");
  if (aclError e = npusim::rt::checks::asyncAlignment(api, dst, src)) return e;
  if (dst == src) return api.done();
  if (plan.pageable) return pageableFallback(api, s, plan);
  return npusim::rt::launchAsync(api, s, plan);
}

aclError checkD32(ApiCall& api, void* ptr, size_t memSize, size_t N) {
  if (!ptr) return api.fail(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
  if (reinterpret_cast<uintptr_t>(ptr) % 4 != 0)
    return api.fail(ACL_ERROR_INVALID_PARAM, "ptr {} is not 4-byte aligned", ptr);
  if (N > memSize / 4)
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} words ({} bytes) exceed memSize {}", N, N * 4, memSize);
  if (api.rt.memory().classify(ptr).kind == npusim::rt::PointerKind::PageableHost)
    return api.fail(ACL_ERROR_INVALID_PARAM, "ptr {} is neither device memory nor aclrtMallocHost memory",
                    ptr);
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
  ApiCall api("aclrtMemcpy");
  CallArgs checkArgs{{"dst", dst}, {"destMax", destMax}, {"src", src}, {"count", count}, {"kind", kind}};
  if (!api.ok()) return api.notReady();
  if (count == 0) return api.done();
  if (count > destMax)
    return api.fail(ACL_ERROR_RT_PARAM_INVALID, "count {} exceeds destMax {}", count, destMax);
  CopyPlan plan;
  if (aclError e = npusim::rt::planCopy(api, dst, src, count, 1, count, count, kind, &plan, true)) return e;
  if (dst == src) return api.done();
  if (aclError e = npusim::rt::checkUnsafeCall(api, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT)) return e;
  return npusim::rt::runSync(api, plan);
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
  return memcpyAsync("aclrtMemcpyAsync", dst, destMax, src, count, kind, stream);
}

aclError aclrtMemcpyAsyncWithCondition(void* dst, size_t destMax, const void* src, size_t count,
                                       aclrtMemcpyKind kind, aclrtStream stream) {
  return memcpyAsync("aclrtMemcpyAsyncWithCondition", dst, destMax, src, count, kind, stream);
}

aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                       aclrtMemcpyKind kind) {
  ApiCall api("aclrtMemcpy2d");
  CallArgs checkArgs{{"dst", dst},     {"dpitch", dpitch}, {"src", src},  {"spitch", spitch},
                     {"width", width}, {"height", height}, {"kind", kind}};
  if (!api.ok()) return api.notReady();
  if (width == 0 || height == 0) return api.done();
  if (width > spitch || width > dpitch)
    return api.fail(ACL_ERROR_INVALID_PARAM, "width {} exceeds spitch {} or dpitch {}", width, spitch,
                    dpitch);
  if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_HOST &&
      kind != ACL_MEMCPY_DEVICE_TO_DEVICE && kind != ACL_MEMCPY_DEFAULT)
    return api.fail(ACL_ERROR_INVALID_PARAM, "kind {} is not supported by aclrtMemcpy2d",
                    static_cast<int>(kind));
  CopyPlan plan;
  if (aclError e = npusim::rt::planCopy(api, dst, src, width, height, dpitch, spitch, kind, &plan)) return e;
  if (aclError e = npusim::rt::checkUnsafeCall(api, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT)) return e;
  return npusim::rt::runSync(api, plan);
}

aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                            size_t height, aclrtMemcpyKind kind, aclrtStream stream) {
  ApiCall api("aclrtMemcpy2dAsync");
  CallArgs checkArgs{{"dst", dst},     {"dpitch", dpitch}, {"src", src},   {"spitch", spitch},
                     {"width", width}, {"height", height}, {"kind", kind}, {"stream", stream}};
  if (!api.ok()) return api.notReady();
  if (width == 0 || height == 0) return api.done();
  if (width > spitch || width > dpitch)
    return api.fail(ACL_ERROR_INVALID_PARAM, "width {} exceeds spitch {} or dpitch {}", width, spitch,
                    dpitch);
  if (width > 5000000 || height > 5242880)
    return api.fail(ACL_ERROR_INVALID_PARAM, "width {} or height {} exceeds the limits (5000000, 5242880)",
                    width, height);
  if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_HOST &&
      kind != ACL_MEMCPY_DEVICE_TO_DEVICE && kind != ACL_MEMCPY_DEFAULT)
    return api.fail(ACL_ERROR_INVALID_PARAM, "kind {} is not supported by aclrtMemcpy2dAsync",
                    static_cast<int>(kind));
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  CopyPlan plan;
  if (aclError e = npusim::rt::planCopy(api, dst, src, width, height, dpitch, spitch, kind, &plan)) return e;
  if (plan.hostOnly)
    return api.fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "asynchronous host-to-host copies are not supported");
  if (aclError e = npusim::rt::checks::asyncAlignment(api, dst, src)) return e;
  if (plan.pageable) return pageableFallback(api, s, plan);
  return npusim::rt::launchAsync(api, s, plan);
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  ApiCall api("aclrtMemset");
  CallArgs checkArgs{{"devPtr", devPtr}, {"maxCount", maxCount}, {"value", value}, {"count", count}};
  if (!api.ok()) return api.notReady();
  if (count == 0) return api.done();
  if (count > maxCount)
    return api.fail(ACL_ERROR_RT_PARAM_INVALID, "count {} exceeds maxCount {}", count, maxCount);
  CopyPlan plan;
  if (aclError e = npusim::rt::planMemset(api, devPtr, count, value, &plan)) return e;
  if (aclError e = npusim::rt::checkUnsafeCall(api, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT)) return e;
  return npusim::rt::runSync(api, plan);
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
  ApiCall api("aclrtMemsetAsync");
  CallArgs checkArgs{
      {"devPtr", devPtr}, {"maxCount", maxCount}, {"value", value}, {"count", count}, {"stream", stream}};
  if (!api.ok()) return api.notReady();
  if (count == 0) return api.done();
  if (count > maxCount)
    return api.fail(ACL_ERROR_RT_PARAM_INVALID, "count {} exceeds maxCount {}", count, maxCount);
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  CopyPlan plan;
  if (aclError e = npusim::rt::planMemset(api, devPtr, count, value, &plan)) return e;
  if (plan.hostOnly) return pageableFallback(api, s, plan);
  return npusim::rt::launchAsync(api, s, plan);
}

// 32-bit memsets: N words of `value` (memSize: the bytes available at ptr), timed as a memset. The
// real runtime checks before it queues anything: a 4-byte aligned start, N * 4 within memSize, and
// memory the runtime handed out (device memory or aclrtMallocHost), not the program's own pages.
aclError aclrtMemsetD32(void* ptr, size_t memSize, uint32_t value, size_t N) {
  ApiCall api("aclrtMemsetD32");
  CallArgs checkArgs{{"ptr", ptr}, {"memSize", memSize}, {"value", value}, {"N", N}};
  if (!api.ok()) return api.notReady();
  if (N == 0) return api.done();
  if (aclError e = checkD32(api, ptr, memSize, N)) return e;
  CopyPlan plan;
  if (aclError e = npusim::rt::planMemset(api, ptr, N * 4, 0, &plan)) return e;
  plan.fillPattern = value;
  if (aclError e = npusim::rt::checkUnsafeCall(api, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT)) return e;
  return npusim::rt::runSync(api, plan);
}

aclError aclrtMemsetD32Async(void* ptr, size_t memSize, uint32_t value, size_t N, aclrtStream stream) {
  ApiCall api("aclrtMemsetD32Async");
  CallArgs checkArgs{{"ptr", ptr}, {"memSize", memSize}, {"value", value}, {"N", N}, {"stream", stream}};
  if (!api.ok()) return api.notReady();
  if (N == 0) return api.done();
  if (aclError e = checkD32(api, ptr, memSize, N)) return e;
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  CopyPlan plan;
  if (aclError e = npusim::rt::planMemset(api, ptr, N * 4, 0, &plan)) return e;
  plan.fillPattern = value;
  if (plan.hostOnly) return pageableFallback(api, s, plan);
  return npusim::rt::launchAsync(api, s, plan);
}

}  // extern "C"

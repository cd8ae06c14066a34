// ACL entry points: cache maintenance of device memory (aclrtCmoAsync, and through descriptors). npusim's
// data never sits in a cache (the L2 is modelled inside the matmul tiling only, docs/aicore.md), so the
// operations change no data; they are tasks in stream order that cost what moving the bytes would: a prefetch
// reads the range from HBM, a write-back or flush writes it, at the SDMA rate (dma.channel_gbps, the
// one figure npusim has for an engine streaming a range); an invalidate costs only its dispatch.
#include <cstring>

#include "acl/acl.h"
#include "models/common/sim_time.h"
#include "npusim/config.h"
#include "runtime/runtime.h"
#include "runtime/sync_objects.h"

using npusim::rt::ApiCall;
using npusim::rt::Stream;

extern "C" aclError aclrtCmoAsync(void* src, size_t size, aclrtCmoType cmoType, aclrtStream stream) {
  ApiCall api("aclrtCmoAsync");
  if (!api.ok()) return api.notReady();
  if (cmoType < ACL_RT_CMO_TYPE_PREFETCH || cmoType > ACL_RT_CMO_TYPE_FLUSH)
    return api.fail(ACL_ERROR_INVALID_PARAM, "cmoType {} is not an aclrtCmoType", static_cast<int>(cmoType));
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  npusim::rt::PointerInfo info = api.rt.memory().classify(src);
  if (!src || size == 0 || info.kind != npusim::rt::PointerKind::Device || info.device != s->device ||
      !api.rt.memory().rangeInside(info, src, size))
    return api.fail(ACL_ERROR_INVALID_PARAM, "[{}, +{}) is not device memory on the stream's device {}", src,
                    size, s->device);
  static const char* kNames[] = {"CmoPrefetch", "CmoWriteback", "CmoInvalidate", "CmoFlush"};
  const double rate = api.rt.platform().config().getFloat("dma.channel_gbps") * 1e9;
  const uint64_t bytes = cmoType == ACL_RT_CMO_TYPE_INVALID ? 0 : size;
  api.args.add("bytes", static_cast<uint64_t>(size));
  npusim::rt::launchBuiltin(api, s, kNames[cmoType], [bytes, rate](npusim::sched::Task&) {
    if (bytes) npusim::waitUntil(npusim::simNow() + npusim::transferTicks(bytes, rate));
  });
  return api.done();
}

// CMO descriptors: the range lives in device memory and is read when the task starts (the CANN
// reference allows only prefetch through them).
namespace {
struct CmoDesc {
  uint64_t magic, src, size;
};
constexpr uint64_t kCmoMagic = 0x6e7075736d636d6full;  // "npusmcmo"
constexpr size_t kCmoDescBytes = 64;

const uint8_t* descView(ApiCall& api, const void* desc, int device) {
  npusim::rt::PointerInfo info = api.rt.memory().classify(desc);
  if (!desc || info.kind != npusim::rt::PointerKind::Device || (device >= 0 && info.device != device) ||
      !api.rt.memory().rangeInside(info, desc, kCmoDescBytes))
    return nullptr;
  return api.rt.memory().hostView(info, desc);
}
}  // namespace

extern "C" aclError aclrtCmoGetDescSize(size_t* size) {
  ApiCall api("aclrtCmoGetDescSize");
  if (!api.ok()) return api.notReady();
  if (!size) return api.fail(ACL_ERROR_INVALID_PARAM, "size is NULL");
  *size = kCmoDescBytes;
  return api.done();
}

extern "C" aclError aclrtCmoSetDesc(void* cmoDesc, void* src, size_t size) {
  ApiCall api("aclrtCmoSetDesc");
  if (!api.ok()) return api.notReady();
  uint8_t* view = const_cast<uint8_t*>(descView(api, cmoDesc, -1));
  if (!view)
    return api.fail(ACL_ERROR_INVALID_PARAM, "cmoDesc {} is not {} bytes of device memory", cmoDesc,
                    kCmoDescBytes);
  npusim::rt::PointerInfo info = api.rt.memory().classify(src);
  if (!src || size == 0 || info.kind != npusim::rt::PointerKind::Device ||
      !api.rt.memory().rangeInside(info, src, size))
    return api.fail(ACL_ERROR_INVALID_PARAM, "[{}, +{}) is not device memory", src, size);
  const CmoDesc d{kCmoMagic, reinterpret_cast<uintptr_t>(src), size};
  std::memcpy(view, &d, sizeof d);
  return api.done();
}

extern "C" aclError aclrtCmoAsyncWithDesc(void* cmoDesc, aclrtCmoType cmoType, aclrtStream stream,
                                          const void* reserve) {
  ApiCall api("aclrtCmoAsyncWithDesc");
  if (!api.ok()) return api.notReady();
  (void)reserve;
  if (cmoType != ACL_RT_CMO_TYPE_PREFETCH)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "cmoType {} is not ACL_RT_CMO_TYPE_PREFETCH (the only type allowed)",
                    static_cast<int>(cmoType));
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  const uint8_t* view = descView(api, cmoDesc, s->device);
  if (!view)
    return api.fail(ACL_ERROR_INVALID_PARAM, "cmoDesc {} is not {} bytes of device memory on device {}",
                    cmoDesc, kCmoDescBytes, s->device);
  const double rate = api.rt.platform().config().getFloat("dma.channel_gbps") * 1e9;
  npusim::rt::launchBuiltin(api, s, "CmoPrefetch", [view, rate](npusim::sched::Task& t) {
    CmoDesc d;
    std::memcpy(&d, view, sizeof d);
    if (d.magic != kCmoMagic) {
      t.error = ACL_ERROR_RT_PARAM_INVALID;  // never set with aclrtCmoSetDesc
      return;
    }
    npusim::waitUntil(npusim::simNow() + npusim::transferTicks(d.size, rate));
  });
  return api.done();
}

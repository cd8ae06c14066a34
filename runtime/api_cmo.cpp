// ACL entry point: cache maintenance of device memory (aclrtCmoAsync). npusim's data never sits in
// a cache (the L2 is modelled inside the matmul tiling only, docs/aicore.md), so the operations
// change no data; they are tasks in stream order that cost what moving the bytes would: a prefetch
// reads the range from HBM, a write-back or flush writes it, at the SDMA rate (dma.channel_gbps, the
// one figure npusim has for an engine streaming a range); an invalidate costs only its dispatch.
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

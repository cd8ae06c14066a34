// ACL entry points: peer-to-peer access between devices.
#include "acl/acl.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;

namespace {
// An HCCS link or a common PCIe switch (or the what-if that routes P2P through the root complex).
bool canAccess(ApiCall& api, int a, int b) {
  return api.rt.platform().hccs().linked(a, b) || api.rt.platform().fabric().sameSwitch(a, b) ||
         api.rt.platform().config().getBool("system.p2p_across_switches");
}
aclError checkId(ApiCall& api, int32_t id, const char* what) {
  if (id < 0 || id >= api.rt.deviceCount())
    return api.fail(ACL_ERROR_RT_INVALID_DEVICEID, "{} {} is out of range 0..{}", what, id,
                    api.rt.deviceCount() - 1);
  return ACL_SUCCESS;
}
}  // namespace

extern "C" {

aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId) {
  ApiCall api("aclrtDeviceCanAccessPeer");
  if (!api.ok()) return api.notReady();
  if (!canAccessPeer) return api.fail(ACL_ERROR_INVALID_PARAM, "canAccessPeer is NULL");
  if (aclError e = checkId(api, deviceId, "deviceId")) return e;
  if (aclError e = checkId(api, peerDeviceId, "peerDeviceId")) return e;
  if (deviceId == peerDeviceId)
    return api.fail(ACL_ERROR_INVALID_PARAM, "deviceId and peerDeviceId are both {}", deviceId);
  *canAccessPeer = canAccess(api, deviceId, peerDeviceId) ? 1 : 0;
  return api.done();
}

aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) {
  ApiCall api("aclrtDeviceEnablePeerAccess");
  if (!api.ok()) return api.notReady();
  if (flags != 0) return api.fail(ACL_ERROR_FEATURE_UNSUPPORTED, "flags must be 0 (got {})", flags);
  auto* ctx = api.rt.currentContext();
  if (!ctx) return api.fail(ACL_ERROR_RT_CONTEXT_NULL, "no current device (call aclrtSetDevice first)");
  if (aclError e = checkId(api, peerDeviceId, "peerDeviceId")) return e;
  if (peerDeviceId == ctx->device)
    return api.fail(ACL_ERROR_INVALID_PARAM, "peer device {} is the current device", peerDeviceId);
  if (!canAccess(api, ctx->device, peerDeviceId))
    return api.fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "devices {} and {} have no HCCS link and are not under the same PCIe switch (route: "
                    "{}); set system.p2p_across_switches=true for a what-if",
                    ctx->device, peerDeviceId,
                    fmt::join(api.rt.platform().fabric().route(ctx->device, peerDeviceId), " -> "));
  api.rt.device(ctx->device).peers.insert(peerDeviceId);
  return api.done();
}

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) {
  ApiCall api("aclrtDeviceDisablePeerAccess");
  if (!api.ok()) return api.notReady();
  auto* ctx = api.rt.currentContext();
  if (!ctx) return api.fail(ACL_ERROR_RT_CONTEXT_NULL, "no current device (call aclrtSetDevice first)");
  if (aclError e = checkId(api, peerDeviceId, "peerDeviceId")) return e;
  if (peerDeviceId == ctx->device)
    return api.fail(ACL_ERROR_INVALID_PARAM, "peer device {} is the current device", peerDeviceId);
  if (!api.rt.device(ctx->device).peers.erase(peerDeviceId))
    return api.fail(ACL_ERROR_INVALID_PARAM, "peer access from device {} to {} was not enabled", ctx->device,
                    peerDeviceId);
  return api.done();
}

// Page tables for a peer's access are set up in advance on hardware; the simulated fabric has no
// page faults, so the call checks what the mapping needs (peer access enabled, a device range).
aclError aclrtMemP2PMap(void* devPtr, size_t size, int32_t dstDevId, uint64_t flags) {
  ApiCall api("aclrtMemP2PMap");
  if (!api.ok()) return api.notReady();
  if (flags != 0) return api.fail(ACL_ERROR_INVALID_PARAM, "flags must be 0 (got {})", flags);
  if (aclError e = checkId(api, dstDevId, "dstDevId")) return e;
  npusim::rt::PointerInfo info = api.rt.memory().classify(devPtr);
  if (!devPtr || size == 0 || info.kind != npusim::rt::PointerKind::Device ||
      !api.rt.memory().rangeInside(info, devPtr, size))
    return api.fail(ACL_ERROR_INVALID_PARAM, "[{}, +{}) is not device memory", devPtr, size);
  if (info.device != dstDevId && !api.rt.device(dstDevId).peers.count(info.device))
    return api.fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "device {} has no peer access to device {}: call aclrtDeviceEnablePeerAccess first",
                    dstDevId, info.device);
  return api.done();
}

}  // extern "C"

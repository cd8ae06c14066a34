// ACL entry points that name devices and say how they are connected, from the simulated
// platform's PCIe tree: device ids (user, logical and physical ids coincide: npusim has no
// device masking), PCI bus ids numbered as firmware enumerates the tree (depth first from the
// root complex, one bus per switch and device), the topology between two devices, peer access
// and primary-context state, atomic capabilities across PCIe, and the task scheduler choice.
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

#include "acl/acl.h"
#include "models/pcie/fabric.h"
#include "runtime/runtime.h"
#include "runtime/unsupported.h"

using npusim::rt::ApiCall;

namespace {

bool validDevice(ApiCall& api, int64_t d, const char* what, aclError* err) {
  if (d >= 0 && d < api.rt.deviceCount()) return true;
  *err = api.fail(ACL_ERROR_INVALID_PARAM, "{} {} does not exist (0..{})", what, d, api.rt.deviceCount() - 1);
  return false;
}

// The identity mapping between two kinds of device id, with the checks each call makes.
aclError sameId(const char* name, int32_t in, int32_t* out) {
  ApiCall api(name);
  if (!api.ok()) return api.notReady();
  if (!out) return api.fail(ACL_ERROR_INVALID_PARAM, "the output id is NULL");
  aclError err;
  if (!validDevice(api, in, "device", &err)) return err;
  *out = in;
  return api.done();
}

// Bus number of each device: depth-first enumeration of the PCIe tree (bus 0: the root complex).
int busOf(ApiCall& api, int device) {
  int next = 1, found = -1;
  std::function<void(const npusim::pcie::Node*)> walk = [&](const npusim::pcie::Node* n) {
    for (const npusim::pcie::Node* c : n->children) {
      const int bus = next++;
      if (c->kind == npusim::pcie::Node::Kind::Device && c->device == device) found = bus;
      walk(c);
    }
  };
  walk(api.rt.platform().fabric().root());
  return found;
}

std::string busId(int bus) {
  char text[16];
  std::snprintf(text, sizeof text, "0000:%02x:00.0", bus);
  return text;
}

// Atomic operations carried by the simulated PCIe: none (no AtomicOp TLPs are modelled).
aclError noAtomics(ApiCall& api, uint32_t* capabilities, const aclrtAtomicOperation* operations,
                   uint32_t count) {
  if (!capabilities || !operations || count == 0)
    return api.fail(ACL_ERROR_INVALID_PARAM, "capabilities or operations is NULL, or count is 0");
  for (uint32_t i = 0; i < count; ++i) capabilities[i] = 0;
  return api.done();
}

}  // namespace

extern "C" {

aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t* const logicDevId) {
  return sameId("aclrtGetLogicDevIdByPhyDevId", phyDevId, logicDevId);
}
aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t* const logicDevId) {
  return sameId("aclrtGetLogicDevIdByUserDevId", userDevid, logicDevId);
}
aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t* const phyDevId) {
  return sameId("aclrtGetPhyDevIdByLogicDevId", logicDevId, phyDevId);
}
aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t* const phyDevId) {
  return sameId("aclrtGetPhyDevIdByUserDevId", userDevId, phyDevId);
}
aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t* const userDevid) {
  return sameId("aclrtGetUserDevIdByLogicDevId", logicDevId, userDevid);
}
aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t* const userDevId) {
  return sameId("aclrtGetUserDevIdByPhyDevId", phyDevId, userDevId);
}

aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char* pciBusId, int32_t len) {
  ApiCall api("aclrtDeviceGetPCIBusId");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!validDevice(api, deviceId, "device", &err)) return err;
  const std::string id = busId(busOf(api, deviceId));
  if (!pciBusId || len < static_cast<int32_t>(id.size()) + 1)
    return api.fail(ACL_ERROR_INVALID_PARAM, "pciBusId is NULL or len {} is below {}", len, id.size() + 1);
  std::memcpy(pciBusId, id.c_str(), id.size() + 1);
  return api.done();
}

aclError aclrtDeviceGetByPCIBusId(const char* pciBusId, int32_t* deviceId) {
  ApiCall api("aclrtDeviceGetByPCIBusId");
  if (!api.ok()) return api.notReady();
  if (!pciBusId || !deviceId) return api.fail(ACL_ERROR_INVALID_PARAM, "pciBusId or deviceId is NULL");
  // Accept "0000:bb:00.0" and the short "bb:00.0" form, any case.
  unsigned domain = 0, bus = 0, dev = 0, fn = 0;
  char tail = 0;
  const bool full = std::sscanf(pciBusId, "%x:%x:%x.%x%c", &domain, &bus, &dev, &fn, &tail) == 4;
  if (!full) domain = bus = dev = fn = 0;
  const bool brief = !full && std::sscanf(pciBusId, "%x:%x.%x%c", &bus, &dev, &fn, &tail) == 3;
  if (!full && !brief) return api.fail(ACL_ERROR_INVALID_PARAM, "'{}' is not a PCI bus id", pciBusId);
  for (int d = 0; d < api.rt.deviceCount(); ++d) {
    if (domain == 0 && dev == 0 && fn == 0 && busOf(api, d) == static_cast<int>(bus)) {
      *deviceId = d;
      return api.done();
    }
  }
  return api.fail(ACL_ERROR_INVALID_PARAM, "no simulated device has PCI bus id '{}'", pciBusId);
}

aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t* value) {
  ApiCall api("aclrtGetDevicesTopo");
  if (!api.ok()) return api.notReady();
  if (!value) return api.fail(ACL_ERROR_INVALID_PARAM, "value is NULL");
  aclError err;
  if (!validDevice(api, deviceId, "deviceId", &err) ||
      !validDevice(api, otherDeviceId, "otherDeviceId", &err))
    return err;
  if (deviceId == otherDeviceId) return api.fail(ACL_ERROR_INVALID_PARAM, "both devices are {}", deviceId);
  // A direct HCCS link first; else under one switch the path crosses only that switch, and
  // otherwise it goes through the host bridge.
  const int a = static_cast<int>(deviceId), b = static_cast<int>(otherDeviceId);
  if (api.rt.platform().hccs().linked(a, b))
    *value = ACL_RT_DEVS_TOPOLOGY_HCCS;
  else
    *value =
        api.rt.platform().fabric().sameSwitch(a, b) ? ACL_RT_DEVS_TOPOLOGY_PIX : ACL_RT_DEVS_TOPOLOGY_PHB;
  return api.done();
}

aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t* status) {
  ApiCall api("aclrtDevicePeerAccessStatus");
  if (!api.ok()) return api.notReady();
  if (!status) return api.fail(ACL_ERROR_INVALID_PARAM, "status is NULL");
  aclError err;
  if (!validDevice(api, deviceId, "deviceId", &err) || !validDevice(api, peerDeviceId, "peerDeviceId", &err))
    return err;
  // 1 once aclrtDeviceEnablePeerAccess(peer) was called with deviceId current.
  *status = api.rt.device(deviceId).peers.count(peerDeviceId) ? 1 : 0;
  return api.done();
}

aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t* flags, int32_t* active) {
  ApiCall api("aclrtGetPrimaryCtxState");
  if (!api.ok()) return api.notReady();
  if (!flags || !active) return api.fail(ACL_ERROR_INVALID_PARAM, "flags or active is NULL");
  aclError err;
  if (!validDevice(api, deviceId, "device", &err)) return err;
  *flags = 0;
  *active = api.rt.device(deviceId).defaultCtx ? 1 : 0;  // the default context lives while the device is set
  return api.done();
}

aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t* capabilities, const aclrtAtomicOperation* operations,
                                              const uint32_t count, int32_t deviceId) {
  ApiCall api("aclrtDeviceGetHostAtomicCapabilities");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!validDevice(api, deviceId, "device", &err)) return err;
  return noAtomics(api, capabilities, operations, count);
}

aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t* capabilities, const aclrtAtomicOperation* operations,
                                             const uint32_t count, int32_t srcDeviceId, int32_t dstDeviceId) {
  ApiCall api("aclrtDeviceGetP2PAtomicCapabilities");
  if (!api.ok()) return api.notReady();
  aclError err;
  if (!validDevice(api, srcDeviceId, "srcDeviceId", &err) ||
      !validDevice(api, dstDeviceId, "dstDeviceId", &err))
    return err;
  return noAtomics(api, capabilities, operations, count);
}

// Both task schedulers feed the same simulated AI cores; the choice only has to be a valid one.
aclError aclrtSetTsDevice(aclrtTsId tsId) {
  ApiCall api("aclrtSetTsDevice");
  if (!api.ok()) return api.notReady();
  if (tsId != ACL_TS_ID_AICORE && tsId != ACL_TS_ID_AIVECTOR)
    return api.fail(ACL_ERROR_INVALID_PARAM, "tsId {} is neither ACL_TS_ID_AICORE nor ACL_TS_ID_AIVECTOR",
                    static_cast<int>(tsId));
  return api.done();
}

aclError aclrtGetHardwareSyncAddr(void** addr) {
  (void)addr;
  npusim::rt::reportUnsupported(
      "aclrtGetHardwareSyncAddr",
      "hardware synchronisation registers: kernels run on the host and synchronise there");
  return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

}  // extern "C"

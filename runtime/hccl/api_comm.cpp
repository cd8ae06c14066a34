// HCCL communicator calls: root info, init (one thread per rank, or all ranks from one thread),
// destroy, queries and configuration. A rank's init allocates its two CCL buffers on its device
// and one side stream per peer, then waits (parked, like a blocking channel receive) until every
// rank has joined, as HCCL's init does; HCCL_CONNECT_TIMEOUT bounds the wait.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "hccl/hccl.h"
#include "runtime/hccl/checks.h"
#include "runtime/hccl/communicator.h"
#include "runtime/host_block.h"
#include "runtime/unsupported.h"

using npusim::rt::ApiCall;
namespace hc = npusim::hccl;

namespace {

constexpr const char* kRootPrefix = "npusim-hccl-root:";

// Environment settings HCCL documents, in their units; `fallback` when unset or not a number
// (or 0 where 0 has no meaning).
uint64_t envNumber(const char* name, uint64_t fallback, bool zeroAllowed = false) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  unsigned long long n = std::strtoull(v, &end, 10);
  return end && *end == '\0' && (n > 0 || zeroAllowed) ? n : fallback;
}

// HCCL_EXEC_TIMEOUT: how long a task waits for a peer before the op fails (seconds; HCCL's
// default on Atlas A2 is 1836 s, docs/zh/user_guide/hccl_env/HCCL_EXEC_TIMEOUT.md).
npusim::Tick execTimeout(const HcclCommConfig* config) {
  uint64_t s = envNumber("HCCL_EXEC_TIMEOUT", 1836);
  if (config && config->hcclExecTimeOut != HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET &&
      config->hcclExecTimeOut > 0)
    s = static_cast<uint64_t>(config->hcclExecTimeOut);
  return static_cast<npusim::Tick>(s) * npusim::kMs * 1000;
}

// HCCL_BUFFSIZE (MB, default 200): each of the communicator's two CCL buffers.
uint64_t bufferBytes(const HcclCommConfig* config) {
  uint64_t mb = envNumber("HCCL_BUFFSIZE", HCCL_COMM_DEFAULT_BUFFSIZE);
  if (config && config->hcclBufferSize != HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET && config->hcclBufferSize > 0)
    mb = config->hcclBufferSize;
  return mb << 20;
}

// Mesh when every pair of the ranks' devices shares an HCCS link (aclrtGetDevicesTopo says so),
// ring otherwise; NPUSIM_HCCL_ALGO=mesh|ring overrides for studies.
bool meshTopology(const hc::Group& g) {
  if (const char* a = std::getenv("NPUSIM_HCCL_ALGO")) {
    if (std::strcmp(a, "mesh") == 0) return true;
    if (std::strcmp(a, "ring") == 0) return false;
  }
  for (uint32_t i = 0; i < g.size; ++i)
    for (uint32_t j = i + 1; j < g.size; ++j) {
      uint64_t topo = 0;
      if (aclrtGetDevicesTopo(static_cast<uint32_t>(g.ranks[i].device),
                              static_cast<uint32_t>(g.ranks[j].device), &topo) != ACL_SUCCESS ||
          topo != ACL_RT_DEVS_TOPOLOGY_HCCS)
        return false;
    }
  return true;
}

// A rank's device-side resources: CCL buffers and side streams.
HcclResult setupRank(ApiCall& api, hc::Group& g, uint32_t rank, int device, npusim::rt::Context* ctx,
                     hc::Comm* c) {
  npusim::rt::MemoryManager& mem = api.rt.memory();
  hc::RankInfo& info = g.ranks[rank];
  info.cclIn = mem.allocDevice(device, g.bufferBytes, g.bufferBytes, 2u << 20, "HcclCommInit (CCL-in)");
  info.cclOut =
      info.cclIn ? mem.allocDevice(device, g.bufferBytes, g.bufferBytes, 2u << 20, "HcclCommInit (CCL-out)")
                 : nullptr;
  if (!info.cclOut) {
    std::string why;
    if (info.cclIn) mem.freeDevice(info.cclIn, &why);
    info.cclIn = nullptr;
    return hc::fail(api, HCCL_E_MEMORY, "device {} has no room for two CCL buffers of {} MB (HCCL_BUFFSIZE)",
                    device, g.bufferBytes >> 20);
  }
  info.device = device;
  info.joined = true;
  g.joined++;
  c->rank = rank;
  c->device = device;
  for (uint32_t k = 0; k + 1 < g.size; ++k) {
    uint32_t peer = (rank + 1 + k) % g.size;
    c->side.push_back(
        api.rt.createStream(ctx, 0, 0, false, fmt::format("HCCL rank {} side -> rank {}", rank, peer)));
  }
  return HCCL_SUCCESS;
}

void releaseRank(ApiCall& api, hc::Comm* c) {
  for (npusim::rt::Stream* s : c->side) {
    api.rt.drain(*api.th, s->hw);
    api.rt.destroyStream(s);
  }
  c->side.clear();
  hc::RankInfo& info = c->group->ranks[c->rank];
  std::string why;
  if (info.cclIn) api.rt.memory().freeDevice(info.cclIn, &why);
  if (info.cclOut) api.rt.memory().freeDevice(info.cclOut, &why);
  info.cclIn = info.cclOut = nullptr;
}

int32_t connectTimeoutMs() { return static_cast<int32_t>(envNumber("HCCL_CONNECT_TIMEOUT", 120) * 1000); }

HcclResult initRootInfo(const char* name, uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                        const HcclCommConfig* config, HcclComm* comm) {
  ApiCall api(name);
  if (!api.ok()) return hc::fail(api, HCCL_E_RUNTIME, "the simulator is not ready");
  if (!rootInfo || !comm) return hc::fail(api, HCCL_E_PTR, "{} is NULL", rootInfo ? "comm" : "rootInfo");
  if (std::strncmp(rootInfo->internal, kRootPrefix, std::strlen(kRootPrefix)) != 0)
    return hc::fail(api, HCCL_E_PARA, "rootInfo does not come from HcclGetRootInfo");
  const uint32_t devices = static_cast<uint32_t>(api.rt.deviceCount());
  if (nRanks == 0 || nRanks > devices)
    return hc::fail(api, HCCL_E_PARA, "nRanks {} is outside 1..{} (one rank per device of this server)",
                    nRanks, devices);
  if (rank >= nRanks) return hc::fail(api, HCCL_E_PARA, "rank {} is out of range 0..{}", rank, nRanks - 1);
  if (config) {
    uint32_t magic;
    std::memcpy(&magic, config->reserved + sizeof(size_t), sizeof magic);
    if (magic != HCCL_COMM_CONFIG_MAGIC_WORD)
      return hc::fail(api, HCCL_E_PARA, "config was not initialised with HcclCommConfigInit");
  }
  aclError aerr;
  npusim::rt::Context* ctx = api.context(&aerr);
  if (!ctx) return hc::fail(api, HCCL_E_PARA, "no current device: call aclrtSetDevice before {}", name);
  std::string key(rootInfo->internal, strnlen(rootInfo->internal, HCCL_ROOT_INFO_BYTES));
  std::string why;
  std::shared_ptr<hc::Group> g =
      hc::findOrCreateGroup(key, nRanks, bufferBytes(config), execTimeout(config), &why);
  if (!g) return hc::fail(api, HCCL_E_PARA, "{}", why);
  if (g->ranks[rank].joined)
    return hc::fail(api, HCCL_E_PARA, "rank {} of this root info has already joined", rank);
  for (uint32_t q = 0; q < nRanks; ++q)
    if (g->ranks[q].joined && g->ranks[q].device == ctx->device)
      return hc::fail(api, HCCL_E_PARA, "ranks {} and {} are both on device {} (one rank per device)", q,
                      rank, ctx->device);
  auto c = std::make_unique<hc::Comm>();
  c->group = g;
  if (HcclResult r = setupRank(api, *g, rank, ctx->device, ctx, c.get())) return r;
  api.args.add("rank", rank).add("nRanks", nRanks);
  g->ranks[rank].thread = api.th;
  if (g->joined == g->size) {
    // The last rank to join releases the others at its own time: they count in the ordering of
    // calls again at once, so none runs the device ahead while they are still parked.
    for (uint32_t q = 0; q < nRanks; ++q) {
      npusim::rt::HostThread* u = g->ranks[q].thread;
      if (q == rank || !u || u->state != npusim::rt::HostState::Parked) continue;
      u->state = npusim::rt::HostState::Native;
      u->clock = std::max(u->clock, api.th->clock);
    }
    api.rt.cv.notify_all();
  }
  aclError w = npusim::rt::blockUntil(
      api, connectTimeoutMs(), [&] { return g->joined == g->size; }, ACL_ERROR_RT_WAIT_TIMEOUT);
  if (w != ACL_SUCCESS) {
    uint32_t joined = g->joined;
    releaseRank(api, c.get());
    g->ranks[rank].joined = false;
    g->ranks[rank].thread = nullptr;
    g->joined--;
    return hc::fail(api, HCCL_E_TIMEOUT, "only {} of {} ranks joined within HCCL_CONNECT_TIMEOUT ({} s)",
                    joined, nRanks, connectTimeoutMs() / 1000);
  }
  hc::finishGathering(key, *g);
  if (!g->topologyKnown) g->mesh = meshTopology(*g), g->topologyKnown = true;
  if (config && config->hcclCommName[0]) hc::renameGroup(*g, config->hcclCommName);
  hc::addLive(c.get());
  *comm = c.release();
  return HCCL_SUCCESS;
}

}  // namespace

extern "C" {

HcclResult HcclGetRootInfo(HcclRootInfo* rootInfo) {
  ApiCall api("HcclGetRootInfo");
  if (!api.ok()) return hc::fail(api, HCCL_E_RUNTIME, "the simulator is not ready");
  if (!rootInfo) return hc::fail(api, HCCL_E_PTR, "rootInfo is NULL");
  static std::atomic<uint64_t> next{0};
  std::memset(rootInfo, 0, sizeof *rootInfo);
  std::snprintf(rootInfo->internal, sizeof rootInfo->internal, "%s%d.%llu", kRootPrefix,
                static_cast<int>(getpid()), static_cast<unsigned long long>(next++));
  return HCCL_SUCCESS;
}

HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                                HcclComm* comm) {
  return initRootInfo("HcclCommInitRootInfo", nRanks, rootInfo, rank, nullptr, comm);
}

HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                                      const HcclCommConfig* config, HcclComm* comm) {
  if (!config) {
    ApiCall api("HcclCommInitRootInfoConfig");
    return hc::fail(api, HCCL_E_PTR, "config is NULL");
  }
  return initRootInfo("HcclCommInitRootInfoConfig", nRanks, rootInfo, rank, config, comm);
}

HcclResult HcclCommInitAll(uint32_t ndev, int32_t* devices, HcclComm* comms) {
  ApiCall api("HcclCommInitAll");
  if (!api.ok()) return hc::fail(api, HCCL_E_RUNTIME, "the simulator is not ready");
  if (!devices || !comms) return hc::fail(api, HCCL_E_PTR, "{} is NULL", devices ? "comms" : "devices");
  const int count = api.rt.deviceCount();
  if (ndev == 0 || ndev > static_cast<uint32_t>(count))
    return hc::fail(api, HCCL_E_PARA, "ndev {} is outside 1..{}", ndev, count);
  for (uint32_t i = 0; i < ndev; ++i) {
    if (devices[i] < 0 || devices[i] >= count)
      return hc::fail(api, HCCL_E_PARA, "devices[{}] = {} is not a device (0..{})", i, devices[i], count - 1);
    for (uint32_t j = 0; j < i; ++j)
      if (devices[j] == devices[i])
        return hc::fail(api, HCCL_E_PARA, "device {} is listed twice (devices[{}], devices[{}])", devices[i],
                        j, i);
  }
  static std::atomic<uint64_t> next{0};
  std::string key = fmt::format("npusim-hccl-all:{}.{}", static_cast<int>(getpid()), next++);
  std::string why;
  auto g = hc::findOrCreateGroup(key, ndev, bufferBytes(nullptr), execTimeout(nullptr), &why);
  std::vector<hc::Comm*> made;
  for (uint32_t i = 0; i < ndev; ++i) {
    api.rt.openDevice(devices[i]);
    auto c = std::make_unique<hc::Comm>();
    c->group = g;
    c->ownsDevice = true;
    if (HcclResult r =
            setupRank(api, *g, i, devices[i], api.rt.device(devices[i]).defaultCtx.get(), c.get())) {
      api.rt.closeDevice(devices[i], false);
      for (hc::Comm* m : made) {
        releaseRank(api, m);
        api.rt.closeDevice(m->device, false);
        delete m;
      }
      return r;
    }
    made.push_back(c.release());
  }
  hc::finishGathering(key, *g);
  g->mesh = meshTopology(*g);
  g->topologyKnown = true;
  for (uint32_t i = 0; i < ndev; ++i) {
    hc::addLive(made[i]);
    comms[i] = made[i];
  }
  return HCCL_SUCCESS;
}

HcclResult HcclCommDestroy(HcclComm comm) {
  ApiCall api("HcclCommDestroy");
  if (!api.ok()) return hc::fail(api, HCCL_E_RUNTIME, "the simulator is not ready");
  HcclResult err;
  hc::Comm* c = hc::commArg(api, comm, &err);
  if (!c) return err;
  hc::removeLive(c);
  releaseRank(api, c);
  if (c->ownsDevice) api.rt.closeDevice(c->device, false);
  delete c;
  return HCCL_SUCCESS;
}

HcclResult HcclGetRankSize(HcclComm comm, uint32_t* rankSize) {
  ApiCall api("HcclGetRankSize");
  HcclResult err;
  hc::Comm* c = hc::commArg(api, comm, &err);
  if (!c) return err;
  if (!rankSize) return hc::fail(api, HCCL_E_PTR, "rankSize is NULL");
  *rankSize = c->group->size;
  return HCCL_SUCCESS;
}

HcclResult HcclGetRankId(HcclComm comm, uint32_t* rank) {
  ApiCall api("HcclGetRankId");
  HcclResult err;
  hc::Comm* c = hc::commArg(api, comm, &err);
  if (!c) return err;
  if (!rank) return hc::fail(api, HCCL_E_PTR, "rank is NULL");
  *rank = c->rank;
  return HCCL_SUCCESS;
}

HcclResult HcclGetCommName(HcclComm comm, char* commName) {
  ApiCall api("HcclGetCommName");
  HcclResult err;
  hc::Comm* c = hc::commArg(api, comm, &err);
  if (!c) return err;
  if (!commName) return hc::fail(api, HCCL_E_PTR, "commName is NULL");
  std::snprintf(commName, COMM_NAME_MAX_LENGTH, "%s", c->group->name.c_str());
  return HCCL_SUCCESS;
}

HcclResult HcclCommGetHandleWithName(const char* commName, HcclComm* comm) {
  ApiCall api("HcclCommGetHandleWithName");
  if (!commName || !comm) return hc::fail(api, HCCL_E_PTR, "{} is NULL", commName ? "comm" : "commName");
  // The rank on the calling thread's device when there is one (one rank per device).
  npusim::rt::Context* ctx = api.rt.currentContext();
  hc::Comm* found = hc::findByName(commName, ctx ? ctx->device : -1);
  if (!found) return hc::fail(api, HCCL_E_NOT_FOUND, "no live communicator is named '{}'", commName);
  *comm = found;
  return HCCL_SUCCESS;
}

HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult* asyncError) {
  ApiCall api("HcclGetCommAsyncError");
  HcclResult err;
  hc::Comm* c = hc::commArg(api, comm, &err);
  if (!c) return err;
  if (!asyncError) return hc::fail(api, HCCL_E_PTR, "asyncError is NULL");
  *asyncError = static_cast<HcclResult>(c->asyncError->load());
  return HCCL_SUCCESS;
}

const char* HcclGetErrorString(HcclResult code) {
  switch (code) {
    case HCCL_SUCCESS:
      return "success";
    case HCCL_E_PARA:
      return "parameter error";
    case HCCL_E_PTR:
      return "empty pointer";
    case HCCL_E_MEMORY:
      return "memory error";
    case HCCL_E_INTERNAL:
      return "internal error";
    case HCCL_E_NOT_SUPPORT:
      return "not support feature";
    case HCCL_E_NOT_FOUND:
      return "not found specific resource";
    case HCCL_E_UNAVAIL:
      return "resource unavailable";
    case HCCL_E_SYSCALL:
      return "call system interface error";
    case HCCL_E_TIMEOUT:
      return "timeout";
    case HCCL_E_OPEN_FILE_FAILURE:
      return "open file fail";
    case HCCL_E_TCP_CONNECT:
      return "tcp connect fail";
    case HCCL_E_ROCE_CONNECT:
      return "roce connect fail";
    case HCCL_E_TCP_TRANSFER:
      return "tcp transfer fail";
    case HCCL_E_ROCE_TRANSFER:
      return "roce transfer fail";
    case HCCL_E_RUNTIME:
      return "call runtime api fail";
    case HCCL_E_DRV:
      return "call driver api fail";
    case HCCL_E_PROFILING:
      return "call profiling api fail";
    case HCCL_E_CCE:
      return "call cce api fail";
    case HCCL_E_NETWORK:
      return "call network api fail";
    case HCCL_E_AGAIN:
      return "try again";
    case HCCL_E_REMOTE:
      return "error cqe";
    case HCCL_E_SUSPENDING:
      return "error communicator suspending";
    case HCCL_E_OPRETRY_FAIL:
      return "retry constraint";
    case HCCL_E_OOM:
      return "out of memory";
    case HCCL_E_IN_STATUS:
      return "the error information is in the status";
    default:
      return "unknown error";
  }
}

uint32_t HcclGetCommConfigCapability(void) {
  // Config items up to the execution timeout are read (buffer size, name, timeout) or accepted.
  return HCCL_COMM_CONFIG_EXEC_TIMEOUT + 1;
}

HcclResult HcclSetConfig(HcclConfig config, HcclConfigValue configValue) {
  ApiCall api("HcclSetConfig");
  if (config != HCCL_DETERMINISTIC)
    return hc::fail(api, HCCL_E_PARA, "config {} is not an HcclConfig", static_cast<int>(config));
  if (configValue.value < 0 || configValue.value > 2)
    return hc::fail(api, HCCL_E_PARA, "deterministic must be 0, 1 or 2 (got {})", configValue.value);
  hc::deterministic() = configValue.value;
  return HCCL_SUCCESS;
}

HcclResult HcclGetConfig(HcclConfig config, HcclConfigValue* configValue) {
  ApiCall api("HcclGetConfig");
  if (!configValue) return hc::fail(api, HCCL_E_PTR, "configValue is NULL");
  if (config != HCCL_DETERMINISTIC)
    return hc::fail(api, HCCL_E_PARA, "config {} is not an HcclConfig", static_cast<int>(config));
  configValue->value = hc::deterministic();
  return HCCL_SUCCESS;
}

HcclResult HcclConfigGetInfo(HcclComm comm, HcclConfigType cfgType, uint32_t infoLen, void* info) {
  ApiCall api("HcclConfigGetInfo");
  HcclResult err;
  if (!hc::commArg(api, comm, &err)) return err;
  if (!info) return hc::fail(api, HCCL_E_PTR, "info is NULL");
  if (cfgType != HCCL_CONFIG_TYPE_OP_EXPANSION_MODE)
    return hc::fail(api, HCCL_E_PARA, "cfgType {} is not an HcclConfigType", static_cast<int>(cfgType));
  if (infoLen < sizeof(HcclConfigTypeOpExpansionMode))
    return hc::fail(api, HCCL_E_PARA, "infoLen {} is smaller than {}", infoLen,
                    sizeof(HcclConfigTypeOpExpansionMode));
  HcclConfigTypeOpExpansionMode mode =
      HCCL_OP_EXPANSION_MODE_HOST;  // the A2 default (HCCL_OP_EXPANSION_MODE.md)
  std::memcpy(info, &mode, sizeof mode);
  return HCCL_SUCCESS;
}

HcclResult HcclCommGetStatus(const char* commId, HcclCommStatus* status) {
  ApiCall api("HcclCommGetStatus");
  if (!commId || !status) return hc::fail(api, HCCL_E_PTR, "{} is NULL", commId ? "status" : "commId");
  if (!hc::findByName(commId, 0))
    return hc::fail(api, HCCL_E_NOT_FOUND, "no live communicator is named '{}'", commId);
  *status = HCCL_COMM_STATUS_READY;
  return HCCL_SUCCESS;
}

}  // extern "C"

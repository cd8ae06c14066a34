#include "runtime/copy_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "models/common/fill_pattern.h"
#include "runtime/checks.h"
#include "runtime/op_launch.h"

namespace npusim::rt {

const char* memcpyKindName(uint64_t kind) {
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
      return "ACL_MEMCPY_HOST_TO_HOST";
    case ACL_MEMCPY_HOST_TO_DEVICE:
      return "ACL_MEMCPY_HOST_TO_DEVICE";
    case ACL_MEMCPY_DEVICE_TO_HOST:
      return "ACL_MEMCPY_DEVICE_TO_HOST";
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
      return "ACL_MEMCPY_DEVICE_TO_DEVICE";
    case ACL_MEMCPY_DEFAULT:
      return "ACL_MEMCPY_DEFAULT";
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
      return "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE";
    default:
      return nullptr;
  }
}

namespace {

// Extent in bytes of `height` rows of `width` at `pitch`.
uint64_t extent(uint64_t width, uint64_t height, uint64_t pitch) {
  return height ? (height - 1) * pitch + width : 0;
}

// Range checks live with the other misuse checks (runtime/check_memory.cpp).
aclError checkRange(ApiCall& api, const PointerInfo& info, const void* p, uint64_t bytes, const char* what) {
  return checks::deviceRange(api, info, p, bytes, what);
}

}  // namespace

aclError planCopy(ApiCall& api, void* dst, const void* src, uint64_t width, uint64_t height, uint64_t dpitch,
                  uint64_t spitch, aclrtMemcpyKind kind, CopyPlan* plan, bool kindReserved) {
  if (!dst || !src) return api.fail(ACL_ERROR_INVALID_PARAM, "{} is NULL", !dst ? "dst" : "src");
  if (static_cast<int>(kind) < 0 || static_cast<int>(kind) > ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE)
    return api.fail(ACL_ERROR_INVALID_PARAM, "kind {} is not accepted by this API (valid: 0..5)",
                    static_cast<int>(kind));
  MemoryManager& mem = api.rt.memory();
  PointerInfo di = mem.classify(dst), si = mem.classify(src);
  bool dDev = di.kind == PointerKind::Device, sDev = si.kind == PointerKind::Device;
  aclrtMemcpyKind actual = dDev ? (sDev ? ACL_MEMCPY_DEVICE_TO_DEVICE : ACL_MEMCPY_HOST_TO_DEVICE)
                                : (sDev ? ACL_MEMCPY_DEVICE_TO_HOST : ACL_MEMCPY_HOST_TO_HOST);
  aclrtMemcpyKind asked = kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE ? ACL_MEMCPY_HOST_TO_DEVICE : kind;
  if (asked != ACL_MEMCPY_DEFAULT && asked != actual) {
    const std::string why = fmt::format("kind is {} but dst {} is {} memory and src {} is {} memory",
                                        memcpyKindName(kind) ? memcpyKindName(kind) : "an unsupported kind",
                                        dst, dDev ? "device" : "host", src, sDev ? "device" : "host");
    if (!kindReserved) return api.fail(ACL_ERROR_INVALID_PARAM, "{}", why);
    if (aclError e = checks::report(api, checks::Kind::CopyKindIgnored, ACL_ERROR_INVALID_PARAM,
                                    why + fmt::format(": copied as {}", memcpyKindName(actual))))
      return e;
  }
  if (aclError e = checkRange(api, di, dst, extent(width, height, dpitch), "dst")) return e;
  if (aclError e = checkRange(api, si, src, extent(width, height, spitch), "src")) return e;

  plan->shape.width = width;
  plan->shape.height = height;
  plan->shape.dpitch = dpitch;
  plan->shape.spitch = spitch;
  plan->shape.dstPtr = mem.hostView(di, dst);
  plan->shape.srcPtr = mem.hostView(si, src);
  plan->shape.dstAddr = dDev ? di.offset : 0;
  plan->shape.srcAddr = sDev ? si.offset : 0;
  switch (actual) {
    case ACL_MEMCPY_HOST_TO_HOST:
      plan->hostOnly = true;
      plan->label = "Memcpy H2H";
      break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
      plan->engine = di.device;
      plan->route = sched::CopyRoute::HostToDevice;
      plan->pageable = si.kind == PointerKind::PageableHost;
      plan->label = "Memcpy H2D";
      break;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      plan->engine = si.device;
      plan->route = sched::CopyRoute::DeviceToHost;
      plan->pageable = di.kind == PointerKind::PageableHost;
      plan->label = "Memcpy D2H";
      break;
    default:
      plan->engine = si.device;
      if (si.device == di.device) {
        plan->route = sched::CopyRoute::DeviceLocal;
        plan->label = "Memcpy D2D";
      } else {
        // The source device's DMA engine writes into the peer's memory through the fabric.
        if (!api.rt.device(si.device).peers.count(di.device))
          return api.fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                          "copy from device {} to device {} needs peer access: call aclrtSetDevice({}) then "
                          "aclrtDeviceEnablePeerAccess({}, 0) first",
                          si.device, di.device, si.device, di.device);
        plan->route = sched::CopyRoute::PeerWrite;
        plan->peer = di.device;
        plan->label = "Memcpy P2P";
      }
      break;
  }
  return ACL_SUCCESS;
}

aclError planMemset(ApiCall& api, void* dst, uint64_t count, int32_t value, CopyPlan* plan) {
  if (!dst) return api.fail(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
  MemoryManager& mem = api.rt.memory();
  PointerInfo di = mem.classify(dst);
  if (aclError e = checkRange(api, di, dst, count, "devPtr")) return e;
  plan->shape.width = count;
  plan->shape.height = 1;
  plan->shape.dpitch = plan->shape.spitch = count;
  plan->shape.dstPtr = mem.hostView(di, dst);
  plan->shape.dstAddr = di.kind == PointerKind::Device ? di.offset : 0;
  plan->hostOnly = di.kind != PointerKind::Device;
  plan->engine = di.device;
  plan->route = sched::CopyRoute::Fill;
  plan->label = "Memset";
  plan->fillPattern = bytePattern(static_cast<uint8_t>(value));
  return ACL_SUCCESS;
}

namespace {

// Timing-only mode (sim.functional=false) moves no payload: copies keep their timing but no byte
// is stored or copied, so memory stays flat for any copy size. The program is told once.
bool movesData() {
  if (functionalEnabled()) return true;
  static bool told = false;
  if (!told)
    std::fprintf(
        stderr,
        "npusim: sim.functional=false: timing only; copies, memsets and operators move and compute no "
        "data, so results read back are not meaningful\n");
  told = true;
  return false;
}

std::unique_ptr<sched::Task> makeTask(const CopyPlan& plan, const sched::CopyShape& shape) {
  auto t = std::make_unique<sched::Task>();
  t->kind = sched::TaskKind::Copy;
  t->route = plan.route;
  t->copy = shape;
  if (!movesData()) t->copy.srcPtr = t->copy.dstPtr = nullptr;
  t->peer = plan.peer;
  t->fillPattern = plan.fillPattern;
  t->run = plan.resolve;
  t->label = plan.label;
  return t;
}

void cpuCopy(ApiCall& api, const CopyPlan& plan) {
  const sched::CopyShape& s = plan.shape;
  api.charge(transferTicks(s.bytes(), api.rt.costs().memcpyBytesPerSec));
  if (!movesData()) return;
  for (uint64_t r = 0; r < s.height; ++r) {
    if (plan.route == sched::CopyRoute::Fill)
      fillPattern(s.dstPtr + r * s.dpitch, s.width, plan.fillPattern, r * s.dpitch);
    else
      std::memmove(s.dstPtr + r * s.dpitch, s.srcPtr + r * s.spitch, s.width);
  }
}

}  // namespace

aclError runSync(ApiCall& api, const CopyPlan& plan) {
  Runtime& rt = api.rt;
  HostThread& th = *api.th;
  api.args.add("bytes", plan.shape.bytes())
      .add("route", plan.hostOnly ? "host" : sched::routeName(plan.route));
  if (plan.hostOnly) {
    cpuCopy(api, plan);
    return api.done();
  }
  api.charge(rt.costs().syncCopy);
  sched::HwStream* q = rt.device(plan.engine).syncQueue;
  const sched::CopyShape& s = plan.shape;
  uint64_t chunk = rt.costs().pageableChunk;
  if (!plan.pageable || s.height != 1 || s.width <= chunk) {
    if (plan.pageable)
      api.charge(transferTicks(s.bytes(), rt.costs().memcpyBytesPerSec));  // one staging copy
    uint64_t flow = rt.nextFlow();
    api.flow = flow;
    rt.launch(th, q, makeTask(plan, s), flow);
    if (rt.drain(th, q) != Runtime::Wait::Done)
      return api.fail(ACL_ERROR_RT_INTERNAL_ERROR, "copy did not complete");
    return api.done();
  }
  // Pageable memory: the CPU copies each chunk through two pinned staging buffers while the
  // DMA moves the other, so the slower of the two sets the pace.
  uint64_t n = (s.width + chunk - 1) / chunk;
  std::vector<uint64_t> issuedAt;  // queue position of each chunk's task
  for (uint64_t i = 0; i < n; ++i) {
    sched::CopyShape part = s;
    uint64_t off = i * chunk;
    part.width = std::min(chunk, s.width - off);
    part.dpitch = part.spitch = part.width;
    part.dstPtr += off;
    part.srcPtr += off;
    part.dstAddr += off;
    part.srcAddr += off;
    if (i >= 2) {  // staging buffer i%2 is free once chunk i-2 has been moved
      uint64_t target = issuedAt[i - 2];
      rt.waitFor([q, target] { return q->completed >= target; });
      rt.observe(th, q->lastEnd);
    }
    if (plan.route == sched::CopyRoute::HostToDevice)
      api.charge(transferTicks(part.width, rt.costs().memcpyBytesPerSec));
    rt.launch(th, q, makeTask(plan, part), 0);
    issuedAt.push_back(q->issued);
    if (plan.route == sched::CopyRoute::DeviceToHost) {
      uint64_t target = q->issued;
      rt.waitFor([q, target] { return q->completed >= target; });
      rt.observe(th, q->lastEnd);
      api.charge(transferTicks(part.width, rt.costs().memcpyBytesPerSec));
    }
  }
  if (rt.drain(th, q) != Runtime::Wait::Done)
    return api.fail(ACL_ERROR_RT_INTERNAL_ERROR, "copy did not complete");
  return api.done();
}

aclError launchAsync(ApiCall& api, Stream* stream, const CopyPlan& plan) {
  Runtime& rt = api.rt;
  api.args.add("bytes", plan.shape.bytes())
      .add("route", sched::routeName(plan.route))
      .add("stream", stream->hw->id);
  if (plan.engine != stream->device)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "the copy runs on device {}'s DMA engine but the stream belongs to device {}",
                    plan.engine, stream->device);
  api.charge(rt.costs().launch);
  uint64_t flow = rt.nextFlow();
  api.flow = flow;
  rt.launch(*api.th, stream->hw, makeTask(plan, plan.shape), flow);
  return api.done();
}

}  // namespace npusim::rt

// The runtime side of the aclnn operator layer: operators become tasks on streams.
#include "runtime/op_launch.h"

#include "runtime/runtime.h"
#include "runtime/user_allocator.h"

namespace npusim::rt {

aclError launchOperator(aclrtStream stream, OpLaunch&& op) {
  const std::string name = op.name;  // the call's trace name outlives the moved-from op
  ApiCall api(name.c_str());
  if (!api.ok()) return api.notReady();
  aclError err;
  std::string why;
  Stream* s = api.rt.resolveStream(stream, &err, &why);
  if (!s) return api.fail(err, "{}", why);
  // Workspace from the stream's user allocator: taken before the launch and given back right
  // after it, so the allocator may hand the block to later work on this stream (stream order).
  std::shared_ptr<UserAllocator> ua;
  aclrtAllocatorBlock block = nullptr;
  if (op.allocatorWorkspace > 0) {
    ua = s->allocator;
    if (!ua)
      return api.fail(ACL_ERROR_INVALID_PARAM,
                      "{} needs {} bytes of workspace: pass one, or register an allocator on stream {}", name,
                      op.allocatorWorkspace, s->hw->id);
    block = ua->alloc(ua->obj, op.allocatorWorkspace);
    void* ws = block ? ua->addrOf(block) : nullptr;
    if (!ws || !deviceBacking(ws, op.allocatorWorkspace)) {
      if (block) ua->free(ua->obj, block);
      return api.fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                      "the stream's allocator gave no device block of {} bytes for the workspace",
                      op.allocatorWorkspace);
    }
    op.buffers.push_back(ws);
    api.args.add("allocator_workspace", op.allocatorWorkspace);
  }
  api.charge(api.rt.costs().opLaunch);
  auto t = std::make_unique<sched::Task>();
  t->kind = sched::TaskKind::Operator;
  t->label = op.name;
  api.args.add("stream", s->hw->id).add("args", op.argsSummary);
  t->op = std::make_shared<OpLaunch>(std::move(op));
  api.flow = api.rt.nextFlow();
  api.rt.launch(*api.th, s->hw, std::move(t), api.flow);
  if (block) ua->free(ua->obj, block);
  return api.done();
}

void chargeOpPrepare(const char* api) {
  ApiCall call(api);
  if (call.ok()) call.charge(call.rt.costs().opPrepare);
}

void* deviceBacking(const void* devPtr, uint64_t bytes) {
  Runtime& rt = Runtime::get();
  std::lock_guard<std::recursive_mutex> lock(rt.mu);
  if (!rt.ensure(nullptr)) return nullptr;
  PointerInfo info = rt.memory().classify(devPtr);
  if (info.kind != PointerKind::Device) return nullptr;
  // A kernel may touch the rest of its allocation's last device page, as on hardware, where the
  // page is mapped (docs/checks.md); past it the tensor is refused.
  const Allocation* a = info.alloc;
  const bool inPages = a != nullptr && !a->mapping && info.offset + bytes >= info.offset &&
                       info.offset + bytes <= a->offset + a->extent;
  if (!inPages && !rt.memory().rangeInside(info, devPtr, bytes)) return nullptr;
  return rt.memory().hostView(info, devPtr);
}

bool functionalEnabled() {
  Runtime& rt = Runtime::get();
  std::lock_guard<std::recursive_mutex> lock(rt.mu);
  if (!rt.ensure(nullptr)) return true;
  return rt.platform().config().getBool("sim.functional");
}

CoreRates coreRates() {
  Runtime& rt = Runtime::get();
  std::lock_guard<std::recursive_mutex> lock(rt.mu);
  CoreRates r;
  if (!rt.ensure(nullptr)) return r;
  const Config& c = rt.platform().config();
  r.cubeCores = static_cast<int>(c.getInt("aicore.cube_cores"));
  r.vectorCores = static_cast<int>(c.getInt("aicore.vector_cores"));
  r.cubeMacsPerCycle = c.getFloat("aicore.cube_macs_per_cycle");
  r.vectorBytesPerCycle = c.getFloat("aicore.vector_bytes_per_cycle");
  return r;
}

}  // namespace npusim::rt

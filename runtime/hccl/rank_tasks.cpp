// Launching one rank's part of a collective. All tasks of one call are submitted at the call's
// host time after a single launch charge: on A2, HCCL's HOST mode packs an op's tasks into one
// FFTS+ graph (hcomm externalinput.cc), so the host pays one submission and each task the
// scheduler's dispatch.
#include "runtime/hccl/rank_tasks.h"

#include <algorithm>

#include "models/common/sim_time.h"
#include "runtime/hccl/reduce_kernels.h"
#include "runtime/op_launch.h"

namespace npusim::hccl {
namespace {

// The first failure of a communicator is the one HcclGetCommAsyncError reports.
void firstError(std::atomic<int>& error, HcclResult code) {
  int none = HCCL_SUCCESS;
  error.compare_exchange_strong(none, code);
}

sc_core::sc_time ticks(Tick t) { return sc_core::sc_time(static_cast<double>(t), sc_core::SC_PS); }

// Fills a copy's shape from two device addresses (the device reads them as the copy starts).
void fillShape(sched::Task& t, const void* src, void* dst, uint64_t bytes, bool functional) {
  rt::MemoryManager& mem = rt::Runtime::get().memory();
  rt::PointerInfo si = mem.classify(src), di = mem.classify(dst);
  sched::CopyShape& c = t.copy;
  c.width = c.dpitch = c.spitch = bytes;
  c.height = 1;
  c.srcAddr = si.offset;
  c.dstAddr = di.offset;
  c.srcPtr = functional ? mem.hostView(si, src) : nullptr;
  c.dstPtr = functional ? mem.hostView(di, dst) : nullptr;
}

}  // namespace

RankTasks::RankTasks(rt::ApiCall& api, Comm& comm, rt::Stream* main, HcclDataType type, HcclReduceOp op)
    : api_(api), comm_(comm), main_(main), type_(type), op_(op), serial_(main->capture != nullptr) {
  api_.charge(api_.rt.costs().launch);
  api_.flow = api_.rt.nextFlow();
}

void RankTasks::launch(rt::Stream* s, std::unique_ptr<sched::Task> t) {
  uint64_t flow = 0;
  if (!flowUsed_ && s == main_) flow = api_.flow, flowUsed_ = true;
  api_.rt.launch(*api_.th, s->hw, std::move(t), flow);
}

void RankTasks::record(rt::Stream* s, Signal& sig) {
  auto t = std::make_unique<sched::Task>();
  t->kind = sched::TaskKind::Builtin;
  t->label = "Notify Record";
  Signal* p = &sig;  // signals live as long as their group; the task keeps the group
  std::shared_ptr<Group> keep = comm_.group;
  t->run = [p, keep](sched::Task& task) {
    p->count++;
    p->records.emplace_back(task.stream->track, task.start);
    p->changed.notify(sc_core::SC_ZERO_TIME);
  };
  launch(s, std::move(t));
}

void RankTasks::wait(rt::Stream* s, Signal& sig) {
  auto t = std::make_unique<sched::Task>();
  t->kind = sched::TaskKind::Builtin;
  t->label = "Notify Wait";
  Signal* p = &sig;
  Tick limit = comm_.group->execTimeout;
  auto error = comm_.asyncError;
  std::shared_ptr<Group> keep = comm_.group;
  t->run = [p, limit, error, keep](sched::Task& task) {
    Tick t0 = simNow();
    while (p->count == 0) {
      if (limit == kTickMax) {  // HCCL_EXEC_TIMEOUT=0: wait for ever
        sc_core::wait(p->changed);
        continue;
      }
      Tick waited = simNow() - t0;
      if (waited >= limit) break;
      sc_core::wait(ticks(limit - waited), p->changed);
    }
    task.eventWait = simNow() - t0;
    if (p->count == 0) {  // no peer released it within HCCL_EXEC_TIMEOUT
      task.error = ACL_ERROR_RT_WAIT_TIMEOUT;
      firstError(*error, HCCL_E_TIMEOUT);
      return;
    }
    p->count--;
    trace::TraceWriter& tw = rt::Runtime::get().trace();
    if (!p->records.empty()) {
      auto rec = p->records.front();
      p->records.pop_front();
      if (tw.wants(trace::Level::Task)) {
        uint64_t id = tw.newFlowId();
        tw.slice(task.stream->track, "released", "hccl", simNow(), 0);
        tw.flowStart(rec.first, id, "hccl", rec.second);
        tw.flowEnd(task.stream->track, id, "hccl", simNow());
      }
    }
  };
  launch(s, std::move(t));
}

void RankTasks::copy(rt::Stream* s, int dstDevice, uint64_t bytes, Resolve addrs, bool reduce) {
  if (bytes == 0) return;
  auto t = std::make_unique<sched::Task>();
  t->kind = sched::TaskKind::Copy;
  t->route = dstDevice == comm_.device ? sched::CopyRoute::DeviceLocal : sched::CopyRoute::PeerWrite;
  t->peer = dstDevice == comm_.device ? -1 : dstDevice;
  t->label = reduce ? "Reduce_Inline" : "Memcpy";
  t->copy.width = t->copy.dpitch = t->copy.spitch = bytes;  // the size is known now, addresses later
  const bool functional = rt::functionalEnabled();
  auto error = comm_.asyncError;
  t->run = [addrs, bytes, functional, error](sched::Task& task) {
    auto [src, dst] = addrs();
    if (!src || !dst) {  // the peer never posted its buffer (its call failed): nowhere to write
      task.error = ACL_ERROR_RT_PARAM_INVALID;
      firstError(*error, HCCL_E_REMOTE);
      return;
    }
    fillShape(task, src, dst, bytes, functional);
  };
  if (reduce) {
    HcclDataType type = type_;
    HcclReduceOp op = op_;
    t->landWith = [type, op](uint8_t* dst, const uint8_t* src, uint64_t n) {
      reduceInto(type, op, dst, src, n);
    };
  }
  if (dstDevice != comm_.device) {
    Group& g = *comm_.group;
    for (uint32_t p = 0; p < g.size; ++p)
      if (g.ranks[p].device == dstDevice) g.pushedBytes[comm_.rank * g.size + p] += bytes;
  }
  launch(s, std::move(t));
}

void RankTasks::coreReduce(rt::Stream* s, uint64_t bytes, std::function<void*()> dst,
                           std::function<std::vector<const void*>()> srcs) {
  if (bytes == 0) return;
  const bool functional = rt::functionalEnabled();
  rt::OpLaunch op;
  op.name = "HcclReduce_Vector";
  op.argsSummary = fmt::format("{} bytes {} {}", bytes, typeName(type_), opName(op_));
  // Vector tiles of up to 32 KiB per operand: each reads its inputs and the partial result and
  // writes the result back (MTE2 in, vector compute, MTE3 out).
  const uint64_t inputs = comm_.group->size;  // one partial per peer plus the local data
  const uint64_t tile = 32 * 1024;
  for (uint64_t off = 0; off < bytes; off += tile) {
    uint64_t n = std::min(tile, bytes - off);
    rt::TileWork w;
    w.readBytes = n * inputs;
    w.vectorBytes = n * inputs;
    w.writeBytes = n;
    op.work.tiles.push_back(w);
  }
  // The buffers are resolved when the operator starts (a peer's staging slots are known by then);
  // the reduction itself runs when the cores have done the work.
  struct Buffers {
    uint8_t* dst = nullptr;
    std::vector<const uint8_t*> srcs;
  };
  auto buf = std::make_shared<Buffers>();
  op.before = [dst, srcs, buf, functional](aicore::OpWork& work) {
    rt::MemoryManager& mem = rt::Runtime::get().memory();
    void* d = dst();
    rt::PointerInfo di = mem.classify(d);
    uint64_t off = 0;
    for (aicore::TileWork& w : work.tiles) {  // the tiles' real addresses, for the HBM channels
      w.readAddr = w.writeAddr = di.offset + off;
      off += w.writeBytes;
    }
    if (!functional) return;
    buf->dst = mem.hostView(di, d);
    buf->srcs.clear();
    for (const void* s : srcs()) buf->srcs.push_back(mem.hostView(mem.classify(s), s));
  };
  HcclDataType type = type_;
  HcclReduceOp rop = op_;
  op.compute = [buf, bytes, type, rop] {
    for (const uint8_t* s : buf->srcs) reduceInto(type, rop, buf->dst, s, bytes);
  };
  auto t = std::make_unique<sched::Task>();
  t->kind = sched::TaskKind::Operator;
  t->label = op.name;
  t->op = std::make_shared<rt::OpLaunch>(std::move(op));
  launch(s, std::move(t));
}

void RankTasks::fork() {
  if (serial_) return;
  Group& g = *comm_.group;
  for (uint32_t k = 0; k < comm_.side.size(); ++k) {
    record(main_, g.signal(SignalKind::Fork, comm_.rank, k));
    wait(comm_.side[k], g.signal(SignalKind::Fork, comm_.rank, k));
  }
}

void RankTasks::join() {
  if (serial_) return;
  Group& g = *comm_.group;
  for (uint32_t k = 0; k < comm_.side.size(); ++k)
    record(comm_.side[k], g.signal(SignalKind::Join, comm_.rank, k));
  for (uint32_t k = 0; k < comm_.side.size(); ++k) wait(main_, g.signal(SignalKind::Join, comm_.rank, k));
}

}  // namespace npusim::hccl

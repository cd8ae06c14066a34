// Mesh: every rank drives one side stream per peer; a phase is a fork from the main stream, per
// peer a ready handshake (Ack both ways), the transfer, a data handshake (Data both ways), and a
// join. Data moves by pushes: the rank's DMA engine writes into the peer's memory (a CCL buffer,
// or the peer's output, whose address the task reads on the device once the peer has called).
// Ring: one stream, n-1 steps to the next rank, each waiting for the previous rank's data.
#include "runtime/hccl/collectives.h"

#include <algorithm>

#include "runtime/hccl/reduce_kernels.h"

namespace npusim::hccl {
namespace {

const void* at(const void* p, uint64_t off) { return static_cast<const uint8_t*>(p) + off; }
void* at(void* p, uint64_t off) { return p ? static_cast<uint8_t*>(p) + off : nullptr; }
uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

struct Ctx {
  Call& c;
  RankTasks& t;
  Group& g;
  uint32_t n, r;
  uint64_t elem;
  explicit Ctx(Call& call)
      : c(call),
        t(call.tasks),
        g(*call.group),
        n(g.size),
        r(call.comm.rank),
        elem(elementSize(call.record().type)) {}
  int dev(uint32_t p) const { return g.ranks[p].device; }
  void* cclIn() const { return g.ranks[r].cclIn; }
  void* cclOut() const { return g.ranks[r].cclOut; }
  const CallArgs& mine() const { return c.record().args[r]; }
  // The output buffer of rank p, read on the device when the copy starts.
  std::function<void*()> recvOf(uint32_t p) const {
    auto group = c.group;
    uint64_t seq = c.seq;
    return [group, seq, p]() -> void* {
      const CallArgs& a = group->calls.at(seq).args[p];
      return a.joined ? a.recv : nullptr;
    };
  }
  std::function<uint64_t()> recvDisplOf(uint32_t p, uint32_t from) const {
    auto group = c.group;
    uint64_t seq = c.seq;
    return [group, seq, p, from]() -> uint64_t {
      const CallArgs& a = group->calls.at(seq).args[p];
      return a.joined ? a.recvDispls[from] : 0;
    };
  }
  // Staging slot of this rank in peer p's CCL-in (one per sender).
  uint32_t slotAt(uint32_t p) const { return (r + n - p - 1) % n; }
};

Resolve fixed(const void* src, void* dst) {
  return [src, dst] { return std::make_pair(src, dst); };
}

// One mesh phase with the peers `with` selects (the same choice on both sides of each pair).
void exchange(Ctx& x, const std::function<bool(uint32_t)>& with,
              const std::function<void(rt::Stream*, uint32_t)>& body) {
  if (x.t.serial()) {
    // One stream for all peers: every record before any wait, or the ranks would wait in a cycle.
    rt::Stream* m = x.t.main();
    for (uint32_t k = 1; k < x.n; ++k)
      if (with((x.r + k) % x.n)) x.t.record(m, x.g.signal(SignalKind::Ack, x.r, (x.r + k) % x.n));
    for (uint32_t k = 1; k < x.n; ++k) {
      uint32_t p = (x.r + k) % x.n;
      if (!with(p)) continue;
      x.t.wait(m, x.g.signal(SignalKind::Ack, p, x.r));
      body(m, p);
      x.t.record(m, x.g.signal(SignalKind::Data, x.r, p));
    }
    for (uint32_t k = 1; k < x.n; ++k)
      if (with((x.r + k) % x.n)) x.t.wait(m, x.g.signal(SignalKind::Data, (x.r + k) % x.n, x.r));
    return;
  }
  x.t.fork();
  for (uint32_t k = 1; k < x.n; ++k) {
    uint32_t p = (x.r + k) % x.n;
    if (!with(p)) continue;
    rt::Stream* s = x.t.side(p);
    x.t.record(s, x.g.signal(SignalKind::Ack, x.r, p));
    x.t.wait(s, x.g.signal(SignalKind::Ack, p, x.r));
    body(s, p);
    x.t.record(s, x.g.signal(SignalKind::Data, x.r, p));
    x.t.wait(s, x.g.signal(SignalKind::Data, p, x.r));
  }
  x.t.join();
}

bool everyone(uint32_t) { return true; }

// Slices of a buffer reduced or gathered together: slice p at off[p], len[p] bytes.
struct Slices {
  std::vector<uint64_t> off, len;
};

Slices evenSlices(uint64_t base, uint64_t bytes, uint32_t n) {
  Slices s;
  uint64_t slice = alignUp((bytes + n - 1) / n, kSliceAlign);
  for (uint32_t p = 0; p < n; ++p) {
    uint64_t b = std::min<uint64_t>(bytes, p * slice), e = std::min<uint64_t>(bytes, (p + 1) * slice);
    s.off.push_back(base + b);
    s.len.push_back(e - b);
  }
  return s;
}

// Mesh reduce-scatter of `in` (slice p of it goes to rank p): this rank's slice ends up reduced
// in its CCL-out at offset 0. Inline: 7 concurrent pushes with reduce into the peers' CCL-out;
// otherwise pushes into the peers' CCL-in staging slots, then one vector-core reduce.
void meshReduceScatter(Ctx& x, const void* in, const Slices& s, bool inlineReduce) {
  x.t.copy(x.t.main(), x.dev(x.r), s.len[x.r], fixed(at(in, s.off[x.r]), x.cclOut()));
  uint64_t slot = 0;
  for (uint64_t l : s.len) slot = std::max(slot, l);
  exchange(x, everyone, [&](rt::Stream* st, uint32_t p) {
    void* dst = inlineReduce ? x.g.ranks[p].cclOut : at(x.g.ranks[p].cclIn, x.slotAt(p) * slot);
    x.t.copy(st, x.dev(p), s.len[p], fixed(at(in, s.off[p]), dst), inlineReduce);
  });
  if (!inlineReduce) {
    std::vector<const void*> srcs;
    for (uint32_t k = 0; k + 1 < x.n; ++k) srcs.push_back(at(x.cclIn(), k * slot));
    void* out = x.cclOut();
    x.t.coreReduce(
        x.t.main(), s.len[x.r], [out] { return out; }, [srcs] { return srcs; });
  }
}

// Largest loop of a mesh reduce-scatter: its slice must fit the CCL-out (inline) or one of the
// n-1 staging slots of the CCL-in.
uint64_t rsSliceLimit(const Ctx& x, bool inlineReduce) {
  uint64_t limit = inlineReduce ? x.g.bufferBytes : x.g.bufferBytes / x.n;
  return std::max<uint64_t>(x.elem, limit / kSliceAlign * kSliceAlign / x.elem * x.elem);
}

// Mesh AllReduce above the small-count threshold: reduce-scatter then every rank pushes its
// reduced slice into each peer's output (HCCL pulls it; the same bytes cross the same links).
void meshAllReduce(Ctx& x, bool inlineReduce) {
  const CallArgs& a = x.mine();
  uint64_t bytes = x.c.record().count * x.elem;
  uint64_t loop = rsSliceLimit(x, inlineReduce) * x.n;
  for (uint64_t off = 0; off < bytes; off += loop) {
    Slices s = evenSlices(off, std::min(loop, bytes - off), x.n);
    meshReduceScatter(x, a.send, s, inlineReduce);
    x.t.copy(x.t.main(), x.dev(x.r), s.len[x.r], fixed(x.cclOut(), at(a.recv, s.off[x.r])));
    void* src = x.cclOut();
    exchange(x, everyone, [&](rt::Stream* st, uint32_t p) {
      auto recv = x.recvOf(p);
      uint64_t o = s.off[x.r];
      x.t.copy(st, x.dev(p), s.len[x.r],
               [src, recv, o] { return std::pair<const void*, void*>(src, at(recv(), o)); });
    });
  }
}

// Small AllReduce: every rank pushes its whole buffer with reduce into rank 0's CCL-out, then
// rank 0 copies the result to every output.
void smallAllReduce(Ctx& x) {
  const CallArgs& a = x.mine();
  uint64_t bytes = x.c.record().count * x.elem;
  auto withRoot = [&](uint32_t p) { return x.r == 0 || p == 0; };
  if (x.r == 0) x.t.copy(x.t.main(), x.dev(0), bytes, fixed(a.send, x.cclOut()));
  exchange(x, withRoot, [&](rt::Stream* st, uint32_t p) {
    if (x.r != 0) x.t.copy(st, x.dev(0), bytes, fixed(a.send, x.g.ranks[0].cclOut), true);
  });
  if (x.r == 0) x.t.copy(x.t.main(), x.dev(0), bytes, fixed(x.cclOut(), a.recv));
  void* src = x.g.ranks[0].cclOut;
  exchange(x, withRoot, [&](rt::Stream* st, uint32_t p) {
    if (x.r != 0) return;
    auto recv = x.recvOf(p);
    x.t.copy(st, x.dev(p), bytes, [src, recv] { return std::pair<const void*, void*>(src, recv()); });
  });
}

// Ring AllReduce / ReduceScatter (reduce=true) and the gather half: n-1 steps on the main stream,
// each pushing one slice to the next rank after the previous rank's data for it has arrived.
void ringReduceScatter(Ctx& x, const void* in, const Slices& s, bool inlineReduce) {
  const uint32_t next = (x.r + 1) % x.n, prev = (x.r + x.n - 1) % x.n;
  rt::Stream* m = x.t.main();
  // Slice p sits in every CCL-out at cclOff[p].
  std::vector<uint64_t> cclOff(x.n, 0);
  for (uint32_t p = 1; p < x.n; ++p) cclOff[p] = cclOff[p - 1] + s.len[p - 1];
  for (uint32_t p = 0; p < x.n; ++p)
    x.t.copy(m, x.dev(x.r), s.len[p], fixed(at(in, s.off[p]), at(x.cclOut(), cclOff[p])));
  uint64_t slot = 0;
  for (uint64_t l : s.len) slot = std::max(slot, l);
  x.t.record(m, x.g.signal(SignalKind::Ack, x.r, prev));  // my CCL-out is ready for prev's pushes
  x.t.wait(m, x.g.signal(SignalKind::Ack, next, x.r));
  auto arrived = [&](uint32_t step, uint32_t slice) {  // prev's push of `slice` at step `step`
    x.t.wait(m, x.g.signal(SignalKind::Data, prev, x.r));
    if (inlineReduce) return;
    const void* staged = at(x.cclIn(), step * slot);
    void* dst = at(x.cclOut(), cclOff[slice]);
    x.t.coreReduce(
        m, s.len[slice], [dst] { return dst; }, [staged] { return std::vector<const void*>{staged}; });
  };
  for (uint32_t step = 0; step + 1 < x.n; ++step) {
    uint32_t j = (x.r + 2 * x.n - step - 1) % x.n;
    if (step > 0) arrived(step - 1, j);
    void* dst = inlineReduce ? at(x.g.ranks[next].cclOut, cclOff[j]) : at(x.g.ranks[next].cclIn, step * slot);
    x.t.copy(m, x.dev(next), s.len[j], fixed(at(x.cclOut(), cclOff[j]), dst), inlineReduce);
    x.t.record(m, x.g.signal(SignalKind::Data, x.r, next));
  }
  if (x.n > 1) arrived(x.n - 2, x.r);
}

// Ring gather: this rank's slice is at out+off[r] already; each step forwards one slice.
void ringAllGather(Ctx& x, void* out, const Slices& s) {
  const uint32_t next = (x.r + 1) % x.n, prev = (x.r + x.n - 1) % x.n;
  rt::Stream* m = x.t.main();
  auto recv = x.recvOf(next);
  for (uint32_t step = 0; step + 1 < x.n; ++step) {
    uint32_t j = (x.r + x.n - step) % x.n;
    if (step > 0) x.t.wait(m, x.g.signal(SignalKind::Data, prev, x.r));
    const void* src = at(out, s.off[j]);
    uint64_t o = s.off[j];
    x.t.copy(m, x.dev(next), s.len[j],
             [src, recv, o] { return std::pair<const void*, void*>(src, at(recv(), o)); });
    x.t.record(m, x.g.signal(SignalKind::Data, x.r, next));
  }
  if (x.n > 1) x.t.wait(m, x.g.signal(SignalKind::Data, prev, x.r));
}

uint64_t cclOffsetOf(const Slices& s, uint32_t r) {
  uint64_t o = 0;
  for (uint32_t p = 0; p < r; ++p) o += s.len[p];
  return o;
}

void ringAllReduce(Ctx& x, bool inlineReduce) {
  const CallArgs& a = x.mine();
  uint64_t bytes = x.c.record().count * x.elem;
  // The whole loop sits in the CCL-out, and one slice per step in the CCL-in's n-1 staging slots.
  uint64_t loop = rsSliceLimit(x, false) * x.n;
  for (uint64_t off = 0; off < bytes; off += loop) {
    Slices s = evenSlices(off, std::min(loop, bytes - off), x.n);
    ringReduceScatter(x, a.send, s, inlineReduce);
    x.t.copy(x.t.main(), x.dev(x.r), s.len[x.r],
             fixed(at(x.cclOut(), cclOffsetOf(s, x.r)), at(a.recv, s.off[x.r])));
    ringAllGather(x, a.recv, s);
  }
}

// Slices of a reduce-scatter in the send buffer (elements -> bytes), for the part [o, o+chunk).
Slices scatterSlices(const Ctx& x, const CallArgs& a, uint64_t o, uint64_t chunk) {
  Slices s;
  for (uint32_t p = 0; p < x.n; ++p) {
    uint64_t cnt = a.sendCounts[p];
    uint64_t len = cnt > o ? std::min(chunk, cnt - o) : 0;
    s.off.push_back((a.sendDispls[p] + std::min(o, cnt)) * x.elem);
    s.len.push_back(len * x.elem);
  }
  return s;
}

}  // namespace

void runAllReduce(Call& c) {
  Ctx x(c);
  const CallRecord& rec = c.record();
  bool inlineReduce = inlineReducible(rec.type, rec.op);
  if (x.n == 1) {
    x.t.copy(x.t.main(), x.dev(x.r), rec.count * x.elem, fixed(x.mine().send, x.mine().recv));
    return;
  }
  if (!x.g.mesh) return ringAllReduce(x, inlineReduce);
  if (inlineReduce && rec.count * x.elem <= kSmallAllReduceBytes) return smallAllReduce(x);
  meshAllReduce(x, inlineReduce);
}

void runReduceScatter(Call& c) {
  Ctx x(c);
  const CallRecord& rec = c.record();
  const CallArgs& a = x.mine();
  bool inlineReduce = inlineReducible(rec.type, rec.op);
  uint64_t most = *std::max_element(a.sendCounts.begin(), a.sendCounts.end());
  bool contiguous = true;
  for (uint32_t p = 0; p < x.n; ++p)
    contiguous = contiguous && a.sendDispls[p] == p * rec.count && a.sendCounts[p] == rec.count;
  const bool ring = !x.g.mesh && contiguous && x.n > 1;
  uint64_t chunk = rsSliceLimit(x, inlineReduce && !ring) / x.elem;
  for (uint64_t o = 0; o < std::max<uint64_t>(most, 1); o += chunk) {
    Slices s = scatterSlices(x, a, o, chunk);
    if (ring)
      ringReduceScatter(x, a.send, s, inlineReduce),
          x.t.copy(x.t.main(), x.dev(x.r), s.len[x.r],
                   fixed(at(x.cclOut(), cclOffsetOf(s, x.r)), at(a.recv, o * x.elem)));
    else
      meshReduceScatter(x, a.send, s, inlineReduce),
          x.t.copy(x.t.main(), x.dev(x.r), s.len[x.r], fixed(x.cclOut(), at(a.recv, o * x.elem)));
  }
}

void runAllGather(Call& c) {
  Ctx x(c);
  const CallArgs& a = x.mine();
  const uint64_t count = a.recvCounts[x.r];
  uint64_t bytes = count * x.elem;
  x.t.copy(x.t.main(), x.dev(x.r), bytes, fixed(a.send, at(a.recv, a.recvDispls[x.r] * x.elem)));
  bool contiguous = true;
  for (uint32_t p = 0; p < x.n; ++p)
    contiguous = contiguous && a.recvDispls[p] == p * count && a.recvCounts[p] == count;
  if (!x.g.mesh && contiguous) {
    Slices s;
    for (uint32_t p = 0; p < x.n; ++p) s.off.push_back(p * bytes), s.len.push_back(bytes);
    // The first push writes into next's output: wait until next has called and posted it
    // (within an AllReduce the reduce-scatter half has done this handshake already).
    rt::Stream* m = x.t.main();
    x.t.record(m, x.g.signal(SignalKind::Ack, x.r, (x.r + x.n - 1) % x.n));
    x.t.wait(m, x.g.signal(SignalKind::Ack, (x.r + 1) % x.n, x.r));
    return ringAllGather(x, a.recv, s);
  }
  exchange(x, everyone, [&](rt::Stream* st, uint32_t p) {
    auto recv = x.recvOf(p);
    auto displ = x.recvDisplOf(p, x.r);
    const void* src = a.send;
    uint64_t e = x.elem;
    x.t.copy(st, x.dev(p), bytes,
             [src, recv, displ, e] { return std::pair<const void*, void*>(src, at(recv(), displ() * e)); });
  });
}

void runBroadcast(Call& c) {
  Ctx x(c);
  const CallRecord& rec = c.record();
  const CallArgs& a = x.mine();
  uint64_t bytes = rec.count * x.elem;
  Slices s = evenSlices(0, bytes, x.n);
  uint32_t root = rec.root;
  // Scatter from the root, then every rank passes its slice to all others (BroadCastMeshExecutor).
  exchange(
      x, [&](uint32_t p) { return x.r == root || p == root; },
      [&](rt::Stream* st, uint32_t p) {
        if (x.r != root) return;
        auto recv = x.recvOf(p);
        const void* src = at(a.recv, s.off[p]);
        uint64_t o = s.off[p];
        x.t.copy(st, x.dev(p), s.len[p],
                 [src, recv, o] { return std::pair<const void*, void*>(src, at(recv(), o)); });
      });
  exchange(x, everyone, [&](rt::Stream* st, uint32_t p) {
    auto recv = x.recvOf(p);
    const void* src = at(a.recv, s.off[x.r]);
    uint64_t o = s.off[x.r];
    x.t.copy(st, x.dev(p), s.len[x.r],
             [src, recv, o] { return std::pair<const void*, void*>(src, at(recv(), o)); });
  });
}

void runReduce(Call& c) {
  Ctx x(c);
  const CallRecord& rec = c.record();
  const CallArgs& a = x.mine();
  bool inlineReduce = inlineReducible(rec.type, rec.op);
  uint64_t bytes = rec.count * x.elem;
  uint64_t loop = rsSliceLimit(x, inlineReduce) * x.n;
  uint32_t root = rec.root;
  for (uint64_t off = 0; off < std::max<uint64_t>(bytes, 1); off += loop) {
    Slices s = evenSlices(off, std::min(loop, bytes - off), x.n);
    meshReduceScatter(x, a.send, s, inlineReduce);
    if (x.r == root) x.t.copy(x.t.main(), x.dev(x.r), s.len[x.r], fixed(x.cclOut(), at(a.recv, s.off[x.r])));
    void* src = x.cclOut();
    exchange(
        x, [&](uint32_t p) { return x.r == root || p == root; },
        [&](rt::Stream* st, uint32_t p) {
          if (x.r == root) return;
          auto recv = x.recvOf(root);
          uint64_t o = s.off[x.r];
          x.t.copy(st, x.dev(root), s.len[x.r],
                   [src, recv, o] { return std::pair<const void*, void*>(src, at(recv(), o)); });
        });
  }
}

void runScatter(Call& c) {
  Ctx x(c);
  const CallRecord& rec = c.record();
  const CallArgs& a = x.mine();
  uint64_t bytes = rec.count * x.elem;
  uint32_t root = rec.root;
  if (x.r == root) x.t.copy(x.t.main(), x.dev(x.r), bytes, fixed(at(a.send, root * bytes), a.recv));
  exchange(
      x, [&](uint32_t p) { return x.r == root || p == root; },
      [&](rt::Stream* st, uint32_t p) {
        if (x.r != root) return;
        auto recv = x.recvOf(p);
        const void* src = at(a.send, p * bytes);
        x.t.copy(st, x.dev(p), bytes, [src, recv] { return std::pair<const void*, void*>(src, recv()); });
      });
}

void runAlltoAll(Call& c) {
  Ctx x(c);
  const CallArgs& a = x.mine();
  uint64_t e = x.elem;
  x.t.copy(x.t.main(), x.dev(x.r), a.sendCounts[x.r] * e,
           fixed(at(a.send, a.sendDispls[x.r] * e), at(a.recv, a.recvDispls[x.r] * e)));
  // Pairwise over the mesh (RunAlltoAllDirectFullmesh): each rank writes its block for p at
  // p's displacement for it.
  exchange(x, everyone, [&](rt::Stream* st, uint32_t p) {
    auto recv = x.recvOf(p);
    auto displ = x.recvDisplOf(p, x.r);
    const void* src = at(a.send, a.sendDispls[p] * e);
    x.t.copy(st, x.dev(p), a.sendCounts[p] * e,
             [src, recv, displ, e] { return std::pair<const void*, void*>(src, at(recv(), displ() * e)); });
  });
}

void runBarrier(Call& c) {
  Ctx x(c);
  exchange(x, everyone, [](rt::Stream*, uint32_t) {});
}

uint64_t p2pChunk(const Group& g) {
  return std::max<uint64_t>(kSliceAlign, g.bufferBytes / g.size / kSliceAlign * kSliceAlign);
}

void runSend(RankTasks& t, Comm& comm, rt::Stream* s, const void* buf, uint64_t bytes, uint32_t peer,
             uint64_t k) {
  Group& g = *comm.group;
  std::shared_ptr<Group> gp = comm.group;
  uint64_t chunk = p2pChunk(g);
  void* staging = at(g.ranks[comm.rank].cclIn, comm.sideFor(peer) * chunk);
  uint32_t me = comm.rank;
  t.wait(s, g.signal(SignalKind::P2pAck, peer, me));  // the receiver has posted its buffer
  for (uint64_t o = 0; o < bytes; o += chunk) {
    uint64_t len = std::min(chunk, bytes - o);
    t.copy(s, comm.device, len, fixed(at(buf, o), staging));
    t.copy(s, g.ranks[peer].device, len, [gp, me, peer, k, staging, o] {
      auto it = gp->recvs.find({me, peer});
      void* dst = it != gp->recvs.end() && k < it->second.size() ? it->second[k].first : nullptr;
      return std::pair<const void*, void*>(staging, at(dst, o));
    });
    t.record(s, g.signal(SignalKind::P2pData, me, peer));
  }
}

void runRecvAck(RankTasks& t, Comm& comm, rt::Stream* s, uint32_t peer) {
  t.record(s, comm.group->signal(SignalKind::P2pAck, comm.rank, peer));
}

void runRecvWait(RankTasks& t, Comm& comm, rt::Stream* s, uint64_t bytes, uint32_t peer) {
  uint64_t chunk = p2pChunk(*comm.group);
  for (uint64_t o = 0; o < bytes; o += chunk)
    t.wait(s, comm.group->signal(SignalKind::P2pData, peer, comm.rank));
}

}  // namespace npusim::hccl

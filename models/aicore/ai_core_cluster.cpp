#include "models/aicore/ai_core_cluster.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "models/common/sim_time.h"
#include "npusim/config.h"

namespace npusim::aicore {

namespace {

Tick now() { return simNow(); }

// Per-core GM write rate: stores land in the write-back L2 (ini l2_write_rate, hardware.md
// §1.2); the HBM write-back behind them is timed by the HBM model.
constexpr double kDefaultL2WriteBytesPerCycle = 86;
// L1 -> L0 moves of a cube core, when the preset does not say (ini l1_to_l0_a_rate, hardware.md §1.2).
constexpr double kDefaultMte1BytesPerCycle = 512;

// Input buffers per core unless the work says otherwise: the MTE2 loads tile j+1 while tile j
// computes (double buffering).
constexpr size_t kInputSlots = 2;
// Output buffers: a vector core's UB holds two output tiles; a cube core's L0C (128 KiB) holds
// one 128 x 256 fp32 accumulator, so the next block's MACs wait until the fixpipe drained it.
constexpr size_t kVectorOutputSlots = 2;
constexpr size_t kCubeOutputSlots = 1;

size_t inputSlots(const OpWork& w) {
  return w.inputSlots > 0 ? static_cast<size_t>(w.inputSlots) : kInputSlots;
}
size_t outputSlots(const OpWork& w, bool cube) {
  if (w.outputSlots > 0) return static_cast<size_t>(w.outputSlots);
  return cube ? kCubeOutputSlots : kVectorOutputSlots;
}

}  // namespace

// One core's progress through its tiles. Loads and stores are events (they reach HBM, which
// must see requests in time order); compute times follow from them without an event.
struct AiCoreCluster::CoreRun {
  int slot = 0;       // index into stats_ / tracks_
  bool cube = false;  // a cube core (else a vector core)
  std::vector<size_t> tiles;
  std::vector<Tick> arrive, cend, stored;  // per local tile: data in, compute end, out in L2
  size_t loaded = 0, computed = 0, storedCount = 0;
  bool loadPending = false, storePending = false;
  Tick mte2Free = 0, mte3Free = 0;
  Tick scalarFree = 0;  // when the scalar unit has issued everything up to the last load
  Tick loadIssued = 0;  // when the load in flight was issued
  Tick first = kTickMax, last = 0;
  bool blocked = false;  // its next copy in waits for another core's tile to be stored

  // Starts a new operator at `t0`, keeping the vectors' storage.
  void reset(int coreSlot, bool cubeCore, Tick t0) {
    slot = coreSlot;
    cube = cubeCore;
    tiles.clear();
    loaded = computed = storedCount = 0;
    loadPending = storePending = blocked = false;
    mte2Free = mte3Free = scalarFree = t0;
    first = kTickMax;
    last = 0;
  }
};

struct AiCoreCluster::Event {
  Tick t;
  uint64_t seq;
  CoreRun* core;
  bool store;
  bool operator>(const Event& o) const { return t != o.t ? t > o.t : seq > o.seq; }
};

AiCoreCluster::AiCoreCluster(sc_core::sc_module_name name, int device, const Config& cfg,
                             trace::TraceWriter& trace, int tracePid)
    : sc_module(name), mte("mte", Engine::Mte, device), device_(device), trace_(trace) {
  cubeCores_ = static_cast<int>(cfg.getInt("aicore.cube_cores"));
  vectorCores_ = static_cast<int>(cfg.getInt("aicore.vector_cores"));
  freqHz_ = cfg.getFloat("aicore.freq_ghz") * 1e9;
  cubeMacsPerCycle_ = cfg.getFloat("aicore.cube_macs_per_cycle");
  vectorBytesPerCycle_ = cfg.getFloat("aicore.vector_bytes_per_cycle");
  mte1BytesPerCycle_ = cfg.has("aicore.mte1_bytes_per_cycle") ? cfg.getFloat("aicore.mte1_bytes_per_cycle")
                                                              : kDefaultMte1BytesPerCycle;
  mteReadBytesPerSec_ = cfg.getFloat("aicore.mte_bytes_per_cycle") * freqHz_;
  const double writeRate = cfg.has("aicore.l2_write_bytes_per_cycle")
                               ? cfg.getFloat("aicore.l2_write_bytes_per_cycle")
                               : kDefaultL2WriteBytesPerCycle;
  mteWriteBytesPerSec_ = writeRate * freqHz_;
  launchOverhead_ = nsToTick(cfg.getFloat("aicore.task_start_ns"));
  stats_.resize(static_cast<size_t>(cubeCores_ + vectorCores_));
  if (trace_.wants(trace::Level::Task)) {
    for (int i = 0; i < cubeCores_; ++i)
      tracks_.push_back(trace_.thread(tracePid, fmt::format("AI Core {}", i), 200 + i));
    for (int i = 0; i < vectorCores_; ++i)
      tracks_.push_back(trace_.thread(tracePid, fmt::format("AI Vector {}", i), 300 + i));
  }
}

AiCoreCluster::~AiCoreCluster() = default;

double AiCoreCluster::cubePeakMacsPerSec() const { return cubeCores_ * cubeMacsPerCycle_ * freqHz_; }

// Moves core `c` as far as what is known allows: computes the next tile once its data is in and
// an output buffer is free, and schedules the next store and load.
void AiCoreCluster::advance(CoreRun& c, const OpWork& work, uint64_t taskId, std::vector<Event>& heap,
                            uint64_t& seq) {
  const size_t n = c.tiles.size();
  const size_t outSlots = outputSlots(work, c.cube), inSlots = inputSlots(work);
  const double macRate = cubeMacsPerCycle_ * std::max(1, work.cubeMacsPerCycleScale);
  auto push = [&](Tick t, bool store) {
    heap.push_back({t, seq++, &c, store});
    std::push_heap(heap.begin(), heap.end(), std::greater<Event>());
  };
  for (bool changed = true; changed;) {
    changed = false;
    const size_t j = c.computed;
    if (j < c.loaded && (j < outSlots || c.storedCount > j - outSlots)) {
      const TileWork& tile = work.tiles[c.tiles[j]];
      Tick start = c.arrive[j];
      if (j > 0) start = std::max(start, c.cend[j - 1]);
      if (j >= outSlots) start = std::max(start, c.stored[j - outSlots]);
      const double vectorCycles = static_cast<double>(tile.vectorBytes) / vectorBytesPerCycle_;
      // Cube: the MTE1 feeds L0 while the cube multiplies (kernels double-buffer L0).
      const double cycles = c.cube ? std::max(static_cast<double>(tile.cubeMacs) / macRate,
                                              static_cast<double>(tile.localBytes) / mte1BytesPerCycle_) +
                                         (work.kernelBlocks ? vectorCycles : 0.0)
                                   : vectorCycles;
      const Tick end = start + cyclesToTicks(cycles, freqHz_);
      c.cend[j] = end;
      c.computed++;
      stats_[static_cast<size_t>(c.slot)].tiles++;
      stats_[static_cast<size_t>(c.slot)].busy += end - start;
      if (!tracks_.empty()) {
        trace::Args a;
        a.add("tile", static_cast<uint64_t>(c.tiles[j])).add("task", taskId);
        if (tile.readBytes) a.add("hbm_read_bytes", tile.readBytes);
        if (tile.writeBytes) a.add("write_bytes", tile.writeBytes);
        trace_.slice(tracks_[static_cast<size_t>(c.slot)], "tile", "aicore", start, end - start, &a);
      }
      changed = true;
    }
    if (!c.storePending && c.storedCount < c.computed) {
      push(std::max(c.cend[c.storedCount], c.mte3Free), true);
      c.storePending = true;
    }
    const size_t l = c.loaded;
    // A tile after another block's flag waits until that block's tile is stored (TileWork::after).
    Tick flagSet = 0;
    c.blocked = false;
    if (!c.loadPending && l < n && work.tiles[c.tiles[l]].after >= 0 && !ignoreAfter_) {
      const auto [oc, oj] = owner_[static_cast<size_t>(work.tiles[c.tiles[l]].after)];
      const CoreRun& o = runs_[oc];
      c.blocked = o.storedCount <= oj;
      if (!c.blocked) flagSet = o.stored[oj] + cyclesToTicks(work.tiles[c.tiles[l]].afterCycles, freqHz_);
    }
    if (!c.loadPending && !c.blocked && l < n && (l < inSlots || c.computed > l - inSlots)) {
      // The scalar unit issues tile l once its buffer is free (AllocTensor waits), after the
      // scalar work before it; the copy starts when both it and the MTE2 are ready.
      Tick issue = std::max(c.scalarFree, flagSet);
      if (l >= inSlots) issue = std::max(issue, c.cend[l - inSlots]);  // its buffer is free
      const double scalar = work.tiles[c.tiles[l]].scalarCycles;
      if (scalar > 0) issue += cyclesToTicks(scalar, freqHz_);
      c.scalarFree = issue;
      push(std::max(c.mte2Free, issue), false);
      c.loadPending = true;
    }
  }
}

// Load of core c's next tile answered by memory at `memDone`: its data is in once the MTE2 has
// also moved it at its own rate; one copy in flight, the next starts when this one's data is in.
void AiCoreCluster::loadDone(CoreRun& c, const OpWork& work, Tick memDone) {
  const TileWork& tile = work.tiles[c.tiles[c.loaded]];
  const Tick in = tile.readBytes
                      ? std::max(memDone, c.loadIssued + transferTicks(tile.readBytes, mteReadBytesPerSec_))
                      : c.loadIssued;
  c.arrive[c.loaded] = in;
  c.mte2Free = in;
  c.loaded++;
  c.loadPending = false;
}

// Store of core c's next tile issued: the buffer is free once the engine has read it out.
void AiCoreCluster::storeIssued(CoreRun& c, const OpWork& work, Tick t) {
  const size_t j = c.storedCount;
  const TileWork& tile = work.tiles[c.tiles[j]];
  c.stored[j] = tile.writeBytes ? t + transferTicks(tile.writeBytes, mteWriteBytesPerSec_) : t;
  c.last = std::max({c.last, c.stored[j], c.cend[j]});
  c.storedCount++;
}

// The store issued last by core c acknowledged by memory at `memDone`: the engine takes the next
// copy then; the operator is complete when all writes are.
void AiCoreCluster::storeDone(CoreRun& c, const OpWork& work, Tick memDone, Tick& opEnd) {
  const size_t j = c.storedCount - 1;
  if (work.tiles[c.tiles[j]].writeBytes) {
    c.mte3Free = std::max(c.stored[j], memDone);
    opEnd = std::max(opEnd, c.mte3Free);
  }
  opEnd = std::max(opEnd, c.last);
  c.storePending = false;
}

void AiCoreCluster::run(const OpWork& work, const std::string& name, uint64_t taskId) {
  while (busy_) sc_core::wait(freed_);
  busy_ = true;
  sc_core::wait(toScTime(launchOverhead_));

  const Tick t0 = now();

  // How kernels share out their work: a matmul's cores loop over blocks i = blockIdx,
  // blockIdx + blockDim, ...; a vector kernel gives each core one contiguous range of the
  // tensor (blockLength x blockIdx) and loops over its tiles. A mixed kernel's cube tiles go to
  // the cube cores and its vector tiles to the vector cores, each part shared out so.
  const size_t n = work.tiles.size();
  struct Part {
    size_t first, count;
    int cores, base;
    bool cube;
  };
  std::vector<Part> parts;
  if (work.mixedCubeTiles > 0) {
    parts.push_back({0, std::min(work.mixedCubeTiles, n), cubeCores_, 0, true});
    parts.push_back({parts[0].count, n - parts[0].count, vectorCores_, cubeCores_, false});
  } else {
    parts.push_back({0, n, work.cube ? cubeCores_ : vectorCores_, work.cube ? 0 : cubeCores_, work.cube});
  }
  size_t k = 0;  // cores in use
  for (const Part& p : parts) k += std::min(static_cast<size_t>(p.cores), p.count);
  if (runs_.size() < k) runs_.resize(k);
  size_t r = 0;
  for (const Part& p : parts) {
    const size_t pk = std::min(static_cast<size_t>(p.cores), p.count);
    for (size_t c = 0; c < pk; ++c, ++r) {
      CoreRun& core = runs_[r];
      core.reset(p.base + static_cast<int>(c), p.cube, t0);
      if (p.cube && !work.kernelBlocks) {
        for (size_t i = c; i < p.count; i += pk) core.tiles.push_back(p.first + i);
      } else {  // core c takes tiles [first, first + count): the first count % pk cores one more
        const size_t count = p.count / pk + (c < p.count % pk ? 1 : 0),
                     first = c * (p.count / pk) + std::min(c, p.count % pk);
        for (size_t i = first; i < first + count; ++i) core.tiles.push_back(p.first + i);
      }
      core.arrive.resize(core.tiles.size());
      core.cend.resize(core.tiles.size());
      core.stored.resize(core.tiles.size());
    }
  }

  // Where each tile runs, when some tile waits for another core's (TileWork::after).
  bool links = false;
  for (const TileWork& t : work.tiles) links = links || t.after >= 0;
  ignoreAfter_ = false;
  owner_.clear();
  if (links) {
    owner_.resize(n);
    for (size_t c = 0; c < k; ++c)
      for (size_t j = 0; j < runs_[c].tiles.size(); ++j) owner_[runs_[c].tiles[j]] = {c, j};
  }
  auto wakeBlocked = [&] {
    for (size_t c = 0; c < k; ++c)
      if (runs_[c].blocked) advance(runs_[c], work, taskId, heap_, seq_);
  };

  std::vector<Event>& heap = heap_;
  heap.clear();
  uint64_t& seq = seq_;
  seq = 0;
  for (size_t c = 0; c < k; ++c) advance(runs_[c], work, taskId, heap, seq);

  // The MTEs run decoupled: `local` is the cluster's own time, up to a quantum ahead of the
  // kernel; each load and store reaches the memory with its time as the annotated delay. Toward
  // an approximately-timed memory every core's load and store are in flight at once instead:
  // an event is issued when the kernel reaches its time, and the answers drive the cores on.
  const bool at = mte.approximatelyTimed();
  AccessWaiter& waiter = waiter_;
  const Tick quantum = globalQuantum();
  Tick local = t0;
  Tick opEnd = t0;
  for (;;) {
    while (!waiter.empty()) {  // answers: tag = core << 1 | store
      const AccessWaiter::Done d = waiter.take();
      CoreRun& c = runs_[d.tag >> 1];
      if (d.tag & 1)
        storeDone(c, work, d.at, opEnd);
      else
        loadDone(c, work, d.at);
      advance(c, work, taskId, heap, seq);
    }
    if (heap.empty()) {
      if (waiter.outstanding() == 0) {
        bool stuck = false;
        for (size_t c = 0; c < k; ++c) stuck = stuck || runs_[c].blocked;
        if (!stuck) break;
        ignoreAfter_ = true;  // a wait no store can satisfy (cannot come from a kernel that ran): go on
        wakeBlocked();
        continue;
      }
      waiter.wait();
      continue;
    }
    if (at && heap.front().t > now()) {
      waiter.wait(heap.front().t - now());
      continue;
    }
    std::pop_heap(heap.begin(), heap.end(), std::greater<Event>());
    const Event ev = heap.back();
    heap.pop_back();
    local = std::max(local, at ? std::max(ev.t, now()) : ev.t);  // AT: issued when the kernel is there
    syncIfBeyondQuantum(local, quantum);
    CoreRun& c = *ev.core;
    const uint64_t tag = static_cast<uint64_t>(&c - runs_.data()) << 1 | (ev.store ? 1 : 0);
    const TileWork& tile = work.tiles[c.tiles[ev.store ? c.storedCount : c.loaded]];
    const uint64_t bytes = ev.store ? tile.writeBytes : tile.readBytes;
    if (ev.store) {
      storeIssued(c, work, local);
      if (links) wakeBlocked();
    } else {
      c.first = std::min(c.first, local);
      c.loadIssued = local;
    }
    if (!bytes) {  // nothing to move: done when issued
      ev.store ? storeDone(c, work, local, opEnd) : loadDone(c, work, local);
    } else if (at) {
      mte.setContext(c.slot, taskId);
      mte.start(ev.store ? tile.writeAddr : tile.readAddr, bytes, ev.store, local, waiter, tag);
      continue;
    } else {
      mte.setContext(c.slot, taskId);
      const Tick memDone = mte.access(ev.store ? tile.writeAddr : tile.readAddr, bytes, ev.store, local);
      ev.store ? storeDone(c, work, memDone, opEnd) : loadDone(c, work, memDone);
    }
    advance(c, work, taskId, heap, seq);
  }
  waitUntil(std::max(local, opEnd));
  if (!tracks_.empty()) {
    for (size_t i = 0; i < k; ++i) {
      const CoreRun& c = runs_[i];
      if (c.tiles.empty()) continue;
      trace::Args a;
      a.add("task", taskId).add("tiles", static_cast<uint64_t>(c.tiles.size()));
      trace_.slice(tracks_[static_cast<size_t>(c.slot)], name, "op", c.first, c.last - c.first, &a);
    }
  }
  busy_ = false;
  freed_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace npusim::aicore

#include "models/aicore/ai_core_cluster.h"

#include <fmt/format.h>

#include <algorithm>
#include <queue>

#include "npusim/config.h"

namespace npusim::aicore {

namespace {
Tick now() { return static_cast<Tick>(sc_core::sc_time_stamp().value()); }
void waitUntil(Tick t) {
  Tick n = now();
  if (t > n) sc_core::wait(sc_core::sc_time(static_cast<double>(t - n), sc_core::SC_PS));
}
}  // namespace

AiCoreCluster::AiCoreCluster(int device, const Config& cfg, MemoryPort& hbm, trace::TraceWriter& trace,
                             int tracePid)
    : device_(device), hbm_(hbm), trace_(trace) {
  cubeCores_ = static_cast<int>(cfg.getInt("aicore.cube_cores"));
  vectorCores_ = static_cast<int>(cfg.getInt("aicore.vector_cores"));
  freqHz_ = cfg.getFloat("aicore.freq_ghz") * 1e9;
  cubeMacsPerCycle_ = cfg.getFloat("aicore.cube_macs_per_cycle");
  vectorBytesPerCycle_ = cfg.getFloat("aicore.vector_bytes_per_cycle");
  mteBytesPerCycle_ = cfg.getFloat("aicore.mte_bytes_per_cycle");
  launchOverhead_ = nsToTick(cfg.getFloat("aicore.task_start_ns"));
  stats_.resize(static_cast<size_t>(cubeCores_ + vectorCores_));
  if (trace_.wants(trace::Level::Task)) {
    for (int i = 0; i < cubeCores_; ++i)
      tracks_.push_back(trace_.thread(tracePid, fmt::format("AI Core {}", i), 200 + i));
    for (int i = 0; i < vectorCores_; ++i)
      tracks_.push_back(trace_.thread(tracePid, fmt::format("AI Vector {}", i), 300 + i));
  }
}

double AiCoreCluster::cubePeakMacsPerSec() const { return cubeCores_ * cubeMacsPerCycle_ * freqHz_; }

void AiCoreCluster::run(const rt::OpWork& work, const std::string& name, uint64_t taskId) {
  while (busy_) sc_core::wait(freed_);
  busy_ = true;
  sc_core::wait(sc_core::sc_time(static_cast<double>(launchOverhead_), sc_core::SC_PS));

  const int cores = work.cube ? cubeCores_ : vectorCores_;
  const int base = work.cube ? 0 : cubeCores_;
  const double macRate = cubeMacsPerCycle_ * std::max(1, work.cubeMacsPerCycleScale);
  const double mteRate = mteBytesPerCycle_ * freqHz_;
  const size_t n = work.tiles.size();

  // Per core: its tiles (round-robin), the next tile to load, and the compute pipeline.
  struct Core {
    std::vector<size_t> tiles;
    size_t nextLoad = 0;
    Tick computeEnd = 0;  // end of the latest computed tile
    Tick mteFree = 0;
    Tick start = kTickMax, end = 0;
  };
  std::vector<Core> cs(static_cast<size_t>(cores));
  for (size_t i = 0; i < n; ++i) cs[i % static_cast<size_t>(cores)].tiles.push_back(i);

  // Events in time order across cores so HBM sees requests in time order: loads and stores.
  enum Kind { kLoad = 0, kStore = 1 };
  struct Ev {
    Tick t;
    uint64_t seq;
    int core;
    int kind;
    size_t tile;
    bool operator>(const Ev& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };
  std::priority_queue<Ev, std::vector<Ev>, std::greater<Ev>> pq;
  uint64_t seq = 0;
  const Tick t0 = now();
  for (int c = 0; c < cores; ++c)
    if (!cs[c].tiles.empty()) pq.push({t0, seq++, c, kLoad, cs[c].tiles[0]});
  Tick opEnd = t0;

  while (!pq.empty()) {
    Ev ev = pq.top();
    pq.pop();
    waitUntil(ev.t);
    Core& core = cs[static_cast<size_t>(ev.core)];
    const rt::TileWork& tile = work.tiles[ev.tile];
    if (ev.kind == kLoad) {
      Tick t = now();
      Tick loaded = t;
      if (tile.readBytes) {
        loaded = std::max(hbm_.access(tile.readAddr, tile.readBytes, false, t),
                          t + transferTicks(tile.readBytes, mteRate));
      }
      double cycles = work.cube ? static_cast<double>(tile.cubeMacs) / macRate
                                : static_cast<double>(tile.vectorBytes) / vectorBytesPerCycle_;
      Tick cstart = std::max(loaded, core.computeEnd);
      Tick cend = cstart + cyclesToTicks(cycles, freqHz_);
      core.start = std::min(core.start, t);
      if (!tracks_.empty()) {
        trace::Args a;
        a.add("tile", static_cast<uint64_t>(ev.tile)).add("task", taskId);
        trace_.slice(tracks_[static_cast<size_t>(base + ev.core)], "tile", "aicore", cstart, cend - cstart,
                     &a);
      }
      stats_[static_cast<size_t>(base + ev.core)].tiles++;
      stats_[static_cast<size_t>(base + ev.core)].busy += cend - cstart;
      Tick prevEnd = core.computeEnd;  // tile j-1 done: its buffer is free for tile j+1
      core.computeEnd = cend;
      pq.push({cend, seq++, ev.core, kStore, ev.tile});
      if (++core.nextLoad < core.tiles.size()) {
        // Two buffers: the next load needs the MTE (free at `loaded`) and the buffer that the
        // previous tile used (free when its compute ended).
        Tick next = std::max(loaded, prevEnd);
        pq.push({next, seq++, ev.core, kLoad, core.tiles[core.nextLoad]});
      }
    } else {
      Tick t = now();
      Tick stored = t;
      if (tile.writeBytes)
        stored = std::max(hbm_.access(tile.writeAddr, tile.writeBytes, true, t),
                          t + transferTicks(tile.writeBytes, mteRate));
      core.end = std::max(core.end, stored);
      opEnd = std::max(opEnd, stored);
    }
  }
  waitUntil(opEnd);
  if (!tracks_.empty()) {
    for (int c = 0; c < cores; ++c) {
      const Core& core = cs[static_cast<size_t>(c)];
      if (core.tiles.empty()) continue;
      trace::Args a;
      a.add("task", taskId).add("tiles", static_cast<uint64_t>(core.tiles.size()));
      trace_.slice(tracks_[static_cast<size_t>(base + c)], name, "op", core.start, core.end - core.start, &a);
    }
  }
  busy_ = false;
  freed_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace npusim::aicore

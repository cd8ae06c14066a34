#pragma once
// The AI cores of one device: cube cores and vector cores that run an operator's tiles.
// Each core moves its tiles between HBM and its buffers through the MTE engines (TLM
// transactions to the same memory target the DMA uses) and computes them on the cube or vector unit, with
// double buffering so the next tile's load overlaps the current tile's compute.
// docs/aicore.md describes the pipeline and where each parameter comes from.
#include <cstdint>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "models/aicore/op_work.h"
#include "models/common/memory_initiator.h"
#include "traces/trace_writer.h"

namespace npusim {
class Config;
}

namespace npusim::aicore {

struct CoreStats {
  uint64_t tiles = 0;
  Tick busy = 0;  // time the cube/vector unit computed
};

class AiCoreCluster : public sc_core::sc_module {
 public:
  AiCoreCluster(sc_core::sc_module_name name, int device, const Config& cfg, trace::TraceWriter& trace,
                int tracePid);
  ~AiCoreCluster() override;

  // The cores' MTE engines reach HBM through one initiator socket, "mte" (the extension names
  // the core); it is bound to the device's memory bus.
  MemoryInitiator mte;

  // Runs the operator's tiles on the cores; call from a SystemC thread. Returns when all
  // tiles are done. Operators run one at a time on a device's cores (FIFO).
  void run(const OpWork& work, const std::string& name, uint64_t taskId);

  int cubeCores() const { return cubeCores_; }
  int vectorCores() const { return vectorCores_; }
  double cubePeakMacsPerSec() const;
  const std::vector<CoreStats>& stats() const { return stats_; }

 private:
  struct CoreRun;
  struct Event;
  void advance(CoreRun& c, const OpWork& work, uint64_t taskId, std::vector<Event>& heap, uint64_t& seq);
  void loadDone(CoreRun& c, const OpWork& work, Tick memDone);
  void storeIssued(CoreRun& c, const OpWork& work, Tick t);
  void storeDone(CoreRun& c, const OpWork& work, Tick memDone, Tick& opEnd);

  int device_;
  trace::TraceWriter& trace_;
  int cubeCores_;
  int vectorCores_;
  double freqHz_;
  double cubeMacsPerCycle_;
  double vectorBytesPerCycle_;
  double mte1BytesPerCycle_;    // L1 -> L0A/L0B (and L0C -> UB) moves of a cube core
  double mteReadBytesPerSec_;   // MTE2: GM -> core, per core
  double mteWriteBytesPerSec_;  // MTE3 / fixpipe: core -> GM (into the write-back L2), per core
  Tick launchOverhead_;
  std::vector<trace::Track> tracks_;  // cube cores first, then vector cores
  std::vector<CoreStats> stats_;
  bool busy_ = false;
  sc_core::sc_event freed_;
  // Per-operator scratch, kept between operators so a small one allocates nothing.
  std::vector<CoreRun> runs_;
  std::vector<Event> heap_;
  AccessWaiter waiter_;  // the MTEs' AT answers
  uint64_t seq_ = 0;
  // Tile -> (core, index among its tiles), when tiles wait for other cores' (TileWork::after).
  std::vector<std::pair<size_t, size_t>> owner_;
  bool ignoreAfter_ = false;
};

}  // namespace npusim::aicore

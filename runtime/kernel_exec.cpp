// Custom kernels: running blocks functionally, turning what they did into AI-core work,
// kernel faults and printf output (runtime/kernel_exec.h).
#include "runtime/kernel_exec.h"

#include <fmt/format.h>
#include <signal.h>

#include <algorithm>
#include <array>
#include <csetjmp>
#include <cstdio>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "npusim/config.h"
#include "npusim/npusim.h"
#include "runtime/block_runner.h"
#include "runtime/core_programs.h"
#include "runtime/device_vars.h"
#include "runtime/op_launch.h"
#include "runtime/runtime.h"

namespace npusim::rt::kernels {

namespace {

struct Event {
  int kind;
  uint64_t bytes;
  uint64_t gm;
};
// A block's wait for a GM flag (npusimKernelFlagExchange), among its events: what follows starts
// after event `gm` of block `bytes` (the flag's last write) is stored.
constexpr int kWaitEvent = 100;
// A block's arrival at a SyncAll: it ends the block's current tile, which the others then wait for.
constexpr int kArriveEvent = 101;
// A program's CrossCoreWaitFlag: as kWaitEvent, the wait lasting aicore.cross_core_sync_cycles more.
constexpr int kCrossWaitEvent = 102;
// The `bytes` (block) of a vector program's wait for its cube core's part of a Matmul call, until
// that part is placed (Run::execute): `gm` is the call's index among the program's CubeSpans.
constexpr uint64_t kCubePart = ~uint64_t{0};

// What the blocks of one execution share to wait for each other through GM flags.
struct BlockSync {
  BlockRunner* runner = nullptr;
  int64_t residentLimit = 0;  // blocks that can be resident at once (vector cores); 0: no limit
  struct Writer {
    int64_t block;
    size_t event;
  };
  std::map<const int32_t*, Writer> lastWrite;  // by flag address
  // SyncAll: the blocks that met at each barrier so far (the n-th call of each block is barrier
  // n), with the event each arrived after, and how many blocks meet (0: no barrier yet).
  std::vector<std::vector<Writer>> barriers;
  int32_t barrierBlocks = 0;
  // The programs the launch runs (a mixed kernel's cube and vector programs) and their flags.
  ProgramLayout layout;
  CrossCoreFlags flags;
  uint32_t vectorsPerCube = 1;    // the device's aicore.vector_cores / aicore.cube_cores
  int64_t cubeResidentLimit = 0;  // cube programs that can be resident at once; 0: no limit
  // A Matmul API kernel (npusimKernelMixed): its vector programs do the cube's work, timed on
  // their AI core's cube core.
  bool cubeServesVectors = false;
};

// What the sort instructions cost on the vector unit (docs/kernels.md), as vector bytes.
struct SortRates {
  double rpsort16CyclesPerRepeat = 0, mrgsort4ProposalsPerCycle = 1, vectorBytesPerCycle = 1;
  double sort32CyclesPerRepeat = 0;
};

// A core's buffers (npusimKernelMemory order: UB, L1, L0A, L0B, L0C), reused by the blocks a
// worker runs one after another; each is made when a block first uses it (vector kernels never
// pay for the cube core's).
constexpr int kMemories = 5;
using MemorySizes = std::array<uint64_t, kMemories>;
constexpr uint64_t kL0Align = 512;  // LoadData and Mmad address L0 in 512-byte fractals
struct CoreBuffers {
  MemorySizes sizes;
  std::array<std::vector<uint8_t>, kMemories> bytes;
  explicit CoreBuffers(const MemorySizes& s) : sizes(s) {}
  uint8_t* base(int m) {
    auto& b = bytes[static_cast<size_t>(m)];
    if (b.empty()) b.resize(sizes[static_cast<size_t>(m)] + kL0Align);
    const auto p = reinterpret_cast<uintptr_t>(b.data());
    return reinterpret_cast<uint8_t*>((p + kL0Align - 1) / kL0Align * kL0Align);
  }
  uint64_t size(int m) const { return sizes[static_cast<size_t>(m)]; }
  bool made(int m) const { return !bytes[static_cast<size_t>(m)].empty(); }
};

// One running block, seen by the kernel ABI functions through a thread-local pointer.
struct BlockState {
  int64_t idx = 0;  // the program's index in the launch (runtime/core_programs.h)
  int64_t num = 0;  // programs the launch runs
  CoreBuffers* mem = nullptr;
  std::array<uint64_t, kMemories> used{};
  bool cube = false;       // used a cube core's buffers or units (docs/kernels.md: placement)
  bool crossSets = false;  // it called CrossCoreSetFlag
  // A Matmul API kernel's vector program: what its Matmul objects did for it (npusimKernelCubeWork),
  // timed on its AI core's cube core. `arrive` ends the program's tile before the call, `wait`
  // waits for the cube's part after it; `done` is where the cube's part ends among the cube
  // core's events.
  struct CubeSpan {
    size_t arrive = 0, wait = 0, done = 0;
    std::vector<Event> events;
  };
  std::vector<CubeSpan> spans;
  int cubeDepth = 0;
  std::vector<Event> events;
  double scalarCycles = 0;        // the prologue the filter cannot count (the default, or the kernel's own)
  double cyclesPerScalarOp = 1;   // what each scalar operation the filter counted costs
  int inSlots = 0, outSlots = 0;  // fewest buffers of its VECIN / VECOUT queues (0: none)
  BlockSync* sync = nullptr;
  bool usedFlags = false;     // it wrote a GM flag others may wait for, or met others at a SyncAll
  size_t barriersPassed = 0;  // SyncAll calls so far
  SortRates sort;
  std::string* print = nullptr;
  sigjmp_buf jump;
  bool jumpArmed = false;
  std::string faultWhy;
  bool faultInCubeWork = false;  // it faulted inside a Matmul call, the cube core's work
};
thread_local BlockState* tBlock = nullptr;

// The buffers of a CPU debug run when the configuration cannot be read: the A2 cores' (UB, L1,
// L0A, L0B, L0C; hardware.md §1.2, as configs/910b.json).
constexpr MemorySizes kCpuMemoryBytes = {196608, 524288, 65536, 65536, 131072};

// Thrown by npusimKernelFault: unwinds the kernel's frames back to the block runner.
struct KernelAbort {};

// Kernel printf output waiting for a synchronisation to print it, per device (runtime lock held).
std::vector<std::string>& pendingOutput() {
  static std::vector<std::string> p;
  return p;
}
std::string& outputFor(int device) {
  auto& p = pendingOutput();
  if (p.size() <= static_cast<size_t>(device)) p.resize(static_cast<size_t>(device) + 1);
  return p[static_cast<size_t>(device)];
}

aclrtExceptionInfoCallback gCallback = nullptr;
std::vector<aclrtExceptionInfoCallback>& registered() {
  static std::vector<aclrtExceptionInfoCallback> v;
  return v;
}

// ---- signals while blocks run ----------------------------------------------------------------

const int kSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
struct sigaction gOld[4];

void onSignal(int sig, siginfo_t* si, void* uc) {
  BlockState* b = tBlock;
  if (b && b->jumpArmed) {
    b->jumpArmed = false;
    // The handler runs in signal context: the message is made after the jump.
    siglongjmp(b->jump, sig == SIGSEGV || sig == SIGBUS ? 1 : 2);
  }
  for (int i = 0; i < 4; ++i) {
    if (kSignals[i] != sig) continue;
    const struct sigaction& old = gOld[i];
    if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction) {
      old.sa_sigaction(sig, si, uc);
      return;
    }
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
      old.sa_handler(sig);
      return;
    }
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, nullptr);  // returning re-executes the instruction: default action
  }
}

class SignalGuard {
 public:
  SignalGuard() {
    struct sigaction sa {};
    sa.sa_sigaction = onSignal;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 4; ++i) sigaction(kSignals[i], &sa, &gOld[i]);
  }
  ~SignalGuard() {
    for (int i = 0; i < 4; ++i) sigaction(kSignals[i], &gOld[i], nullptr);
  }
};

// Makes `b` program i of the launch whose programs `sync` describes.
void startBlock(BlockState& b, uint32_t i, BlockSync& sync, CoreBuffers* mem, std::string* print) {
  b.idx = i;
  b.num = static_cast<int64_t>(std::max(sync.layout.programs(), i + 1));
  b.mem = mem;
  b.print = print;
  b.sync = &sync;
}

// How a fault names program p: "block 3" in a vector kernel, "AIC 1" / "AIV 3" in a mixed one.
std::string programName(const ProgramLayout& layout, uint32_t p) {
  if (!layout.aic) return fmt::format("block {}", p);
  return fmt::format("{} {}", layout.isAic(p) ? "AIC" : "AIV", layout.blockIdx(p));
}

// Runs one block; false when it faulted (b.faultWhy set).
bool runBlock(BlockState& b, const Launch& k) {
  int how = sigsetjmp(b.jump, 1);
  if (how != 0) {
    b.faultWhy = how == 1 ? "invalid global-memory access (an address outside the device's allocations)"
                          : "illegal instruction or arithmetic fault in kernel code";
    return false;
  }
  b.jumpArmed = true;
  try {
    k.run(k.bound);
  } catch (const KernelAbort&) {
    b.jumpArmed = false;
    return false;
  }
  b.jumpArmed = false;
  return true;
}

// What one block did, as tiles: a tile is a run of copies in, vector work and copies out; the
// next copy in after compute or a copy out starts a new tile (the pipeline's next stage).
// Scalar work counted while a tile loads belongs to that tile; counted once it computes or
// stores, it is the issuing of the next tile (the last tile's when there is none).
// A wait for another block's flag starts a new tile, which waits: `waits` gets (tile, block,
// event) and `eventTile` the tile of each event, for linking the tiles of different blocks.
struct TileWait {
  size_t tile;
  int64_t block;
  size_t event;
  bool crossCore;  // a CrossCoreWaitFlag: the flag reaches the waiter aicore.cross_core_sync_cycles later
};
void blockTiles(const BlockState& b, std::vector<TileWork>& out, std::vector<TileWait>* waitList = nullptr,
                std::vector<uint32_t>* eventTile = nullptr) {
  TileWork t;
  int phase = 0;  // 0 loading, 1 computing, 2 storing
  bool any = false;
  bool waits = false;  // the tile waits for another block already (it can wait for one only)
  double ahead = 0;    // scalar cycles for the next tile
  auto next = [&] {
    out.push_back(t);
    t = TileWork{};
    t.scalarCycles = ahead;
    ahead = 0;
    waits = false;
  };
  for (const Event& e : b.events) {
    if (eventTile) eventTile->push_back(static_cast<uint32_t>(out.size()));
    if (e.kind == kWaitEvent || e.kind == kCrossWaitEvent) {
      if (phase > 0 || t.readBytes || waits) next();  // a SyncAll waits for several: a tile each
      phase = 0;
      waits = true;
      if (waitList)
        waitList->push_back({out.size(), static_cast<int64_t>(e.bytes), static_cast<size_t>(e.gm),
                             e.kind == kCrossWaitEvent});
    } else if (e.kind == kArriveEvent) {
      next();
      phase = 0;
    } else if (e.kind == NPUSIM_KERNEL_PROPOSAL_SORT16 || e.kind == NPUSIM_KERNEL_PROPOSAL_MERGE ||
               e.kind == NPUSIM_KERNEL_SORT32) {
      if (phase == 2) next();
      phase = 1;
      const double cycles = e.kind == NPUSIM_KERNEL_PROPOSAL_SORT16
                                ? static_cast<double>(e.bytes) * b.sort.rpsort16CyclesPerRepeat
                            : e.kind == NPUSIM_KERNEL_SORT32
                                ? static_cast<double>(e.bytes) * b.sort.sort32CyclesPerRepeat
                                : static_cast<double>(e.bytes) / b.sort.mrgsort4ProposalsPerCycle;
      t.vectorBytes += static_cast<uint64_t>(std::llround(cycles * b.sort.vectorBytesPerCycle));
    } else if (e.kind == NPUSIM_KERNEL_SCALAR) {
      (phase == 0 ? t.scalarCycles : ahead) += static_cast<double>(e.bytes) * b.cyclesPerScalarOp;
    } else if (e.kind == NPUSIM_KERNEL_COPY_IN) {
      if (phase > 0) {
        next();
        phase = 0;
      }
      if (!t.readBytes) t.readAddr = e.gm;
      t.readBytes += e.bytes;
    } else if (e.kind == NPUSIM_KERNEL_VECTOR || e.kind == NPUSIM_KERNEL_CUBE ||
               e.kind == NPUSIM_KERNEL_LOCAL_MOVE) {
      if (phase == 2) next();
      phase = 1;
      (e.kind == NPUSIM_KERNEL_VECTOR ? t.vectorBytes
       : e.kind == NPUSIM_KERNEL_CUBE ? t.cubeMacs
                                      : t.localBytes) += e.bytes;
    } else {
      if (!t.writeBytes) t.writeAddr = e.gm;
      t.writeBytes += e.bytes;
      phase = 2;
    }
    any = true;
  }
  t.scalarCycles += ahead;
  if (any || out.empty()) out.push_back(t);
}

}  // namespace

// ---- the launch ----------------------------------------------------------------------------------

namespace {

struct Run {
  Launch k;
  int device = 0;
  // The last execution's fault, until the task's failure is recorded (kernels::takeFault).
  bool faulted = false;
  std::string faultWhy;
  double defaultScalarCycles = 0;
  double cyclesPerScalarOp = 1;
  MemorySizes memoryBytes = kCpuMemoryBytes;
  int vectorCores = 1, cubeCores = 1;
  SortRates sortRates;
  double crossCoreCycles = 0;  // aicore.cross_core_sync_cycles
  ~Run() {
    if (k.release) k.release(k.bound);
  }
  void freeScratch() {
    std::string why;
    for (void* p : k.scratch) Runtime::get().memory().freeDevice(p, &why);
    k.scratch.clear();
  }

  // The cube programs of a Matmul API kernel (`layout` gets them): cube core c takes the Matmul
  // calls of its vector programs in turn (each one's first call, then each one's second, ...);
  // a call's cube part starts once its program has made the call, and the program goes on once
  // that part is done, each hand-over a cross-core message.
  void cubeParts(ProgramLayout& layout, std::vector<std::vector<BlockState::CubeSpan>>& spans,
                 std::vector<std::vector<TileWork>>& perBlock, std::vector<std::vector<TileWait>>& waits,
                 std::vector<std::vector<uint32_t>>& eventTiles) const {
    layout.aic = true;
    const uint32_t ratio = layout.aivPerCore, aivs = layout.aivCount();
    perBlock.resize(layout.programs());
    waits.resize(layout.programs());
    eventTiles.resize(layout.programs());
    spans.resize(aivs);
    for (uint32_t c = 0; c < layout.blockDim; ++c) {
      BlockState aic;
      aic.sort = sortRates;
      aic.cyclesPerScalarOp = cyclesPerScalarOp;
      for (size_t j = 0, left = 1; left > 0; ++j) {
        left = 0;
        for (uint32_t v = c * ratio; v < (c + 1) * ratio; ++v) {
          if (j >= spans[v].size()) continue;
          BlockState::CubeSpan& call = spans[v][j];
          aic.events.push_back({kCrossWaitEvent, v, call.arrive});
          aic.events.insert(aic.events.end(), call.events.begin(), call.events.end());
          call.done = aic.events.size();
          aic.events.push_back({kArriveEvent, 0, 0});
          ++left;
        }
      }
      const uint32_t p = aivs + c;
      blockTiles(aic, perBlock[p], &waits[p], &eventTiles[p]);
      for (uint32_t v = c * ratio; v < (c + 1) * ratio; ++v)
        for (TileWait& w : waits[v])
          if (w.block == static_cast<int64_t>(kCubePart)) {
            w.event = spans[v][w.event].done;
            w.block = p;
          }
    }
  }

  // Runs every block on worker threads (full-size stacks, their own signal context; one block at
  // a time, runtime/block_runner.h), the device's allocations reachable at their device
  // addresses meanwhile.
  void execute(OpWork& work) {
    Runtime& rt = Runtime::get();
    std::string output;
    faulted = false;
    bool faultOnAic = false;  // the faulting program is a mixed kernel's cube program
    std::vector<std::vector<TileWork>> perBlock;
    bool cube = false;
    std::vector<std::vector<TileWait>> waits;
    std::vector<std::vector<uint32_t>> eventTiles;
    std::vector<std::vector<BlockState::CubeSpan>> spans;  // per program: its Matmul calls' cube work
    work.inputSlots = work.outputSlots = 0;
    BlockSync sync;
    {
      devvars::load(device);  // file-scope __gm__ variables take this device's values
      rt.memory().exposeAllocations(device, true);
      SignalGuard guard;
      sync.residentLimit = vectorCores;
      sync.cubeResidentLimit = cubeCores;
      sync.layout.blockDim = k.blockDim;
      sync.vectorsPerCube =
          cubeCores > 0 && vectorCores > cubeCores ? static_cast<uint32_t>(vectorCores / cubeCores) : 1;
      // Core buffers of blocks that ended, for the next ones (blocks that wait keep theirs).
      std::vector<std::unique_ptr<CoreBuffers>> freeBuffers;
      BlockRunner runner(k.blockDim, [&](uint32_t i) {
        std::unique_ptr<CoreBuffers> buffers;
        if (freeBuffers.empty()) {
          buffers = std::make_unique<CoreBuffers>(memoryBytes);
        } else {
          buffers = std::move(freeBuffers.back());
          freeBuffers.pop_back();
        }
        BlockState b;
        startBlock(b, i, sync, buffers.get(), &output);
        b.scalarCycles = defaultScalarCycles;
        b.cyclesPerScalarOp = cyclesPerScalarOp;
        b.sort = sortRates;
        tBlock = &b;
        const bool ok = runBlock(b, k);
        tBlock = nullptr;
        // A mixed kernel found out by its first program runs more programs (runtime/core_programs.h).
        const size_t programs = std::max<size_t>(sync.layout.programs(), i + 1);
        if (perBlock.size() < programs) {
          perBlock.resize(programs);
          waits.resize(programs);
          eventTiles.resize(programs);
        }
        blockTiles(b, perBlock[i], &waits[i], b.usedFlags ? &eventTiles[i] : nullptr);
        if (!b.spans.empty()) {
          if (spans.size() <= i) spans.resize(i + 1);
          spans[i] = std::move(b.spans);
        }
        // The cores pipeline as deep as the blocks' queues allow (the shallowest block decides).
        auto fewest = [](int& have, int block) {
          if (block > 0) have = have == 0 ? block : std::min(have, block);
        };
        fewest(work.inputSlots, b.inSlots);
        fewest(work.outputSlots, b.outSlots);
        perBlock[i].front().scalarCycles += b.scalarCycles;
        cube = cube || b.cube;
        freeBuffers.push_back(std::move(buffers));
        if (!ok && !faulted) {
          faulted = true;
          // A fault inside a Matmul call is the cube core's, whichever program made the call.
          faultOnAic = (sync.layout.aic && sync.layout.isAic(i)) || b.faultInCubeWork;
          faultWhy = fmt::format("kernel {} ({}) raised an exception on NPU {}: {}", k.name,
                                 programName(sync.layout, i), device, b.faultWhy);
        }
        return ok;
      });
      sync.runner = &runner;
      runner.run();
      rt.memory().exposeAllocations(device, false);
      devvars::store(device);
    }
    // A Matmul API kernel's cube core does its vector programs' Matmul calls, in turn: the cube
    // programs the kernel itself does not run, made of those calls.
    ProgramLayout layout = sync.layout;
    if (sync.cubeServesVectors) cubeParts(layout, spans, perBlock, waits, eventTiles);
    // Where each program's tiles go: slot s holds tiles s x perCore ... (its core's run).
    std::vector<size_t> slotOf(perBlock.size());
    for (size_t p = 0; p < slotOf.size(); ++p) slotOf[p] = p;
    size_t cubeSlots = 0, slots = 0;
    const bool split = layout.aic && layout.aivPerCore > 0;
    if (split) {
      // Cube programs on the cube cores (AIC c on core c), vector programs on the vector cores
      // (AIV v on core v), all at the same time.
      cubeSlots = std::max<size_t>(k.blockDim, static_cast<size_t>(cubeCores));
      for (uint32_t p = 0; p < perBlock.size(); ++p)
        slotOf[p] = layout.isAic(p) ? layout.blockIdx(p) : cubeSlots + p;
      slots = cubeSlots + std::max<size_t>(layout.aivCount(), static_cast<size_t>(vectorCores));
    }
    if (layout.aic && layout.aivPerCore == 0) cube = true;  // a cube-only kernel (KERNEL_TYPE_AIC_ONLY)
    // Blocks on cores: a kernel that used a cube core's buffers or units runs on the cube cores,
    // any other on the vector cores. With no more blocks than cores, block b runs on core b (idle
    // cores get empty tiles); with more, the blocks are shared out in order, as the cores free up.
    size_t perCore = 1;
    for (const auto& tiles : perBlock) perCore = std::max(perCore, tiles.size());
    if (!split)
      slots = std::max<size_t>(perBlock.size(), static_cast<size_t>(cube ? cubeCores : vectorCores));
    work.cube = cube && !split;
    work.mixedCubeTiles = cubeSlots * perCore;
    work.kernelBlocks = true;
    work.tiles.assign(slots * perCore, TileWork{});
    for (size_t p = 0; p < perBlock.size(); ++p)
      for (size_t j = 0; j < perBlock[p].size(); ++j) work.tiles[slotOf[p] * perCore + j] = perBlock[p][j];
    // A tile after a wait for another block's flag follows the tile of that block which wrote it
    // (every block has its own core: BlockSync::residentLimit).
    for (size_t b = 0; b < waits.size(); ++b) {
      for (const TileWait& w : waits[b]) {
        if (w.block < 0 || static_cast<size_t>(w.block) >= eventTiles.size()) continue;
        const auto& writer = eventTiles[static_cast<size_t>(w.block)];
        if (w.event >= writer.size()) continue;
        TileWork& t = work.tiles[slotOf[b] * perCore + w.tile];
        t.after = static_cast<int64_t>(slotOf[static_cast<size_t>(w.block)] * perCore + writer[w.event]);
        t.afterCycles = w.crossCore ? crossCoreCycles : 0.0;
      }
    }
    freeScratch();
    outputFor(device) += output;
    // The device reports a fault of a vector (AIV) kernel as a vector-core exception whatever its
    // cause (a trap included), as the CANN samples show; of a cube (AIC) kernel, as an AI-core one;
    // of a mixed kernel, after the program that faulted.
    const bool aicFault = split ? faultOnAic : cube;
    if (faulted) work.fault = aicFault ? ACL_ERROR_RT_AICORE_EXCEPTION : ACL_ERROR_RT_VECTOR_CORE_EXCEPTION;
  }
};

// The operator task's `before`: a named type, so that the launch can be found in the task again.
struct RunBefore {
  std::shared_ptr<Run> run;
  void operator()(OpWork& work) const { run->execute(work); }
};

}  // namespace

const Launch* launchOf(const sched::OperatorTask& op) {
  const RunBefore* r = op.before.target<RunBefore>();
  return r ? &r->run->k : nullptr;
}

bool replaceLaunch(sched::OperatorTask& op, Launch&& k) {
  RunBefore* r = op.before.target<RunBefore>();
  if (!r) return false;
  Launch& old = r->run->k;
  if (old.release) old.release(old.bound);
  old = std::move(k);
  op.name = old.name;
  return true;
}

aclError launch(aclrtStream stream, Launch&& k) {
  auto run = std::make_shared<Run>();
  run->k = std::move(k);
  Runtime& rt = Runtime::get();
  std::unique_lock<std::recursive_mutex> lock = rt.lockForCall();
  if (run->k.blockDim == 0 || run->k.blockDim > 65535) {
    return setRecentError(run->k.name.c_str(),
                          fmt::format("blockDim {} is outside 1..65535", run->k.blockDim),
                          ACL_ERROR_INVALID_PARAM);
  }
  if (rt.ensure(nullptr)) {
    aclError err;
    std::string why;
    Stream* s = rt.resolveStream(stream, &err, &why);
    if (s) {
      run->device = s->device;
      devvars::ensureAll(s->device);
      const Config& cfg = rt.platform().config();
      run->defaultScalarCycles =
          cfg.has("aicore.kernel_scalar_cycles") ? cfg.getFloat("aicore.kernel_scalar_cycles") : 0;
      run->cyclesPerScalarOp = cfg.getFloat("aicore.scalar_cycles_per_op");
      const char* memoryKeys[kMemories] = {"aicore.ub_bytes", "aicore.l1_bytes", "aicore.l0a_bytes",
                                           "aicore.l0b_bytes", "aicore.l0c_bytes"};
      for (int m = 0; m < kMemories; ++m)
        if (cfg.has(memoryKeys[m])) run->memoryBytes[m] = static_cast<uint64_t>(cfg.getInt(memoryKeys[m]));
      run->vectorCores = static_cast<int>(cfg.getInt("aicore.vector_cores"));
      run->cubeCores = static_cast<int>(cfg.getInt("aicore.cube_cores"));
      run->sortRates.rpsort16CyclesPerRepeat = cfg.getFloat("aicore.rpsort16_cycles_per_repeat");
      run->sortRates.mrgsort4ProposalsPerCycle = cfg.getFloat("aicore.mrgsort4_proposals_per_cycle");
      run->sortRates.vectorBytesPerCycle = cfg.getFloat("aicore.vector_bytes_per_cycle");
      run->sortRates.sort32CyclesPerRepeat = cfg.getFloat("aicore.sort32_cycles_per_repeat");
      run->crossCoreCycles = cfg.getFloat("aicore.cross_core_sync_cycles");
    }
  }
  OpLaunch op;
  op.name = run->k.name;
  op.argsSummary = fmt::format("blockDim={}{}{}", run->k.blockDim, run->k.argsSummary.empty() ? "" : ", ",
                               run->k.argsSummary);
  op.before = RunBefore{run};
  // launchOperator's call waits its turn among the host threads: with the runtime lock still held
  // here, no other thread could make the call it waits for (a false idle thread, a stall).
  lock.unlock();
  const aclError r = launchOperator(stream, std::move(op));
  if (r != ACL_SUCCESS) {
    lock.lock();
    run->freeScratch();
  }
  return r;
}

void flushOutput(int device) {
  auto& all = pendingOutput();
  for (size_t d = 0; d < all.size(); ++d) {
    std::string& text = all[d];
    if ((device >= 0 && static_cast<size_t>(device) != d) || text.empty()) continue;
    std::fflush(stdout);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    text.clear();
  }
}

bool takeFault(const sched::OperatorTask& op, std::string* why, const void** funcHandle) {
  const RunBefore* r = op.before.target<RunBefore>();
  if (!r || !r->run->faulted) return false;
  r->run->faulted = false;
  *why = std::move(r->run->faultWhy);
  *funcHandle = r->run->k.funcHandle;
  return true;
}

void runCallbacks(rtExceptionInfo& info) {
  std::vector<aclrtExceptionInfoCallback> cbs = registered();
  if (gCallback) cbs.insert(cbs.begin(), gCallback);
  for (auto cb : cbs) cb(&info);
}

aclError setCallback(aclrtExceptionInfoCallback cb) {
  std::lock_guard<std::recursive_mutex> lock(Runtime::get().mu);
  gCallback = cb;
  return ACL_SUCCESS;
}

aclError registerCallback(aclrtExceptionInfoCallback cb, bool add) {
  std::lock_guard<std::recursive_mutex> lock(Runtime::get().mu);
  auto& v = registered();
  auto it = std::find(v.begin(), v.end(), cb);
  if (add) {
    if (!cb) return ACL_ERROR_INVALID_PARAM;
    if (it == v.end()) v.push_back(cb);
  } else {
    if (it == v.end()) return ACL_ERROR_INVALID_PARAM;
    v.erase(it);
  }
  return ACL_SUCCESS;
}

}  // namespace npusim::rt::kernels

// ---- the kernel ABI (include/ascendc/npusim_kernel_abi.h) -------------------------------------------

namespace {

using npusim::rt::kernels::BlockState;
using npusim::rt::kernels::BlockSync;
using npusim::rt::kernels::ProgramLayout;
using npusim::rt::kernels::programName;
using npusim::rt::kernels::tBlock;

BlockSync& crossCoreSync(const char* call) {
  if (!tBlock || !tBlock->sync || !tBlock->sync->runner)
    npusimKernelFault(0, fmt::format("{} outside a kernel", call).c_str());
  return *tBlock->sync;
}

// The kernel becomes `type` (npusimKernelType): more programs may run from now on.
void declareType(BlockSync& sync, int type) {
  ProgramLayout next = sync.layout;
  if (!next.declare(type, sync.vectorsPerCube))
    npusimKernelFault(0, fmt::format("KERNEL_TASK_TYPE_DEFAULT: unknown kernel type {}", type).c_str());
  if (sync.layout.typed) {
    if (next.aic != sync.layout.aic || next.aivPerCore != sync.layout.aivPerCore)
      npusimKernelFault(0, "the kernel declares two different kernel types (KERNEL_TASK_TYPE_DEFAULT)");
    return;
  }
  sync.layout = next;
  if (sync.runner) sync.runner->extend(sync.layout.programs());
}

}  // namespace

using npusim::rt::kernels::tBlock;

extern "C" {

int npusimKernelLaunch(const char* name, uint32_t blockDim, void* stream, npusimKernelBody run, void* bound,
                       npusimKernelFree release) {
  npusim::rt::kernels::Launch k;
  k.name = name ? name : "kernel";
  k.blockDim = blockDim;
  k.run = run;
  k.bound = bound;
  k.release = release;
  return npusim::rt::kernels::launch(stream, std::move(k));
}

int64_t npusimKernelBlockIdx(void) {
  if (!tBlock) return 0;
  return tBlock->sync ? tBlock->sync->layout.blockIdx(static_cast<uint32_t>(tBlock->idx)) : tBlock->idx;
}
int64_t npusimKernelBlockNum(void) {
  if (!tBlock) return 1;
  return tBlock->sync ? tBlock->sync->layout.blockDim : tBlock->num;
}

void* npusimKernelLocalAlloc(int memory, uint64_t bytes) {
  static const char* const kFull[] = {
      "TPipe::InitBuffer asks for more than the core's unified buffer (aicore.ub_bytes)",
      "TPipe::InitBuffer asks for more than the cube core's L1 buffer (aicore.l1_bytes)",
      "TPipe::InitBuffer asks for more than the cube core's L0A buffer (aicore.l0a_bytes)",
      "TPipe::InitBuffer asks for more than the cube core's L0B buffer (aicore.l0b_bytes)",
      "TPipe::InitBuffer asks for more than the cube core's L0C buffer (aicore.l0c_bytes)"};
  if (!tBlock) npusimKernelFault(0, "a core buffer requested outside a kernel");
  if (memory < 0 || memory >= npusim::rt::kernels::kMemories) npusimKernelFault(0, "unknown core buffer");
  const uint64_t align = memory >= NPUSIM_KERNEL_MEM_L0A ? npusim::rt::kernels::kL0Align : 32;
  const uint64_t size = (bytes + align - 1) / align * align;
  uint64_t& used = tBlock->used[static_cast<size_t>(memory)];
  if (used + size > tBlock->mem->size(memory)) npusimKernelFault(0, kFull[memory]);
  void* p = tBlock->mem->base(memory) + used;
  used += size;
  if (memory != NPUSIM_KERNEL_MEM_UB) tBlock->cube = true;
  return p;
}

void* npusimKernelUbAlloc(uint64_t bytes) { return npusimKernelLocalAlloc(NPUSIM_KERNEL_MEM_UB, bytes); }

int npusimKernelLocalMemory(const void* p) {
  if (!tBlock) return -1;
  const auto* q = static_cast<const uint8_t*>(p);
  for (int m = 0; m < npusim::rt::kernels::kMemories; ++m) {
    if (!tBlock->mem->made(m)) continue;
    const uint8_t* base = tBlock->mem->base(m);
    if (q >= base && q < base + tBlock->mem->size(m)) return m;
  }
  return -1;
}

void* npusimKernelUbBase(uint64_t* bytes) {
  if (!tBlock) npusimKernelFault(0, "unified buffer addressed outside a kernel");
  if (bytes) *bytes = tBlock->mem->size(NPUSIM_KERNEL_MEM_UB);
  return tBlock->mem->base(NPUSIM_KERNEL_MEM_UB);
}

void npusimKernelRecord(int event, uint64_t bytes, const void* gm) {
  if (!tBlock) return;
  if (event == NPUSIM_KERNEL_CUBE || event == NPUSIM_KERNEL_LOCAL_MOVE) tBlock->cube = true;
  (tBlock->cubeDepth > 0 ? tBlock->spans.back().events : tBlock->events)
      .push_back({event, bytes, reinterpret_cast<uint64_t>(gm)});
}

void npusimKernelMixed(void) {
  if (!tBlock || !tBlock->sync) return;
  npusim::rt::kernels::BlockSync& sync = *tBlock->sync;
  if (sync.layout.aic)
    npusimKernelFault(
        0,
        "the Matmul API in a kernel declared with cube programs (KERNEL_TYPE_MIX_AIC_*) is not "
        "modelled: npusim's vector programs do the cube's work of their Matmul objects themselves");
  if (sync.cubeServesVectors) return;
  // From here on the kernel runs every vector program of its blockDim AI cores.
  sync.cubeServesVectors = true;
  sync.layout.aivPerCore = sync.vectorsPerCube;
  sync.layout.typed = true;
  if (sync.runner) sync.runner->extend(sync.layout.programs());
}

int npusimKernelCoreType(int fallback) {
  if (!tBlock || !tBlock->sync || !tBlock->sync->layout.typed) return fallback;
  return tBlock->sync->layout.isAic(static_cast<uint32_t>(tBlock->idx)) ? 1 : 2;
}

int64_t npusimKernelSubBlockIdx(void) {
  if (!tBlock || !tBlock->sync) return 0;
  const ProgramLayout& l = tBlock->sync->layout;
  const auto p = static_cast<uint32_t>(tBlock->idx);
  return l.isAic(p) || l.aivPerCore == 0 ? 0 : p % l.aivPerCore;
}

int64_t npusimKernelSubBlockNum(void) {
  if (!tBlock || !tBlock->sync) return 1;
  const ProgramLayout& l = tBlock->sync->layout;
  return l.isAic(static_cast<uint32_t>(tBlock->idx)) || l.aivPerCore == 0 ? 1 : l.aivPerCore;
}

void npusimKernelDeclareType(int type) {
  if (tBlock && tBlock->sync) declareType(*tBlock->sync, type);
}

void npusimKernelCrossSet(int mode, int flagId) {
  BlockSync& sync = crossCoreSync("CrossCoreSetFlag");
  BlockState& self = *tBlock;
  // Undeclared, a set for the cube program makes the kernel mixed (CANN's default ratio on the A2).
  if (!sync.layout.typed && mode == 2) declareType(sync, NPUSIM_KERNEL_TYPE_MIX_AIC_1_2);
  const auto p = static_cast<uint32_t>(self.idx);
  const ProgramLayout& l = sync.layout;
  if (mode == 0) {  // the programs of a type that meet must all be resident
    const bool aic = l.isAic(p);
    const int64_t count = aic ? l.blockDim : l.aivCount();
    const int64_t limit = aic ? sync.cubeResidentLimit : sync.residentLimit;
    if (limit > 0 && count > limit)
      npusimKernelFault(0,
                        fmt::format("CrossCoreSetFlag<0>: {} {} programs meet, more than the device's {} {} "
                                    "cores: they cannot all run at once (hardware hangs)",
                                    count, aic ? "cube" : "vector", limit, aic ? "cube" : "vector")
                            .c_str());
  }
  // The set follows the program's work so far: it ends its current tile.
  const size_t at = self.events.size();
  self.events.push_back({npusim::rt::kernels::kArriveEvent, 0, 0});
  const std::string why = sync.flags.set(l, p, mode, flagId, {self.idx, at});
  if (!why.empty()) npusimKernelFault(0, why.c_str());
  self.usedFlags = true;
  self.crossSets = true;
}

void npusimKernelCrossWait(int flagId) {
  using npusim::rt::kernels::CrossCoreFlags;
  BlockSync& sync = crossCoreSync("CrossCoreWaitFlag");
  BlockState& self = *tBlock;
  if (flagId < 0 || flagId >= CrossCoreFlags::kFlags)
    npusimKernelFault(
        0, fmt::format("CrossCoreWaitFlag: flag id {} outside 0..{}", flagId, CrossCoreFlags::kFlags - 1)
               .c_str());
  // Undeclared, a wait before any set of its own waits for the cube program: a mixed kernel.
  if (!sync.layout.typed && !self.crossSets) declareType(sync, NPUSIM_KERNEL_TYPE_MIX_AIC_1_2);
  const auto p = static_cast<uint32_t>(self.idx);
  if (!sync.flags.ready(p, flagId)) {
    const std::function<bool()> ready = [&sync, p, flagId] { return sync.flags.ready(p, flagId); };
    if (!sync.runner->wait(ready))
      npusimKernelFault(0,
                        fmt::format("CrossCoreWaitFlag({}) in {} waits for a flag no program will set any "
                                    "more (every other program has ended or waits too); hardware would hang",
                                    flagId, programName(sync.layout, p))
                            .c_str());
  }
  for (const CrossCoreFlags::Writer& w : sync.flags.take(p, flagId))
    if (w.program != self.idx)
      self.events.push_back({npusim::rt::kernels::kCrossWaitEvent, static_cast<uint64_t>(w.program),
                             static_cast<uint64_t>(w.event)});
  self.usedFlags = true;
}

void npusimKernelCubeWork(int begin) {
  using npusim::rt::kernels::kArriveEvent;
  using npusim::rt::kernels::kCrossWaitEvent;
  if (!tBlock || !tBlock->sync || !tBlock->sync->cubeServesVectors) return;
  BlockState& b = *tBlock;
  if (begin) {
    if (b.cubeDepth++ > 0) return;
    // Straight after the previous call (GetTensorC after Iterate): the cube goes on with it.
    if (!b.spans.empty() && b.spans.back().wait + 1 == b.events.size()) {
      b.events.pop_back();
      return;
    }
    b.spans.push_back({b.events.size(), 0, 0, {}});
    b.events.push_back({kArriveEvent, 0, 0});
    return;
  }
  if (b.cubeDepth == 0 || --b.cubeDepth > 0) return;
  b.spans.back().wait = b.events.size();
  b.events.push_back({kCrossWaitEvent, npusim::rt::kernels::kCubePart, b.spans.size() - 1});
  b.usedFlags = true;
}

void npusimKernelQueueBuffers(int output, int buffers) {
  if (!tBlock || buffers < 1) return;
  int& slots = output ? tBlock->outSlots : tBlock->inSlots;
  slots = slots == 0 ? buffers : std::min(slots, buffers);
}

void npusimKernelScalarCycles(uint64_t cycles) {
  if (tBlock) tBlock->scalarCycles = static_cast<double>(cycles);
}

void npusimKernelScalarOps(uint64_t ops) {
  if (!tBlock || ops == 0) return;
  auto& events = tBlock->cubeDepth > 0 ? tBlock->spans.back().events : tBlock->events;
  if (!events.empty() && events.back().kind == NPUSIM_KERNEL_SCALAR)
    events.back().bytes += ops;  // one event per run of scalar work
  else
    events.push_back({NPUSIM_KERNEL_SCALAR, ops, 0});
}

void npusimKernelFlagExchange(int32_t* flag, int32_t expect, int32_t write) {
  using npusim::rt::kernels::BlockSync;
  using npusim::rt::kernels::kWaitEvent;
  if (!tBlock || !tBlock->sync || !tBlock->sync->runner)
    npusimKernelFault(0, "IBSet/IBWait outside a kernel");
  BlockSync& sync = *tBlock->sync;
  const int64_t vectorPrograms = sync.layout.aic ? sync.layout.aivCount() : tBlock->num;
  if (sync.residentLimit > 0 && vectorPrograms > sync.residentLimit)
    npusimKernelFault(0,
                      "IBSet/IBWait with more blocks than vector cores: the blocks that wait for each other "
                      "cannot all run at once (the documented constraint; hardware hangs)");
  volatile int32_t* f = flag;
  if (*f != expect) {
    const std::function<bool()> ready = [f, expect] { return *f == expect; };
    if (!sync.runner->wait(ready))
      npusimKernelFault(0,
                        "IBSet/IBWait waits for a flag no block will change (every other block has ended or "
                        "waits too); hardware would hang");
  }
  // What follows waits for the block that last wrote the flag (when another did).
  auto last = sync.lastWrite.find(flag);
  if (last != sync.lastWrite.end() && last->second.block != tBlock->idx) {
    tBlock->events.push_back(
        {kWaitEvent, static_cast<uint64_t>(last->second.block), static_cast<uint64_t>(last->second.event)});
  }
  tBlock->events.push_back({NPUSIM_KERNEL_COPY_IN, 32, reinterpret_cast<uint64_t>(flag)});
  *f = write;
  sync.lastWrite[flag] = {tBlock->idx, tBlock->events.size()};
  tBlock->events.push_back({NPUSIM_KERNEL_COPY_OUT, 32, reinterpret_cast<uint64_t>(flag)});
  tBlock->usedFlags = true;
}

void npusimKernelSyncAll(int32_t participants, int32_t* gmFlags) {
  using npusim::rt::kernels::BlockSync;
  using npusim::rt::kernels::kWaitEvent;
  if (!tBlock || !tBlock->sync || !tBlock->sync->runner) npusimKernelFault(0, "SyncAll outside a kernel");
  BlockSync& sync = *tBlock->sync;
  npusim::rt::kernels::BlockState& self = *tBlock;
  if (participants < 1 || self.idx >= participants)
    npusimKernelFault(0, "SyncAll from a block outside the usedCores blocks that meet");
  if (sync.residentLimit > 0 && participants > sync.residentLimit)
    npusimKernelFault(
        0,
        "SyncAll with more blocks than vector cores: the blocks that meet cannot all run at once "
        "(the documented constraint; hardware hangs)");
  if (sync.barrierBlocks != 0 && sync.barrierBlocks != participants)
    npusimKernelFault(0, "SyncAll: blocks disagree on how many blocks meet (usedCores)");
  sync.barrierBlocks = participants;
  const size_t n = self.barriersPassed++;
  if (sync.barriers.size() <= n) sync.barriers.resize(n + 1);
  if (gmFlags) {  // the software barrier: the block's flag counts the barriers it reached
    int32_t* flag = gmFlags + self.idx * 8;
    *flag = static_cast<int32_t>(self.barriersPassed);
    self.events.push_back({NPUSIM_KERNEL_COPY_OUT, 32, reinterpret_cast<uint64_t>(flag)});
  }
  // It arrives once its work so far is done.
  sync.barriers[n].push_back(BlockSync::Writer{self.idx, self.events.size()});
  self.events.push_back({npusim::rt::kernels::kArriveEvent, 0, 0});
  self.usedFlags = true;
  const std::function<bool()> ready = [&sync, n, participants] {
    return sync.barriers[n].size() >= static_cast<size_t>(participants);
  };
  if (!ready() && !sync.runner->wait(ready))
    npusimKernelFault(
        0,
        "SyncAll waits for a block that never reaches it (it ended, or waits elsewhere); hardware "
        "would hang");
  for (const BlockSync::Writer& w : sync.barriers[n])
    if (w.block != self.idx)
      self.events.push_back({kWaitEvent, static_cast<uint64_t>(w.block), static_cast<uint64_t>(w.event)});
  if (gmFlags)  // reads the others' flags
    self.events.push_back({NPUSIM_KERNEL_COPY_IN, 32 * static_cast<uint64_t>(participants),
                           reinterpret_cast<uint64_t>(gmFlags)});
}

void npusimKernelPrint(const char* text, size_t len) {
  if (tBlock && tBlock->print)
    tBlock->print->append(text, len);
  else
    fwrite(text, 1, len, stdout);
}

int npusimKernelRunOnCpu(const char* name, uint32_t blockDim, npusimKernelBody run, void* bound,
                         npusimKernelFree release) {
  using namespace npusim::rt::kernels;
  Launch k;
  k.name = name ? name : "kernel";
  k.run = run;
  k.bound = bound;
  std::string output, why, faultName;
  {
    // The configuration's unified buffer (aicore.ub_bytes, with NPUSIM_SET overrides), as a launch has.
    int64_t ubBytes = 0;
    MemorySizes sizes = kCpuMemoryBytes;
    if (npusimPlatformParam("aicore.ub_bytes", &ubBytes) == 0 && ubBytes > 0)
      sizes[NPUSIM_KERNEL_MEM_UB] = static_cast<uint64_t>(ubBytes);
    SignalGuard guard;
    BlockSync sync;
    int64_t aic = 0, aiv = 0;
    sync.layout.blockDim = blockDim;
    if (npusimPlatformParam("aicore.cube_cores", &aic) == 0 &&
        npusimPlatformParam("aicore.vector_cores", &aiv) == 0 && aic > 0 && aiv > aic)
      sync.vectorsPerCube = static_cast<uint32_t>(aiv / aic);
    BlockRunner runner(blockDim, [&](uint32_t i) {
      CoreBuffers buffers(sizes);
      BlockState b;
      startBlock(b, i, sync, &buffers, &output);
      tBlock = &b;
      const bool ok = runBlock(b, k);
      tBlock = nullptr;
      if (!ok && faultName.empty()) {
        faultName = programName(sync.layout, i);
        why = b.faultWhy;
      }
      return ok;
    });
    sync.runner = &runner;
    runner.run();
  }
  if (release) release(bound);
  std::fflush(stdout);
  std::fwrite(output.data(), 1, output.size(), stdout);
  std::fflush(stdout);
  if (faultName.empty()) return 0;
  std::fprintf(stderr, "npusim: CPU debug run of kernel %s: %s faulted: %s\n", k.name.c_str(),
               faultName.c_str(), why.c_str());
  return -1;
}

void npusimKernelFault(int trap, const char* why) {
  if (!tBlock) {
    std::fprintf(stderr, "npusim: Ascend C call outside a kernel: %s\n", why);
    std::abort();
  }
  static_cast<void>(trap);  // the device reports every kernel fault alike (Run::execute)
  tBlock->faultWhy = why;
  tBlock->faultInCubeWork = tBlock->cubeDepth > 0;
  throw npusim::rt::kernels::KernelAbort{};
}

}  // extern "C"

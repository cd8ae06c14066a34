#pragma once
// The programs a custom kernel's launch runs on the A2's separate cube (AIC) and vector (AIV)
// cores, and the cross-core flags between them (CrossCoreSetFlag / CrossCoreWaitFlag;
// docs/kernels.md, "Mixed kernels"). A launch of blockDim N runs N programs of a vector kernel;
// a mixed kernel runs N x ratio AIV programs (runner indices 0 .. N x ratio - 1, AI core
// p / ratio) and N AIC programs after them (AI core p - N x ratio).
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace npusim::rt::kernels {

struct ProgramLayout {
  uint32_t blockDim = 1;
  uint32_t aivPerCore = 1;  // vector programs per AI core (0: a cube-only kernel)
  bool aic = false;         // cube programs run, one per AI core
  bool typed = false;       // the kernel's type is known: core-type queries answer per program

  uint32_t aivCount() const { return blockDim * aivPerCore; }
  uint32_t programs() const { return aivCount() + (aic ? blockDim : 0); }
  bool isAic(uint32_t p) const { return p >= aivCount(); }
  // The AI core (the AIC and its AIVs) program p belongs to.
  uint32_t core(uint32_t p) const { return isAic(p) ? p - aivCount() : p / aivPerCore; }
  // GetBlockIdx: the AIV index among all vector programs, the AIC's among the cube programs.
  uint32_t blockIdx(uint32_t p) const { return isAic(p) ? p - aivCount() : p; }
  // Makes the layout of a kernel type (an npusimKernelType) for `vectorsPerCube` AIVs per AIC;
  // false for an unknown type.
  bool declare(int type, uint32_t vectorsPerCube);
};

// Each program has a counter per flag; a set raises the counters of the programs its mode
// names, a wait lowers its own. Each raise remembers the sets it came from (the program and its
// event index), for linking the waiter's next work to them in time.
class CrossCoreFlags {
 public:
  struct Writer {
    int64_t program;
    size_t event;
  };
  static constexpr int kFlags = 16;       // flag ids 0..15
  static constexpr int kMaxPending = 16;  // sets of one flag a counter holds before a wait

  // Program p sets `flag` in `mode`; empty, or why not (the kernel ends with it).
  std::string set(const ProgramLayout& layout, uint32_t p, int mode, int flag, Writer w);
  bool ready(uint32_t p, int flag) const;
  // Lowers p's counter of `flag` (ready() must hold): the sets that raised it.
  std::vector<Writer> take(uint32_t p, int flag);

 private:
  std::string raise(uint32_t p, int flag, const std::vector<Writer>& from);
  std::map<std::pair<uint32_t, int>, std::deque<std::vector<Writer>>> pending_;
  // Sets that wait for the rest of their group: (mode, core type or AI core, flag) -> sets so far.
  std::map<std::tuple<int, int64_t, int>, std::vector<Writer>> arrivals_;
};

}  // namespace npusim::rt::kernels

#pragma once
// Runs the blocks of a custom kernel one at a time, in order (block 0, 1, ...), so results are
// deterministic; a block that must wait for another (IBWait: a flag in GM that a later block
// sets) is parked on its own thread and the next ready block runs meanwhile. Exactly one block
// runs at any moment and every hand-over happens at a point the kernels decide, so the order is
// the same on every run. Kernels that never wait run their blocks on one thread, as before.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace npusim::rt::kernels {

class BlockRunner {
 public:
  // Runs block i to its end on the calling thread; false stops new blocks from starting (a fault).
  using RunBlock = std::function<bool(uint32_t)>;
  BlockRunner(uint32_t blocks, RunBlock runBlock);
  ~BlockRunner();
  BlockRunner(const BlockRunner&) = delete;
  BlockRunner& operator=(const BlockRunner&) = delete;

  // Runs every block; returns when all that started have ended.
  void run();
  // From a running block: the kernel has `blocks` blocks (more than it was started with; a mixed
  // kernel found out by its first block). Never fewer.
  void extend(uint32_t blocks);
  // From the running block: returns once `ready` holds, the other blocks running meanwhile.
  // False when it never can (every other block has ended or waits too, or the kernel stopped):
  // the block must end with a fault.
  bool wait(const std::function<bool()>& ready);

 private:
  struct Parked {
    const std::function<bool()>* ready;
    bool go = false, dead = false;
    std::condition_variable cv;
  };
  void runner(std::unique_lock<std::mutex>& lock);
  void handOver(std::unique_lock<std::mutex>& lock);
  bool resumeReady();

  std::mutex mu_;
  std::condition_variable done_;  // to run(): a thread to make, or the end
  uint32_t blocks_;
  RunBlock runBlock_;
  uint32_t next_ = 0;
  uint32_t spawn_ = 0;  // threads run() is to make, each to take the turn
  bool stopped_ = false, finished_ = false;
  std::deque<Parked*> parked_;
  std::vector<std::thread> threads_;
};

}  // namespace npusim::rt::kernels

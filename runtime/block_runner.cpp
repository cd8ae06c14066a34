// Cooperative block execution for kernels whose blocks wait for each other (runtime/block_runner.h).
#include "runtime/block_runner.h"

namespace npusim::rt::kernels {

BlockRunner::BlockRunner(uint32_t blocks, RunBlock runBlock)
    : blocks_(blocks), runBlock_(std::move(runBlock)) {}

BlockRunner::~BlockRunner() {
  for (std::thread& t : threads_) t.join();
}

// Threads are made here, on the thread that runs the kernel: the runtime's pthread_create hook
// takes the runtime lock, which that thread may hold (a kernel task runs under it).
void BlockRunner::run() {
  std::unique_lock<std::mutex> lock(mu_);
  spawn_ = 1;
  for (;;) {
    done_.wait(lock, [this] { return finished_ || spawn_ > 0; });
    if (spawn_ == 0) break;
    --spawn_;
    threads_.emplace_back([this] {
      std::unique_lock<std::mutex> l(mu_);
      runner(l);
    });
  }
}

void BlockRunner::extend(uint32_t blocks) {
  std::lock_guard<std::mutex> lock(mu_);
  if (blocks > blocks_) blocks_ = blocks;
}

// Gives the turn to the first parked block that may go on (a dead one goes on to end itself).
bool BlockRunner::resumeReady() {
  for (auto it = parked_.begin(); it != parked_.end(); ++it) {
    Parked* p = *it;
    if (p->dead || (*p->ready)()) {
      parked_.erase(it);
      p->go = true;
      p->cv.notify_one();
      return true;
    }
  }
  return false;
}

// The running thread gives up its turn: to a parked block that may go on, else to a new thread
// that starts the next block, else (nobody left to set what the parked blocks wait for) to the
// parked blocks as dead ones, else the kernel is done.
void BlockRunner::handOver(std::unique_lock<std::mutex>& lock) {
  static_cast<void>(lock);
  if (resumeReady()) return;
  if (next_ < blocks_ && !stopped_) {
    ++spawn_;  // run() makes the thread
    done_.notify_all();
    return;
  }
  if (!parked_.empty()) {
    for (Parked* p : parked_) p->dead = true;
    resumeReady();
    return;
  }
  finished_ = true;
  done_.notify_all();
}

// A thread holding the turn resumes a parked block that may go on (and ends: that block's thread
// holds the turn now), else starts the next block, until none is left to start.
void BlockRunner::runner(std::unique_lock<std::mutex>& lock) {
  for (;;) {
    if (resumeReady()) return;
    if (next_ >= blocks_ || stopped_) break;
    const uint32_t i = next_++;
    lock.unlock();
    const bool ok = runBlock_(i);
    lock.lock();
    if (!ok) stopped_ = true;
  }
  handOver(lock);
}

bool BlockRunner::wait(const std::function<bool()>& ready) {
  std::unique_lock<std::mutex> lock(mu_);
  if (ready()) return true;
  Parked me;
  me.ready = &ready;
  parked_.push_back(&me);
  handOver(lock);
  me.cv.wait(lock, [&] { return me.go; });
  return !me.dead;
}

}  // namespace npusim::rt::kernels

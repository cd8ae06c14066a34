#pragma once
// A host thread as the simulator sees it: its own simulated clock (advanced by the cost of
// each runtime call and by waiting for the device), its trace track, and its ACL state
// (current device and context).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>

#include "models/common/tick.h"
#include "traces/trace_writer.h"

namespace npusim::rt {

struct Context;
struct CaptureModel;

// Where a thread is, for the conservative ordering of calls across threads (see
// docs/architecture.md "Host threads"): only a thread in Native state can still issue a call
// at its current clock, so no other thread may act at a later clock.
enum class HostState {
  Native,   // running the program's own code; its next call is at `clock` or later
  InCall,   // inside a runtime call that holds the runtime lock
  Waiting,  // inside a call, blocked until the device satisfies `waitingFor`
  Parked,   // in pthread_join, or idle for long: not expected to call soon
  Done,     // exited
};

struct HostThread {
  int index = 0;   // registration order (creation order for threads made with pthread_create)
  Tick clock = 0;  // simulated host time of this thread
  trace::Track track;
  int device = -1;
  Context* ctx = nullptr;
  int captureMode = 0;  // aclmdlRICaptureThreadExchangeMode's per-thread mode (GLOBAL = 0)
  HostState state = HostState::Native;
  int depth = 0;  // nested runtime calls
  const std::function<bool()>* waitingFor = nullptr;
  bool woken = false;         // its wait was satisfied; clock is its wake-up time
  unsigned long pthread = 0;  // pthread_t, for pthread_join bookkeeping
  std::atomic<int> tid{0};    // the kernel's thread id, set by the thread itself when it starts
  std::unique_lock<std::recursive_mutex>* lock = nullptr;  // held by the outermost call
  bool parkWarned = false;
  std::atomic<bool> entering{false};  // blocked on the runtime lock to make a call: not idle
  bool queued = false;                // waiting for its turn to call or to end a sleep: not idle
  // While parked: the CPU time it had used when last looked at, and when (Runtime::parkedThreadMayAct).
  uint64_t cpuSeenNs = 0;
  // Runtime::parkIdleThreads: calls it has made, and its CPU time when first seen runnable with
  // no call since (measured there, not in every call: reading a thread's CPU clock is a system call).
  uint64_t calls = 0;
  uint64_t busyFromCalls = ~uint64_t{0};
  uint64_t busyFromCpuNs = 0;
  std::chrono::steady_clock::time_point cpuSeenAt{};
  uint64_t lastTaskId = 0;  // the last task it launched (aclrtGetThreadLastTaskId)
  // The last task it issued into a capture or build (runtime/capture.h lastCapturedTask): the
  // model, lane and index, and lastTaskId at that moment (a later eager launch changes it).
  CaptureModel* lastCapture = nullptr;
  int lastCaptureModelId = -1;  // a later model may reuse the address: its id differs
  int lastCaptureLane = -1;
  size_t lastCaptureIndex = 0;
  uint64_t lastCaptureMark = 0;
};

}  // namespace npusim::rt

#pragma once
// The runtime tasks one rank's call enqueues, as HCCL expands a collective on Atlas A2 (HOST mode):
// notify records and waits (to its own streams or a peer's), SDMA copies within the device or
// into a peer's memory, copies with inline reduce, and vector-core reduce operators.
#include <cstdint>
#include <functional>
#include <utility>

#include "runtime/hccl/communicator.h"
#include "runtime/runtime.h"

namespace npusim::hccl {

// Addresses a task reads when it starts on the device (a peer's buffers are known by then).
using Resolve = std::function<std::pair<const void*, void*>()>;

class RankTasks {
 public:
  RankTasks(rt::ApiCall& api, Comm& comm, rt::Stream* main, HcclDataType type, HcclReduceOp op);

  rt::Stream* main() const { return main_; }
  // Captured (the main stream is in an aclmdlRI capture): everything goes on the main stream,
  // which the capture records; the side streams are not part of the model.
  bool serial() const { return serial_; }
  rt::Stream* side(uint32_t peer) const { return serial_ ? main_ : comm_.side[comm_.sideFor(peer)]; }
  void record(rt::Stream* s, Signal& sig);
  void wait(rt::Stream* s, Signal& sig);
  // A copy of `bytes` from this rank's device to `dstDevice` (its own or a peer's).
  void copy(rt::Stream* s, int dstDevice, uint64_t bytes, Resolve addrs, bool reduce = false);
  // dst = dst op src_1 op ... on the vector cores (the reduce the SDMA engine cannot do inline).
  void coreReduce(rt::Stream* s, uint64_t bytes, std::function<void*()> dst,
                  std::function<std::vector<const void*>()> srcs);
  // Main stream hands over to every side stream / waits for all of them.
  void fork();
  void join();

 private:
  void launch(rt::Stream* s, std::unique_ptr<sched::Task> t);
  rt::ApiCall& api_;
  Comm& comm_;
  rt::Stream* main_;
  HcclDataType type_;
  HcclReduceOp op_;
  bool flowUsed_ = false;
  bool serial_ = false;
};

}  // namespace npusim::hccl

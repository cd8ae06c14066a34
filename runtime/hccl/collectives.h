#pragma once
// The algorithms: each expands one rank's part of a collective into tasks (rank_tasks.h), as
// HCCL's Mesh executors do on one Atlas A2 server, or its Ring ones when the devices share no
// HCCS link (docs/hccl.md). Arguments are already checked and recorded in the group.
#include <cstdint>

#include "runtime/hccl/rank_tasks.h"

namespace npusim::hccl {

// AllReduce at or below this many bytes: reduce into rank 0, then copy back (hcomm's
// small-count executor, 256 KB in op-base mode: pub_inc/common.h).
constexpr uint64_t kSmallAllReduceBytes = 256 * 1024;
// Slices are rounded up to this (HCCL_MIN_SLICE_ALIGN_910B, alg_template_base_pub.h).
constexpr uint64_t kSliceAlign = 16 * 1024;

struct Call {
  RankTasks& tasks;
  Comm& comm;
  std::shared_ptr<Group> group;
  uint64_t seq;  // the call's sequence number in the group (its CallRecord)
  const CallRecord& record() const { return group->calls.at(seq); }
};

void runAllReduce(Call& c);
void runReduceScatter(Call& c);  // also ReduceScatterV (counts and displacements in the record)
void runAllGather(Call& c);      // also AllGatherV
void runBroadcast(Call& c);
void runReduce(Call& c);
void runScatter(Call& c);
void runAlltoAll(Call& c);  // AlltoAll, AlltoAllV, AlltoAllVC (counts and displacements per peer)
void runBarrier(Call& c);
// Point-to-point on stream s: the k-th send from this rank to `peer` (or receive from it).
void runSend(RankTasks& t, Comm& comm, rt::Stream* s, const void* buf, uint64_t bytes, uint32_t peer,
             uint64_t k);
void runRecvAck(RankTasks& t, Comm& comm, rt::Stream* s, uint32_t peer);
void runRecvWait(RankTasks& t, Comm& comm, rt::Stream* s, uint64_t bytes, uint32_t peer);
// The chunk a send moves per loop through its staging slot in the CCL-in buffer.
uint64_t p2pChunk(const Group& g);

}  // namespace npusim::hccl

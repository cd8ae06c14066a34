// Time-ordered arbitration: a transaction timed earlier is never delayed by one that was issued
// earlier in call order for a later simulated time, on a link direction (Channel, and through
// the fabric) and on an HBM channel (the built-in target's LT and AT interfaces).
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/common/channel.h"
#include "models/common/memory_bus.h"
#include "models/common/transaction.h"
#include "models/hbm/hbm_target.h"
#include "npusim/config.h"
#include "tests/models/pcie_rig.h"

using namespace npusim;

TEST(Arbitration, ALinkDirectionServesAnEarlierTimedTransactionFirst) {
  Channel up("NPU 0 link up", 32e9);  // 4 KiB = 128 ns
  const Tick d = up.ticksFor(4096);
  EXPECT_EQ(up.reserve(10 * kUs, 4096), 10 * kUs);    // issued first, for 10 us
  EXPECT_EQ(up.reserve(1 * kUs, 4096), 1 * kUs);      // issued second, for 1 us: not delayed
  EXPECT_EQ(up.reserve(1 * kUs, 4096), 1 * kUs + d);  // queues behind the 1 us one only
  // One that would overlap the booked 10 us transfer goes after it (no preemption).
  EXPECT_EQ(up.reserve(10 * kUs - d / 2, 4096), 10 * kUs + d);
  EXPECT_EQ(up.busyTicks(), 4 * d);
}

TEST(Arbitration, CallOrderDoesNotChangeStartsOfNonOverlappingTransactions) {
  const std::vector<Tick> times = {5 * kUs, 1 * kUs, 3 * kUs, 2 * kUs, 4 * kUs};
  Channel a("a", 16e9), b("b", 16e9);
  std::vector<Tick> inOrder, reversed(times.size());
  std::vector<Tick> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  for (Tick t : sorted) inOrder.push_back(a.reserve(t, 8192));
  for (size_t i = times.size(); i-- > 0;) reversed[i] = b.reserve(sorted[i], 8192);
  EXPECT_EQ(inOrder, reversed);
  EXPECT_EQ(inOrder, sorted);
}

TEST(Arbitration, BackgroundTrafficInAGapDoesNotDelayTheQueue) {
  Channel down("down", 32e9);
  down.reserve(10 * kUs, 4096);
  down.background(1 * kUs, 8);  // an ACK at 1 us, in the idle time before the booked transfer
  EXPECT_EQ(down.reserve(10 * kUs, 4096), 10 * kUs + down.ticksFor(4096));
}

TEST(Arbitration, AHostWriteThroughTheFabricIsNotDelayedByALaterOneIssuedFirst) {
  Config cfg = Config::load("910b");
  const uint64_t bytes = 16384;
  test::PcieRig fresh("fresh", cfg), f("f", cfg), fresh2("fresh2", cfg), g("g", cfg);
  test::elaborate();
  const Tick unloaded = fresh.hostWrite(0, bytes, 1 * kUs) - 1 * kUs;
  f.hostWrite(0, bytes, 50 * kUs);  // issued first, for 50 us
  EXPECT_EQ(f.hostWrite(0, bytes, 1 * kUs) - 1 * kUs, unloaded);
  g.hostRead(1, bytes, 50 * kUs);
  EXPECT_EQ(g.hostRead(1, bytes, 1 * kUs), fresh2.hostRead(1, bytes, 1 * kUs));
}

// ---- the HBM target ----

namespace {

HbmParams hbmParams() { return hbmParamsFromConfig(Config::load("910b")); }

// Sends requests to the HBM target and records when each phase comes back.
struct Driver : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Driver> socket;
  PayloadPool pool;
  struct Req {
    uint64_t addr;
    Tick delay;
    Tick endReq = 0, beginResp = 0;
    bool accepted = false;
    tlm::tlm_generic_payload* p = nullptr;
  };
  std::vector<Req> reqs;
  bool at = true;
  Tick startAt = 0;
  sc_core::sc_event endReq;
  std::vector<uint8_t> data = std::vector<uint8_t>(4096);

  explicit Driver(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    socket.register_nb_transport_bw(this, &Driver::bw);
    SC_THREAD(run);
  }
  SC_HAS_PROCESS(Driver);

  static Tick now() { return static_cast<Tick>(sc_core::sc_time_stamp().value()); }
  Req* find(tlm::tlm_generic_payload& p) {
    for (Req& r : reqs)
      if (r.p == &p) return &r;
    return nullptr;
  }
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    Req* r = find(p);
    if (ph == tlm::END_REQ) {
      r->endReq = now();
      r->accepted = true;
      endReq.notify();
      return tlm::TLM_ACCEPTED;
    }
    r->beginResp = now();
    ph = tlm::END_RESP;
    return tlm::TLM_COMPLETED;
  }
  void run() {
    sc_core::wait(sc_core::sc_time(static_cast<double>(startAt), sc_core::SC_PS));
    for (Req& r : reqs) {
      r.p = pool.acquire();
      r.p->set_command(tlm::TLM_READ_COMMAND);
      r.p->set_address(r.addr);
      r.p->set_data_ptr(data.data());
      r.p->set_data_length(64);
      r.p->set_streaming_width(64);
      sc_core::sc_time d(static_cast<double>(r.delay), sc_core::SC_PS);
      if (!at) {
        socket->b_transport(*r.p, d);
        r.beginResp = now() + static_cast<Tick>(d.value());
        continue;
      }
      tlm::tlm_phase ph = tlm::BEGIN_REQ;
      ASSERT_EQ(socket->nb_transport_fw(*r.p, ph, d), tlm::TLM_ACCEPTED);
      while (!r.accepted) sc_core::wait(endReq);  // request exclusion: one BEGIN_REQ at a time
    }
  }
};

}  // namespace

// The same pseudo-channel, a different bank.
constexpr uint64_t kEarlyAddr = 0;
constexpr uint64_t kLateAddr = 1 << 20;

TEST(Arbitration, AnHbmChannelServesAnEarlierTimedRequestFirstApproximatelyTimed) {
  const Tick unloaded = HbmModel(hbmParams()).access(kEarlyAddr, 64, false, 1 * kNs);
  HbmTarget hbm("hbm", hbmParams(), 64);
  MemoryBus bus("bus");
  Driver dma("dma"), mte("mte");
  dma.socket.bind(bus.in);
  mte.socket.bind(bus.in);
  bus.out.bind(hbm.socket);
  dma.reqs = {{kLateAddr, 10 * kUs}};  // at 0 ns, for 10 us
  mte.reqs = {{kEarlyAddr, 0}};        // at 1 ns (later in call order), for 1 ns
  mte.startAt = 1 * kNs;
  sc_core::sc_start();
  // Requests enter the model in simulated-time order: the early one finds the memory idle.
  EXPECT_EQ(mte.reqs[0].endReq, 1 * kNs);
  EXPECT_EQ(mte.reqs[0].beginResp, unloaded);
  EXPECT_GT(dma.reqs[0].beginResp, 10 * kUs);
  EXPECT_EQ(bus.bytesRead(), 128u);
}

TEST(Arbitration, TheHbmTargetHoldsEndReqWhenItsQueueIsFull) {
  HbmTarget hbm("hbm", hbmParams(), 1);  // one request at a time
  Driver drv("drv");
  drv.socket.bind(hbm.socket);
  drv.reqs = {{0, 0}, {4096, 0}};
  sc_core::sc_start();
  EXPECT_EQ(drv.reqs[0].endReq, 0u);
  EXPECT_GT(drv.reqs[0].beginResp, 0u);
  // Back-pressure: the second request is accepted only when the first one has completed.
  EXPECT_EQ(drv.reqs[1].endReq, drv.reqs[0].beginResp);
  EXPECT_GT(drv.reqs[1].beginResp, drv.reqs[1].endReq);
  EXPECT_EQ(hbm.outstanding(), 0);
}

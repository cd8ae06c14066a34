// The approximately-timed side of MemoryInitiator (models/common/memory_initiator.h), what the DMA
// channels and the AI cores' MTEs use toward an AT plug-in: a caller keeps a window of accesses
// in flight; a target answering in every legal way (TLM_COMPLETED at BEGIN_REQ, END_REQ or
// BEGIN_RESP by TLM_UPDATED, END_REQ withheld and sent later on the backward path, BEGIN_RESP
// without END_REQ, responses out of order) gets each request once, never a BEGIN_REQ before the
// previous END_REQ, END_RESP after an updated BEGIN_RESP, the written bytes; every access is
// answered once, at the time the target said, and the window is never exceeded. The same through
// the memory bus and the plug-in port, whose pieces the target then answers.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <systemc>
#include <tlm>
#include <utility>
#include <vector>

#include "models/common/memory_bus.h"
#include "models/common/memory_initiator.h"
#include "models/common/plugin_port.h"
#include "models/common/sim_time.h"
#include "tests/models/scripted_target.h"

using namespace npusim;
using npusim::test::Answer;
using npusim::test::ScriptedTarget;

namespace {

// Like a DMA channel: `accesses` writes of `bytes` each, at most `window` in flight, the next
// started when an answer comes. Records each access's completion.
struct WindowedCaller : sc_core::sc_module {
  MemoryInitiator mi;
  int accesses = 24, window = 4;
  uint64_t bytes = 256;
  std::vector<uint8_t> memory = std::vector<uint8_t>(1 << 16);
  std::map<uint64_t, Tick> done;  // tag -> completion
  int duplicates = 0, maxSeen = 0;
  SC_HAS_PROCESS(WindowedCaller);
  explicit WindowedCaller(sc_core::sc_module_name n) : sc_module(n), mi("mi", Engine::Dma, 0) {
    std::iota(memory.begin(), memory.end(), 3);
    DeviceAddressSpace s;
    s.capacity = memory.size();
    s.backing = memory.data();
    mi.setAddressSpace(s);
    mi.setApproximatelyTimed(true);
    SC_THREAD(run);
  }
  void run() {
    AccessWaiter w;
    int started = 0;
    while (started < accesses || w.outstanding() > 0) {
      while (started < accesses && w.outstanding() < window) {
        mi.start(static_cast<uint64_t>(started) * bytes, bytes, true, simNow() + 3 * kNs, w,
                 static_cast<uint64_t>(started));
        ++started;
        maxSeen = std::max(maxSeen, w.outstanding());
      }
      w.wait();
      while (!w.empty()) {
        const AccessWaiter::Done d = w.take();
        if (!done.emplace(d.tag, d.at).second) ++duplicates;
        EXPECT_GE(d.at, simNow()) << "an answer timed before the kernel's time";
      }
    }
  }
};

// Straight to the target: each access is one request, answered at the time the target said.
void expectWindowKept(std::vector<Answer> answers) {
  WindowedCaller caller("caller");
  ScriptedTarget target("target");
  caller.mi.socket.bind(target.socket);
  target.answers = std::move(answers);
  target.backing = caller.memory.data();
  sc_core::sc_start();
  EXPECT_EQ(target.requests, caller.accesses);
  EXPECT_EQ(target.responses, caller.accesses);
  EXPECT_EQ(target.badData, 0);
  EXPECT_EQ(caller.duplicates, 0);
  ASSERT_EQ(caller.done.size(), static_cast<size_t>(caller.accesses));
  for (int k = 0; k < caller.accesses; ++k)
    EXPECT_EQ(caller.done[static_cast<uint64_t>(k)], target.answeredAt[static_cast<size_t>(k)]) << k;
  EXPECT_LE(caller.mi.maxInFlight(), caller.window);
  EXPECT_EQ(caller.mi.inFlight(), 0);
}

}  // namespace

TEST(AtInitiator, EarlyCompletion) { expectWindowKept({Answer::Completed}); }

TEST(AtInitiator, EndReqByUpdateKeepsTheWindowFullAndAnswersOutOfOrder) {
  WindowedCaller caller("caller");
  ScriptedTarget target("target");
  caller.mi.socket.bind(target.socket);
  target.answers = {Answer::UpdatedEndReq};
  target.backing = caller.memory.data();
  sc_core::sc_start();
  EXPECT_EQ(target.responses, caller.accesses);
  EXPECT_EQ(caller.mi.maxInFlight(), caller.window);  // the window was used, not exceeded
  // Later requests are answered sooner: the second of the first window before the first.
  ASSERT_GE(target.order.size(), 2u);
  EXPECT_GT(target.order[0], 0);
  EXPECT_FALSE(std::is_sorted(target.order.begin(), target.order.end()));
  for (int k = 0; k < caller.accesses; ++k)
    EXPECT_EQ(caller.done[static_cast<uint64_t>(k)], target.answeredAt[static_cast<size_t>(k)]) << k;
}

TEST(AtInitiator, BeginRespByUpdateIsEndedOnTheForwardPath) {
  WindowedCaller caller("caller");
  ScriptedTarget target("target");
  caller.mi.socket.bind(target.socket);
  target.answers = {Answer::UpdatedBeginResp};
  sc_core::sc_start();
  EXPECT_EQ(target.responses, caller.accesses);
  EXPECT_EQ(target.endResps, caller.accesses);
  EXPECT_EQ(caller.done.size(), static_cast<size_t>(caller.accesses));
}

TEST(AtInitiator, EndReqWithheldHoldsTheNextRequestBack) {
  // Each END_REQ comes 20 ns late on the backward path: requests go out 20 ns apart.
  expectWindowKept({Answer::AcceptedEndReqLater});
}

TEST(AtInitiator, BeginRespWithoutEndReq) { expectWindowKept({Answer::AcceptedRespOnly}); }

TEST(AtInitiator, EveryAnswerMixed) {
  expectWindowKept({Answer::Completed, Answer::AcceptedEndReqLater, Answer::UpdatedEndReq,
                    Answer::AcceptedRespOnly, Answer::UpdatedBeginResp});
}

// Through the memory bus and the plug-in port: each 256-byte access becomes four 64-byte pieces
// the target answers in every way; an access is answered once, at its last piece's response.
TEST(AtInitiator, ThroughTheBusAndThePluginPortEveryAnswerMixed) {
  WindowedCaller caller("caller");
  MemoryBus bus("bus");
  PluginPort port("port", Protocol::ApproximatelyTimed, 64);
  ScriptedTarget target("target");
  caller.mi.socket.bind(bus.in);
  bus.out.bind(port.in);
  port.out.bind(target.socket);
  target.answers = {Answer::Completed, Answer::AcceptedEndReqLater, Answer::UpdatedEndReq,
                    Answer::AcceptedRespOnly, Answer::UpdatedBeginResp};
  target.backing = caller.memory.data();
  sc_core::sc_start();
  const int pieces = caller.accesses * 4;
  EXPECT_EQ(target.requests, pieces);
  EXPECT_EQ(target.responses, pieces);
  EXPECT_EQ(target.badData, 0);
  EXPECT_EQ(caller.duplicates, 0);
  ASSERT_EQ(caller.done.size(), static_cast<size_t>(caller.accesses));
  std::map<uint64_t, Tick> lastPiece;  // access -> its last piece's response
  for (int k = 0; k < pieces; ++k) {
    Tick& t = lastPiece[static_cast<uint64_t>(k / 4)];
    t = std::max(t, target.answeredAt[static_cast<size_t>(k)]);
  }
  for (int k = 0; k < caller.accesses; ++k)
    EXPECT_EQ(caller.done[static_cast<uint64_t>(k)], lastPiece[static_cast<uint64_t>(k)]) << k;
  EXPECT_LE(caller.mi.maxInFlight(), caller.window);
  EXPECT_EQ(bus.bytesWritten(), static_cast<uint64_t>(caller.accesses) * caller.bytes);
}

namespace {

// One initiator with a fixed list of reads, all started at time 0 and queued in its initiator.
struct ListedCaller : sc_core::sc_module {
  MemoryInitiator mi;
  std::vector<Tick> arrivals;
  int answered = 0;
  SC_HAS_PROCESS(ListedCaller);
  ListedCaller(sc_core::sc_module_name n, int index, std::vector<Tick> at)
      : sc_module(n), mi("mi", Engine::Dma, 0), arrivals(std::move(at)) {
    DeviceAddressSpace s;
    s.capacity = 1 << 20;
    mi.setAddressSpace(s);
    mi.setApproximatelyTimed(true);
    mi.setContext(index, 0);
    SC_THREAD(run);
  }
  void run() {
    AccessWaiter w;
    for (size_t k = 0; k < arrivals.size(); ++k) mi.start(64 * k, 64, false, arrivals[k], w, k);
    while (w.outstanding() > 0) {
      w.wait();
      while (!w.empty()) w.take(), ++answered;
    }
  }
};

// Takes every request at once and records when it came (the port sends with no added delay).
struct RecordingTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<RecordingTarget> socket;
  std::vector<Tick> seen;
  explicit RecordingTarget(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    socket.register_nb_transport_fw(this, &RecordingTarget::fw);
  }
  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    if (ph == tlm::BEGIN_REQ) seen.push_back(simNow() + static_cast<Tick>(d.value()));
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return tlm::TLM_COMPLETED;
  }
};

}  // namespace

// Arbitration between initiators toward an AT plug-in (docs/architecture.md, "AT initiators"):
// three initiators whose reads arrive at random times, each started in call order at time 0,
// reach the model through the memory bus and the plug-in port in simulated-time order, each at
// its own arrival: what a plain arbiter serving requests in time order gives (the model takes a
// request at once, so nothing is held back by an earlier one).
TEST(AtInitiator, ThePluginPortServesInitiatorsInSimulatedTimeOrder) {
  std::mt19937 rng(26);
  std::uniform_int_distribution<Tick> gap(1, 200);
  std::vector<std::vector<Tick>> lists(3);
  std::vector<Tick> reference;
  for (size_t i = 0; i < lists.size(); ++i) {
    Tick t = 0;
    for (int k = 0; k < 40; ++k) {
      t += gap(rng) * kNs;
      lists[i].push_back(t + i);  // distinct times: no ties to break
      reference.push_back(t + i);
    }
  }
  std::sort(reference.begin(), reference.end());
  MemoryBus bus("bus");
  PluginPort port("port", Protocol::ApproximatelyTimed, 64);
  RecordingTarget target("target");
  std::vector<std::unique_ptr<ListedCaller>> callers;
  for (size_t i = 0; i < lists.size(); ++i) {
    callers.push_back(std::make_unique<ListedCaller>(("caller" + std::to_string(i)).c_str(),
                                                     static_cast<int>(i), lists[i]));
    callers.back()->mi.socket.bind(bus.in);
  }
  bus.out.bind(port.in);
  port.out.bind(target.socket);
  sc_core::sc_start();
  EXPECT_EQ(target.seen, reference);
  for (auto& c : callers) EXPECT_EQ(c->answered, 40);
}

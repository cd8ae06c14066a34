// The built-in HBM target against every legal phase sequence of the approximately-timed base
// protocol: the initiator ends a response with TLM_COMPLETED, with TLM_UPDATED/END_RESP (now or
// after a delay) or with TLM_ACCEPTED and a later END_RESP; it completes a transaction early at
// END_REQ; the target withholds END_REQ when its queue is full and answers in completion order.
// Every request gets exactly one response (none after an early completion), responses never
// overlap, and response times are the model's, as through b_transport.
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/common/sim_time.h"
#include "models/common/transaction.h"
#include "models/hbm/hbm_target.h"
#include "tests/hbm/hbm_test_util.h"

using namespace npusim;

namespace {

enum class RespAnswer { Completed, UpdatedNow, UpdatedLater, AcceptedThenEndResp };

struct Request {
  uint64_t addr;
  uint32_t bytes = 64;
  Tick at = 0;  // annotated arrival
  Tick endReq = 0, beginResp = 0;
  int responses = 0;
  bool accepted = false;
  tlm::tlm_generic_payload* p = nullptr;
};

// Sends its requests back to back, each as soon as the previous one's END_REQ allows (request
// exclusion), and answers phases as told.
struct PhaseDriver : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<PhaseDriver> socket;
  std::vector<Request> reqs;
  RespAnswer answer = RespAnswer::Completed;
  bool completeAtEndReq = false;
  Tick hold = 0;  // how long an END_RESP is withheld (UpdatedLater, AcceptedThenEndResp)
  int inResponse = 0, maxInResponse = 0;
  PayloadPool pool;
  std::vector<uint8_t> data = std::vector<uint8_t>(1 << 16);
  sc_core::sc_event endReq;
  tlm::tlm_generic_payload* toEnd = nullptr;
  sc_core::sc_event endRespDue;

  explicit PhaseDriver(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    socket.register_nb_transport_bw(this, &PhaseDriver::bw);
    SC_THREAD(run);
    SC_METHOD(sendEndResp);
    sensitive << endRespDue;
    dont_initialize();
  }
  SC_HAS_PROCESS(PhaseDriver);

  Request& of(tlm::tlm_generic_payload& p) {
    for (Request& r : reqs)
      if (r.p == &p) return r;
    ADD_FAILURE() << "a phase for a payload never sent";
    return reqs.front();
  }
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    Request& r = of(p);
    EXPECT_EQ(d, sc_core::SC_ZERO_TIME);
    if (ph == tlm::END_REQ) {
      r.endReq = simNow();
      r.accepted = true;
      endReq.notify();
      return completeAtEndReq ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED;
    }
    EXPECT_EQ(ph, tlm::BEGIN_RESP);
    r.beginResp = simNow();
    ++r.responses;
    maxInResponse = std::max(maxInResponse, ++inResponse);
    switch (answer) {
      case RespAnswer::Completed:
        --inResponse;
        return tlm::TLM_COMPLETED;
      case RespAnswer::UpdatedNow:
        --inResponse;
        ph = tlm::END_RESP;
        return tlm::TLM_UPDATED;
      case RespAnswer::UpdatedLater:  // the response is over `hold` from now, by annotation
        --inResponse;
        ph = tlm::END_RESP;
        d = toScTime(hold);
        return tlm::TLM_UPDATED;
      case RespAnswer::AcceptedThenEndResp:
        toEnd = &p;
        endRespDue.notify(toScTime(hold));
        return tlm::TLM_ACCEPTED;
    }
    return tlm::TLM_COMPLETED;
  }
  void sendEndResp() {
    --inResponse;
    tlm::tlm_phase ph = tlm::END_RESP;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    tlm::tlm_generic_payload* p = toEnd;
    toEnd = nullptr;
    EXPECT_EQ(socket->nb_transport_fw(*p, ph, d), tlm::TLM_COMPLETED);
  }
  void run() {
    for (Request& r : reqs) {
      r.p = pool.acquire();
      r.p->set_command(tlm::TLM_READ_COMMAND);
      r.p->set_address(r.addr);
      r.p->set_data_ptr(data.data());
      r.p->set_data_length(r.bytes);
      r.p->set_streaming_width(r.bytes);
      sc_core::sc_time d = toScTime(r.at > simNow() ? r.at - simNow() : 0);
      tlm::tlm_phase ph = tlm::BEGIN_REQ;
      ASSERT_EQ(socket->nb_transport_fw(*r.p, ph, d), tlm::TLM_ACCEPTED);
      while (!r.accepted) sc_core::wait(endReq);  // the payload stays ours: no reuse, no aliasing
    }
  }
};

// What b_transport gives for the same requests, in the same order, on a fresh model.
std::vector<Tick> looselyTimed(const std::vector<Request>& reqs) {
  HbmModel m(hbmtest::params());
  std::vector<Tick> done;
  for (const Request& r : reqs) done.push_back(m.access(r.addr, r.bytes, false, r.at));
  return done;
}

// Four reads on four pseudo-channels, all at time 0: nothing collides, so each finishes when the
// model says, and two of them at the same time need the response channel one after the other.
std::vector<Request> fourReads(const HbmModel& m) {
  std::vector<Request> r;
  for (uint32_t pc = 0; pc < 4; ++pc) r.push_back({hbmtest::addr(m, pc, 0, 0, 1)});
  return r;
}

void runWith(RespAnswer answer, Tick hold, int depth, std::vector<Request> reqs, PhaseDriver*& out) {
  auto* hbm = new HbmTarget("hbm", hbmtest::params(), depth);
  auto* drv = new PhaseDriver("drv");
  drv->socket.bind(hbm->socket);
  drv->reqs = std::move(reqs);
  drv->answer = answer;
  drv->hold = hold;
  sc_core::sc_start();
  EXPECT_EQ(hbm->outstanding(), 0);
  EXPECT_EQ(drv->pool.allocated(), drv->reqs.size());
  out = drv;
}

void expectEveryResponseOnceAtTheModelsTime(RespAnswer answer) {
  HbmModel layout(hbmtest::params());
  PhaseDriver* drv = nullptr;
  runWith(answer, 0, 64, fourReads(layout), drv);
  const std::vector<Tick> lt = looselyTimed(drv->reqs);
  for (size_t i = 0; i < drv->reqs.size(); ++i) {
    EXPECT_EQ(drv->reqs[i].responses, 1) << i;
    EXPECT_EQ(drv->reqs[i].endReq, 0u) << i;
    EXPECT_EQ(drv->reqs[i].beginResp, lt[i]) << i;
  }
  EXPECT_EQ(drv->maxInResponse, 1);
}

}  // namespace

TEST(HbmTargetPhases, ResponseCompletedByTheInitiator) {
  expectEveryResponseOnceAtTheModelsTime(RespAnswer::Completed);
}

TEST(HbmTargetPhases, ResponseUpdatedToEndRespAtOnce) {
  expectEveryResponseOnceAtTheModelsTime(RespAnswer::UpdatedNow);
}

// An END_RESP that takes effect later (by its annotated delay, or sent later on the forward path)
// keeps the response channel busy that long: the next response waits for it, none is lost.
void expectHeldResponsesSerialise(RespAnswer answer) {
  const Tick hold = 50 * kNs;
  HbmModel layout(hbmtest::params());
  PhaseDriver* drv = nullptr;
  runWith(answer, hold, 64, fourReads(layout), drv);
  std::vector<Tick> starts;
  for (const Request& r : drv->reqs) {
    EXPECT_EQ(r.responses, 1);
    starts.push_back(r.beginResp);
  }
  std::sort(starts.begin(), starts.end());
  const std::vector<Tick> lt = looselyTimed(drv->reqs);
  EXPECT_EQ(starts[0], *std::min_element(lt.begin(), lt.end()));
  for (size_t i = 1; i < starts.size(); ++i) EXPECT_GE(starts[i], starts[i - 1] + hold) << i;
  EXPECT_EQ(drv->maxInResponse, 1);
}

TEST(HbmTargetPhases, ResponseUpdatedToEndRespAfterADelay) {
  expectHeldResponsesSerialise(RespAnswer::UpdatedLater);
}

TEST(HbmTargetPhases, ResponseAcceptedAndEndedLaterOnTheForwardPath) {
  expectHeldResponsesSerialise(RespAnswer::AcceptedThenEndResp);
}

TEST(HbmTargetPhases, EndReqIsWithheldWhileTheQueueIsFull) {
  HbmModel layout(hbmtest::params());
  PhaseDriver* drv = nullptr;
  runWith(RespAnswer::AcceptedThenEndResp, 20 * kNs, 2, fourReads(layout), drv);
  const auto& r = drv->reqs;
  EXPECT_EQ(r[0].endReq, 0u);
  EXPECT_EQ(r[1].endReq, 0u);
  // The third is accepted when a slot frees: at the END_RESP of the first response.
  const Tick firstEnd = std::min(r[0].beginResp, r[1].beginResp) + 20 * kNs;
  EXPECT_EQ(r[2].endReq, firstEnd);
  EXPECT_GE(r[3].endReq, r[2].endReq);
  for (const Request& q : r) EXPECT_EQ(q.responses, 1);
}

TEST(HbmTargetPhases, ResponsesComeInCompletionOrderNotRequestOrder) {
  HbmModel layout(hbmtest::params());
  // A 4 KiB read spread over pseudo-channels, then a 64 B read on another one: both accepted at
  // once, the short one is answered first, each at the model's time.
  std::vector<Request> reqs = {{hbmtest::addr(layout, 0, 0, 0, 1), 4096},
                               {hbmtest::addr(layout, 40, 0, 0, 1), 64}};
  const std::vector<Tick> lt = looselyTimed(reqs);
  ASSERT_LT(lt[1], lt[0]);
  PhaseDriver* drv = nullptr;
  runWith(RespAnswer::Completed, 0, 64, reqs, drv);
  EXPECT_EQ(drv->reqs[1].beginResp, lt[1]);
  EXPECT_EQ(drv->reqs[0].beginResp, lt[0]);
  EXPECT_EQ(drv->reqs[0].responses, 1);
  EXPECT_EQ(drv->reqs[1].responses, 1);
}

TEST(HbmTargetPhases, EarlyCompletionAtEndReqGetsNoResponseAndFreesTheSlotWhenTheAccessEnds) {
  HbmModel layout(hbmtest::params());
  auto* hbm = new HbmTarget("hbm", hbmtest::params(), 1);
  auto* drv = new PhaseDriver("drv");
  drv->socket.bind(hbm->socket);
  drv->reqs = {{hbmtest::addr(layout, 0, 0, 0, 1)}, {hbmtest::addr(layout, 1, 0, 0, 1)}};
  drv->completeAtEndReq = true;
  sc_core::sc_start();
  EXPECT_EQ(drv->reqs[0].responses, 0);
  EXPECT_EQ(drv->reqs[1].responses, 0);
  // One slot: the second is accepted when the first access has finished in the model.
  EXPECT_EQ(drv->reqs[1].endReq, HbmModel(hbmtest::params()).access(drv->reqs[0].addr, 64, false, 0));
  EXPECT_EQ(hbm->outstanding(), 0);
}

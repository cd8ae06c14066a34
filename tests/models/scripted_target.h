#pragma once
// A scripted approximately-timed target for the initiator tests: it answers its k-th request in
// the k-th of its ways (cycling), each way one legal answer of the base protocol, with response
// delays that shrink with k so responses come back out of order, and checks the initiator's
// side: no BEGIN_REQ before the previous END_REQ or before END_RESP of an updated BEGIN_RESP, a
// write's bytes, every response ended.
#include <gtest/gtest.h>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <map>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/common/sim_time.h"

namespace npusim::test {

enum class Answer { Completed, UpdatedEndReq, UpdatedBeginResp, AcceptedEndReqLater, AcceptedRespOnly };

struct ScriptedTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<ScriptedTarget> socket;
  std::vector<Answer> answers;
  const uint8_t* backing = nullptr;  // where a write's bytes must come from (offset 0)
  int requests = 0, responses = 0, endResps = 0, badData = 0;
  bool requestOpen = false;                             // END_REQ withheld: no BEGIN_REQ may come
  tlm::tlm_generic_payload* awaitingEndResp = nullptr;  // BEGIN_RESP updated: END_RESP must come
  std::vector<int> order;                               // request index of each response
  std::map<tlm::tlm_generic_payload*, int> index;
  std::vector<Tick> answeredAt;     // per request: the response time the target gave
  bool wantUpdatedEndResp = false;  // the initiator must end BEGIN_RESP by TLM_UPDATED/END_RESP
  tlm_utils::peq_with_cb_and_phase<ScriptedTarget> peq;

  explicit ScriptedTarget(sc_core::sc_module_name n)
      : sc_module(n), socket("socket"), peq(this, &ScriptedTarget::fire) {
    socket.register_nb_transport_fw(this, &ScriptedTarget::fw);
  }
  static sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }
  sc_core::sc_time responseDelay(int k) const { return ns(400 - 7 * (k % 50)); }

  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    if (ph == tlm::END_RESP) {
      EXPECT_EQ(&p, awaitingEndResp) << "END_RESP for a response that was not updated";
      awaitingEndResp = nullptr;
      ++endResps;
      return tlm::TLM_COMPLETED;
    }
    EXPECT_EQ(ph, tlm::BEGIN_REQ);
    EXPECT_FALSE(requestOpen) << "BEGIN_REQ before the previous END_REQ";
    EXPECT_EQ(awaitingEndResp, nullptr) << "BEGIN_REQ before END_RESP of the updated response";
    const int k = requests++;
    index[&p] = k;
    answeredAt.push_back(0);
    p.acquire();  // held until its response ends
    if (p.is_write() && backing &&
        !std::equal(p.get_data_ptr(), p.get_data_ptr() + p.get_data_length(), backing + p.get_address()))
      ++badData;
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    switch (answers[static_cast<size_t>(k) % answers.size()]) {
      case Answer::Completed:
        d += ns(10);
        note(p, simNow() + static_cast<Tick>(d.value()));
        p.release();
        return tlm::TLM_COMPLETED;
      case Answer::UpdatedEndReq:
        ph = tlm::END_REQ;
        peq.notify(p, tlm::BEGIN_RESP, responseDelay(k));
        return tlm::TLM_UPDATED;
      case Answer::UpdatedBeginResp:
        ph = tlm::BEGIN_RESP;
        d += ns(5);
        note(p, simNow() + static_cast<Tick>(d.value()));
        awaitingEndResp = &p;
        p.release();
        return tlm::TLM_UPDATED;
      case Answer::AcceptedEndReqLater:
        requestOpen = true;
        peq.notify(p, tlm::END_REQ, ns(20));
        peq.notify(p, tlm::BEGIN_RESP, responseDelay(k));
        return tlm::TLM_ACCEPTED;
      case Answer::AcceptedRespOnly:
        requestOpen = true;  // BEGIN_RESP will end the request too
        peq.notify(p, tlm::BEGIN_RESP, responseDelay(k));
        return tlm::TLM_ACCEPTED;
    }
    return tlm::TLM_COMPLETED;
  }
  Tick lastResponse() const {
    return answeredAt.empty() ? 0 : *std::max_element(answeredAt.begin(), answeredAt.end());
  }
  void note(tlm::tlm_generic_payload& p, Tick at) {
    ++responses;
    order.push_back(index[&p]);
    answeredAt[static_cast<size_t>(index[&p])] = at;
  }
  void fire(tlm::tlm_generic_payload& p, const tlm::tlm_phase& phase) {
    tlm::tlm_phase ph = phase;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    requestOpen = false;
    if (phase == tlm::END_REQ) {
      EXPECT_EQ(socket->nb_transport_bw(p, ph, d), tlm::TLM_ACCEPTED);
      return;
    }
    note(p, simNow());
    const tlm::tlm_sync_enum r = socket->nb_transport_bw(p, ph, d);
    // Either ends the response on the spot; neither leaves it open.
    EXPECT_TRUE(r == tlm::TLM_COMPLETED || (r == tlm::TLM_UPDATED && ph == tlm::END_RESP));
    if (wantUpdatedEndResp) {
      EXPECT_EQ(r, tlm::TLM_UPDATED);
    }
    p.release();
  }
};

}  // namespace npusim::test

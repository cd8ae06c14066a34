#pragma once
// The built-in HBM of one device as a TLM-2.0 target module: it wraps the timing model
// (HbmModel) behind a target socket that speaks both base protocols. Addresses are byte offsets
// into the device's HBM; functional data stays in npusim's store, so the payload's bytes are
// not touched.
//  - Loosely timed: b_transport times the access at now + the annotated delay and annotates
//    its completion back.
//  - Approximately timed: nb_transport_fw with the four phases. Requests enter the model in
//    simulated-time order (a payload event queue), at most `queueDepth` at once: a request
//    beyond that gets its END_REQ only when an earlier one has finished (back-pressure).
//    BEGIN_RESP is sent when the data's last beat completes, one response at a time (in
//    completion order, not request order). Every legal answer of the initiator is handled:
//    END_REQ answered TLM_COMPLETED ends the transaction early (the access still occupies the
//    memory, no response follows); BEGIN_RESP answered TLM_COMPLETED, TLM_UPDATED with END_RESP
//    (the response channel frees after the annotated delay) or TLM_ACCEPTED and a later END_RESP
//    on the forward path.
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_target_socket.h>

#include <deque>
#include <set>
#include <systemc>
#include <tlm>

#include "models/hbm/hbm_model.h"

namespace npusim {

class HbmTarget : public sc_core::sc_module {
 public:
  HbmTarget(sc_core::sc_module_name name, const HbmParams& params, int queueDepth);

  tlm_utils::simple_target_socket<HbmTarget> socket;
  HbmModel model;

  int outstanding() const { return outstanding_; }

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload&) { return 0; }
  void onPhase(tlm::tlm_generic_payload& p, const tlm::tlm_phase& phase);
  void accept(tlm::tlm_generic_payload& p);
  void sendResponse(tlm::tlm_generic_payload& p);
  void responseEnded(tlm::tlm_generic_payload& p);
  void freeSlot(tlm::tlm_generic_payload& p);
  Tick time(tlm::tlm_generic_payload& p, Tick arrival);

  tlm_utils::peq_with_cb_and_phase<HbmTarget> peq_;
  int depth_;
  int outstanding_ = 0;
  std::deque<tlm::tlm_generic_payload*> held_;      // requests not yet accepted (back-pressure)
  std::deque<tlm::tlm_generic_payload*> ready_;     // completed, waiting for the response channel
  tlm::tlm_generic_payload* responding_ = nullptr;  // BEGIN_RESP sent, END_RESP not yet seen
  std::set<tlm::tlm_generic_payload*> ended_;       // completed by the initiator at END_REQ
};

}  // namespace npusim

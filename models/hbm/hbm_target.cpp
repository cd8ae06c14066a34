#include "models/hbm/hbm_target.h"

#include "models/common/sim_time.h"

namespace npusim {

using sc_core::sc_time;

namespace {
Tick now() { return simNow(); }
// Phases on the target's own event queue: a request arrives (BEGIN_REQ), its access completes
// in the model (kDone), the initiator's END_RESP takes effect (END_RESP, after its delay).
const tlm::tlm_phase kDone = tlm::BEGIN_RESP;
}  // namespace

HbmTarget::HbmTarget(sc_core::sc_module_name name, const HbmParams& params, int queueDepth)
    : sc_module(name), socket("socket"), model(params), peq_(this, &HbmTarget::onPhase), depth_(queueDepth) {
  socket.register_b_transport(this, &HbmTarget::b_transport);
  socket.register_nb_transport_fw(this, &HbmTarget::nb_transport_fw);
  socket.register_transport_dbg(this, &HbmTarget::transport_dbg);
}

Tick HbmTarget::time(tlm::tlm_generic_payload& p, Tick arrival) {
  const bool write = p.get_command() == tlm::TLM_WRITE_COMMAND;
  model.setHorizon(now());  // initiators may run ahead of the simulation time, never behind it
  Tick done = model.access(p.get_address(), p.get_data_length(), write, arrival);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  return done > arrival ? done : arrival;
}

void HbmTarget::b_transport(tlm::tlm_generic_payload& p, sc_time& delay) {
  const Tick t = now();
  const Tick arrival = t + static_cast<Tick>(delay.value());
  delay = toScTime(time(p, arrival) - t);
}

tlm::tlm_sync_enum HbmTarget::nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                              sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    p.acquire();
    peq_.notify(p, phase, delay);  // enters the model at its own time, in time order
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::END_RESP && responding_ == &p) {
    if (delay == sc_core::SC_ZERO_TIME)
      responseEnded(p);
    else
      peq_.notify(p, phase, delay);  // the response channel frees when the END_RESP happens
    return tlm::TLM_COMPLETED;
  }
  SC_REPORT_ERROR("npusim/hbm", phase == tlm::END_RESP
                                    ? "nb_transport_fw: END_RESP without a response"
                                    : "nb_transport_fw: a phase the initiator may not send");
  return tlm::TLM_COMPLETED;
}

void HbmTarget::onPhase(tlm::tlm_generic_payload& p, const tlm::tlm_phase& phase) {
  if (phase == tlm::BEGIN_REQ) {
    if (outstanding_ < depth_)
      accept(p);
    else
      held_.push_back(&p);
  } else if (phase == kDone) {
    if (ended_.erase(&p))  // the initiator completed it at END_REQ: no response is owed
      freeSlot(p);
    else if (responding_)
      ready_.push_back(&p);
    else
      sendResponse(p);
  } else if (phase == tlm::END_RESP) {
    responseEnded(p);
  }
}

void HbmTarget::accept(tlm::tlm_generic_payload& p) {
  ++outstanding_;
  tlm::tlm_phase ph = tlm::END_REQ;
  sc_time zero = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum r = socket->nb_transport_bw(p, ph, zero);
  if (r == tlm::TLM_COMPLETED) ended_.insert(&p);  // early completion: the access still occupies the memory
  const Tick t = now();
  peq_.notify(p, kDone, toScTime(time(p, t) - t));
}

void HbmTarget::sendResponse(tlm::tlm_generic_payload& p) {
  responding_ = &p;
  tlm::tlm_phase ph = tlm::BEGIN_RESP;
  sc_time delay = sc_core::SC_ZERO_TIME;
  switch (socket->nb_transport_bw(p, ph, delay)) {
    case tlm::TLM_COMPLETED:
      responseEnded(p);
      break;
    case tlm::TLM_UPDATED:  // the initiator answered END_RESP at once, effective after its delay
      if (ph != tlm::END_RESP)
        SC_REPORT_ERROR("npusim/hbm", "nb_transport_bw: BEGIN_RESP updated to a phase other than END_RESP");
      if (delay == sc_core::SC_ZERO_TIME)
        responseEnded(p);
      else
        peq_.notify(p, tlm::END_RESP, delay);
      break;
    case tlm::TLM_ACCEPTED:  // END_RESP will come on the forward path
      break;
  }
}

void HbmTarget::responseEnded(tlm::tlm_generic_payload& p) {
  if (responding_ != &p) return;
  responding_ = nullptr;
  freeSlot(p);
  if (!ready_.empty() && !responding_) {
    tlm::tlm_generic_payload* next = ready_.front();
    ready_.pop_front();
    sendResponse(*next);
  }
}

void HbmTarget::freeSlot(tlm::tlm_generic_payload& p) {
  --outstanding_;
  p.release();
  if (!held_.empty()) {
    tlm::tlm_generic_payload* next = held_.front();
    held_.pop_front();
    accept(*next);
  }
}

}  // namespace npusim

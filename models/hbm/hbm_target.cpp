#include "models/hbm/hbm_target.h"

#include "models/common/sim_time.h"

namespace npusim {

using sc_core::sc_time;

namespace {
Tick now() { return simNow(); }
const tlm::tlm_phase kDone = tlm::BEGIN_RESP;  // internal: the access completed in the model
}  // namespace

HbmTarget::HbmTarget(sc_core::sc_module_name name, const HbmParams& params, int queueDepth)
    : sc_module(name), socket("socket"), model(params), peq_(this, &HbmTarget::onPhase), depth_(queueDepth) {
  socket.register_b_transport(this, &HbmTarget::b_transport);
  socket.register_nb_transport_fw(this, &HbmTarget::nb_transport_fw);
  socket.register_transport_dbg(this, &HbmTarget::transport_dbg);
}

Tick HbmTarget::time(tlm::tlm_generic_payload& p, Tick arrival) {
  const bool write = p.get_command() == tlm::TLM_WRITE_COMMAND;
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
  if (phase == tlm::END_RESP) {
    finish(p);
    return tlm::TLM_COMPLETED;
  }
  SC_REPORT_ERROR("npusim/hbm", "nb_transport_fw: unexpected phase");
  return tlm::TLM_COMPLETED;
}

void HbmTarget::onPhase(tlm::tlm_generic_payload& p, const tlm::tlm_phase& phase) {
  if (phase == tlm::BEGIN_REQ) {
    if (outstanding_ < depth_)
      accept(p);
    else
      held_.push_back(&p);
    return;
  }
  if (phase == kDone) {
    if (responding_)
      ready_.push_back(&p);
    else
      sendResponse(p);
  }
}

void HbmTarget::accept(tlm::tlm_generic_payload& p) {
  ++outstanding_;
  tlm::tlm_phase ph = tlm::END_REQ;
  sc_time zero = sc_core::SC_ZERO_TIME;
  socket->nb_transport_bw(p, ph, zero);
  const Tick t = now();
  peq_.notify(p, kDone, toScTime(time(p, t) - t));
}

void HbmTarget::sendResponse(tlm::tlm_generic_payload& p) {
  responding_ = &p;
  tlm::tlm_phase ph = tlm::BEGIN_RESP;
  sc_time zero = sc_core::SC_ZERO_TIME;
  if (socket->nb_transport_bw(p, ph, zero) == tlm::TLM_COMPLETED) finish(p);
}

void HbmTarget::finish(tlm::tlm_generic_payload& p) {
  if (responding_ != &p) return;
  responding_ = nullptr;
  --outstanding_;
  p.release();
  if (!held_.empty()) {
    tlm::tlm_generic_payload* next = held_.front();
    held_.pop_front();
    accept(*next);
  }
  if (!ready_.empty()) {
    tlm::tlm_generic_payload* next = ready_.front();
    ready_.pop_front();
    sendResponse(*next);
  }
}

}  // namespace npusim

#include "models/common/plugin_port.h"

#include <string>

#include "models/common/sim_time.h"
#include "npusim/transaction.h"

namespace npusim {

PluginPort::PluginPort(sc_core::sc_module_name name, Protocol protocol, uint32_t maxBytes)
    : sc_module(name), in("in"), out("out"), protocol_(protocol), max_(maxBytes ? maxBytes : 1) {
  in.register_b_transport(this, &PluginPort::b_transport);
  in.register_transport_dbg(this, &PluginPort::transport_dbg);
  out.bind(*this);
}

uint32_t PluginPort::pieceLength(uint64_t addr, uint64_t remaining, uint32_t maxBytes) {
  uint32_t len = maxBytes;
  while (len > 1 && (len > remaining || addr % len != 0)) len >>= 1;
  return len;
}

tlm::tlm_generic_payload* PluginPort::piece(tlm::tlm_generic_payload& p, uint64_t offset, uint32_t bytes) {
  tlm::tlm_generic_payload* q = pool_.acquire();
  q->set_command(p.get_command());
  q->set_address(p.get_address() + offset);
  q->set_data_ptr(p.get_data_ptr() + offset);
  q->set_data_length(bytes);
  q->set_streaming_width(bytes);
  q->set_byte_enable_ptr(nullptr);
  q->set_dmi_allowed(false);
  q->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  auto* origin = q->get_extension<TransactionOrigin>();
  if (!origin) q->set_extension(origin = new TransactionOrigin);
  *origin = TransactionOrigin();
  if (const auto* x = p.get_extension<TransactionInfo>()) {
    origin->device = x->device;
    origin->kind = x->engine == Engine::Dma   ? InitiatorKind::Dma
                   : x->engine == Engine::Mte ? InitiatorKind::AiCore
                                              : InitiatorKind::Other;
    origin->index = x->engineIndex;
    origin->stream = x->stream;
    origin->task = x->task;
  }
  ++pieces_;
  return q;
}

void PluginPort::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const Tick arrival = simNow() + static_cast<Tick>(delay.value());
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  const Tick done =
      protocol_ == Protocol::LooselyTimed ? looselyTimed(p, arrival) : approximatelyTimed(p, arrival);
  const Tick now = simNow();
  delay = toScTime(done > now ? done - now : 0);
}

Tick PluginPort::looselyTimed(tlm::tlm_generic_payload& p, Tick arrival) {
  Tick done = arrival;
  const uint64_t total = p.get_data_length();
  for (uint64_t off = 0; off < total;) {
    const uint32_t len = pieceLength(p.get_address() + off, total - off, max_);
    tlm::tlm_generic_payload* q = piece(p, off, len);
    const Tick now = simNow();
    sc_core::sc_time d = toScTime(arrival > now ? arrival - now : 0);
    out->b_transport(*q, d);  // a model may wait inside: the time it returns at counts
    done = std::max(done, simNow() + static_cast<Tick>(d.value()));
    if (q->get_response_status() != tlm::TLM_OK_RESPONSE) p.set_response_status(q->get_response_status());
    q->release();
    off += len;
  }
  return done;
}

Tick PluginPort::approximatelyTimed(tlm::tlm_generic_payload& p, Tick arrival) {
  if (arrival > simNow()) sc_core::wait(toScTime(arrival - simNow()));
  Access a;
  a.done = arrival;
  const uint64_t total = p.get_data_length();
  for (uint64_t off = 0; off < total;) {
    const uint32_t len = pieceLength(p.get_address() + off, total - off, max_);
    ++a.remaining;
    sendPiece(*piece(p, off, len), a);
    off += len;
  }
  while (a.remaining > 0) sc_core::wait(a.finished);
  if (a.status != tlm::TLM_OK_RESPONSE) p.set_response_status(a.status);
  return a.done;
}

void PluginPort::sendPiece(tlm::tlm_generic_payload& q, Access& a) {
  while (requesting_) sc_core::wait(requestFree_);
  requesting_ = &q;
  open_[&q] = &a;
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  switch (out->nb_transport_fw(q, phase, d)) {
    case tlm::TLM_ACCEPTED:  // END_REQ (or BEGIN_RESP) comes on the backward path
      while (requesting_ == &q) sc_core::wait(requestFree_);
      break;
    case tlm::TLM_UPDATED:
      if (phase == tlm::END_REQ) {
        if (d != sc_core::SC_ZERO_TIME) sc_core::wait(d);  // the next request waits for the END_REQ
        requestEnded(q);
      } else if (phase == tlm::BEGIN_RESP) {  // an implicit END_REQ and the response at once
        requestEnded(q);
        const Tick at = simNow() + static_cast<Tick>(d.value());
        tlm::tlm_phase end = tlm::END_RESP;
        sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
        out->nb_transport_fw(q, end, zero);
        responded(q, at);
      } else {
        SC_REPORT_ERROR("npusim/plugin",
                        "nb_transport_fw: BEGIN_REQ updated to a phase the target may not send");
      }
      break;
    case tlm::TLM_COMPLETED:  // early completion: done after the annotated delay
      requestEnded(q);
      responded(q, simNow() + static_cast<Tick>(d.value()));
      break;
  }
}

void PluginPort::requestEnded(tlm::tlm_generic_payload& q) {
  if (requesting_ != &q) return;
  requesting_ = nullptr;
  requestFree_.notify();
}

void PluginPort::responded(tlm::tlm_generic_payload& q, Tick at) {
  auto it = open_.find(&q);
  if (it == open_.end()) return;
  Access& a = *it->second;
  open_.erase(it);
  a.done = std::max(a.done, at);
  if (q.get_response_status() != tlm::TLM_OK_RESPONSE) a.status = q.get_response_status();
  q.release();
  if (--a.remaining == 0) a.finished.notify(toScTime(at > simNow() ? at - simNow() : 0));
}

tlm::tlm_sync_enum PluginPort::nb_transport_bw(tlm::tlm_generic_payload& q, tlm::tlm_phase& phase,
                                               sc_core::sc_time& delay) {
  if (!open_.count(&q)) {
    SC_REPORT_ERROR("npusim/plugin", "nb_transport_bw: a phase for a transaction not in flight");
    return tlm::TLM_COMPLETED;
  }
  if (phase == tlm::END_REQ) {
    requestEnded(q);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    requestEnded(q);  // BEGIN_RESP implies END_REQ
    responded(q, simNow() + static_cast<Tick>(delay.value()));
    // END_RESP at once, by TLM_UPDATED: as legal as TLM_COMPLETED, and the answer some models
    // (DRAMSys 5.1's arbiter) take as the end of the response; they wait for END_RESP otherwise.
    phase = tlm::END_RESP;
    return tlm::TLM_UPDATED;
  }
  SC_REPORT_ERROR("npusim/plugin", "nb_transport_bw: a phase the target may not send");
  return tlm::TLM_COMPLETED;
}

}  // namespace npusim

#include "models/common/plugin_port.h"

#include <algorithm>
#include <string>

#include "models/common/sim_time.h"
#include "npusim/transaction.h"

namespace npusim {

namespace {
Tick after(const sc_core::sc_time& d) { return simNow() + static_cast<Tick>(d.value()); }
sc_core::sc_time until(Tick t) { return toScTime(t > simNow() ? t - simNow() : 0); }
}  // namespace

PluginPort::PluginPort(sc_core::sc_module_name name, Protocol protocol, uint32_t maxBytes)
    : sc_module(name), in("in"), out("out"), protocol_(protocol), max_(maxBytes ? maxBytes : 1) {
  in.register_b_transport(this, &PluginPort::b_transport);
  in.register_nb_transport_fw(this, &PluginPort::nb_transport_fw);
  in.register_transport_dbg(this, &PluginPort::transport_dbg);
  out.bind(*this);
  SC_METHOD(feed);
  sensitive << feedEvent_;
  dont_initialize();
}

PluginPort::~PluginPort() {
  for (auto& [p, a] : fromBus_) delete a;
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
  const Tick arrival = after(delay);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  Tick done = arrival;
  if (protocol_ == Protocol::LooselyTimed) {
    done = looselyTimed(p, arrival);
  } else if (const TransactionInfo* x = p.get_extension<TransactionInfo>();
             x && x->postedTo && p.is_write() && p.get_data_length() > 0) {
    post(p, *x, arrival);  // delivered now; the memory's completion goes to x->postedTo
  } else if (p.get_data_length() > 0) {
    sc_core::sc_event finished;
    Access a;
    a.p = &p;
    a.arrival = a.done = arrival;
    a.finished = &finished;
    enqueue(&a);
    while (!(a.sent() && a.open == 0)) sc_core::wait(finished);
    if (a.status != tlm::TLM_OK_RESPONSE) p.set_response_status(a.status);
    done = a.done;
  }
  const Tick now = simNow();
  delay = toScTime(done > now ? done - now : 0);
}

void PluginPort::post(tlm::tlm_generic_payload& p, const TransactionInfo& x, Tick arrival) {
  // The caller's payload is its own again when this returns (an endpoint puts its address back),
  // so the model gets a copy of it. Its data stays the initiator's, which waits for the answer.
  TransactionInfo* cx = nullptr;
  tlm::tlm_generic_payload* q = pool_.acquire(&cx);
  q->set_command(p.get_command());
  q->set_address(p.get_address());
  q->set_data_ptr(p.get_data_ptr());
  q->set_data_length(p.get_data_length());
  q->set_streaming_width(p.get_data_length());
  q->set_byte_enable_ptr(nullptr);
  q->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  *cx = x;
  cx->postedTo = nullptr;
  auto* a = new Access;
  a->p = q;
  a->arrival = a->done = arrival;
  a->postedTo = x.postedTo;
  a->postedTag = x.postedTag;
  fromBus_[q] = a;  // (never seen on the bus: kept for the destructor)
  a->postedTo->expect();
  enqueue(a);
}

Tick PluginPort::looselyTimed(tlm::tlm_generic_payload& p, Tick arrival) {
  Tick done = arrival;
  const uint64_t total = p.get_data_length();
  for (uint64_t off = 0; off < total;) {
    const uint32_t len = pieceLength(p.get_address() + off, total - off, max_);
    tlm::tlm_generic_payload* q = piece(p, off, len);
    sc_core::sc_time d = until(arrival);
    out->b_transport(*q, d);  // a model may wait inside: the time it returns at counts
    done = std::max(done, after(d));
    if (q->get_response_status() != tlm::TLM_OK_RESPONSE) p.set_response_status(q->get_response_status());
    q->release();
    off += len;
  }
  return done;
}

tlm::tlm_sync_enum PluginPort::nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                               sc_core::sc_time& delay) {
  if (phase == tlm::END_RESP) {
    auto it = fromBus_.find(&p);
    if (it != fromBus_.end() && it->second == responding_) responseEnded(responding_);
    return tlm::TLM_COMPLETED;
  }
  if (phase != tlm::BEGIN_REQ || protocol_ != Protocol::ApproximatelyTimed || fromBus_.count(&p)) {
    SC_REPORT_ERROR("npusim/plugin", protocol_ != Protocol::ApproximatelyTimed
                                         ? "nb_transport_fw: the model is loosely timed, use b_transport"
                                         : "nb_transport_fw: a phase an initiator may not send here");
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return tlm::TLM_COMPLETED;
  }
  auto* a = new Access;
  a->p = &p;
  a->arrival = a->done = after(delay);
  fromBus_[&p] = a;
  if (p.get_data_length() == 0) {  // nothing for the model: answered at its arrival
    phase = tlm::BEGIN_RESP;
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    fromBus_.erase(&p);
    delete a;
    return tlm::TLM_COMPLETED;
  }
  enqueue(a);
  return tlm::TLM_ACCEPTED;  // END_REQ once the model took its last piece
}

void PluginPort::enqueue(Access* a) {
  a->seq = ++seq_;
  auto later = [](const Access* x, const Access* y) {
    return x->arrival != y->arrival ? x->arrival < y->arrival : x->seq < y->seq;
  };
  // An access partly sent stays at the front: its pieces go out back to back.
  auto from = queue_.begin();
  if (from != queue_.end() && (*from)->next > 0) ++from;
  queue_.insert(std::upper_bound(from, queue_.end(), a, later), a);
  feedEvent_.notify(until(queue_.front()->arrival));
}

// Sends pieces while the request channel is free and the next access has arrived; runs as the
// method process and, from the forward call's return values, inline.
void PluginPort::feed() {
  if (feeding_) return;
  feeding_ = true;
  while (!requesting_ && !queue_.empty()) {
    const Tick now = simNow();
    Access& a = *queue_.front();
    const Tick at = std::max(a.arrival, requestFreeAt_);
    if (at > now) {
      feedEvent_.notify(toScTime(at - now));
      break;
    }
    const uint64_t total = a.p->get_data_length();
    const uint32_t len = pieceLength(a.p->get_address() + a.next, total - a.next, max_);
    tlm::tlm_generic_payload* q = piece(*a.p, a.next, len);
    a.next += len;
    ++a.open;
    open_[q] = &a;
    if (a.sent()) {
      a.lastPiece = q;
      queue_.pop_front();
    }
    sendPiece(*q);
  }
  feeding_ = false;
}

void PluginPort::sendPiece(tlm::tlm_generic_payload& q) {
  requesting_ = &q;
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  switch (out->nb_transport_fw(q, phase, d)) {
    case tlm::TLM_ACCEPTED:  // END_REQ (or BEGIN_RESP) comes on the backward path
      break;
    case tlm::TLM_UPDATED:
      if (phase == tlm::END_REQ) {
        requestEnded(q, after(d));
      } else if (phase == tlm::BEGIN_RESP) {  // an implicit END_REQ and the response at once
        requestEnded(q, after(d));
        const Tick at = after(d);
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
      requestEnded(q, after(d));
      responded(q, after(d));
      break;
  }
}

// The piece's request phase ended at `at`: the next piece may go from then on. When it was an
// AT access's last piece, the access's own request phase ends too.
void PluginPort::requestEnded(tlm::tlm_generic_payload& q, Tick at) {
  if (requesting_ != &q) return;
  requesting_ = nullptr;
  requestFreeAt_ = std::max(requestFreeAt_, at);
  auto it = open_.find(&q);
  // (An access with a waiting b_transport caller or a posted one has no request phase on the bus.)
  if (it != open_.end() && it->second->lastPiece == &q && !it->second->finished && !it->second->postedTo) {
    tlm::tlm_phase phase = tlm::END_REQ;
    sc_core::sc_time d = until(at);
    in->nb_transport_bw(*it->second->p, phase, d);
  }
  if (!feeding_) feedEvent_.notify(until(requestFreeAt_));
}

void PluginPort::responded(tlm::tlm_generic_payload& q, Tick at) {
  auto it = open_.find(&q);
  if (it == open_.end()) return;
  Access& a = *it->second;
  open_.erase(it);
  a.done = std::max(a.done, at);
  if (q.get_response_status() != tlm::TLM_OK_RESPONSE) a.status = q.get_response_status();
  q.release();
  if (--a.open > 0 || !a.sent()) return;
  if (a.finished) {
    a.finished->notify(until(a.done));
  } else if (a.postedTo) {
    const bool failed = a.status != tlm::TLM_OK_RESPONSE;
    a.postedTo->answer(a.postedTag, a.done);
    fromBus_.erase(a.p);
    a.p->release();
    delete &a;
    if (failed) SC_REPORT_ERROR("npusim/plugin", "a posted write failed in the memory model");
  } else {
    responses_.push_back(&a);
    respondNext();
  }
}

// BEGIN_RESP to the initiators through the bus, one at a time (response exclusion).
void PluginPort::respondNext() {
  while (!responding_ && !responses_.empty()) {
    Access* a = responses_.front();
    responses_.pop_front();
    responding_ = a;
    a->p->set_response_status(a->status);
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time d = until(a->done);
    const tlm::tlm_sync_enum r = in->nb_transport_bw(*a->p, phase, d);
    if (r == tlm::TLM_COMPLETED || (r == tlm::TLM_UPDATED && phase == tlm::END_RESP)) responseEnded(a);
    // TLM_ACCEPTED: END_RESP comes on the forward path.
  }
}

void PluginPort::responseEnded(Access* a) {
  if (responding_ == a) responding_ = nullptr;
  fromBus_.erase(a->p);
  delete a;
  respondNext();
}

tlm::tlm_sync_enum PluginPort::nb_transport_bw(tlm::tlm_generic_payload& q, tlm::tlm_phase& phase,
                                               sc_core::sc_time& delay) {
  if (!open_.count(&q)) {
    SC_REPORT_ERROR("npusim/plugin", "nb_transport_bw: a phase for a transaction not in flight");
    return tlm::TLM_COMPLETED;
  }
  if (phase == tlm::END_REQ) {
    requestEnded(q, after(delay));
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    requestEnded(q, after(delay));  // BEGIN_RESP implies END_REQ
    responded(q, after(delay));
    // END_RESP at once, by TLM_UPDATED: as legal as TLM_COMPLETED, and the answer some models
    // (DRAMSys 5.1's arbiter) take as the end of the response; they wait for END_RESP otherwise.
    phase = tlm::END_RESP;
    return tlm::TLM_UPDATED;
  }
  SC_REPORT_ERROR("npusim/plugin", "nb_transport_bw: a phase the target may not send");
  return tlm::TLM_COMPLETED;
}

}  // namespace npusim

#include "models/common/memory_initiator.h"

#include <algorithm>
#include <systemc>

#include "models/common/sim_time.h"

namespace npusim {

MemoryInitiator::MemoryInitiator(const char* socketName, Engine engine, int device)
    : socket(socketName), engine_(engine), device_(device) {
  socket.register_nb_transport_bw(this, &MemoryInitiator::nb_transport_bw);
}

uint64_t MemoryInitiator::offsetOf(uint64_t addr) const {
  if (space_.base && addr >= space_.base && addr - space_.base < space_.capacity) return addr - space_.base;
  return addr % space_.capacity;
}

uint8_t* MemoryInitiator::dataFor(uint64_t offset, uint64_t bytes, bool write) {
  if (write && space_.backing && offset + bytes <= space_.capacity) return space_.backing + offset;
  if (scratch_.size() < bytes) scratch_.resize(bytes);
  return scratch_.data();
}

Tick MemoryInitiator::access(uint64_t addr, uint64_t bytes, bool write, Tick arrival) {
  if (bytes == 0) return arrival;
  const uint64_t offset = offsetOf(addr);
  return transport(offset, bytes, write, arrival, dataFor(offset, bytes, write));
}

tlm::tlm_generic_payload* MemoryInitiator::payload(uint64_t addr, uint64_t bytes, bool write, uint8_t* data,
                                                   TransactionInfo** ext) {
  TransactionInfo* x = nullptr;
  tlm::tlm_generic_payload* p = pool_.acquire(&x);
  if (ext) *ext = x;
  p->set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  p->set_address(addr);
  p->set_data_ptr(data);
  p->set_data_length(static_cast<unsigned>(bytes));
  p->set_streaming_width(static_cast<unsigned>(bytes));
  p->set_byte_enable_ptr(nullptr);
  p->set_dmi_allowed(false);
  p->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  x->engine = engine_;
  x->engineIndex = engineIndex_;
  x->device = device_;
  x->task = task_;
  x->stream = stream_;
  return p;
}

Tick MemoryInitiator::transport(uint64_t addr, uint64_t bytes, bool write, Tick arrival, uint8_t* data,
                                AccessWaiter* postedTo, uint64_t postedTag) {
  const Tick now = simNow();
  if (bytes == 0) return arrival;
  if (!data) data = dataFor(0, bytes, false);
  TransactionInfo* x = nullptr;
  tlm::tlm_generic_payload* p = payload(addr, bytes, write, data, &x);
  x->postedTo = postedTo;
  x->postedTag = postedTag;
  sc_core::sc_time delay = toScTime(arrival > now ? arrival - now : 0);
  socket->b_transport(*p, delay);
  lastMemoryDone_ = x->memoryDone;
  if (p->get_response_status() != tlm::TLM_OK_RESPONSE)
    SC_REPORT_ERROR("npusim/memory", p->get_response_string().c_str());
  p->release();
  // A target that waited inside b_transport (an approximately-timed model behind the standard
  // conversion) moved the caller's time: the completion is the time now plus what it annotated.
  return simNow() + delay.value();
}

void MemoryInitiator::start(uint64_t addr, uint64_t bytes, bool write, Tick arrival, AccessWaiter& w,
                            uint64_t tag) {
  const uint64_t offset = offsetOf(addr);
  // A read gets a buffer of its own: a target may fill it while other reads are in flight.
  uint8_t* data = nullptr;
  if (write && space_.backing && offset + bytes <= space_.capacity) data = space_.backing + offset;
  tlm::tlm_generic_payload* p = payload(offset, bytes, write, data);
  if (!data) {
    std::vector<uint8_t>& buf = readBuffers_[p];
    if (buf.size() < bytes) buf.resize(bytes);
    p->set_data_ptr(buf.data());
  }
  waiting_[p] = {&w, tag};
  w.expect();
  maxInFlight_ = std::max(maxInFlight_, static_cast<int>(waiting_.size()));
  requests_.emplace_back(p, arrival);
  sendRequests();
}

// Sends BEGIN_REQ for the queued accesses, one at a time: the next only once the previous one's
// request phase ended, timed no earlier than that END_REQ.
void MemoryInitiator::sendRequests() {
  if (sending_) return;
  sending_ = true;
  while (!requesting_ && !requests_.empty()) {
    auto [p, arrival] = requests_.front();
    requests_.pop_front();
    requesting_ = p;
    const Tick now = simNow(), at = std::max({arrival, requestFreeAt_, now});
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = toScTime(at - now);
    switch (socket->nb_transport_fw(*p, phase, delay)) {
      case tlm::TLM_ACCEPTED:  // END_REQ and BEGIN_RESP come on the backward path
        break;
      case tlm::TLM_UPDATED:
        if (phase == tlm::END_REQ) {
          requestEnded(*p, now + delay.value());
        } else if (phase == tlm::BEGIN_RESP) {  // END_REQ implied, the response now: end it
          requestEnded(*p, now + delay.value());
          tlm::tlm_phase end = tlm::END_RESP;
          sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
          socket->nb_transport_fw(*p, end, zero);
          responded(*p, now + delay.value());
        } else {
          SC_REPORT_ERROR("npusim/memory",
                          "nb_transport_fw: BEGIN_REQ updated to a phase a target may not send");
        }
        break;
      case tlm::TLM_COMPLETED:  // early completion: END_REQ and the response at the annotated time
        requestEnded(*p, now + delay.value());
        responded(*p, now + delay.value());
        break;
    }
  }
  sending_ = false;
}

void MemoryInitiator::requestEnded(tlm::tlm_generic_payload& p, Tick at) {
  if (requesting_ != &p) return;
  requesting_ = nullptr;
  requestFreeAt_ = std::max(requestFreeAt_, at);
}

void MemoryInitiator::responded(tlm::tlm_generic_payload& p, Tick at) {
  auto it = waiting_.find(&p);
  if (it == waiting_.end()) return;
  AccessWaiter& w = *it->second.waiter;
  w.answer(it->second.tag, at);
  waiting_.erase(it);
  if (p.get_response_status() != tlm::TLM_OK_RESPONSE)
    SC_REPORT_ERROR("npusim/memory", p.get_response_string().c_str());
  p.release();
}

tlm::tlm_sync_enum MemoryInitiator::nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                                    sc_core::sc_time& delay) {
  if (!waiting_.count(&p)) {
    SC_REPORT_ERROR("npusim/memory", "nb_transport_bw: a phase for a transaction not in flight");
    return tlm::TLM_COMPLETED;
  }
  const Tick at = simNow() + static_cast<Tick>(delay.value());
  if (phase == tlm::END_REQ) {
    requestEnded(p, at);
    sendRequests();
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    requestEnded(p, at);  // BEGIN_RESP implies END_REQ
    responded(p, at);
    sendRequests();
    return tlm::TLM_COMPLETED;  // the response ends here
  }
  SC_REPORT_ERROR("npusim/memory", "nb_transport_bw: a phase a target may not send");
  return tlm::TLM_COMPLETED;
}

}  // namespace npusim

#include "models/common/memory_bus.h"

#include "models/common/sim_time.h"

namespace npusim {

namespace {
Tick now() { return simNow(); }
}  // namespace

MemoryBus::MemoryBus(sc_core::sc_module_name name) : sc_module(name), in("in"), out("out") {
  in.register_b_transport(this, &MemoryBus::b_transport);
  in.register_nb_transport_fw(this, &MemoryBus::nb_transport_fw);
  in.register_transport_dbg(this, &MemoryBus::transport_dbg);
  out.register_nb_transport_bw(this, &MemoryBus::nb_transport_bw);
}

void MemoryBus::count(const tlm::tlm_generic_payload& p, Tick start, Tick end) {
  const uint64_t bytes = p.get_data_length();
  const bool write = p.get_command() == tlm::TLM_WRITE_COMMAND;
  (write ? bytesWritten_ : bytesRead_) += bytes;
  ++accesses_;
  if (counter_ && bytes) counter_->add(start, end > start ? end : start + 1, bytes, write ? 1 : 0);
}

void MemoryBus::b_transport(int, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const Tick arrival = now() + static_cast<Tick>(delay.value());
  out->b_transport(p, delay);
  count(p, arrival, now() + static_cast<Tick>(delay.value()));
}

tlm::tlm_sync_enum MemoryBus::nb_transport_fw(int id, tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                              sc_core::sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    pending_[&p] = id;
    begun_[&p] = now() + static_cast<Tick>(delay.value());
  }
  tlm::tlm_sync_enum r = out->nb_transport_fw(p, phase, delay);
  if (r == tlm::TLM_COMPLETED || phase == tlm::END_RESP) {
    auto b = begun_.find(&p);
    if (b != begun_.end()) count(p, b->second, now() + static_cast<Tick>(delay.value())), begun_.erase(b);
    pending_.erase(&p);
  }
  return r;
}

tlm::tlm_sync_enum MemoryBus::nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                              sc_core::sc_time& delay) {
  auto it = pending_.find(&p);
  if (it == pending_.end()) {
    SC_REPORT_ERROR("npusim/memory_bus", "nb_transport_bw for a transaction the bus did not forward");
    return tlm::TLM_COMPLETED;
  }
  const int id = it->second;
  if (phase == tlm::BEGIN_RESP) {
    auto b = begun_.find(&p);
    if (b != begun_.end()) count(p, b->second, now() + static_cast<Tick>(delay.value())), begun_.erase(b);
  }
  tlm::tlm_sync_enum r = in[id]->nb_transport_bw(p, phase, delay);
  if (r == tlm::TLM_COMPLETED || (r == tlm::TLM_UPDATED && phase == tlm::END_RESP)) pending_.erase(&p);
  return r;
}

unsigned MemoryBus::transport_dbg(int, tlm::tlm_generic_payload& p) { return out->transport_dbg(p); }

}  // namespace npusim

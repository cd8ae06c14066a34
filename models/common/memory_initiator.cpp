#include "models/common/memory_initiator.h"

#include <systemc>

#include "models/common/sim_time.h"

namespace npusim {

MemoryInitiator::MemoryInitiator(const char* socketName, Engine engine, int device)
    : socket(socketName), engine_(engine), device_(device) {}

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

Tick MemoryInitiator::transport(uint64_t addr, uint64_t bytes, bool write, Tick arrival, uint8_t* data) {
  const Tick now = simNow();
  if (bytes == 0) return arrival;
  if (!data) data = dataFor(0, bytes, false);
  tlm::tlm_generic_payload* p = pool_.acquire();
  p->set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  p->set_address(addr);
  p->set_data_ptr(data);
  p->set_data_length(static_cast<unsigned>(bytes));
  p->set_streaming_width(static_cast<unsigned>(bytes));
  p->set_byte_enable_ptr(nullptr);
  p->set_dmi_allowed(false);
  p->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  TransactionInfo& x = info(*p);
  x.engine = engine_;
  x.engineIndex = engineIndex_;
  x.device = device_;
  x.task = task_;
  x.stream = stream_;
  sc_core::sc_time delay = toScTime(arrival > now ? arrival - now : 0);
  socket->b_transport(*p, delay);
  lastMemoryDone_ = x.memoryDone;
  if (p->get_response_status() != tlm::TLM_OK_RESPONSE)
    SC_REPORT_ERROR("npusim/memory", p->get_response_string().c_str());
  p->release();
  // A target that waited inside b_transport (an approximately-timed model behind the standard
  // conversion) moved the caller's time: the completion is the time now plus what it annotated.
  return simNow() + delay.value();
}

}  // namespace npusim

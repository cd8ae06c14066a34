// An npusim memory plug-in written the way DRAM simulators are (contract v2,
// include/npusim/tlm_plugin.h): approximately timed only, behind a multi-passthrough target
// socket, with a small request buffer. A request is accepted (END_REQ) only while the buffer has
// room, so a full buffer holds the initiator back; accepted requests share one data path in
// acceptance order, each holding it for its bytes at the configured bandwidth, and are answered
// a fixed latency after their data moved, in completion order, one response at a time. An entry
// frees when its response ends.
//
//   export NPUSIM_PLUGINS=/path/libnpusim_at_memory.so
//   NPUSIM_SET=hbm.model=at_memory,hbm.plugin.gbps=100,hbm.plugin.latency_ns=50 ./app
//
// Parameters (hbm.plugin.<key>): gbps (default 100), latency_ns (default 50), queue (request
// buffer entries, default 256: 100 GB/s x 50 ns needs 5 KB, 80 pieces of 64 B, in flight).
#include <npusim/tlm_plugin.h>
#include <npusim/transaction.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/peq_with_cb_and_phase.h>

#include <deque>
#include <map>
#include <stdexcept>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

namespace {

double param(const npusim::MemoryTargetInfo& info, const std::string& key, double fallback) {
  auto it = info.params.find(key);
  if (it == info.params.end() || it->second.empty()) return fallback;
  size_t used = 0;
  double v = std::stod(it->second, &used);  // throws on text that is no number: aclInit fails
  if (used != it->second.size() || !(v > 0))
    throw std::invalid_argument("hbm.plugin." + key + " must be a positive number");
  return v;
}

class AtMemory : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<AtMemory> socket;

  AtMemory(sc_core::sc_module_name name, double gbps, double latencyNs, size_t entries)
      : sc_module(name),
        socket("socket"),
        perByte_(1.0 / gbps, sc_core::SC_NS),  // 1 GB/s = 1 byte per ns
        latency_(latencyNs, sc_core::SC_NS),
        entries_(entries),
        peq_(this, &AtMemory::onPhase) {
    socket.register_nb_transport_fw(this, &AtMemory::nb_transport_fw);
  }

  uint64_t accesses() const { return accesses_; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(int port, tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) {
    if (phase == tlm::BEGIN_REQ) {
      p.acquire();
      port_[&p] = port;
      peq_.notify(p, phase, delay);
      return tlm::TLM_ACCEPTED;
    }
    if (phase == tlm::END_RESP && responding_ == &p) {
      peq_.notify(p, phase, delay);
      return tlm::TLM_COMPLETED;
    }
    SC_REPORT_ERROR("at_memory", "nb_transport_fw: unexpected phase");
    return tlm::TLM_COMPLETED;
  }

  // BEGIN_REQ: a request arrives. BEGIN_RESP (internal): its data is done. END_RESP: its
  // response ended.
  void onPhase(tlm::tlm_generic_payload& p, const tlm::tlm_phase& phase) {
    if (phase == tlm::BEGIN_REQ) {
      if (used_ < entries_)
        accept(p);
      else
        waiting_.push_back(&p);
    } else if (phase == tlm::BEGIN_RESP) {
      ready_.push_back(&p);
      if (!responding_) respondNext();
    } else if (phase == tlm::END_RESP) {
      responseEnded(p);
    }
  }

  void accept(tlm::tlm_generic_payload& p) {
    ++used_;
    ++accesses_;
    tlm::tlm_phase ph = tlm::END_REQ;
    sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
    socket[port_[&p]]->nb_transport_bw(p, ph, zero);
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    const sc_core::sc_time start = free_ > now ? free_ : now;
    free_ = start + perByte_ * static_cast<double>(p.get_data_length());
    p.set_response_status(tlm::TLM_OK_RESPONSE);  // timing only: npusim keeps the data
    peq_.notify(p, tlm::BEGIN_RESP, free_ + latency_ - now);
  }

  void respondNext() {
    while (!responding_ && !ready_.empty()) {
      tlm::tlm_generic_payload& p = *ready_.front();
      ready_.pop_front();
      responding_ = &p;
      tlm::tlm_phase ph = tlm::BEGIN_RESP;
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      const tlm::tlm_sync_enum r = socket[port_[&p]]->nb_transport_bw(p, ph, d);
      if (r == tlm::TLM_COMPLETED || (r == tlm::TLM_UPDATED && d == sc_core::SC_ZERO_TIME))
        responseEnded(p);
      else if (r == tlm::TLM_UPDATED)
        peq_.notify(p, tlm::END_RESP, d);
    }
  }

  void responseEnded(tlm::tlm_generic_payload& p) {
    if (responding_ != &p) return;
    responding_ = nullptr;
    port_.erase(&p);
    --used_;
    p.release();
    if (!waiting_.empty()) {
      tlm::tlm_generic_payload* next = waiting_.front();
      waiting_.pop_front();
      accept(*next);
    }
    respondNext();
  }

  sc_core::sc_time perByte_, latency_;
  size_t entries_, used_ = 0;
  uint64_t accesses_ = 0;
  sc_core::sc_time free_ = sc_core::SC_ZERO_TIME;
  tlm_utils::peq_with_cb_and_phase<AtMemory> peq_;
  std::map<tlm::tlm_generic_payload*, int> port_;
  std::deque<tlm::tlm_generic_payload*> waiting_, ready_;
  tlm::tlm_generic_payload* responding_ = nullptr;
};

const bool registered = npusim::registerMemoryModel(
    "at_memory", npusim::Protocol::ApproximatelyTimed,
    [](tlm::tlm_initiator_socket<>& npusimSide, const npusim::MemoryTargetInfo& info) {
      auto* m = new AtMemory(info.instanceName.c_str(), param(info, "gbps", 100),
                             param(info, "latency_ns", 50), static_cast<size_t>(param(info, "queue", 256)));
      npusimSide.bind(m->socket);  // lives to the end of the process, like every module
    });

}  // namespace

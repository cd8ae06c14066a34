#include "models/hccs/hccs_link.h"

#include <fmt/format.h>

#include <cmath>

#include "models/common/sim_time.h"

namespace npusim::hccs {

HccsLink::HccsLink(sc_core::sc_module_name name, const LinkSpec& spec)
    : sc_module(name),
      from_a("from_a"),
      from_b("from_b"),
      to_a("to_a"),
      to_b("to_b"),
      spec_(spec),
      latency_(nsToTick(spec.latencyNs)),
      aToB_(fmt::format("HCCS {}->{}", spec.a, spec.b), spec.gbps * 1e9),
      bToA_(fmt::format("HCCS {}->{}", spec.b, spec.a), spec.gbps * 1e9) {
  from_a.register_b_transport(this, &HccsLink::fromA);
  from_b.register_b_transport(this, &HccsLink::fromB);
}

void HccsLink::end_of_elaboration() { quantum_ = globalQuantum(); }

Tick HccsLink::holdUntil(Tick start, Tick now) const {
  if (start <= now || start - now <= quantum_) return now;
  sc_core::wait(toScTime(start - now));
  return start;
}

void HccsLink::fromA(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  carry(aToB_, bToA_, to_b, p, delay);
}
void HccsLink::fromB(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  carry(bToA_, aToB_, to_a, p, delay);
}

// The link's protocol overhead (headers, CRC, flow control) is not published: it is the stated
// efficiency, the payload taking 1/efficiency of its size in wire time.
uint64_t HccsLink::wireBytes(uint64_t payload) const {
  // (less a millionth of a byte, so 16000 B at 0.8 is 20000 B despite 0.8's binary rounding)
  return static_cast<uint64_t>(std::ceil(static_cast<double>(payload) / spec_.efficiency - 1e-6));
}

void HccsLink::carry(Channel& out, Channel& back, tlm_utils::simple_initiator_socket<HccsLink>& far,
                     tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const uint64_t bytes = p.get_data_length();
  Tick now = simNow();
  const Tick arrival = now + static_cast<Tick>(delay.value());
  if (p.is_write()) {
    // Serialised on this direction when it is free; the last byte reaches the far end one
    // latency after it left, and the far memory takes the write then.
    Tick end = 0;
    const Tick start = out.reserve(arrival, wireBytes(bytes), bytes, 0, &end);
    now = holdUntil(start, now);
    delay = toScTime(end + latency_ - now);
    far->b_transport(p, delay);
  } else if (p.is_read()) {
    // The request crosses (small: latency only), the far memory reads, the data comes back.
    delay = toScTime(arrival + latency_ - now);
    far->b_transport(p, delay);
    if (!p.is_response_ok()) return;
    now = simNow();
    Tick end = 0;
    const Tick start = back.reserve(now + static_cast<Tick>(delay.value()), wireBytes(bytes), bytes, 0, &end);
    now = holdUntil(start, now);
    delay = toScTime(end + latency_ - now);
  } else {
    p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  }
}

}  // namespace npusim::hccs

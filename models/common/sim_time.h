#pragma once
// Ticks and SystemC time. The kernel runs at its default 1 ps resolution (the platform checks),
// so a Tick is an sc_time value as it is, which avoids the floating-point conversion of
// sc_time(double, unit): it costs more than the model arithmetic of a small transaction.
//
// Decoupled initiators (the DMA channels, the AI cores' MTEs) keep a local time ahead of the
// kernel and synchronise only when it runs more than the TLM-2.0 global quantum ahead:
// transactions carry their local time as the annotated delay, and every shared resource
// arbitrates by that time, so skipping the context switch changes no result that depends on
// call order within the quantum (docs/architecture.md, "Temporal decoupling").
#include <cstring>
#include <systemc>
#include <tlm>
#include <type_traits>

#include "models/common/tick.h"

namespace npusim {

// Written inline: sc_time::from_value is a call into the library (a dozen per DMA burst), and
// all it adds is fixing the time resolution, which the platform has done before any model runs
// (platform.cpp checks it). sc_time is one value_type and nothing else (asserted), so the value
// is its representation.
inline sc_core::sc_time toScTime(Tick t) {
  static_assert(sizeof(sc_core::sc_time) == sizeof(sc_core::sc_time::value_type) &&
                    std::is_standard_layout<sc_core::sc_time>::value,
                "sc_time is expected to hold exactly its value");
  const sc_core::sc_time::value_type v = t;
  sc_core::sc_time r;
  std::memcpy(static_cast<void*>(&r), &v, sizeof v);
  return r;
}
// The kernel's time, read inline: sc_time_stamp() is two calls into the library, and every
// module a transaction crosses asks for it. The context exists once anything has been
// elaborated; before that the library call creates it.
inline Tick simNow() {
  const sc_core::sc_simcontext* c = sc_core::sc_curr_simcontext;
  return static_cast<Tick>(c ? c->time_stamp().value() : sc_core::sc_time_stamp().value());
}

// Waits until `t` (no-op if it has passed).
inline void waitUntil(Tick t) {
  const Tick n = simNow();
  if (t > n) sc_core::wait(toScTime(t - n));
}

inline Tick globalQuantum() { return static_cast<Tick>(tlm::tlm_global_quantum::instance().get().value()); }

// A decoupled initiator at local time `local` waits only if that is more than `quantum` ahead.
inline void syncIfBeyondQuantum(Tick local, Tick quantum) {
  const Tick n = simNow();
  if (local > n && local - n > quantum) sc_core::wait(toScTime(local - n));
}

}  // namespace npusim

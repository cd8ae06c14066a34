// npusim's own C extensions (include/npusim/npusim.h).
#include "npusim/npusim.h"
#include "runtime/runtime.h"

extern "C" {

double npusimHostTimeNs(void) {
  auto& rt = npusim::rt::Runtime::get();
  std::lock_guard<std::recursive_mutex> lock(rt.mu);
  // Between an aclFinalize and the next aclInit: the ended simulation's clock (docs/architecture.md
  // "Ending").
  if (!rt.ensure(nullptr) && !rt.ended()) return 0.0;
  return npusim::tickToNs(rt.thread().clock);
}

void npusimHostWork(double ns) {
  auto& rt = npusim::rt::Runtime::get();
  std::lock_guard<std::recursive_mutex> lock(rt.mu);
  if ((!rt.ensure(nullptr) && !rt.ended()) || ns <= 0) return;
  rt.thread().clock += npusim::nsToTick(ns);
}

}  // extern "C"

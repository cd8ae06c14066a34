#include "runtime/host_block.h"

#include <chrono>

namespace npusim::rt {

aclError blockUntil(ApiCall& api, int32_t timeoutMs, const std::function<bool()>& ready,
                    aclError timeoutCode) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs > 0 ? timeoutMs : 0);
  HostThread& th = *api.th;
  bool parked = false;
  for (;;) {
    if (ready() || (timeoutMs >= 0 && std::chrono::steady_clock::now() >= deadline)) {
      if (!parked) return ready() ? ACL_SUCCESS : timeoutCode;
      api.rt.enterCall(th, *th.lock);  // back in order, at the latest time the others reached
      parked = false;
      continue;  // another thread may have taken what we waited for meanwhile
    }
    if (!th.lock) return timeoutCode;  // nested call: cannot release the lock
    parked = true;
    th.state = HostState::Parked;
    api.rt.cv.notify_all();
    api.rt.cv.wait_for(*th.lock, std::chrono::milliseconds(20));
  }
}

}  // namespace npusim::rt

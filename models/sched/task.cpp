#include "models/sched/task.h"

namespace npusim::sched {

const char* routeName(CopyRoute r) {
  switch (r) {
    case CopyRoute::HostToDevice:
      return "H2D";
    case CopyRoute::DeviceToHost:
      return "D2H";
    case CopyRoute::DeviceLocal:
      return "D2D";
    case CopyRoute::PeerWrite:
      return "P2P";
    case CopyRoute::Fill:
      return "Memset";
  }
  return "?";
}

}  // namespace npusim::sched

#include "models/pcie/tlp.h"

namespace npusim::pcie {

double laneBytesPerSec(int gen) {
  switch (gen) {
    case 1:
      return 2.5e9 * 8.0 / 10.0 / 8.0;  // 250 MB/s
    case 2:
      return 5.0e9 * 8.0 / 10.0 / 8.0;  // 500 MB/s
    case 3:
      return 8.0e9 * 128.0 / 130.0 / 8.0;  // 984.6 MB/s
    case 4:
      return 16.0e9 * 128.0 / 130.0 / 8.0;  // 1.969 GB/s
    case 5:
      return 32.0e9 * 128.0 / 130.0 / 8.0;  // 3.938 GB/s
    default:
      return 64.0e9 / 8.0 * 242.0 / 256.0;  // Gen6 FLIT: 236 B TLP + 6 B DLP of 256 B carry TLP/DLLP bytes
  }
}

}  // namespace npusim::pcie

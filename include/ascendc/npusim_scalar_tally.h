#ifndef NPUSIM_SCALAR_TALLY_H_
#define NPUSIM_SCALAR_TALLY_H_
// The scalar work of one call of a kernel function, counted by the code the source filter
// (ascendc_scalar.py) adds: each block of the function adds its operation count when it runs,
// and the total reaches the running block when the function returns. A local counter, so the
// compiler keeps it in a register and folds a loop's additions: counting costs next to nothing.
#include <cstdint>

#include "npusim_kernel_abi.h"

namespace npusim::kernel {

struct ScalarTally {
  uint64_t n;
  explicit ScalarTally(uint64_t ops) : n(ops) {}
  ScalarTally(const ScalarTally&) = delete;
  ScalarTally& operator=(const ScalarTally&) = delete;
  ~ScalarTally() { npusimKernelScalarOps(n); }
};

}  // namespace npusim::kernel

#endif  // NPUSIM_SCALAR_TALLY_H_

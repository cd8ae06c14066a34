#ifndef NPUSIM_NPUSIM_H_
#define NPUSIM_NPUSIM_H_
/* npusim extensions for programs that know they run on the simulator (tests, benchmarks,
 * what-if drivers). Real ACL programs do not need them. */
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Simulated host time of the calling thread, in nanoseconds since the simulation started.
 * Advanced by the cost of every ACL call and by waiting for the device. */
double npusimHostTimeNs(void);

/* Advances the calling thread's simulated clock by `ns` (host work the program does
 * between ACL calls, which the simulator cannot see). */
void npusimHostWork(double ns);

/* Annotation for custom Ascend C kernels (docs/kernels.md): called inside a kernel, states the
 * scalar cycles the current block spends on work the simulator cannot see (argument loads,
 * address arithmetic, loops over __gm__ pointers). Replaces the per-block default
 * (aicore.kernel_scalar_cycles); outside a kernel it does nothing. */
void npusimKernelScalarCycles(uint64_t cycles);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_NPUSIM_H_ */

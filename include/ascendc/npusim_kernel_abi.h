#ifndef NPUSIM_KERNEL_ABI_H_
#define NPUSIM_KERNEL_ABI_H_
/* The C boundary between Ascend C kernels compiled for the host (kernel_operator.h, the code
 * the source filter generates) and libascendcl, which runs their blocks on the simulated
 * device. Not a CANN interface: CANN programs never include it directly. */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs one block of a kernel: the runtime sets the block index, then calls run(bound). */
typedef void (*npusimKernelBody)(void* bound);
typedef void (*npusimKernelFree)(void* bound);

/* Enqueues a kernel of `blockDim` blocks on `stream` (NULL: default stream). Takes ownership
 * of `bound` (released with `release`, also on failure). Returns an aclError. */
int npusimKernelLaunch(const char* name, uint32_t blockDim, void* stream, npusimKernelBody run, void* bound,
                       npusimKernelFree release);

/* CPU debug mode (tikicpulib's ICPU_RUN_KF): runs the kernel's blocks now, one at a time,
 * over host memory (GmAlloc), with no device and no simulated time; prints the kernel's output.
 * Takes ownership of `bound`. Returns 0, or -1 after printing why a block faulted. */
int npusimKernelRunOnCpu(const char* name, uint32_t blockDim, npusimKernelBody run, void* bound,
                         npusimKernelFree release);

/* Inside a running block. */
int64_t npusimKernelBlockIdx(void);
int64_t npusimKernelBlockNum(void);
/* Unified-buffer space for the block's TPipe, 32-byte aligned; faults the kernel when the
 * block asks for more than the core's unified buffer holds. */
void* npusimKernelUbAlloc(uint64_t bytes);
/* The core buffers a TPipe's queues and buffers live in, after their TPosition (VECIN, VECOUT,
 * VECCALC and CO2: the unified buffer; A1/B1: L1; A2: L0A; B2: L0B; CO1: L0C). */
enum npusimKernelMemory {
  NPUSIM_KERNEL_MEM_UB = 0,
  NPUSIM_KERNEL_MEM_L1 = 1,
  NPUSIM_KERNEL_MEM_L0A = 2,
  NPUSIM_KERNEL_MEM_L0B = 3,
  NPUSIM_KERNEL_MEM_L0C = 4
};
/* Space in one of the block's buffers, 32-byte aligned (L0 buffers: 512-byte aligned); faults
 * the kernel when the block asks for more than the buffer holds (aicore.ub_bytes, l1_bytes, ...).
 * Any buffer but the unified buffer makes the kernel a cube kernel (docs/kernels.md). */
void* npusimKernelLocalAlloc(int memory, uint64_t bytes);
/* The buffer (an npusimKernelMemory) that holds `p`, or -1 when `p` is in none of the block's. */
int npusimKernelLocalMemory(const void* p);
/* The block's unified buffer as the CCE intrinsics address it (UB address 0 is its start): its
 * 32-byte aligned base, and its size in `bytes`. */
void* npusimKernelUbBase(uint64_t* bytes);
/* What the block does, for the AI-core model. */
enum npusimKernelEvent {
  NPUSIM_KERNEL_COPY_IN = 0,    /* GM -> UB (MTE2), bytes read from `gm` */
  NPUSIM_KERNEL_COPY_OUT = 1,   /* UB -> GM (MTE3), bytes written at `gm` */
  NPUSIM_KERNEL_VECTOR = 2,     /* bytes processed by the vector unit */
  NPUSIM_KERNEL_SCALAR = 3,     /* scalar operations (npusimKernelScalarOps) */
  NPUSIM_KERNEL_CUBE = 4,       /* MACs on the cube unit, in fp16 16x16x16 fractal equivalents */
  NPUSIM_KERNEL_LOCAL_MOVE = 5, /* bytes moved between a cube core's buffers (L1 -> L0A/L0B, L0C -> UB) */
  NPUSIM_KERNEL_PROPOSAL_SORT16 = 6, /* RpSort16 repeats (aicore.rpsort16_cycles_per_repeat) */
  NPUSIM_KERNEL_PROPOSAL_MERGE = 7,  /* proposals MrgSort4 wrote (aicore.mrgsort4_proposals_per_cycle) */
  NPUSIM_KERNEL_SORT32 = 8           /* Sort32 repeats (aicore.sort32_cycles_per_repeat) */
};
void npusimKernelRecord(int event, uint64_t bytes, const void* gm);
/* A VECIN (output 0) or VECOUT (output 1) queue of the block got `buffers` unified-buffer slots:
 * how far the block's copies in and out may run ahead of its compute. */
void npusimKernelQueueBuffers(int output, int buffers);
/* The running block is the vector (AIV) program of a mixed kernel that drives the cube through
 * the Matmul API (lib/matmul_intf.h): the kernel's blockDim counts AI cores, each one cube core
 * with aicore.vector_cores / aicore.cube_cores vector programs, which npusim then all runs
 * (docs/kernels.md, "Mixed kernels"). */
void npusimKernelMixed(void);
/* The Matmul API's work for the running vector program begins (1) or ends (0); calls nest. In a
 * mixed kernel what the program records meanwhile is its AI core's cube core's work. */
void npusimKernelCubeWork(int begin);
/* Kernels with separate cube (AIC) and vector (AIV) programs (docs/kernels.md, "Mixed kernels").
 * The core type of the running program, 1 (AIC) or 2 (AIV); `fallback` in a kernel that has not
 * declared its type (a vector kernel: 2; a cube kernel of lib/matrix/matmul/matmul.h: 1). */
int npusimKernelCoreType(int fallback);
/* The running AIV program's index among its AI core's vector programs (0 on an AIC) and how many
 * programs of its type an AI core runs (GetSubBlockNum, GetTaskRation). */
int64_t npusimKernelSubBlockIdx(void);
int64_t npusimKernelSubBlockNum(void);
/* KERNEL_TASK_TYPE_DEFAULT: the kernel's type (an npusimKernelType); a mixed type makes the
 * launch run blockDim AIC programs and blockDim x ratio AIV programs. */
enum npusimKernelType {
  NPUSIM_KERNEL_TYPE_AIV_ONLY = 0,
  NPUSIM_KERNEL_TYPE_AIC_ONLY = 1,
  NPUSIM_KERNEL_TYPE_MIX_AIV_1_0 = 2,
  NPUSIM_KERNEL_TYPE_MIX_AIC_1_0 = 3,
  NPUSIM_KERNEL_TYPE_MIX_AIC_1_1 = 4,
  NPUSIM_KERNEL_TYPE_MIX_AIC_1_2 = 5,
  NPUSIM_KERNEL_TYPE_MIX_VECTOR_CORE = 6
};
void npusimKernelDeclareType(int type);
/* CrossCoreSetFlag<mode>(flagId) and CrossCoreWaitFlag(flagId): a counter per flag and program;
 * a set raises the counters of the programs `mode` names, a wait blocks until its own counter is
 * not 0 and lowers it (the other programs run meanwhile). Faults the kernel for a flag outside
 * 0..15, a mode outside 0..2 or not open to the program's core type, more than 16 pending sets,
 * and a wait no program can satisfy any more. */
void npusimKernelCrossSet(int mode, int flagId);
void npusimKernelCrossWait(int flagId);
/* Scalar cycles of the current block (replaces the per-block default). */
void npusimKernelScalarCycles(uint64_t cycles);
/* Scalar operations the source filter counted in a kernel function (its loops, address
 * arithmetic and control flow), added when the function returns; each costs
 * aicore.scalar_cycles_per_op cycles of the core's scalar unit. */
void npusimKernelScalarOps(uint64_t ops);
/* Inter-block synchronisation through a GM flag (IBSet/IBWait): waits until *flag == expect,
 * letting the kernel's other blocks run meanwhile, then writes `write` to it. For the AI-core
 * model the block reads and writes the flag's 32-byte block, and what follows the wait starts
 * after the write of the block that last wrote the flag. Faults the kernel when no block can
 * change the flag any more (all others ended or wait too) or when the blocks cannot all be
 * resident on the vector cores at once. */
void npusimKernelFlagExchange(int32_t* flag, int32_t expect, int32_t write);
/* All-block barrier (SyncAll): returns once blocks 0..participants-1 have all called it as many
 * times as this block has, the other blocks running meanwhile; what follows starts after the
 * last of them arrived. With `gmFlags` (the software barrier) the block writes its flag, the
 * int32 at gmFlags + 8 x blockIdx, and reads the others'. Faults the kernel when a participant
 * can no longer arrive (it ended, or waits elsewhere), when a block outside the participants calls
 * it, or when the blocks cannot all be resident on the vector cores at once. */
void npusimKernelSyncAll(int32_t participants, int32_t* gmFlags);
/* Kernel-side printf: kept with the kernel and printed at the next synchronisation. */
void npusimKernelPrint(const char* text, size_t len);
/* Ends the kernel with an AI-core exception (the `trap` instruction, a failed check). */
void npusimKernelFault(int trap, const char* why) __attribute__((noreturn));

/* Host side: an integer parameter of the simulated system (`aicore.vector_cores`, `aicore.ub_bytes`,
 * ...) from the preset and overrides a run would use (NPUSIM_CONFIG, NPUSIM_SET), for
 * PlatformAscendC (platform/platform_ascendc.h). Returns 0, or -1 after printing why (a bad
 * configuration, an unknown or non-integer key). */
int npusimPlatformParam(const char* key, int64_t* value);

/* Static registration, so the runtime can go from a host symbol to what it names: a kernel's
 * binary entry (aclrtGetFuncBySymbol, `entry` is a const npusim::kernel::Entry*) and a file-scope
 * __gm__ variable (aclrtGetSymbolAddress, aclrtBinaryGetGlobal). `add` 0 removes (unload). */
void npusimKernelRegister(const void* entry, int add);
void npusimKernelRegisterVar(void* addr, size_t size, const char* name, int add);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_KERNEL_ABI_H_ */

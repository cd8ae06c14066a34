// Kernels that fault, for the error path.
#include "kernel_operator.h"

// Writes far past the end of its buffer: no allocation there, an invalid global-memory access.
extern "C" __global__ __aicore__ void k_out_of_bounds(__gm__ float* p) {
  p[0] = 1.0f;
  if (block_idx == 1) p[256ull << 20] = 2.0f;  // 1 GiB past the start
}

extern "C" __global__ __aicore__ void k_trap() { asm("trap"); }

// Adds one to its block's counter: shows which tasks around a failure ran.
extern "C" __global__ __aicore__ void k_count(__gm__ uint32_t* x) { x[block_idx] += 1; }

// A queue popped while empty: hardware would hang; npusim ends the kernel with an exception.
extern "C" __global__ __aicore__ void k_bad_deque() {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 1024);
  AscendC::LocalTensor<float> t = q.DeQue<float>();
  t.SetValue(0, 1.0f);
}

// More unified buffer than the core has.
extern "C" __global__ __aicore__ void k_ub_overflow() {
  AscendC::TPipe pipe;
  AscendC::TBuf<> b;
  pipe.InitBuffer(b, 1u << 20);
}

uint32_t LaunchOutOfBounds(void* stream, float* p) { return k_out_of_bounds<<<4, nullptr, stream>>>(p); }
uint32_t LaunchTrap(void* stream) { return k_trap<<<1, nullptr, stream>>>(); }
uint32_t LaunchCount(void* stream, uint32_t* x) { return k_count<<<1, nullptr, stream>>>(x); }
uint32_t LaunchBadDeque(void* stream) { return k_bad_deque<<<1, nullptr, stream>>>(); }
uint32_t LaunchUbOverflow(void* stream) { return k_ub_overflow<<<1, nullptr, stream>>>(); }

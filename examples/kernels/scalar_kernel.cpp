// A scalar Ascend C kernel: each block walks its share of a vector through __gm__ pointers
// (no queues, no vector instructions) and says hello with printf. Launched with <<<>>>.
#include "scalar_kernel.h"

#include "kernel_operator.h"
#include "npusim/npusim.h"

extern "C" __global__ __aicore__ void scale_and_count(__gm__ float* data, float factor, uint32_t n,
                                                      __gm__ uint32_t* negatives) {
  const uint32_t per = n / block_num, first = per * block_idx;
  uint32_t count = 0;
  for (uint32_t i = first; i < first + per; ++i) {
    data[i] *= factor;
    if (data[i] < 0) ++count;
  }
  negatives[block_idx] = count;
  npusimKernelScalarCycles(8ull * per);  // about 8 scalar cycles per element (load, multiply, store, compare)
  if (block_idx == 0)
    AscendC::printf("block %d of %d: scaled %u elements\n", int(block_idx), int(block_num), per);
}

uint32_t ScaleAndCount(uint32_t blocks, void* stream, float* data, float factor, uint32_t n,
                       uint32_t* negatives) {
  return scale_and_count<<<blocks, nullptr, stream>>>(data, factor, n, negatives);
}

// Kernels whose scalar work is known from their source (docs/kernels.md, "Scalar work"); the
// counts the filter gives each loop are in scalar_time_test.cpp.
#include "kernel_operator.h"

using namespace AscendC;

// out[block] = the loop's value, so the loop cannot be dropped.
extern "C" __global__ __aicore__ void k_scalar_spin(GM_ADDR out, uint64_t iterations) {
  uint64_t acc = 1;
  for (uint64_t i = 0; i < iterations; ++i) {
    acc = acc * 3 + i;
  }
  reinterpret_cast<__gm__ uint64_t*>(out)[GetBlockIdx()] = acc;
}

// The hicann/runtime LongOP loop's shape: a float recurrence the compiler cannot fold.
extern "C" __global__ __aicore__ void k_scalar_float(GM_ADDR out, uint32_t outer, uint32_t inner) {
  float temp = 0.0f;
  for (uint32_t i = 0; i < outer; i++) {
    temp += 0.00002f;
    for (uint32_t j = 0; j < inner; j++) {
      temp = temp * temp - 0.000002f;
      temp = temp > 1.0f ? 0.0f : temp;
    }
  }
  reinterpret_cast<__gm__ float*>(out)[GetBlockIdx()] = temp;
}

__aicore__ inline uint32_t Spin(uint32_t n, uint32_t seed) {
  for (uint32_t i = 0; i < n; ++i) seed = seed * 5 + 1;
  return seed;
}

// z = 2 x through double-buffered queues, `spin` scalar iterations before each tile's copy in:
// the scalar unit issues the next tile while the vector unit and the MTEs work on this one.
extern "C" __global__ __aicore__ void k_scalar_tiles(GM_ADDR x, GM_ADDR z, GM_ADDR seeds, uint32_t perBlock,
                                                     uint32_t tile, uint32_t spin) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> qx;
  TQue<QuePosition::VECOUT, 2> qz;
  pipe.InitBuffer(qx, 2, tile * 4);
  pipe.InitBuffer(qz, 2, tile * 4);
  const uint64_t first = uint64_t{perBlock} * GetBlockIdx();
  GlobalTensor<float> gx, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + first, perBlock);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + first, perBlock);
  uint32_t seed = 0;
  for (uint32_t i = 0; i < perBlock / tile; ++i) {
    seed = Spin(spin, seed);
    LocalTensor<float> a = qx.AllocTensor<float>();
    DataCopy(a, gx[i * tile], tile);
    qx.EnQue(a);
    LocalTensor<float> ia = qx.DeQue<float>(), o = qz.AllocTensor<float>();
    Muls(o, ia, 2.0f, tile);
    qz.EnQue(o);
    qx.FreeTensor(ia);
    LocalTensor<float> r = qz.DeQue<float>();
    DataCopy(gz[i * tile], r, tile);
    qz.FreeTensor(r);
  }
  reinterpret_cast<__gm__ uint32_t*>(seeds)[GetBlockIdx()] = seed;
}

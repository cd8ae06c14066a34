// A memory-bound vector kernel: z = x + y in fp32, each block streaming its share through
// double-buffered queues (the usual Ascend C pipeline).
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void k_stream_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t perBlock,
                                                   uint32_t tile) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> qx, qy;
  TQue<QuePosition::VECOUT, 2> qz;
  pipe.InitBuffer(qx, 2, tile * 4);
  pipe.InitBuffer(qy, 2, tile * 4);
  pipe.InitBuffer(qz, 2, tile * 4);
  const uint64_t first = uint64_t{perBlock} * GetBlockIdx();
  GlobalTensor<float> gx, gy, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + first, perBlock);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + first, perBlock);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + first, perBlock);
  for (uint32_t i = 0; i < perBlock / tile; ++i) {
    LocalTensor<float> a = qx.AllocTensor<float>(), b = qy.AllocTensor<float>();
    DataCopy(a, gx[i * tile], tile);
    DataCopy(b, gy[i * tile], tile);
    qx.EnQue(a);
    qy.EnQue(b);
    LocalTensor<float> ia = qx.DeQue<float>(), ib = qy.DeQue<float>(), o = qz.AllocTensor<float>();
    Add(o, ia, ib, tile);
    qz.EnQue(o);
    qx.FreeTensor(ia);
    qy.FreeTensor(ib);
    LocalTensor<float> r = qz.DeQue<float>();
    DataCopy(gz[i * tile], r, tile);
    qz.FreeTensor(r);
  }
}

// z = x * 2^passes, the multiply repeated `passes` times per tile so that compute takes about
// as long as the copies; `buffers` unified-buffer slots per queue (1: no double buffering).
extern "C" __global__ __aicore__ void k_scale_buffers(GM_ADDR x, GM_ADDR z, uint32_t perBlock, uint32_t tile,
                                                      uint32_t buffers, uint32_t passes) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> qx;
  TQue<QuePosition::VECOUT, 2> qz;
  pipe.InitBuffer(qx, buffers, tile * 4);
  pipe.InitBuffer(qz, buffers, tile * 4);
  const uint64_t first = uint64_t{perBlock} * GetBlockIdx();
  GlobalTensor<float> gx, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + first, perBlock);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + first, perBlock);
  for (uint32_t i = 0; i < perBlock / tile; ++i) {
    LocalTensor<float> a = qx.AllocTensor<float>();
    DataCopy(a, gx[i * tile], tile);
    qx.EnQue(a);
    LocalTensor<float> ia = qx.DeQue<float>(), o = qz.AllocTensor<float>();
    Muls(o, ia, 2.0f, tile);
    for (uint32_t p = 1; p < passes; ++p) Muls(o, o, 2.0f, tile);
    qz.EnQue(o);
    qx.FreeTensor(ia);
    LocalTensor<float> r = qz.DeQue<float>();
    DataCopy(gz[i * tile], r, tile);
    qz.FreeTensor(r);
  }
}

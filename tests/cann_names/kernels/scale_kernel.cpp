// A small Ascend C kernel built through every route of the install (check_install.cmake):
// z = 2 x + 1 over `n` floats, each block taking its share in tiles through double-buffered
// queues, plus a scalar loop of `spin` iterations per block.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void scale_kernel(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t spin) {
  constexpr uint32_t tile = 256;
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> qx;
  TQue<QuePosition::VECOUT, 2> qz;
  pipe.InitBuffer(qx, 2, tile * sizeof(float));
  pipe.InitBuffer(qz, 2, tile * sizeof(float));
  const uint32_t share = n / GetBlockNum();
  GlobalTensor<float> gx, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + share * GetBlockIdx(), share);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + share * GetBlockIdx(), share);
  for (uint32_t i = 0; i < share / tile; ++i) {
    LocalTensor<float> a = qx.AllocTensor<float>();
    DataCopy(a, gx[i * tile], tile);
    qx.EnQue(a);
    LocalTensor<float> in = qx.DeQue<float>(), out = qz.AllocTensor<float>();
    Muls(out, in, 2.0f, tile);
    Adds(out, out, 1.0f, tile);
    qz.EnQue(out);
    qx.FreeTensor(in);
    LocalTensor<float> r = qz.DeQue<float>();
    DataCopy(gz[i * tile], r, tile);
    qz.FreeTensor(r);
  }
  uint32_t acc = 0;
  for (uint32_t i = 0; i < spin; ++i) acc = acc * 3 + 1;
  if (acc == 1u) printf("never\n");
}

#ifndef __CCE_KT_TEST__
void scale_kernel_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* z, uint32_t n, uint32_t spin) {
  scale_kernel<<<blockDim, nullptr, stream>>>(x, z, n, spin);
}
#endif

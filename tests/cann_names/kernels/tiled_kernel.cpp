// A kernel in the style of Ascend/samples kernel_invocation/Add_tile, built by ccec and in the CPU
// debug mode (check_install.cmake): the tiling read through tiled_tiling.h, ASSERT on it, the
// workspace split with SetSysWorkspace/GetUserWorkspace; z = 3 x in double-buffered tiles, and
// each block's share left at the user workspace's start.
#include "kernel_operator.h"
#include "tiled_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void tiled_kernel(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  READ_TILING(t, tiling);
  ASSERT(t.tile != 0 && "tile can not be zero");
  SetSysWorkspace(workspace);
  auto* usr = reinterpret_cast<__gm__ uint32_t*>(GetUserWorkspace(workspace));
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> qx;
  TQue<QuePosition::VECOUT, 2> qz;
  pipe.InitBuffer(qx, 2, t.tile * sizeof(float));
  pipe.InitBuffer(qz, 2, t.tile * sizeof(float));
  const uint32_t share = t.n / GetBlockNum();
  GlobalTensor<float> gx, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + share * GetBlockIdx(), share);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + share * GetBlockIdx(), share);
  for (uint32_t i = 0; i < share / t.tile; ++i) {
    LocalTensor<float> a = qx.AllocTensor<float>();
    DataCopy(a, gx[i * t.tile], t.tile);
    qx.EnQue(a);
    LocalTensor<float> in = qx.DeQue<float>(), out = qz.AllocTensor<float>();
    Muls(out, in, 3.0f, t.tile);
    qz.EnQue(out);
    qx.FreeTensor(in);
    LocalTensor<float> r = qz.DeQue<float>();
    DataCopy(gz[i * t.tile], r, t.tile);
    qz.FreeTensor(r);
  }
  usr[GetBlockIdx()] = share;
}

#ifndef __CCE_KT_TEST__
void tiled_kernel_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* z, uint8_t* workspace,
                     uint8_t* tiling) {
  tiled_kernel<<<blockDim, nullptr, stream>>>(x, z, workspace, tiling);
}
#endif

// A kernel taking its tiling struct by value, as CANN's KernelLaunch tiling samples do; its
// generated aclrtlaunch_k_tiling_scale takes the struct by pointer (launch_header_test.cpp).
#include "tiling_kernel.h"

#include "kernel_operator.h"

extern "C" __global__ __aicore__ void k_tiling_scale(GM_ADDR x, GM_ADDR z, ScaleTiling tiling) {
  auto* in = reinterpret_cast<__gm__ float*>(x);
  auto* out = reinterpret_cast<__gm__ float*>(z);
  for (uint32_t i = AscendC::GetBlockIdx(); i < tiling.n; i += AscendC::GetBlockNum())
    out[i] = in[i] * tiling.factor;
}

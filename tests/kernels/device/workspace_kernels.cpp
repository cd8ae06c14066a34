// Kernels in the style of the first Ascend C samples (kernel_invocation/Add_tile): the tiling
// struct read into the unified buffer with the CCE intrinsics get_imm(0) and copy_gm_to_ubuf,
// the workspace split with SetSysWorkspace/GetUserWorkspace, inputs checked with ASSERT.
#include "kernel_operator.h"

using namespace AscendC;

struct WorkspaceTiling {
  uint32_t n;      // floats in x and z
  uint32_t scale;  // z = x * scale
};

// z = x * scale, each block its share; block b leaves {b, its share} at the user workspace's
// start + 8 b bytes.
extern "C" __global__ __aicore__ void k_workspace(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  auto* ub = (__ubuf__ uint8_t*)get_imm(0);
  copy_gm_to_ubuf(ub, tiling, 0, 1, 1, 0, 0);
  pipe_barrier(PIPE_ALL);
  const WorkspaceTiling t = *reinterpret_cast<__ubuf__ WorkspaceTiling*>(ub);
  ASSERT(t.n % GetBlockNum() == 0 && "n must split evenly over the blocks");
  SetSysWorkspace(workspace);
  auto* usr = reinterpret_cast<__gm__ uint32_t*>(GetUserWorkspace(workspace));
  const uint32_t share = t.n / GetBlockNum(), first = share * GetBlockIdx();
  auto* in = reinterpret_cast<__gm__ float*>(x);
  auto* out = reinterpret_cast<__gm__ float*>(z);
  for (uint32_t i = first; i < first + share; ++i) out[i] = in[i] * static_cast<float>(t.scale);
  usr[2 * GetBlockIdx()] = static_cast<uint32_t>(GetBlockIdx());
  usr[2 * GetBlockIdx() + 1] = share;
}

// Each block loads `bursts` bursts of `burstBlocks` 32-byte blocks of its share of x into the
// unified buffer's start, with copy_gm_to_ubuf (viaIntrinsic) or with DataCopy, and writes the
// first float the last load left there to z[block].
extern "C" __global__ __aicore__ void k_ub_load(GM_ADDR x, GM_ADDR z, uint32_t bursts, uint32_t burstBlocks,
                                                uint32_t viaIntrinsic) {
  const uint32_t floats = burstBlocks * 8;
  auto* src = reinterpret_cast<__gm__ float*>(x) + uint64_t{bursts} * floats * GetBlockIdx();
  float first = 0;
  if (viaIntrinsic) {
    auto* ub = (__ubuf__ float*)get_imm(0);
    for (uint32_t i = 0; i < bursts; ++i) copy_gm_to_ubuf(ub, src + i * floats, 0, 1, burstBlocks, 0, 0);
    pipe_barrier(PIPE_ALL);
    first = ub[0];
  } else {
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, floats * sizeof(float));
    LocalTensor<float> local = buf.Get<float>();
    GlobalTensor<float> g;
    g.SetGlobalBuffer(src, uint64_t{bursts} * floats);
    for (uint32_t i = 0; i < bursts; ++i) DataCopy(local, g[i * floats], floats);
    first = local.GetValue(0);
  }
  reinterpret_cast<__gm__ float*>(z)[GetBlockIdx()] = first;
}

// Blocks that wait for each other through GM flags (docs/kernels.md, "Blocks that wait for each
// other"), for block_sync_test.cpp.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
// dst = src x 2^passes through the unified buffer: a load, `passes` vector instructions, a store.
__aicore__ inline void Stage(TBuf<QuePosition::VECCALC>& buf, GlobalTensor<float> dst,
                             GlobalTensor<float> src, uint32_t n, uint32_t passes) {
  LocalTensor<float> t = buf.Get<float>();
  DataCopy(t, src, n);
  for (uint32_t i = 0; i < passes; ++i) Muls(t, t, 2.0f, static_cast<int32_t>(n));
  DataCopy(dst, t, n);
}
}  // namespace

// Block 1 makes mid = x x 2^passes, then sets its flag; block 0 waits for that flag (when
// `wait`), then makes out = mid x 2^passes. Block 0 runs first, so it must let block 1 run.
extern "C" __global__ __aicore__ void k_ib_chain(GM_ADDR x, GM_ADDR mid, GM_ADDR out, GM_ADDR sync,
                                                 uint32_t n, uint32_t passes, uint32_t wait) {
  TPipe pipe;
  TBuf<QuePosition::VECCALC> data, flag;
  pipe.InitBuffer(data, n * sizeof(float));
  pipe.InitBuffer(flag, 32);
  GlobalTensor<float> gx, gm, go;
  GlobalTensor<int32_t> gs;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(mid));
  go.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(sync));
  if (GetBlockIdx() == 1) {
    Stage(data, gm, gx, n, passes);
    if (wait) IBSet(gs, flag.Get<int32_t>(), 1, 0);
  } else if (GetBlockIdx() == 0) {
    if (wait) IBWait(gs, flag.Get<int32_t>(), 1, 0);
    Stage(data, go, gm, n, passes);
  }
}

// Block 0 waits for block `from`'s flag, which no block sets.
extern "C" __global__ __aicore__ void k_ib_orphan(GM_ADDR sync, uint32_t from) {
  TPipe pipe;
  TBuf<QuePosition::VECCALC> flag;
  pipe.InitBuffer(flag, 32);
  GlobalTensor<int32_t> gs;
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(sync));
  if (GetBlockIdx() == 0) IBWait(gs, flag.Get<int32_t>(), static_cast<int32_t>(from), 0);
}

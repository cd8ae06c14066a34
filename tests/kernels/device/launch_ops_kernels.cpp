// Calls the KernelLaunch samples use beyond the Add samples' (launch_ops_test.cpp): Maxs/Mins as
// LeakyRelu uses them, `dst = a op b` over the destination tensor and
// GetTPipePtr()->FetchEventID with set_flag/wait_flag as PreLayerNorm uses them.
#include "kernel_operator.h"

using namespace AscendC;

// Each block: z = max(x, 0) + slope * min(x, 0) and w = (x + y) * (x - y) / y on its `tile` floats.
extern "C" __global__ __aicore__ void k_launch_ops(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR w, uint32_t tile,
                                                   float slope) {
  TPipe pipe;
  TBuf<> bx, by, bt, bu;
  pipe.InitBuffer(bx, tile * sizeof(float));
  pipe.InitBuffer(by, tile * sizeof(float));
  pipe.InitBuffer(bt, tile * sizeof(float));
  pipe.InitBuffer(bu, tile * sizeof(float));
  LocalTensor<float> lx = bx.Get<float>(), ly = by.Get<float>(), t = bt.Get<float>(), u = bu.Get<float>();
  const uint64_t at = uint64_t{tile} * GetBlockIdx();
  GlobalTensor<float> gx, gy, gz, gw;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + at, tile);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + at, tile);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + at, tile);
  gw.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(w) + at, tile);
  DataCopy(lx, gx, tile);
  DataCopy(ly, gy, tile);
  event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
  set_flag(PIPE_MTE2, PIPE_V, e);
  wait_flag(PIPE_MTE2, PIPE_V, e);
  Maxs(t, lx, 0.0f, tile);
  Mins(u, lx, 0.0f, tile);
  Muls(u, u, slope, tile);
  Add(t, t, u, tile);
  DataCopy(gz, t, tile);
  t = lx + ly;
  u = lx - ly;
  t = t * u;
  t = t / ly;
  DataCopy(gw, t, tile);
}

// `passes` times t = x + y on a tile, written as the operator or as the call (timed the same).
extern "C" __global__ __aicore__ void k_add_forms(GM_ADDR x, GM_ADDR z, uint32_t tile, uint32_t passes,
                                                  uint32_t asOperator) {
  TPipe pipe;
  TBuf<> bx, bt;
  pipe.InitBuffer(bx, tile * sizeof(float));
  pipe.InitBuffer(bt, tile * sizeof(float));
  LocalTensor<float> lx = bx.Get<float>(), t = bt.Get<float>();
  GlobalTensor<float> gx, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), tile);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + uint64_t{tile} * GetBlockIdx(), tile);
  DataCopy(lx, gx, tile);
  for (uint32_t i = 0; i < passes; ++i) {
    if (asOperator)
      t = lx + lx;
    else
      Add(t, lx, lx, tile);
  }
  DataCopy(gz, t, tile);
}

// Asks for the kernel's pipe before making one.
extern "C" __global__ __aicore__ void k_no_pipe(GM_ADDR z) {
  event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
  reinterpret_cast<__gm__ int32_t*>(z)[0] = e;
}

// All-block barriers (SyncAll; docs/kernels.md, "Blocks that wait for each other"), for
// sync_all_test.cpp.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t kHard = 1, kSoft = 2;  // barrier kinds; 0: none

__aicore__ inline void Passes(const LocalTensor<float>& t, uint32_t n, uint32_t passes) {
  for (uint32_t i = 0; i < passes; ++i) Muls(t, t, 2.0f, static_cast<int32_t>(n));
}
}  // namespace

// Block b: mid[b] = x[b] x 2^pre (pre = `passes` in the last block, 0 elsewhere); barrier; then
// out[b] = mid[(b + 1) % blocks] x 2^post + 1 (post = `passes` in block 0). Each chunk is n floats.
// Block b reads what block b + 1 wrote, which runs after it: right only with the barrier.
extern "C" __global__ __aicore__ void k_sync_ring(GM_ADDR x, GM_ADDR mid, GM_ADDR out, GM_ADDR flags,
                                                  uint32_t n, uint32_t passes, uint32_t kind) {
  TPipe pipe;
  TBuf<QuePosition::VECCALC> data, ub;
  pipe.InitBuffer(data, n * sizeof(float));
  pipe.InitBuffer(ub, 32 * static_cast<uint32_t>(GetBlockNum()));
  const uint32_t b = static_cast<uint32_t>(GetBlockIdx()), blocks = static_cast<uint32_t>(GetBlockNum());
  GlobalTensor<float> gx, gm, go;
  GlobalTensor<int32_t> gf;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + b * n);
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(mid));
  go.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out) + b * n);
  gf.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(flags), 8 * blocks);
  LocalTensor<float> t = data.Get<float>();
  DataCopy(t, gx, n);
  Passes(t, n, b == blocks - 1 ? passes : 0);
  DataCopy(gm[b * n], t, n);
  if (kind == kHard) SyncAll();
  if (kind == kSoft) SyncAll(gf, ub.Get<int32_t>());
  DataCopy(t, gm[((b + 1) % blocks) * n], n);
  Passes(t, n, b == 0 ? passes : 0);
  Adds(t, t, 1.0f, static_cast<int32_t>(n));
  DataCopy(go, t, n);
}

// Every block but `skip` meets at a barrier of the first `used` blocks (0: all); blocks at or
// after `used` do not take part. Then each participant counts the flags set: out[b] = that count.
extern "C" __global__ __aicore__ void k_sync_some(GM_ADDR flags, GM_ADDR out, uint32_t used, uint32_t skip) {
  TPipe pipe;
  TBuf<QuePosition::VECCALC> ub;
  pipe.InitBuffer(ub, 32 * static_cast<uint32_t>(GetBlockNum()));
  const uint32_t b = static_cast<uint32_t>(GetBlockIdx());
  const uint32_t meet = used == 0 ? static_cast<uint32_t>(GetBlockNum()) : used;
  if (b == skip || b >= meet) return;
  GlobalTensor<int32_t> gf, go;
  gf.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(flags), 8 * meet);
  go.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out));
  SyncAll(gf, ub.Get<int32_t>(), static_cast<int32_t>(used));
  int32_t set = 0;
  for (uint32_t i = 0; i < meet; ++i) set += gf.GetValue(i * 8) != 0 ? 1 : 0;
  go.SetValue(b, set);
}

// Block `caller` alone calls the hardware barrier with usedCores = 1 through the software form:
// a block outside the participants is refused.
extern "C" __global__ __aicore__ void k_sync_outsider(GM_ADDR flags, uint32_t caller) {
  TPipe pipe;
  TBuf<QuePosition::VECCALC> ub;
  pipe.InitBuffer(ub, 32 * static_cast<uint32_t>(GetBlockNum()));
  GlobalTensor<int32_t> gf;
  gf.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(flags));
  if (GetBlockIdx() == caller) SyncAll(gf, ub.Get<int32_t>(), 1);
}

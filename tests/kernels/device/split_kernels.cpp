// Kernels that split themselves between the A2's cube (AIC) and vector (AIV) cores and order
// the parts with cross-core flags (docs/kernels.md, "Mixed kernels"), for split_test.cpp.
#include "kernel_operator.h"

using namespace AscendC;

// cube_kernels.cpp: C = A x B on the cube, block GetBlockIdx()'s own matrices.
extern "C" void k_cube_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k,
                              uint32_t kStep);

namespace {
constexpr uint16_t kProductReady = 3;  // AIC -> AIVs: C is in GM

// z = relu(src) x 2^passes over n floats, through the unified buffer.
__aicore__ inline void ReluStage(GlobalTensor<float> dst, GlobalTensor<float> src, uint32_t n,
                                 uint32_t passes) {
  TPipe pipe;
  TBuf<QuePosition::VECCALC> buf;
  pipe.InitBuffer(buf, n * sizeof(float));
  LocalTensor<float> t = buf.Get<float>();
  DataCopy(t, src, n);
  Relu(t, t, static_cast<int32_t>(n));
  for (uint32_t i = 0; i < passes; ++i) Muls(t, t, 2.0f, static_cast<int32_t>(n));
  DataCopy(dst, t, n);
}
}  // namespace

// AI core c's cube program multiplies its A and B (m x k, k x n) into its C in GM and tells its
// vector programs; each of them waits, then makes its half of z = relu(C) x 2^passes.
extern "C" __global__ __aicore__ void k_split_matmul_relu(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR z,
                                                          uint32_t m, uint32_t n, uint32_t k,
                                                          uint32_t passes) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if ASCEND_IS_AIC {
    k_cube_matmul(a, b, c, m, n, k, k);
    CrossCoreSetFlag<2, PIPE_FIX>(kProductReady);
    return;
  }
  if ASCEND_IS_AIV {
    CrossCoreWaitFlag(kProductReady);
    const uint64_t core = static_cast<uint64_t>(GetBlockIdx() / GetSubBlockNum());
    const uint32_t half = m * n / static_cast<uint32_t>(GetSubBlockNum());
    const uint64_t at = core * m * n + static_cast<uint64_t>(GetSubBlockIdx()) * half;
    GlobalTensor<float> gc, gz;
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c) + at);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + at);
    ReluStage(gz, gc, half, passes);
  }
}

// What each program sees: 8 int64 at slot (AIV v: v; AIC c: AIVs + c) of out: its core type,
// GetBlockIdx, GetBlockNum, GetSubBlockIdx, GetSubBlockNum, GetTaskRation, ASCEND_IS_AIC, and
// whether g_coreType agrees with ASCEND_IS_AIV.
namespace {
__aicore__ inline void RecordIds(GM_ADDR out, uint32_t aivs) {
  const int64_t slot = ASCEND_IS_AIC ? aivs + GetBlockIdx() : GetBlockIdx();
  auto* o = reinterpret_cast<__gm__ int64_t*>(out) + slot * 8;
  o[0] = g_coreType;
  o[1] = GetBlockIdx();
  o[2] = GetBlockNum();
  o[3] = GetSubBlockIdx();
  o[4] = GetSubBlockNum();
  o[5] = GetTaskRation();
  o[6] = ASCEND_IS_AIC ? 1 : 0;
  o[7] = (g_coreType == AIV) == ASCEND_IS_AIV ? 1 : 0;
}
}  // namespace

extern "C" __global__ __aicore__ void k_split_ids_1_2(GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  RecordIds(out, static_cast<uint32_t>(GetBlockNum() * 2));
}

extern "C" __global__ __aicore__ void k_split_ids_1_1(GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
  RecordIds(out, static_cast<uint32_t>(GetBlockNum()));
}

// A vector kernel asking the same questions (no type declared): AIV everywhere, as before.
extern "C" __global__ __aicore__ void k_split_ids_vector(GM_ADDR out) {
  RecordIds(out, static_cast<uint32_t>(GetBlockNum()));
}

// Each vector program of a 1:2 mixed kernel (the cube program does nothing) makes its half of
// z = relu(x) x 2^passes: the two run on two vector cores at once.
extern "C" __global__ __aicore__ void k_split_vector_halves(GM_ADDR x, GM_ADDR z, uint32_t n,
                                                            uint32_t passes) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if ASCEND_IS_AIC {
    return;
  }
  const uint64_t at = static_cast<uint64_t>(GetBlockIdx()) * n;
  GlobalTensor<float> gx, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + at);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + at);
  ReluStage(gz, gx, n, passes);
}

// The cube program spends `cubeCycles` of scalar work, then (when `wait`) sets a flag the vector
// programs wait for before their stage over n floats; none has a prologue of its own.
extern "C" __global__ __aicore__ void k_split_wait(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t cubeCycles,
                                                   uint32_t wait) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if (g_coreType == AIC) {
    npusimKernelScalarCycles(cubeCycles);
    if (wait) CrossCoreSetFlag<2, PIPE_MTE3>(1);
    return;
  }
  npusimKernelScalarCycles(0);
  if (wait) CrossCoreWaitFlag(1);
  const uint64_t at = static_cast<uint64_t>(GetBlockIdx()) * n;
  GlobalTensor<float> gx, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + at);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + at);
  ReluStage(gz, gx, n, 0);
}

// Misuse: 0, the vector programs wait for a flag the cube program never sets; 1, a flag id
// outside 0..15; 2, a cube program setting a mode-1 flag (AIV to AIV only); 3, 17 sets of one
// flag nobody takes.
extern "C" __global__ __aicore__ void k_split_misuse(uint32_t what) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if ASCEND_IS_AIV {
    if (what == 0) CrossCoreWaitFlag(5);
    if (what == 1) CrossCoreSetFlag<1, PIPE_MTE3>(16);
    return;
  }
  if (what == 2) CrossCoreSetFlag<1, PIPE_FIX>(2);
  if (what == 3)
    for (int i = 0; i < 17; ++i) CrossCoreSetFlag<2, PIPE_FIX>(4);
}

// The vector programs of each AI core meet (mode 1), then all vector programs (mode 0), then all
// of them again at a SyncAll: before each barrier a program writes a value, after it it reads its
// partner's (mode 1) or the next program's.
extern "C" __global__ __aicore__ void k_split_aiv_barriers(GM_ADDR buf, GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if ASCEND_IS_AIC {
    return;
  }
  auto* b = reinterpret_cast<__gm__ int64_t*>(buf);
  auto* o = reinterpret_cast<__gm__ int64_t*>(out);
  const int64_t v = GetBlockIdx(), all = GetBlockNum() * GetSubBlockNum();
  b[v] = 100 + v;
  CrossCoreSetFlag<1, PIPE_MTE3>(7);
  CrossCoreWaitFlag(7);
  o[3 * v] = b[v ^ 1];
  b[all + v] = 200 + v;
  CrossCoreSetFlag<0, PIPE_MTE3>(8);
  CrossCoreWaitFlag(8);
  o[3 * v + 1] = b[all + (v + 1) % all];
  b[2 * all + v] = 300 + v;
  SyncAll();
  o[3 * v + 2] = b[2 * all + (v + 1) % all];
}

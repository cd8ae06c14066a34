// Kernels exercising each supported Ascend C call, checked against plain host code in
// kernels_test.cpp. One block processes `n` elements in one tile.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t kMax = 1024;  // elements per tile
}

// out = a (op) b for op 0..5: Add Sub Mul Div Max Min.
extern "C" __global__ __aicore__ void k_binary(GM_ADDR a, GM_ADDR b, GM_ADDR out, uint32_t n, uint32_t op) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> qa, qb;
  TQue<QuePosition::VECOUT, 1> qo;
  pipe.InitBuffer(qa, 1, kMax * sizeof(float));
  pipe.InitBuffer(qb, 1, kMax * sizeof(float));
  pipe.InitBuffer(qo, 1, kMax * sizeof(float));
  GlobalTensor<float> ga, gb, go;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a), n);
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(b), n);
  go.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), n);
  LocalTensor<float> la = qa.AllocTensor<float>(), lb = qb.AllocTensor<float>();
  DataCopy(la, ga, n);
  DataCopy(lb, gb, n);
  qa.EnQue(la);
  qb.EnQue(lb);
  SetFlag<HardEvent::MTE2_V>(0);
  WaitFlag<HardEvent::MTE2_V>(0);
  LocalTensor<float> xa = qa.DeQue<float>(), xb = qb.DeQue<float>();
  LocalTensor<float> lo = qo.AllocTensor<float>();
  switch (op) {
    case 0:
      Add(lo, xa, xb, n);
      break;
    case 1:
      Sub(lo, xa, xb, n);
      break;
    case 2:
      Mul(lo, xa, xb, n);
      break;
    case 3:
      Div(lo, xa, xb, n);
      break;
    case 4:
      Max(lo, xa, xb, n);
      break;
    default:
      Min(lo, xa, xb, n);
      break;
  }
  PipeBarrier<PIPE_V>();
  qo.EnQue(lo);
  qa.FreeTensor(xa);
  qb.FreeTensor(xb);
  LocalTensor<float> r = qo.DeQue<float>();
  DataCopy(go, r, n);
  qo.FreeTensor(r);
}

// out = f(a) for op 0..7: Exp Ln Abs Relu Sqrt Adds(s) Muls(s) Duplicate(s); through a TBuf.
extern "C" __global__ __aicore__ void k_unary(GM_ADDR a, GM_ADDR out, uint32_t n, uint32_t op, float s) {
  TPipe pipe;
  TBuf<QuePosition::VECCALC> buf;
  pipe.InitBuffer(buf, 2 * kMax * sizeof(float));
  LocalTensor<float> in = buf.Get<float>(2 * kMax);
  LocalTensor<float> res = in[kMax];
  GlobalTensor<float> ga, go;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a), n);
  go.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), n);
  DataCopy(in, ga, n);
  switch (op) {
    case 0:
      Exp(res, in, n);
      break;
    case 1:
      Ln(res, in, n);
      break;
    case 2:
      Abs(res, in, n);
      break;
    case 3:
      Relu(res, in, n);
      break;
    case 4:
      Sqrt(res, in, n);
      break;
    case 5:
      Adds(res, in, s, n);
      break;
    case 6:
      Muls(res, in, s, n);
      break;
    default:
      Duplicate(res, s, n);
      break;
  }
  DataCopy(go, res, n);
}

// Half and bfloat16 arithmetic: zh = xh + yh (half); zb = xb * yb (bfloat16, as raw bits).
extern "C" __global__ __aicore__ void k_narrow(GM_ADDR xh, GM_ADDR yh, GM_ADDR zh, GM_ADDR xb, GM_ADDR yb,
                                               GM_ADDR zb, uint32_t n) {
  TPipe pipe;
  TBuf<> buf;
  pipe.InitBuffer(buf, 6 * kMax * 2);
  LocalTensor<half> h = buf.Get<half>();
  LocalTensor<bfloat16_t> b = buf.Get<bfloat16_t>()[3 * kMax];
  GlobalTensor<half> gxh, gyh, gzh;
  GlobalTensor<bfloat16_t> gxb, gyb, gzb;
  gxh.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(xh));
  gyh.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(yh));
  gzh.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(zh));
  gxb.SetGlobalBuffer(reinterpret_cast<__gm__ bfloat16_t*>(xb));
  gyb.SetGlobalBuffer(reinterpret_cast<__gm__ bfloat16_t*>(yb));
  gzb.SetGlobalBuffer(reinterpret_cast<__gm__ bfloat16_t*>(zb));
  DataCopy(h, gxh, n);
  DataCopy(h[kMax], gyh, n);
  Add(h[2 * kMax], h, h[kMax], n);
  DataCopy(gzh, h[2 * kMax], n);
  DataCopy(b, gxb, n);
  DataCopy(b[kMax], gyb, n);
  Mul(b[2 * kMax], b, b[kMax], n);
  DataCopy(gzb, b[2 * kMax], n);
}

// Cast float -> int32 with RoundMode `mode`, float -> half (CAST_NONE) and half -> float.
extern "C" __global__ __aicore__ void k_cast(GM_ADDR in, GM_ADDR outInt, GM_ADDR outHalf, GM_ADDR backFloat,
                                             uint32_t n, uint32_t mode) {
  TPipe pipe;
  TBuf<> bf, bi, bh;
  pipe.InitBuffer(bf, kMax * 4);
  pipe.InitBuffer(bi, kMax * 4);
  pipe.InitBuffer(bh, kMax * 2);
  LocalTensor<float> f = bf.Get<float>();
  LocalTensor<int32_t> i = bi.Get<int32_t>();
  LocalTensor<half> h = bh.Get<half>();
  GlobalTensor<float> gin, gback;
  GlobalTensor<int32_t> gi;
  GlobalTensor<half> gh;
  gin.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
  gi.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(outInt));
  gh.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(outHalf));
  gback.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(backFloat));
  DataCopy(f, gin, n);
  Cast(i, f, static_cast<RoundMode>(mode), n);
  Cast(h, f, RoundMode::CAST_NONE, n);
  DataCopy(gi, i, n);
  DataCopy(gh, h, n);
  Cast(f, h, RoundMode::CAST_NONE, n);
  DataCopy(gback, f, n);
}

// out[0] = sum, out[1] = max, out[2] = bits of the max's index (ReduceMax with calIndex).
extern "C" __global__ __aicore__ void k_reduce(GM_ADDR in, GM_ADDR out, uint32_t n) {
  TPipe pipe;
  TBuf<> src, dst, work;
  pipe.InitBuffer(src, kMax * 4);
  pipe.InitBuffer(dst, 64);
  pipe.InitBuffer(work, kMax * 4);
  GlobalTensor<float> gin, gout;
  gin.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
  gout.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
  LocalTensor<float> s = src.Get<float>(), d = dst.Get<float>(), w = work.Get<float>();
  DataCopy(s, gin, n);
  ReduceSum(d, s, w, n);
  gout.SetValue(0, d.GetValue(0));
  ReduceMax(d, s, w, n, true);
  gout.SetValue(1, d.GetValue(0));
  gout.SetValue(2, d.GetValue(1));
}

// Strided copies: gathers `count` 32-byte blocks spaced one block apart, writes them back spaced
// two blocks apart.
extern "C" __global__ __aicore__ void k_strided(GM_ADDR in, GM_ADDR out, uint16_t count) {
  TPipe pipe;
  TBuf<> b;
  pipe.InitBuffer(b, kMax * 4);
  LocalTensor<float> l = b.Get<float>();
  GlobalTensor<float> gin, gout;
  gin.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
  gout.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
  DataCopyParams gather(count, 1, 1, 0);
  DataCopy(l, gin, gather);
  DataCopyParams scatter;
  scatter.blockCount = count;
  scatter.blockLen = 1;
  scatter.dstStride = 2;
  DataCopy(gout, l, scatter);
}

// Each block writes its index and the block count through a __gm__ pointer and prints a line.
extern "C" __global__ __aicore__ void k_ids(__gm__ int64_t* out) {
  out[2 * block_idx] = GetBlockIdx();
  out[2 * block_idx + 1] = GetBlockNum();
  AscendC::printf("block %d of %d\n", static_cast<int>(GetBlockIdx()), static_cast<int>(block_num));
}

// SetAtomicAdd / SetAtomicNone (docs/kernels.md, "The Ascend C subset"): every block copies the
// same n elements of x into y, through the unified buffer, with the copy `how` names (0 DataCopy
// by count, 1 DataCopy with DataCopyParams, 2 DataCopyPad) and the atomic mode `mode` sets:
// 0 none, 1 SetAtomicAdd for the data type, 2 the same in block 0 only (left set), 3 set then
// SetAtomicNone, 4 SetAtomicAdd<half> while the copy writes float.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

template <class T>
__aicore__ inline void copyOut(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t how, uint32_t mode) {
  TPipe pipe;
  TBuf<QuePosition::VECCALC> buf;
  pipe.InitBuffer(buf, n * sizeof(T));
  LocalTensor<T> ub = buf.Get<T>();
  GlobalTensor<T> gx, gy;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x));
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y));
  DataCopy(ub, gx, n);
  if (mode == 1 || mode == 3 || (mode == 2 && GetBlockIdx() == 0)) SetAtomicAdd<T>();
  if (mode == 3) SetAtomicNone();
  if (mode == 4) SetAtomicAdd<half>();
  const uint16_t blocks = static_cast<uint16_t>(n * sizeof(T) / 32);
  if (how == 0) DataCopy(gy, ub, n);
  if (how == 1) DataCopy(gy, ub, DataCopyParams(1, blocks, 0, 0));
  if (how == 2) DataCopyPad(gy, ub, DataCopyExtParams(1, n * sizeof(T), 0, 0, 0));
}

}  // namespace

extern "C" __global__ __aicore__ __vector__ void k_atomic_float(GM_ADDR x, GM_ADDR y, uint32_t n,
                                                                uint32_t how, uint32_t mode) {
  copyOut<float>(x, y, n, how, mode);
}
extern "C" __global__ __aicore__ __vector__ void k_atomic_half(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t how,
                                                               uint32_t mode) {
  copyOut<half>(x, y, n, how, mode);
}

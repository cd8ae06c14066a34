// DataCopyPad (copies of any length, hicann/cann-samples' vector examples): rows of `len` floats,
// `srcGap` floats apart in x, come into the unified buffer padded with -1 (`left` and `right`
// elements and up to the row's 32-byte block), then go out whole, back to back, to z, `passes`
// times over. Each block takes its own `rows` rows.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ __vector__ void k_copy_pad(GM_ADDR x, GM_ADDR z, uint32_t rows, uint32_t len,
                                                            uint32_t srcGap, uint32_t left, uint32_t right,
                                                            uint32_t passes) {
  TPipe pipe;
  TBuf<QuePosition::VECCALC> buf;
  pipe.InitBuffer(buf, 160 * 1024);
  LocalTensor<float> ub = buf.Get<float>();
  const uint32_t width = left + len + right;
  GlobalTensor<float> gx, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + uint64_t{rows} * (len + srcGap) * GetBlockIdx());
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + uint64_t{rows} * width * GetBlockIdx());
  DataCopyExtParams in(static_cast<uint16_t>(rows), len * 4, srcGap * 4, 0, 0);
  DataCopyPadExtParams<float> pad(true, static_cast<uint8_t>(left), static_cast<uint8_t>(right), -1.0f);
  DataCopyExtParams out(static_cast<uint16_t>(rows), width * 4, 0, 0, 0);
  for (uint32_t i = 0; i < passes; ++i) {
    DataCopyPad(ub, gx, in, pad);
    DataCopyPad(gz, ub, out);
  }
}

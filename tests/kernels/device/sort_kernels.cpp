// Region-proposal sorting (docs/kernels.md, "Sorting region proposals"): each kernel stages its
// data in the unified buffer, runs one of the calls and copies the result out, for
// proposal_sort_test.cpp to check against std::stable_sort references.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
// Proposals from scores (position 4) and labels (position 5; the element's index), sorted in
// groups of 16.
template <class T>
__aicore__ inline void SortGroups(GM_ADDR scores, GM_ADDR labels, GM_ADDR out, uint32_t repeats) {
  const uint32_t n = repeats * 16;
  TPipe pipe;
  TBuf<QuePosition::VECCALC> bs, bl, bp, bo;
  pipe.InitBuffer(bs, n * sizeof(T));
  pipe.InitBuffer(bl, n * sizeof(T));
  pipe.InitBuffer(bp, n * 8 * sizeof(T));
  pipe.InitBuffer(bo, n * 8 * sizeof(T));
  GlobalTensor<T> gs, gl, go;
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(scores));
  gl.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(labels));
  go.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
  LocalTensor<T> s = bs.Get<T>(), l = bl.Get<T>(), p = bp.Get<T>(), o = bo.Get<T>();
  DataCopy(s, gs, n);
  DataCopy(l, gl, n);
  Duplicate(p, 0, static_cast<int32_t>(n * 8));
  Concat(p, s, static_cast<int32_t>(repeats), 4);
  ProposalConcat(p, l, static_cast<int32_t>(repeats), 5);
  RpSort16(o, p, static_cast<int32_t>(repeats));
  DataCopy(go, o, n * 8);
}
}  // namespace

extern "C" __global__ __aicore__ void k_rpsort16_float(GM_ADDR scores, GM_ADDR labels, GM_ADDR out,
                                                       uint32_t repeats) {
  SortGroups<float>(scores, labels, out, repeats);
}
extern "C" __global__ __aicore__ void k_rpsort16_half(GM_ADDR scores, GM_ADDR labels, GM_ADDR out,
                                                      uint32_t repeats) {
  SortGroups<half>(scores, labels, out, repeats);
}

// Merges the float proposal lists stored one after another at `lists` (lengths len0..len3) into
// `out`, which holds `outCount` proposals and starts as -7 everywhere.
extern "C" __global__ __aicore__ void k_mrgsort4(GM_ADDR lists, GM_ADDR out, uint32_t len0, uint32_t len1,
                                                 uint32_t len2, uint32_t len3, uint32_t validBit,
                                                 uint32_t repeats, uint32_t exhausted, uint32_t outCount) {
  const uint32_t inCount = outCount;
  TPipe pipe;
  TBuf<QuePosition::VECCALC> bi, bo;
  pipe.InitBuffer(bi, inCount * 8 * sizeof(float));
  pipe.InitBuffer(bo, outCount * 8 * sizeof(float));
  GlobalTensor<float> gi, go;
  gi.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(lists));
  go.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
  LocalTensor<float> in = bi.Get<float>(), o = bo.Get<float>();
  DataCopy(in, gi, inCount * 8);
  Duplicate(o, -7.0f, static_cast<int32_t>(outCount * 8));
  const uint16_t lengths[4] = {static_cast<uint16_t>(len0), static_cast<uint16_t>(len1),
                               static_cast<uint16_t>(len2), static_cast<uint16_t>(len3)};
  MrgSort4Info info(lengths, exhausted != 0, static_cast<uint16_t>(validBit), static_cast<uint16_t>(repeats));
  MrgSortSrcList<float> src(in, in[len0 * 8], in[(len0 + len1) * 8], in[(len0 + len1 + len2) * 8]);
  MrgSort4(o, src, info);
  DataCopy(go, o, outCount * 8);
}

// out[i] = element `mode` of proposal i, extracted in place over the proposals as TopK does.
extern "C" __global__ __aicore__ void k_extract(GM_ADDR proposals, GM_ADDR out, uint32_t repeats,
                                                uint32_t mode) {
  const uint32_t n = repeats * 16;
  TPipe pipe;
  TBuf<QuePosition::VECCALC> bp;
  pipe.InitBuffer(bp, n * 8 * sizeof(float));
  GlobalTensor<float> gp, go;
  gp.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(proposals));
  go.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
  LocalTensor<float> p = bp.Get<float>();
  DataCopy(p, gp, n * 8);
  Extract(p, p, static_cast<int32_t>(repeats), static_cast<int32_t>(mode));
  DataCopy(go, p, n);
}

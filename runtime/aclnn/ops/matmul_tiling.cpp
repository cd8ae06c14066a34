#include "runtime/aclnn/ops/matmul_tiling.h"

#include <algorithm>

namespace npusim::aclnn {

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t roundUp16(int64_t v) { return std::max<int64_t>(16, ceilDiv(v, 16) * 16); }

}  // namespace

MatmulTiling planMatmul(int64_t batch, int64_t M, int64_t N, int64_t K, int64_t inElemSize) {
  MatmulTiling t;
  if (batch <= 0 || M <= 0 || N <= 0) return t;
  t.baseM = std::min<int64_t>(128, roundUp16(M));
  t.baseN = std::min<int64_t>(256, roundUp16(N));
  // Shrink the block (never below the 16 x 16 cube fractal) while cores would stay idle.
  auto blocks = [&](int64_t bm, int64_t bn) { return batch * ceilDiv(M, bm) * ceilDiv(N, bn); };
  while (blocks(t.baseM, t.baseN) < kCubeCores && (t.baseM > 16 || t.baseN > 16)) {
    if (t.baseN >= t.baseM && t.baseN > 16)
      t.baseN = roundUp16(t.baseN / 2);
    else
      t.baseM = roundUp16(t.baseM / 2);
  }
  // Double-buffered L0B holds 2 x baseK x baseN inputs in 64 KiB (16-aligned K steps).
  t.baseK = std::max<int64_t>(16, (32 * 1024 / (t.baseN * inElemSize)) / 16 * 16);
  t.baseK = std::min(t.baseK, roundUp16(std::max<int64_t>(K, 1)));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t m0 = 0; m0 < M; m0 += t.baseM) {
      for (int64_t n0 = 0; n0 < N; n0 += t.baseN) {
        t.blocks.push_back({b, m0, std::min(M, m0 + t.baseM), n0, std::min(N, n0 + t.baseN)});
      }
    }
  }
  return t;
}

rt::OpWork matmulWork(const MatmulTiling& t, const MatmulGeometry& g, const MatmulAddressing& a) {
  rt::OpWork w;
  w.cube = true;
  w.cubeMacsPerCycleScale = 1;
  w.tiles.reserve(t.blocks.size());
  for (const MatmulBlock& b : t.blocks) {
    const int64_t bm = b.m1 - b.m0, bn = b.n1 - b.n0;
    const size_t bi = static_cast<size_t>(b.batch);
    rt::TileWork tw;
    tw.cubeMacs =
        static_cast<uint64_t>(bm) * static_cast<uint64_t>(bn) * static_cast<uint64_t>(g.K) * a.macFactor;
    tw.readAddr = a.aBase + static_cast<uint64_t>((g.aOff[bi] + b.m0 * g.aSm) * a.aEs);
    tw.readBytes = static_cast<uint64_t>(bm * g.K * a.aEs + g.K * bn * a.bEs);
    tw.writeAddr = a.cBase + static_cast<uint64_t>((g.cOff[bi] + b.m0 * g.cSm + b.n0 * g.cSn) * a.cEs);
    tw.writeBytes = static_cast<uint64_t>(bm * bn * a.cEs);
    w.tiles.push_back(tw);
  }
  return w;
}

}  // namespace npusim::aclnn

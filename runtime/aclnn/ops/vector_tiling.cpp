#include "runtime/aclnn/ops/vector_tiling.h"

#include <algorithm>

namespace npusim::aclnn {

uint64_t shareOf(uint64_t total, uint64_t i, uint64_t n) {
  // floor((i+1)*total/n) - floor(i*total/n), computed without overflow for large totals.
  auto part = [total, n](uint64_t k) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(total) * k) / n);
  };
  return part(i + 1) - part(i);
}

rt::OpWork vectorTiles(const VectorPass& pass) {
  rt::OpWork work;
  work.cube = false;
  if (pass.elements <= 0) return work;
  uint64_t maxEs = pass.output->elementSize();
  for (const TensorDesc& in : *pass.inputs) maxEs = std::max<uint64_t>(maxEs, in.elementSize());
  const uint64_t perTile = std::max<uint64_t>(1, kUbTileBytes / maxEs);
  const uint64_t elems = static_cast<uint64_t>(pass.elements);
  const uint64_t tiles = (elems + perTile - 1) / perTile;

  // A tile reads its share of every input. The reads are timed as one access; its address walks
  // the inputs laid end to end (in order, by bytes), so that over the tiles every input's memory,
  // and each pseudo-channel evenly, is touched as often as its bytes say.
  struct Span {
    uint64_t base, bytes;
  };
  std::vector<Span> spans;
  uint64_t inBytes = pass.extraReadBytes, inBytesPerElem = 0;
  for (const TensorDesc& in : *pass.inputs) {
    const uint64_t bytes = static_cast<uint64_t>(in.numel()) * in.elementSize();
    spans.push_back({in.data + static_cast<uint64_t>(in.offset) * in.elementSize(), bytes});
    inBytes += bytes;
    inBytesPerElem += in.elementSize();
  }
  const uint64_t outBytes =
      static_cast<uint64_t>(pass.output->numel()) * pass.output->elementSize() + pass.extraWriteBytes;
  const uint64_t outBase =
      pass.output->data + static_cast<uint64_t>(pass.output->offset) * pass.output->elementSize();
  // Address of byte `r` of the inputs laid end to end (bytes past the last continue after it).
  auto readAddress = [&spans](uint64_t r) {
    for (const Span& sp : spans) {
      if (r < sp.bytes) return sp.base + r;
      r -= sp.bytes;
    }
    return spans.empty() ? 0 : spans.back().base + spans.back().bytes + r;
  };

  work.tiles.reserve(tiles);
  uint64_t writeDone = 0, readDone = 0;
  for (uint64_t t = 0; t < tiles; ++t) {
    const uint64_t count = std::min(perTile, elems - t * perTile);
    rt::TileWork w;
    w.readBytes = shareOf(inBytes, t, tiles);
    w.readAddr = readAddress(readDone);
    w.writeAddr = outBase + writeDone;
    w.writeBytes = shareOf(outBytes, t, tiles);
    // The vector unit streams every input element of the tile and produces the tile's output.
    w.vectorBytes = (count * inBytesPerElem + w.writeBytes) * static_cast<uint64_t>(1 + pass.castPasses);
    readDone += w.readBytes;
    writeDone += w.writeBytes;
    work.tiles.push_back(w);
  }
  return work;
}

}  // namespace npusim::aclnn

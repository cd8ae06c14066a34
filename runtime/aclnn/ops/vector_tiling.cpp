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

  // The largest input gives the read address (HBM channel mapping); all inputs count as bytes.
  const TensorDesc* lead = nullptr;
  for (const TensorDesc& in : *pass.inputs) {
    if (lead == nullptr || in.numel() > lead->numel()) lead = &in;
  }
  uint64_t inBytes = 0, inBytesPerElem = 0;
  for (const TensorDesc& in : *pass.inputs) {
    inBytes += static_cast<uint64_t>(in.numel()) * in.elementSize();
    inBytesPerElem += in.elementSize();
  }
  const uint64_t outBytes =
      static_cast<uint64_t>(pass.output->numel()) * pass.output->elementSize() + pass.extraWriteBytes;
  const uint64_t leadBytes = lead ? static_cast<uint64_t>(lead->numel()) * lead->elementSize() : 0;
  const uint64_t leadBase = lead ? lead->data + static_cast<uint64_t>(lead->offset) * lead->elementSize() : 0;
  const uint64_t outBase =
      pass.output->data + static_cast<uint64_t>(pass.output->offset) * pass.output->elementSize();

  work.tiles.reserve(tiles);
  uint64_t writeDone = 0, leadDone = 0;
  for (uint64_t t = 0; t < tiles; ++t) {
    const uint64_t count = std::min(perTile, elems - t * perTile);
    rt::TileWork w;
    w.readAddr = leadBase + leadDone;
    w.readBytes = shareOf(inBytes, t, tiles);
    w.writeAddr = outBase + writeDone;
    w.writeBytes = shareOf(outBytes, t, tiles);
    // The vector unit streams every input element of the tile and produces the tile's output.
    w.vectorBytes = (count * inBytesPerElem + w.writeBytes) * static_cast<uint64_t>(1 + pass.castPasses);
    leadDone += shareOf(leadBytes, t, tiles);
    writeDone += w.writeBytes;
    work.tiles.push_back(w);
  }
  return work;
}

}  // namespace npusim::aclnn

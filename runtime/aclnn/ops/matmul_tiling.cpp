#include "runtime/aclnn/ops/matmul_tiling.h"

#include <algorithm>
#include <list>
#include <map>
#include <tuple>

#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t roundUp16(int64_t v) { return std::max<int64_t>(16, ceilDiv(v, 16) * 16); }

// What the L2 holds, at the granularity of the operator's panels and output blocks, least
// recently used last. Output blocks take room too: the L2 is write-back and allocates on write.
class PanelL2 {
 public:
  // kind 0: A row panel (batch offset, m0), 1: B column panel (batch offset, n0), 2: C block.
  using Key = std::tuple<int, int64_t, int64_t, int64_t>;

  explicit PanelL2(uint64_t capacity) : capacity_(capacity) {}

  bool touch(const Key& k) {
    auto it = where_.find(k);
    if (it == where_.end()) return false;
    order_.splice(order_.begin(), order_, it->second);
    return true;
  }

  void insert(const Key& k, uint64_t bytes) {
    if (bytes > capacity_ || touch(k)) return;  // a panel larger than L2 streams through it
    while (used_ + bytes > capacity_ && !order_.empty()) {
      used_ -= order_.back().second;
      where_.erase(order_.back().first);
      order_.pop_back();
    }
    order_.emplace_front(k, bytes);
    where_[k] = order_.begin();
    used_ += bytes;
  }

 private:
  uint64_t capacity_;
  uint64_t used_ = 0;
  std::list<std::pair<Key, uint64_t>> order_;
  std::map<Key, std::list<std::pair<Key, uint64_t>>::iterator> where_;
};

}  // namespace

MatmulTiling planMatmul(int64_t batch, int64_t M, int64_t N, int64_t K, int64_t inElemSize, int cores) {
  MatmulTiling t;
  t.cores = std::max(1, cores);
  if (batch <= 0 || M <= 0 || N <= 0) return t;
  t.baseM = std::min<int64_t>(128, roundUp16(M));
  t.baseN = std::min<int64_t>(256, roundUp16(N));
  auto rowsOfBlocks = [&] { return batch * ceilDiv(M, t.baseM); };
  auto blocks = [&] { return rowsOfBlocks() * ceilDiv(N, t.baseN); };
  // Columns split evenly so that `perRow` blocks per row of blocks cover N.
  auto evenN = [&](int64_t perRow) { return roundUp16(ceilDiv(N, std::max<int64_t>(perRow, 1))); };
  // Shrink the block (never below the 16 x 16 cube fractal) while cores would stay idle, the
  // columns split evenly over the cores (as CANN's multi-core split does) rather than halved.
  while (blocks() < t.cores && (t.baseM > 16 || t.baseN > 16)) {
    if (t.baseN >= t.baseM && t.baseN > 16) {
      const int64_t even = evenN(ceilDiv(t.cores, rowsOfBlocks()));
      t.baseN = even < t.baseN ? even : roundUp16(t.baseN / 2);
    } else {
      t.baseM = roundUp16(t.baseM / 2);
    }
  }
  // A last wave that leaves cores idle costs as much as a full one: narrower (then shorter)
  // blocks that fill the same number of waves finish each wave sooner (1 x 4096 x 4096 on 24
  // cores: 24 blocks of 176 columns in one wave rather than 32 of 128 in two).
  const int64_t waves = ceilDiv(blocks(), t.cores);
  t.baseN = std::min(t.baseN, evenN(waves * t.cores / rowsOfBlocks()));
  const int64_t rowsPerBatch = waves * t.cores / (batch * ceilDiv(N, t.baseN));
  t.baseM = std::min(t.baseM, roundUp16(ceilDiv(M, std::max<int64_t>(rowsPerBatch, 1))));
  // Double-buffered L0B holds 2 x baseK x baseN inputs in 64 KiB (16-aligned K steps).
  t.baseK = std::max<int64_t>(16, (32 * 1024 / (t.baseN * inElemSize)) / 16 * 16);
  t.baseK = std::min(t.baseK, roundUp16(std::max<int64_t>(K, 1)));
  // Column groups whose B panels fill at most half of the L2: a row sweep over a group then
  // finds every B panel still in L2 from the previous row.
  const int64_t nBlocks = ceilDiv(N, t.baseN);
  const uint64_t bPanel = static_cast<uint64_t>(std::max<int64_t>(K, 1) * t.baseN * inElemSize);
  const int64_t group =
      std::clamp<int64_t>(static_cast<int64_t>(kL2Bytes / 2 / std::max<uint64_t>(bPanel, 1)), 1, nBlocks);
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t g0 = 0; g0 < nBlocks; g0 += group) {
      const int64_t g1 = std::min(nBlocks, g0 + group);
      for (int64_t m0 = 0; m0 < M; m0 += t.baseM) {
        for (int64_t nb = g0; nb < g1; ++nb) {
          const int64_t n0 = nb * t.baseN;
          t.blocks.push_back({b, m0, std::min(M, m0 + t.baseM), n0, std::min(N, n0 + t.baseN)});
        }
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
  const uint64_t K = static_cast<uint64_t>(std::max<int64_t>(g.K, 0));
  for (const MatmulBlock& b : t.blocks) {
    const uint64_t bm = static_cast<uint64_t>(b.m1 - b.m0), bn = static_cast<uint64_t>(b.n1 - b.n0);
    const size_t bi = static_cast<size_t>(b.batch);
    rt::TileWork tw;
    tw.cubeMacs = bm * bn * K * a.macFactor;
    tw.readAddr = a.aBase + static_cast<uint64_t>((g.aOff[bi] + b.m0 * g.aSm) * a.aEs);
    tw.writeAddr = a.cBase + static_cast<uint64_t>((g.cOff[bi] + b.m0 * g.cSm + b.n0 * g.cSn) * a.cEs);
    tw.writeBytes = bm * bn * static_cast<uint64_t>(a.cEs);
    w.tiles.push_back(tw);
  }

  // HBM traffic: replay the L2 wave by wave (blocks i, i + t.cores, ... run on one core).
  struct Fetch {
    uint64_t bytes, addr;
    uint64_t sharers = 0;
  };
  PanelL2 l2(kL2Bytes);
  const size_t n = t.blocks.size();
  const size_t cores = static_cast<size_t>(t.cores);
  for (size_t w0 = 0; w0 < n; w0 += cores) {
    const size_t w1 = std::min(n, w0 + cores);
    std::map<PanelL2::Key, Fetch> fetched;                // panels this wave brings from HBM
    std::vector<std::pair<PanelL2::Key, uint64_t>> uses;  // (panel, sharer index) per tile and operand
    auto use = [&](const PanelL2::Key& k, uint64_t bytes, uint64_t addr) {
      auto it = fetched.find(k);
      if (it == fetched.end()) {
        if (l2.touch(k)) {
          uses.emplace_back(k, ~0ull);  // hit
          return;
        }
        it = fetched.emplace(k, Fetch{bytes, addr}).first;
        l2.insert(k, bytes);
      }
      uses.emplace_back(k, it->second.sharers++);
    };
    for (size_t i = w0; i < w1; ++i) {
      const MatmulBlock& b = t.blocks[i];
      const size_t bi = static_cast<size_t>(b.batch);
      const uint64_t bm = static_cast<uint64_t>(b.m1 - b.m0), bn = static_cast<uint64_t>(b.n1 - b.n0);
      use({0, g.aOff[bi], b.m0, 0}, bm * K * static_cast<uint64_t>(a.aEs), w.tiles[i].readAddr);
      use({1, g.bOff[bi], b.n0, 0}, K * bn * static_cast<uint64_t>(a.bEs),
          a.bBase + static_cast<uint64_t>((g.bOff[bi] + b.n0 * g.bSn) * a.bEs));
    }
    for (size_t i = w0; i < w1; ++i) {
      rt::TileWork& tw = w.tiles[i];
      uint64_t largest = 0;
      for (size_t op = 0; op < 2; ++op) {
        const auto& [key, sharer] = uses[2 * (i - w0) + op];
        if (sharer == ~0ull) continue;
        const Fetch& f = fetched.at(key);
        const uint64_t part = shareOf(f.bytes, sharer, f.sharers);
        tw.readBytes += part;
        if (part > largest) largest = part, tw.readAddr = f.addr;
      }
    }
    for (size_t i = w0; i < w1; ++i) {
      const MatmulBlock& b = t.blocks[i];
      l2.insert({2, g.cOff[static_cast<size_t>(b.batch)], b.m0, b.n0}, w.tiles[i].writeBytes);
    }
  }
  return w;
}

}  // namespace npusim::aclnn

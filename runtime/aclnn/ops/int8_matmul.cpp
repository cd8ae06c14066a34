#include "runtime/aclnn/ops/int8_matmul.h"

#include <algorithm>

#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/matmul_tiling.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

std::vector<int64_t> int8Products(const MatmulGeometry& g, const HostTensor& a, const HostTensor& b) {
  std::vector<int64_t> acc(static_cast<size_t>(g.batch * g.M * g.N), 0);
  std::vector<int64_t> row64(static_cast<size_t>(std::max(g.K, g.N)));
  // int16 operands and a wrapping 32-bit accumulator, as the cube's int32 L0C: the compiler
  // vectorises the inner loop, which large examples (10^11 MACs) need.
  std::vector<int16_t> pa(static_cast<size_t>(g.M * g.K)), pb(static_cast<size_t>(g.K * g.N));
  std::vector<uint32_t> sum(static_cast<size_t>(g.N));
  auto narrow = [&](int64_t n, int16_t* dst) {
    for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<int16_t>(row64[static_cast<size_t>(i)]);
  };
  for (int64_t i = 0; i < g.batch; ++i) {
    const auto bi = static_cast<size_t>(i);
    for (int64_t m = 0; m < g.M; ++m) {
      loadRow(ACL_INT8, a.data + g.aOff[bi] + m * g.aSm, g.aSk, g.K, row64.data());
      narrow(g.K, &pa[static_cast<size_t>(m * g.K)]);
    }
    for (int64_t k = 0; k < g.K; ++k) {
      loadRow(ACL_INT8, b.data + g.bOff[bi] + k * g.bSk, g.bSn, g.N, row64.data());
      narrow(g.N, &pb[static_cast<size_t>(k * g.N)]);
    }
    int64_t* c = &acc[static_cast<size_t>(i * g.M * g.N)];
    for (int64_t m = 0; m < g.M; ++m) {
      std::fill(sum.begin(), sum.end(), 0u);
      for (int64_t k = 0; k < g.K; ++k) {
        const int32_t x = pa[static_cast<size_t>(m * g.K + k)];
        if (x == 0) continue;
        const int16_t* row = &pb[static_cast<size_t>(k * g.N)];
        uint32_t* s = sum.data();
        for (int64_t n = 0; n < g.N; ++n) s[n] += static_cast<uint32_t>(x * row[n]);
      }
      for (int64_t n = 0; n < g.N; ++n) c[m * g.N + n] = static_cast<int32_t>(sum[static_cast<size_t>(n)]);
    }
  }
  return acc;
}

rt::OpWork int8MatmulWork(const MatmulGeometry& g, const TensorDesc& a, const TensorDesc& b,
                          const TensorDesc& out, uint64_t paramBytes) {
  const MatmulTiling t = planMatmul(g.batch, g.M, g.N, g.K, 1, rt::coreRates().cubeCores);
  auto base = [](const TensorDesc& d) { return d.data + static_cast<uint64_t>(d.offset) * d.elementSize(); };
  rt::OpWork w = matmulWork(
      t, g, MatmulAddressing{base(a), base(b), base(out), 1, 1, static_cast<int64_t>(out.elementSize()), 1});
  for (size_t i = 0; i < w.tiles.size(); ++i) {
    w.tiles[i].cubeMacs = (w.tiles[i].cubeMacs + 1) / 2;  // int8 at twice the fp16 MAC rate
    w.tiles[i].readBytes += shareOf(paramBytes, i, w.tiles.size());
  }
  return w;
}

std::vector<int64_t> unpackInt4(const char* data, int64_t count) {
  std::vector<int64_t> v(static_cast<size_t>(count));
  const auto* bytes = reinterpret_cast<const unsigned char*>(data);
  for (size_t i = 0; i < v.size(); ++i) {
    const int nibble = (bytes[i / 2] >> (4 * (i % 2))) & 0xF;
    v[i] = nibble >= 8 ? nibble - 16 : nibble;
  }
  return v;
}

MatmulGeometry Int8Operands::geometry(const TensorDesc& x1, const std::vector<int64_t>& outStrides) const {
  MatmulGeometry g;
  matmulGeometry(x1.shape, x1.strides, x2View.shape, x2View.strides, outStrides, &g);
  return g;
}

std::vector<int64_t> Int8Operands::products(const MatmulGeometry& g,
                                            const std::vector<HostTensor>& in) const {
  std::vector<char> dense;
  return int8Products(g, in[0], denseWeightView(in[1], x2View, x2Nz, nz, &dense));
}

uint64_t paramBytes(const std::vector<TensorDesc>& inputs, size_t first) {
  uint64_t bytes = 0;
  for (size_t i = first; i < inputs.size(); ++i)
    bytes += static_cast<uint64_t>(inputs[i].numel()) * inputs[i].elementSize();
  return bytes;
}

TensorDesc swapLastTwo(const TensorDesc& d) {
  TensorDesc v = d;
  const size_t r = v.rank();
  std::swap(v.shape[r - 1], v.shape[r - 2]);
  std::swap(v.strides[r - 1], v.strides[r - 2]);
  return v;
}

rt::OpWork weightOnlyQuantWork(const TensorDesc& x, const TensorDesc& w, const TensorDesc& out,
                               uint64_t paramBytes) {
  MatmulGeometry g;
  matmulGeometry(x.shape, x.strides, w.shape, w.strides, out.strides, &g);
  const MatmulTiling t = planMatmul(1, g.M, g.N, g.K, 2, rt::coreRates().cubeCores);
  auto base = [](const TensorDesc& d) { return d.data + static_cast<uint64_t>(d.offset) * d.elementSize(); };
  rt::OpWork work =
      matmulWork(t, g,
                 MatmulAddressing{base(x), base(w), base(out), 2, static_cast<int64_t>(w.elementSize()),
                                  static_cast<int64_t>(out.elementSize()), 1});
  const uint64_t dequantised =
      static_cast<uint64_t>(g.K * g.N) * 2;  // fp16/bf16 weight out of the vector unit
  const uint64_t tiles = work.tiles.size();
  for (uint64_t i = 0; i < tiles; ++i) {
    work.tiles[i].readBytes += shareOf(paramBytes, i, tiles);
    work.tiles[i].vectorBytes += shareOf(dequantised, i, tiles);
  }
  return work;
}

TensorDesc packedInt4View(const TensorDesc& packed, int64_t k, int64_t n) {
  TensorDesc w = packed;
  w.dtype = ACL_INT8;
  w.shape = {k, n};
  w.strides = {n, 1};
  return w;
}

}  // namespace npusim::aclnn

#pragma once
// The int8 x int8 cube product shared by the quantised matmuls (QuantMatmul, FusedQuantMatmul):
// int32 accumulation on the host (wrapping as the cube's L0C would), and the cube work with 1-byte operands
// at the int8 MAC rate (configs/910b.json aicore.cube_macs_per_cycle: int8 runs 16x32x16, twice fp16;
// hardware.md §1.2).
#include <cstdint>
#include <vector>

#include "runtime/aclnn/base/op_instance.h"
#include "runtime/aclnn/ops/matmul_geometry.h"
#include "runtime/aclnn/ops/weight_nz.h"

namespace npusim::aclnn {

// acc[(b * M + m) * N + n] = sum over k of a[b, m, k] * b[b, k, n] for the geometry's int8 views.
std::vector<int64_t> int8Products(const MatmulGeometry& g, const HostTensor& a, const HostTensor& b);

// Cube tiles of the product a @ b written to `out` (its element size as stored), with
// `paramBytes` (scales, bias) read once, shared over the tiles.
rt::OpWork int8MatmulWork(const MatmulGeometry& g, const TensorDesc& a, const TensorDesc& b,
                          const TensorDesc& out, uint64_t paramBytes);

// int4 values packed two to a byte, low nibble first (eight to an int32, value i in bits
// 4i..4i+3, as quant_format.h packs them), sign-extended.
std::vector<int64_t> unpackInt4(const char* data, int64_t count);

// A packed int4 weight of k x n values seen as a dense [k, n] int8 view (for the cube work).
TensorDesc packedInt4View(const TensorDesc& packed, int64_t k, int64_t n);

// The int8 operands of a quantised matmul instance: x1 its inputs[0] ([.., m, k] view), x2 its
// inputs[1] (the [.., k, n] view, or the NZ storage of that view when x2Nz).
struct Int8Operands {
  TensorDesc x2View;
  NzLayout nz;
  bool x2Nz = false;

  MatmulGeometry geometry(const TensorDesc& x1, const std::vector<int64_t>& outStrides) const;
  // The exact products of the geometry's batches (int8Products), the NZ weight unpacked first.
  std::vector<int64_t> products(const MatmulGeometry& g, const std::vector<HostTensor>& in) const;
};

// Bytes of inputs[first..] (the scales, offsets and bias a quantised matmul reads once).
uint64_t paramBytes(const std::vector<TensorDesc>& inputs, size_t first);

// `d` viewed with its last two dimensions swapped (a transposeX1 / transposeX2 operand).
TensorDesc swapLastTwo(const TensorDesc& d);

// The weight-only quantised product x @ dequant(w): fp16 cube tiles with the [k, n] weight view
// `w` read at its stored element size, the k x n dequantised fp16 weight passing the vector
// unit once, and `paramBytes` (scales, offsets, bias) read once.
rt::OpWork weightOnlyQuantWork(const TensorDesc& x, const TensorDesc& w, const TensorDesc& out,
                               uint64_t paramBytes);

}  // namespace npusim::aclnn

#pragma once
// The FRACTAL_NZ layout of a matmul weight (aclnnTransMatmulWeight, the *WeightNz matmuls).
// The weight's storage matrix [R, C] (its elements in memory order: [K, N], or [N, K] for a
// transposed [K, N] view) is cut into fractals of 16 rows by C0 columns, C0 being 32 bytes of
// elements (16 fp16/bf16, 32 int8, 8 fp32); the fractals are stored column block after column
// block, so element (r, c) sits at ((c / C0) * align(R, 16) + r) * C0 + c % C0, rows and
// columns padded with zeros to whole fractals, each batch matrix after the previous one.
// Sizes: ops-math conversion/trans_data/docs/aclnnCalculateMatmulWeightSizeV2.md.
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/aclnn/base/op_instance.h"
#include "runtime/aclnn/base/tensor.h"

namespace npusim::aclnn {

struct NzLayout {
  int64_t batch = 1, rows = 0, cols = 0;  // the storage matrix of each batch
  int64_t c0 = 16;                        // columns of a fractal
  bool transposed = false;                // the [K, N] view reads a [N, K] storage matrix

  int64_t alignedRows() const;
  int64_t alignedCols() const;
  int64_t matrixNumel() const { return alignedRows() * alignedCols(); }
  int64_t numel() const { return batch * matrixNumel(); }
  // Element offset of storage element (r, c) of batch matrix b.
  int64_t offset(int64_t b, int64_t r, int64_t c) const;
  // (batch dims..., C / C0, R / 16, 16, C0): the storage shape of the NZ tensor.
  std::vector<int64_t> storageShape(const std::vector<int64_t>& batchDims) const;
};

// Elements per fractal row for `dt`: 32 bytes. 0 for types without an NZ form here.
int64_t nzC0(aclDataType dt);

// The layout of a weight view of at least 2 dimensions whose elements are dense in memory
// either as the view orders them or with the last two dimensions swapped; otherwise an error
// text (empty on success).
std::string nzLayoutOf(const TensorDesc& view, NzLayout* layout);

// The layout of an NZ weight holding `batch` matrices of K x N, given either as a view of the
// logical shape ([batch,] K, N, as aclnnTransMatmulWeight leaves it) or as the fractal view
// ([batch,] N / C0, K / 16, 16, C0) the public MLA and grouped-matmul examples create; an
// error text otherwise (empty on success). Transposed storage is refused.
std::string nzLayoutOfMatrices(const TensorDesc& w, int64_t batch, int64_t K, int64_t N, NzLayout* layout);

// Converts `batch` dense storage matrices to NZ (pads with zeros) and back. `es` element size.
void denseToNz(const NzLayout& l, size_t es, const char* dense, char* nz);
void nzToDense(const NzLayout& l, size_t es, const char* nz, char* dense);

// The weight as its [.., k, n] `view` reads it over dense memory: `stored` is the operator's
// input (the NZ storage when `isNz`, unpacked into `dense`; else the view itself).
HostTensor denseWeightView(const HostTensor& stored, const TensorDesc& view, bool isNz, const NzLayout& l,
                           std::vector<char>* dense);

// A flat descriptor of the whole NZ storage of `view` (for the executors' memory checks and
// the bytes the operators move).
TensorDesc nzStorageDesc(const TensorDesc& view, const NzLayout& l);

}  // namespace npusim::aclnn

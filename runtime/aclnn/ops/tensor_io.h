#pragma once
// Whole-tensor conversions between strided host views and dense row-major buffers of the
// compute type (float for fp16/bf16/fp32, double for fp64, int64 for integers and bool). Used
// by the kernels that need random access along a dimension (norms, softmax, attention, data
// movement) rather than one streaming pass.
#include <cstdint>
#include <vector>

#include "runtime/aclnn/base/op_instance.h"

namespace npusim::aclnn {

// The view's elements in row-major order of its shape, converted to T.
template <typename T>
std::vector<T> loadDense(const HostTensor& t);

// Writes row-major values `v` (t.numel() of them) into the view, converting to its type.
template <typename T>
void storeDense(const HostTensor& t, const T* v);

// The view's elements broadcast to `shape` (row-major), as fp64: exact for every real type.
std::vector<double> loadWide(const HostTensor& t, const std::vector<int64_t>& shape);

// Rounds fp64 results (row-major, t.numel() of them) as the device computes for t's type (fp32
// for fp16/bf16/fp32, fp64 otherwise) and stores them into the view in its type.
void storeRounded(const HostTensor& t, std::vector<double>& v);

// Rounds row-major values to what `dt` holds (fp16/bf16 precision, integer width).
void quantizeDense(aclDataType dt, std::vector<float>& v);

// Product of shape[from, to).
int64_t dimProduct(const std::vector<int64_t>& shape, size_t from, size_t to);

// Normalises a possibly negative dimension index; -1 if out of range [-rank, rank).
int64_t wrapDim(int64_t dim, size_t rank);

}  // namespace npusim::aclnn

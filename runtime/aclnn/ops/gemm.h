#pragma once
// Host fp32 GEMM used by the functional matmul kernel: C = A * B with fp32 products and fp32
// accumulation (the cube's L0C accumulates in fp32). Cache-blocked, register-tiled with GCC
// vector extensions (portable SSE2-width code) and split over threads for large problems.
#include <cstdint>

namespace npusim::aclnn {

// A: M x K (row stride lda), B: K x N (row stride ldb), C: M x N (row stride ldc), all
// row-major fp32. C is overwritten. threads <= 0 picks a count from the problem size.
void gemmF32(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B, int64_t ldb,
             float* C, int64_t ldc, int threads = 0);

}  // namespace npusim::aclnn
